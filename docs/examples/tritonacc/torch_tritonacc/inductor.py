"""tritonacc's Inductor backend, loaded through the ``torch_inductor_backends``
entry point ``tritonacc`` (``pyproject.toml``) when a compile first needs the
device: Inductor's Triton scheduling and Python wrapper, and the source
snippets with which the wrapper guards the device and launches each Triton
kernel on its current stream.
"""

from __future__ import annotations

from torch._inductor.codegen.common import (
    DeviceOpOverrides,
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.triton import TritonScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen


class TritonaccOpOverrides(DeviceOpOverrides):
    """What generated code says for the device."""

    def import_get_raw_stream_as(self, name: str) -> str:
        return f"def {name}(index):\n    return torch.tritonacc.current_stream(index).stream_id\n"

    def set_device(self, device_idx: int) -> str:
        return f"torch.tritonacc.set_device({device_idx})"

    def synchronize(self) -> str:
        return "torch.tritonacc.synchronize()"

    def device_guard(self, device_idx: int) -> str:
        return f"torch.tritonacc.device({device_idx})"

    def current_stream(self) -> str:
        return "torch.tritonacc.current_stream()"


def load_backend() -> None:
    """Register everything a compile for tritonacc needs (Inductor calls it
    with no arguments, also in a compile subprocess, hence the eager import)."""
    import torch_tritonacc  # noqa: F401  (eager device: PrivateUse1 is "tritonacc")

    register_backend_for_device("tritonacc", TritonScheduling, PythonWrapperCodegen)
    register_device_op_overrides("tritonacc", TritonaccOpOverrides())

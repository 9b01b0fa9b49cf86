"""toyacc's Inductor backend, loaded by Inductor through the
``torch_inductor_backends`` entry point ``toyacc`` (``pyproject.toml``) the
first time a compile needs the device, in the compiling process and in any
compile subprocess.

toyacc's memory is host memory, so it reuses Inductor's C++ code generation:
``CppScheduling`` for kernels, ``PythonWrapperCodegen`` and ``CppWrapperCpu``
for the host code.  What is toyacc's own: the source snippets of
:class:`ToyaccOpOverrides`, the C++ build options that put the device's
C++ wrapper header (``include/torch/csrc/inductor/cpp_wrapper/toyacc.h``) on
the include path, the compile options (:mod:`.config`) and the operator
policy (:mod:`.policy`).
"""

from __future__ import annotations

from pathlib import Path

from torch._inductor.codegen.common import (
    DeviceOpOverrides,
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.cpp_builder import register_cpp_device_options
from torch._inductor.device_operator_policy import register_device_operator_policy

from . import config, policy

#: Holds torch/csrc/inductor/cpp_wrapper/toyacc.h, the header the C++ wrapper
#: includes for this device, with its C shim.
INCLUDE_DIR = str(Path(__file__).resolve().parent / "include")


class ToyaccOpOverrides(DeviceOpOverrides):
    """What generated code says for the device."""

    def import_get_raw_stream_as(self, name: str) -> str:
        return f"def {name}(index):\n    return torch.toyacc.current_stream(index).stream_id\n"

    def set_device(self, device_idx: int) -> str:
        return f"torch.toyacc.set_device({device_idx})"

    def synchronize(self) -> str:
        return "torch.toyacc.synchronize()"

    def device_guard(self, device_idx: int) -> str:
        return f"torch.toyacc.device({device_idx})"

    def current_stream(self) -> str:
        return "torch.toyacc.current_stream()"


def cpp_device_options(device_type: str, aot_mode: bool, compile_only: bool):
    """The device's C++ build options: (definitions, include_dirs, cflags,
    ldflags, library_dirs, libraries, passthrough_args)."""
    cflags = ["ffast-math"] if config.fast_math else []
    return (["USE_TOYACC"], [INCLUDE_DIR], cflags, [], [], [], [])


def load_backend() -> None:
    """Register everything a compile for toyacc needs. Inductor calls it with
    no arguments; it must also register the eager device, because a compile
    subprocess has not imported this package."""
    import torch_toyacc  # noqa: F401  (eager device: PrivateUse1 is "toyacc")

    register_backend_for_device(
        "toyacc",
        CppScheduling,
        PythonWrapperCodegen,
        CppWrapperCpu,
        device_custom_config=config,
    )
    register_device_op_overrides("toyacc", ToyaccOpOverrides())
    register_cpp_device_options("toyacc", cpp_device_options)
    register_device_operator_policy(policy.POLICY)

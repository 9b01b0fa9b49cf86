"""protacc's Inductor backend, loaded through the ``torch_inductor_backends``
entry point ``protacc`` (``pyproject.toml``) when a compile first needs the
device.

The host can address protacc's memory, so Inductor's C++ code generation
serves it, as for toyacc.  What is protacc's own is :class:`ProtaccOpOverrides`:
a kernel that Inductor generates touches device memory from host code, so
both wrappers grant it access to its tensors around each call.
"""

from __future__ import annotations

from collections.abc import Sequence
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

#: Holds torch/csrc/inductor/cpp_wrapper/protacc.h, the C++ wrapper's header.
INCLUDE_DIR = str(Path(__file__).resolve().parent / "include")


class ProtaccOpOverrides(DeviceOpOverrides):
    """What generated code says for the device."""

    def kernel_call_guard_with_args(self, kernel_name: str, tensor_args: Sequence[str]) -> str:
        # Python wrapper: `with torch.protacc.access(buf0, arg0_1):` around the call.
        return f"torch.protacc.access({', '.join(tensor_args)})"

    def cpp_kernel_call_guard(
        self, kernel_name: str, tensor_args: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        # C++ wrapper: lines before and after the call (protacc.h's set_access).
        handles = "".join(f", {name}" for name in tensor_args)
        return [f"protacc::set_access(true{handles});"], [f"protacc::set_access(false{handles});"]


def load_backend() -> None:
    """Register everything a compile for protacc needs (Inductor calls it with
    no arguments, also in a compile subprocess, hence the eager import)."""
    import torch_protacc  # noqa: F401  (eager device: PrivateUse1 is "protacc")

    register_backend_for_device("protacc", CppScheduling, PythonWrapperCodegen, CppWrapperCpu)
    register_device_op_overrides("protacc", ProtaccOpOverrides())
    # (definitions, include_dirs, cflags, ldflags, library_dirs, libraries,
    # passthrough_args) of the device's C++ wrapper and kernels.
    register_cpp_device_options(
        "protacc", lambda *args: (["USE_PROTACC"], [INCLUDE_DIR], [], [], [], [], [])
    )

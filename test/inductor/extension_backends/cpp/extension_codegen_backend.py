"""The compile side of ``extension_device``: what a vendor package registers so
that ``torch.compile`` knows its device.

Everything here goes through public registration calls
(``register_interface_for_device_PrivateUse1``, ``register_backend_for_device``,
``register_device_op_overrides``) and classes of our own; nothing assigns to a
torch module attribute.  The device's memory lives in host RAM, so Inductor's
C++ scheduling (``CppScheduling``) generates its kernels, exactly as a
CPU-like accelerator backend would reuse it.

Importing this module imports ``torch._dynamo`` and ``torch._inductor``; the
eager side (``extension_backends.extension_device``) does not.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import torch
from torch._dynamo.device_interface import (
    DeviceInterface,
    register_interface_for_device_PrivateUse1,
)
from torch._inductor.codegen.common import (
    DeviceOpOverrides,
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.cpp_builder import register_cpp_device_options
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
from torch._inductor.codegen.wrapper import PythonWrapperCodegen

from .. import extension_device_module as runtime
from . import extension_device_config
from ..extension_device import _build_directory


#: The device's own C++ headers (its C++ wrapper header and C shim).
CPP_INCLUDE_DIR = str(Path(__file__).resolve().parent / "include")


@functools.cache
def cpp_wrapper_include_dir(name: str) -> str:
    """The build-tree include directory holding
    ``torch/csrc/inductor/cpp_wrapper/<name>.h``, the header Inductor's C++
    wrapper includes for the device ``name``; written on first use."""
    root = os.path.join(os.path.abspath(_build_directory()), "include")
    header = os.path.join(root, "torch", "csrc", "inductor", "cpp_wrapper", f"{name}.h")
    text = (
        f"// The C++ wrapper header of the device '{name}' (extension_device).\n"
        "#pragma once\n"
        "#include <extension_device/cpp_wrapper.h>\n"
        f"EXTENSION_DEVICE_DEFINE_C_SHIM({name})\n"
    )
    if not os.path.exists(header) or Path(header).read_text() != text:
        os.makedirs(os.path.dirname(header), exist_ok=True)
        # Other processes may build at the same time: replace atomically.
        partial = f"{header}.{os.getpid()}.tmp"
        Path(partial).write_text(text)
        os.replace(partial, header)
    return root


class ExtensionDeviceInterface(DeviceInterface):
    """``DeviceInterface`` of the fake device, delegating to its runtime module."""

    device = runtime.device
    Stream = runtime.Stream
    Event = runtime.Event

    class Worker:
        @staticmethod
        def set_device(device: int) -> None:
            runtime.set_device(device)

        @staticmethod
        def current_device() -> int:
            return runtime.current_device()

        @staticmethod
        def get_device_properties(device: torch.types.Device = None):
            return runtime.get_device_properties(device)

    current_device = staticmethod(runtime.current_device)
    set_device = staticmethod(runtime.set_device)
    device_count = staticmethod(runtime.device_count)
    is_available = staticmethod(runtime.is_available)
    stream = staticmethod(runtime.stream)
    current_stream = staticmethod(runtime.current_stream)
    set_stream = staticmethod(runtime.set_stream)
    synchronize = staticmethod(runtime.synchronize)
    get_compute_capability = staticmethod(runtime.get_device_capability)
    is_bf16_supported = staticmethod(runtime.is_bf16_supported)
    memory_allocated = staticmethod(runtime.memory_allocated)

    @staticmethod
    def exchange_device(device: int) -> int:
        previous = runtime.current_device()
        runtime.set_device(device)
        return previous

    @staticmethod
    def maybe_exchange_device(device: int) -> int:
        return ExtensionDeviceInterface.exchange_device(device)

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        return runtime.current_stream(device_idx).stream_id

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return False


class ExtensionGpuDeviceInterface(ExtensionDeviceInterface):
    """The same device declared GPU-class: it has streams and two devices, so
    generated code guards the current device around its kernels."""

    @staticmethod
    def is_gpu() -> bool:
        return True


#: The ATen ops whose C shim function (aoti_torch_<device>_<op>) the device's
#: C++ wrapper header, include/extension_device/cpp_wrapper.h, defines.
C_SHIM_OPS = {torch.ops.aten.mm.out, torch.ops.aten.bmm.out, torch.ops.aten.addmm.out}


class ExtensionDeviceOpOverrides(DeviceOpOverrides):
    """Python source snippets the wrapper emits for the device ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def import_get_raw_stream_as(self, name: str) -> str:
        return (
            f"def {name}(index):\n"
            f"    return torch.{self.name}.current_stream(index).stream_id\n"
        )

    def set_device(self, device_idx: int) -> str:
        return f"torch.{self.name}.set_device({device_idx})"

    def synchronize(self) -> str:
        return f"torch.{self.name}.synchronize()"

    def device_guard(self, device_idx: int) -> str:
        return f"torch.{self.name}.device({device_idx})"

    def current_stream(self) -> str:
        return f"torch.{self.name}.current_stream()"

    def cpp_kernel_type(self) -> str:
        return "void*"

    def cpp_device_guard(self) -> str:
        return "extension_device::AOTIDeviceGuard"

    def cpp_aoti_device_guard(self) -> str:
        return "extension_device::AOTIDeviceGuard"

    def aten_device_type(self) -> str:
        return "at::kPrivateUse1"

    def c_shim_device(self, device: str, op: torch._ops.OpOverload) -> str | None:
        # cpp_wrapper.h defines the C shim of the matrix products only; the C++
        # wrapper calls every other ATen op through the dispatcher.
        return device if op in C_SHIM_OPS else None


class ExtensionPythonWrapperCodegen(PythonWrapperCodegen):
    """The Python wrapper of the device: Inductor's, plus the banner comment
    the ``<device>.wrapper_banner`` compile option asks for."""

    @staticmethod
    def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
        if is_subgraph:
            return PythonWrapperCodegen.create(
                is_subgraph, subgraph_name, parent_wrapper, partition_signatures
            )
        return ExtensionPythonWrapperCodegen()

    def write_header(self) -> None:
        super().write_header()
        if extension_device_config.wrapper_banner:
            self.imports.writeline(f"# {extension_device_config.wrapper_banner}")


def register_compile_backend(
    name: str, interface: type[DeviceInterface] = ExtensionDeviceInterface
) -> None:
    """Register the device ``name`` (the renamed PrivateUse1) with Dynamo and
    Inductor through public calls; ``interface`` lets tests register variants
    (e.g. a GPU-class one)."""
    if name != torch._C._get_privateuse1_backend_name():
        raise ValueError(f"PrivateUse1 is not named {name!r}; call register({name!r}) first")
    register_interface_for_device_PrivateUse1(interface)
    register_backend_for_device(
        name,
        CppScheduling,
        ExtensionPythonWrapperCodegen,
        CppWrapperCpu,
        device_custom_config=extension_device_config,
    )
    register_device_op_overrides(name, ExtensionDeviceOpOverrides(name))
    register_cpp_device_options(name, cpp_device_options)


def cpp_device_options(
    device_type: str, aot_mode: bool, compile_only: bool
) -> tuple[list[str], ...]:
    """The C++ build options of the device's C++ wrapper and kernels."""
    include_dirs = [cpp_wrapper_include_dir(device_type), CPP_INCLUDE_DIR]
    return (["USE_EXTENSION_DEVICE"], include_dirs, [], [], [], [], [])


def _load_backend(name: str) -> None:
    from ..extension_device import register

    register(name)
    register_compile_backend(name)


def load_extension_device() -> None:
    """The loaders the ``extension-device-backend`` distribution declares as
    its ``torch_inductor_backends`` entry points (see ``../site``), one per
    device name: Inductor calls them the first time a compile needs the
    device, in the compiling process or in a compile subprocess. Like a
    vendor package's import, each registers the device with eager PyTorch
    (renaming PrivateUse1; idempotent), then as by
    :func:`register_compile_backend`."""
    _load_backend("extension_device")


def load_acc() -> None:
    """See :func:`load_extension_device`."""
    _load_backend("acc")

"""The compile side of vendor_b, in upstream 2.15's terms: a DeviceInterface
with is_gpu(), get_cpp_device_options(), get_multi_processor_count() and
get_cache_system_info() but no device_count(); DeviceOpOverrides with
aten_device_type() and uses_gpu_cpp_wrapper()."""

from pathlib import Path

import torch
from torch._dynamo.device_interface import DeviceInterface
from torch._inductor.codegen.common import (
    NoOpDeviceOpOverrides,
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
from torch._inductor.codegen.wrapper import PythonWrapperCodegen

from extension_backends import extension_device_module as runtime

NAME = "vendor_b"
HERE = Path(__file__).resolve().parent
INCLUDE_DIRS = [
    str(HERE / "include"),
    str(HERE.parent.parent / "extension_backends" / "cpp" / "include"),
]


class VendorBInterface(DeviceInterface):
    device = runtime.device
    Stream = runtime.Stream
    Event = runtime.Event

    class Worker:
        @staticmethod
        def set_device(device):
            runtime.set_device(device)

        @staticmethod
        def current_device():
            return runtime.current_device()

        @staticmethod
        def get_device_properties(device=None):
            return runtime.get_device_properties(device)

    current_device = staticmethod(runtime.current_device)
    set_device = staticmethod(runtime.set_device)
    is_available = staticmethod(runtime.is_available)
    current_stream = staticmethod(runtime.current_stream)
    synchronize = staticmethod(runtime.synchronize)
    is_bf16_supported = staticmethod(runtime.is_bf16_supported)

    @staticmethod
    def is_gpu():
        return False

    @classmethod
    def get_multi_processor_count(cls, device=None):
        return 1

    @classmethod
    def get_cache_system_info(cls):
        return {"vendor_b_runtime": "1.0"}

    @staticmethod
    def get_cpp_device_options(aot_mode, compile_only):
        # The device's complete options.
        return (["USE_EXTENSION_DEVICE"], list(INCLUDE_DIRS), [], [], [], [], [])


class VendorBOverrides(NoOpDeviceOpOverrides):
    def aten_device_type(self):
        return "at::kPrivateUse1"

    def uses_gpu_cpp_wrapper(self):
        return False


def register_inductor_backend():
    register_backend_for_device(NAME, CppScheduling, PythonWrapperCodegen, CppWrapperCpu)
    register_device_op_overrides(NAME, VendorBOverrides())


# A Dynamo backend with upstream 2.15's start-up hook, which Dynamo calls when
# torch.compile() resolves the backend, before it compiles.
starts = 0


def _start():
    """The backend's one-time start (loading its compiler, say); idempotent."""
    global starts
    starts += 1


def vendor_b_backend(gm, example_inputs):
    from torch._inductor.compile_fx import compile_fx

    return compile_fx(gm, example_inputs)


vendor_b_backend._dynamo_backend_init = _start

"""A backend written for stock torch 2.13, as torch_npu, torch_mlu and OpenReg
are: at import it renames PrivateUse1 to ``vendor_a`` and registers its
DeviceInterface, codegen backend and DeviceOpOverrides with the 2.13 calls.
Its interface knows nothing of ``is_gpu()`` or ``backend_features()``; its C++
wrapper class overrides the 2.13 include-path methods to include the vendor's
own header, by absolute path (2.13 had no way to add include directories).
"""

from pathlib import Path

import torch

from extension_backends.extension_device import register

NAME = "vendor_a"
register(NAME)

from torch._dynamo.device_interface import (  # noqa: E402
    DeviceInterface,
    register_interface_for_device,
)
from torch._inductor.codegen.common import (  # noqa: E402
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling  # noqa: E402
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu  # noqa: E402
from torch._inductor.codegen.cpu_device_op_overrides import (  # noqa: E402
    CpuDeviceOpOverrides,
)
from torch._inductor.codegen.wrapper import PythonWrapperCodegen  # noqa: E402

from extension_backends import extension_device_module as runtime  # noqa: E402

HEADER = str(Path(__file__).resolve().parent / "cpp_wrapper.h")


class VendorAInterface(DeviceInterface):
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
    device_count = staticmethod(runtime.device_count)
    is_available = staticmethod(runtime.is_available)
    stream = staticmethod(runtime.stream)
    current_stream = staticmethod(runtime.current_stream)
    set_stream = staticmethod(runtime.set_stream)
    synchronize = staticmethod(runtime.synchronize)
    get_compute_capability = staticmethod(runtime.get_device_capability)
    is_bf16_supported = staticmethod(runtime.is_bf16_supported)

    @staticmethod
    def exchange_device(device):
        previous = runtime.current_device()
        runtime.set_device(device)
        return previous

    @staticmethod
    def maybe_exchange_device(device):
        return VendorAInterface.exchange_device(device)


class VendorAPythonWrapper(PythonWrapperCodegen):
    @staticmethod
    def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
        if is_subgraph:
            return PythonWrapperCodegen.create(
                is_subgraph, subgraph_name, parent_wrapper, partition_signatures
            )
        return VendorAPythonWrapper()

    def write_header(self):
        super().write_header()
        self.imports.writeline("# generated for vendor_a")


class VendorACppWrapper(CppWrapperCpu):
    @staticmethod
    def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
        return VendorACppWrapper()

    @staticmethod
    def get_device_include_path_jit(device):
        if device == NAME:
            return f'#include "{HEADER}"'
        return CppWrapperCpu.get_device_include_path_jit(device)


class VendorAOverrides(CpuDeviceOpOverrides):
    """The CPU overrides: the device's memory is host memory."""

    def import_get_raw_stream_as(self, name):
        return f"def {name}(index):\n    return torch.{NAME}.current_stream(index).stream_id\n"


register_interface_for_device(NAME, VendorAInterface)
register_backend_for_device(NAME, CppScheduling, VendorAPythonWrapper, VendorACppWrapper)
register_device_op_overrides(NAME, VendorAOverrides())

"""tritonacc's ``DeviceInterface``: a GPU-class device whose kernels are Triton's.

Returned by ``torch.tritonacc.get_device_interface()``; every method delegates
to the device module.
"""

from __future__ import annotations

import torch
from torch._dynamo.device_interface import DeviceInterface

from . import runtime


class TritonaccInterface(DeviceInterface):
    Stream = runtime.Stream
    Event = runtime.Event
    device = runtime.device

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
    synchronize = staticmethod(runtime.synchronize)
    stream = staticmethod(runtime.stream)
    current_stream = staticmethod(runtime.current_stream)
    set_stream = staticmethod(runtime.set_stream)

    @staticmethod
    def exchange_device(device: int) -> int:
        previous = runtime.current_device()
        runtime.set_device(device)
        return previous

    @staticmethod
    def maybe_exchange_device(device: int) -> int:
        return TritonaccInterface.exchange_device(device)

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        return runtime.current_stream(device_idx).stream_id

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> int:
        return 0  # DeviceProperties.cc of the kernels: GPUTarget("tritonacc", 0, 32)

    # What makes the device GPU-class and Triton's: Inductor schedules its
    # kernels with TritonScheduling and runs them on its own Triton backend.
    @staticmethod
    def is_gpu() -> bool:
        return True

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True

    @staticmethod
    def triton_backend_name() -> str:
        return "tritonacc"  # the key of tritonacc_triton in triton.backends.backends

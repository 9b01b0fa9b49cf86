"""protacc's ``DeviceInterface``, returned by ``torch.protacc.get_device_interface()``.

It declares no ``Stream`` or ``Event``: the device has no streams, so
Inductor neither guards its device nor binds streams in generated code.
"""

from __future__ import annotations

import torch
from torch._dynamo.device_interface import DeviceInterface

from . import runtime


class ProtaccInterface(DeviceInterface):
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

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> int:
        return 0  # enters the metadata of the device's C++ builds

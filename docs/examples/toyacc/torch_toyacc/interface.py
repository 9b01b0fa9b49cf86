"""toyacc's ``DeviceInterface``: the runtime questions Dynamo and Inductor ask.

Returned by ``torch.toyacc.get_device_interface()``; nothing registers it
explicitly.  Every method delegates to the device module.
"""

from __future__ import annotations

import torch
from torch._dynamo.device_interface import DeviceInterface

from . import runtime


class ToyaccInterface(DeviceInterface):
    # The device module hands out plain torch.Stream objects; declaring strict
    # subclasses here is what tells Dynamo and Inductor that the device has
    # streams and events (see the guide, "Streams and events").
    Stream = runtime.Stream
    Event = runtime.Event
    device = runtime.device

    class Worker:
        # What the base class's get_device_properties() delegates to; it may
        # be asked in compile workers, so it must not need more than the
        # device module.
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
        return ToyaccInterface.exchange_device(device)

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        return runtime.current_stream(device_idx).stream_id

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> int:
        return 0

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return False

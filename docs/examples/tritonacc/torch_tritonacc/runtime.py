"""The device module of tritonacc, installed as ``torch.tritonacc``.

What a GPU-class device offers ``torch.compile``: devices, streams, events and
properties, through ``torch.accelerator``.  ``get_device_interface`` is the
hook through which Dynamo and Inductor find the device's ``DeviceInterface``.
"""

from __future__ import annotations

import dataclasses

import torch


def _index(device: torch.types.Device) -> int:
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        device = device.index
    return current_device() if device is None else device


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> int:
    return torch.accelerator.current_device_index()


def set_device(device: torch.types.Device) -> None:
    torch.accelerator.set_device_index(_index(device))


def synchronize(device: torch.types.Device = None) -> None:
    torch.accelerator.synchronize(_index(device))


class device:
    """Context manager selecting ``device`` (a no-op for None or -1)."""

    def __init__(self, device: torch.types.Device) -> None:
        self.idx = -1 if device is None else _index(device)
        self.prev_idx = -1

    def __enter__(self) -> None:
        if self.idx >= 0:
            self.prev_idx = current_device()
            set_device(self.idx)

    def __exit__(self, *exc_info: object) -> None:
        if self.idx >= 0:
            set_device(self.prev_idx)


class Stream(torch.Stream):
    """A stream of the device; ``Stream()`` is a new one."""

    def __new__(cls, device: torch.types.Device = None, priority: int = 0, **kwargs):
        if "stream_id" in kwargs:  # rebuilt from (stream_id, device_index, device_type)
            return super().__new__(cls, priority=priority, **kwargs)
        return super().__new__(cls, device=torch.device("tritonacc", _index(device)), priority=priority)


class Event(torch.Event):
    """An event of the device."""

    def __new__(cls, device: torch.types.Device = None, *, enable_timing: bool = False, **kwargs):
        return super().__new__(
            cls, device=torch.device("tritonacc", _index(device)), enable_timing=enable_timing, **kwargs
        )


def current_stream(device: torch.types.Device = None) -> torch.Stream:
    return torch.accelerator.current_stream(_index(device))


def set_stream(stream: torch.Stream) -> None:
    torch.accelerator.set_stream(stream)


class StreamContext:
    """Context manager making ``stream`` current (a no-op for None)."""

    def __init__(self, stream: torch.Stream | None) -> None:
        self.stream = stream
        self.prev_stream: torch.Stream | None = None

    def __enter__(self) -> None:
        if self.stream is not None:
            self.prev_stream = current_stream(self.stream.device)
            set_stream(self.stream)

    def __exit__(self, *exc_info: object) -> None:
        if self.stream is not None:
            set_stream(self.prev_stream)


def stream(stream: torch.Stream | None) -> StreamContext:
    return StreamContext(stream)


@dataclasses.dataclass(frozen=True)
class _DeviceProperties:
    # Frozen: Dynamo treats the properties object as a constant.  Inductor
    # puts multi_processor_count (and warp_size, default 32) into each
    # Triton kernel's DeviceProperties.
    name: str
    total_memory: int
    multi_processor_count: int


def get_device_properties(device: torch.types.Device = None) -> _DeviceProperties:
    _index(device)
    return _DeviceProperties("tritonacc (host memory)", 2**30, 4)


def get_device_interface():
    """The ``DeviceInterface`` subclass of this device (discovery hook)."""
    from .interface import TritonaccInterface

    return TritonaccInterface

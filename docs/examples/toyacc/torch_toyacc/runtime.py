"""The device module of toyacc, installed as ``torch.toyacc``.

It offers what ``torch.cuda`` offers and what ``torch.compile`` relies on
(devices, streams, events, properties, AMP), delegating to the C++ runtime
through ``torch.accelerator``.  Like many vendor modules, it hands out plain
``torch.Stream`` objects: :class:`Stream` and :class:`Event` are the classes
the device interface declares, for code that constructs them.

``get_device_interface`` is the hook through which Dynamo and Inductor find
the device's ``DeviceInterface``; it imports the compiler only when called.
"""

from __future__ import annotations

import dataclasses
import types

import torch

_Device = torch.device | str | int | None


def _index(device: _Device) -> int:
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        device = device.index
    return current_device() if device is None else device


# torch.accelerator answers these two from the device module itself.
def is_available() -> bool:
    return True


def device_count() -> int:
    return 1  # the C++ runtime's device guard has one device


def current_device() -> int:
    return torch.accelerator.current_device_index()


def set_device(device: _Device) -> None:
    torch.accelerator.set_device_index(_index(device))


def is_initialized() -> bool:
    return True


def _is_in_bad_fork() -> bool:
    return False


class device:
    """Context manager selecting ``device`` (a no-op for None or -1)."""

    def __init__(self, device: _Device) -> None:
        self.idx = -1 if device is None else _index(device)
        self.prev_idx = -1

    def __enter__(self) -> None:
        if self.idx >= 0:
            self.prev_idx = current_device()
            set_device(self.idx)

    def __exit__(self, *exc_info: object) -> None:
        if self.idx >= 0:
            set_device(self.prev_idx)


def synchronize(device: _Device = None) -> None:
    torch.accelerator.synchronize(_index(device))


class Stream(torch.Stream):
    """A stream of the device; ``Stream()`` is a new one."""

    def __new__(cls, device: _Device = None, priority: int = 0, **kwargs):
        if "stream_id" in kwargs:  # rebuilt from (stream_id, device_index, device_type)
            return super().__new__(cls, priority=priority, **kwargs)
        return super().__new__(
            cls, device=torch.device("toyacc", _index(device)), priority=priority
        )


class Event(torch.Event):
    """An event of the device."""

    def __new__(cls, device: _Device = None, *, enable_timing: bool = False, **kwargs):
        return super().__new__(
            cls, device=torch.device("toyacc", _index(device)), enable_timing=enable_timing, **kwargs
        )


def current_stream(device: _Device = None) -> torch.Stream:
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
    # Frozen: Dynamo treats the properties object as a constant.
    name: str
    total_memory: int
    multi_processor_count: int


def get_device_properties(device: _Device = None) -> _DeviceProperties:
    _index(device)
    return _DeviceProperties("toyacc (host memory)", 2**30, 1)


def get_amp_supported_dtype() -> list[torch.dtype]:
    return [torch.bfloat16]


class _Autocast(torch.amp.autocast_mode.autocast):
    def __init__(self, enabled: bool = True, dtype: torch.dtype = torch.bfloat16,
                 cache_enabled: bool = True) -> None:
        super().__init__("toyacc", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


amp = types.SimpleNamespace(autocast=_Autocast)


def get_device_interface():
    """The ``DeviceInterface`` subclass of this device (discovery hook)."""
    from .interface import ToyaccInterface

    return ToyaccInterface

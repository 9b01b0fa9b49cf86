"""The device module of protacc, installed as ``torch.protacc``.

One device, no streams.  :class:`access` is what compiled code enters around
each generated kernel; ``get_device_interface`` is the hook through which
Dynamo and Inductor find the device's ``DeviceInterface``.
"""

from __future__ import annotations

import dataclasses

import torch


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> int:
    return torch.accelerator.current_device_index()


def set_device(device: torch.types.Device) -> None:
    torch.accelerator.set_device_index(device)


def synchronize(device: torch.types.Device = None) -> None:
    torch.accelerator.synchronize(device)


class device:
    """Context manager selecting a device (protacc has one)."""

    def __init__(self, device: torch.types.Device) -> None:
        self.device = device

    def __enter__(self) -> None:
        set_device(self.device)

    def __exit__(self, *exc_info: object) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class _DeviceProperties:
    # Frozen: Dynamo treats the properties object as a constant.
    name: str
    total_memory: int
    multi_processor_count: int


def get_device_properties(device: torch.types.Device = None) -> _DeviceProperties:
    return _DeviceProperties("protacc (protected host memory)", 2**30, 1)


class access:
    """Grants host code access to the memory of ``tensors`` inside a ``with``
    block: ``with torch.protacc.access(x, y): kernel(x, y)``."""

    def __init__(self, *tensors: torch.Tensor) -> None:
        self.tensors = list(tensors)

    def __enter__(self) -> None:
        torch.ops.protacc.set_access(self.tensors, True)

    def __exit__(self, *exc_info: object) -> None:
        torch.ops.protacc.set_access(self.tensors, False)


def get_device_interface():
    """The ``DeviceInterface`` subclass of this device (discovery hook)."""
    from .interface import ProtaccInterface

    return ProtaccInterface

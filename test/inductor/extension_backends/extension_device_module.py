"""Runtime module of the fake PrivateUse1 device, installed as ``torch.<name>``.

It mirrors the device modules of real vendor backends (``torch.cuda``,
``torch_npu``'s ``torch.npu``): device selection, streams and events, random
number generation, device properties, memory statistics and the hooks that
``torch.utils.rename_privateuse1_backend`` documents for AMP and seeding.

All state lives in the C++ runtime (``cpp/extension_device.cpp``); see the
comment at its top for what is real and what is simulated.  In particular,
work runs synchronously when it is enqueued, so streams are always idle and
events complete as soon as they are recorded.
"""

import dataclasses
import types
from typing import Any

import torch

from .extension_device import load_library


_C = load_library()

_DeviceLike = torch.device | str | int | None

__all__ = [
    "Event",
    "Stream",
    "StreamContext",
    "amp",
    "current_device",
    "current_stream",
    "default_generators",
    "default_stream",
    "device",
    "device_count",
    "get_amp_supported_dtype",
    "get_device_capability",
    "get_device_name",
    "get_device_properties",
    "get_rng_state",
    "get_rng_state_all",
    "initial_seed",
    "is_available",
    "is_bf16_supported",
    "is_initialized",
    "kernel_guard",
    "manual_seed",
    "manual_seed_all",
    "max_memory_allocated",
    "memory_allocated",
    "recorded_stream",
    "reset_peak_memory_stats",
    "seed",
    "seed_all",
    "set_device",
    "set_rng_state",
    "set_rng_state_all",
    "set_stream",
    "stream",
    "synchronize",
]


# ---------------------------------------------------------------------------
# Devices
# ---------------------------------------------------------------------------


def _device_index(device: _DeviceLike) -> int:
    """Index of ``device``; ``None`` or a device without index means the current one."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != _C.backend_name():
            raise ValueError(f"Expected a {_C.backend_name()} device, got {device}")
        device = device.index
    if device is None:
        return current_device()
    if not isinstance(device, int):
        raise TypeError(f"Invalid device: {device!r}")
    return device


def _torch_device(index: int) -> torch.device:
    return torch.device(_C.backend_name(), index)


def is_available() -> bool:
    """Whether the device can be used (always, it needs no hardware)."""
    return device_count() > 0


def device_count() -> int:
    return _C.device_count()


def is_initialized() -> bool:
    """Whether the runtime was initialized (lazily, on first use)."""
    return _C.is_initialized()


def _lazy_init() -> None:
    """Initialize the runtime; PyTorch calls this before first use."""
    _C.init()


def _is_in_bad_fork() -> bool:
    # The runtime keeps no driver state that a fork could break.
    return False


def current_device() -> int:
    return _C.current_device()


def set_device(device: _DeviceLike) -> None:
    """Set the current device of the calling thread (a negative index is a no-op)."""
    index = _device_index(device)
    if index >= 0:
        _C.set_device(index)


class device:
    """Context manager that makes ``device`` current and restores the previous one.

    Args:
        device: a device, a device index, or ``None`` / a negative index for a
            no-op.
    """

    def __init__(self, device: _DeviceLike) -> None:
        self.idx = _device_index(device) if device is not None else -1
        self.prev_idx = -1

    def __enter__(self) -> None:
        if self.idx >= 0:
            self.prev_idx = _C.exchange_device(self.idx)

    def __exit__(self, *exc_info: object) -> None:
        if self.idx >= 0:
            _C.exchange_device(self.prev_idx)


def synchronize(device: _DeviceLike = None) -> None:
    """Wait for all work on all streams of ``device`` (default: current)."""
    _C.synchronize(_device_index(device))


# ---------------------------------------------------------------------------
# Streams and events
# ---------------------------------------------------------------------------


class Stream(torch.Stream):
    """A stream of the device.

    Streams come from a per-device pool (handed out round-robin); stream 0 of
    every device is its default stream.

    Args:
        device: the device of the stream (default: the current device).
        priority: accepted for compatibility; all streams share one priority.
    """

    def __new__(
        cls, device: _DeviceLike = None, *, priority: int = 0, **kwargs: Any
    ) -> "Stream":
        if "stream_id" in kwargs:
            # Rebuild an existing stream from its (stream_id, device_index,
            # device_type) triple.
            return super().__new__(cls, priority=priority, **kwargs)
        return super().__new__(
            cls, device=_torch_device(_device_index(device)), priority=priority
        )

    def record_event(self, event: torch.Event | None = None) -> torch.Event:
        """Record ``event`` (default: a new :class:`Event`) on this stream.

        Overridden because ``torch.Stream.record_event`` rejects subclasses of
        ``torch.Event``.
        """
        if event is None:
            event = Event(self.device)
        event.record(self)
        return event

    def __repr__(self) -> str:
        return f"{_C.backend_name()}.Stream(device={self.device}, stream_id={self.stream_id})"


class Event(torch.Event):
    """An event of the device.

    Before its first ``record()``, an event is complete: ``query()`` returns
    True and ``synchronize()``/``wait()`` do nothing, as with CUDA events.

    Args:
        device: the device of the event (default: the current device).
        enable_timing: whether ``elapsed_time`` can be used with this event.
    """

    def __new__(
        cls,
        device: _DeviceLike = None,
        *,
        enable_timing: bool = False,
        blocking: bool = False,
        interprocess: bool = False,
    ) -> "Event":
        return super().__new__(
            cls,
            device=_torch_device(_device_index(device)),
            enable_timing=enable_timing,
            blocking=blocking,
            interprocess=interprocess,
        )

    def elapsed_time(self, end_event: torch.Event) -> float:
        """Milliseconds between this event's record and ``end_event``'s.

        Overridden because ``torch.Event.elapsed_time`` rejects subclasses of
        ``torch.Event``.
        """
        return _C.elapsed_time(self, end_event)


def _stream_from_triple(triple: tuple[int, int, int]) -> Stream:
    stream_id, device_index, device_type = triple
    return Stream(
        stream_id=stream_id, device_index=device_index, device_type=device_type
    )


def current_stream(device: _DeviceLike = None) -> Stream:
    """The current stream of ``device`` (default: current device) on this thread."""
    return _stream_from_triple(_C.current_stream(_device_index(device)))


def default_stream(device: _DeviceLike = None) -> Stream:
    return _stream_from_triple(_C.default_stream(_device_index(device)))


def set_stream(stream: torch.Stream) -> None:
    """Make ``stream`` the current stream of its device and that device current."""
    if stream is not None:
        _C.set_stream(stream)


class StreamContext:
    """Context manager that makes ``stream`` current, then restores the previous
    current device and the previous current streams of both devices involved.

    A ``None`` stream makes it a no-op.
    """

    def __init__(self, stream: torch.Stream | None) -> None:
        self.stream = stream
        self.src_prev_stream: Stream | None = None
        self.dst_prev_stream: Stream | None = None

    def __enter__(self) -> None:
        if self.stream is None:
            return
        self.src_prev_stream = current_stream()
        # Switching to a stream of another device changes the current device;
        # remember that device's current stream as well.
        if self.src_prev_stream.device != self.stream.device:
            with device(self.stream.device):
                self.dst_prev_stream = current_stream()
        set_stream(self.stream)

    def __exit__(self, *exc_info: object) -> None:
        if self.stream is None:
            return
        if self.dst_prev_stream is not None:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream: torch.Stream | None) -> StreamContext:
    """Context manager selecting ``stream``; see :class:`StreamContext`."""
    return StreamContext(stream)


def recorded_stream(event: torch.Event) -> Stream | None:
    """The stream ``event`` was last recorded on, or None if never recorded.

    Not part of the usual device-module API: it exposes the runtime's event
    bookkeeping so tests can check where work was recorded.
    """
    triple = _C.recorded_stream(event)
    return None if triple is None else _stream_from_triple(triple)


class kernel_guard:
    """Context manager that a backend may have Inductor's Python wrapper enter
    around each generated kernel call (``DeviceOpOverrides.kernel_call_guard``),
    as OpenReg does with the memory guard outside which its device memory is
    unreadable from the host.

    Not part of the usual device-module API: it only keeps count, so tests can
    check that every kernel call ran inside it.  ``entered`` lists the kernel
    names of the guards entered, in order; ``depth`` is the number of guards
    currently entered.
    """

    entered: list[str] = []
    depth = 0

    def __init__(self, kernel_name: str) -> None:
        self.kernel_name = kernel_name

    def __enter__(self) -> None:
        kernel_guard.depth += 1
        kernel_guard.entered.append(self.kernel_name)

    def __exit__(self, *exc_info: object) -> None:
        kernel_guard.depth -= 1


def set_memory_protection(on: bool) -> None:
    """Test mode modelled on OpenReg: while on, new device allocations are
    unreadable from host code (``mprotect(PROT_NONE)``) except inside the
    runtime's own ops and inside :class:`memory_guard`."""
    _C.set_memory_protection(bool(on))


class memory_guard:
    """Context manager making the protected memory of ``tensors`` accessible
    for its lifetime, as a kernel-call guard does around a generated kernel."""

    def __init__(self, kernel_name: str, tensors: tuple[torch.Tensor, ...]) -> None:
        self.tensors = list(tensors)

    def __enter__(self) -> None:
        torch.ops.extension_device.set_access(self.tensors, True)

    def __exit__(self, *exc_info: object) -> None:
        torch.ops.extension_device.set_access(self.tensors, False)


# ---------------------------------------------------------------------------
# Random number generation
# ---------------------------------------------------------------------------

default_generators: tuple[torch.Generator, ...] = _C.default_generators()


def manual_seed(seed: int) -> None:
    """Seed the generator of the current device."""
    default_generators[current_device()].manual_seed(int(seed))


def manual_seed_all(seed: int) -> None:
    """Seed the generators of all devices."""
    for generator in default_generators:
        generator.manual_seed(int(seed))


def seed() -> None:
    """Seed the generator of the current device with a random number."""
    default_generators[current_device()].seed()


def seed_all() -> None:
    """Seed the generators of all devices with one random number."""
    manual_seed_all(default_generators[current_device()].seed())


def initial_seed() -> int:
    """The seed of the generator of the current device."""
    return default_generators[current_device()].initial_seed()


def get_rng_state(device: _DeviceLike = None) -> torch.Tensor:
    """The generator state of ``device`` (default: current) as a CPU ByteTensor."""
    return default_generators[_device_index(device)].get_state()


def set_rng_state(new_state: torch.Tensor, device: _DeviceLike = None) -> None:
    default_generators[_device_index(device)].set_state(new_state)


def get_rng_state_all() -> list[torch.Tensor]:
    return [generator.get_state() for generator in default_generators]


def set_rng_state_all(new_states: list[torch.Tensor]) -> None:
    for generator, state in zip(default_generators, new_states, strict=True):
        generator.set_state(state)


# ---------------------------------------------------------------------------
# Device properties, AMP and memory
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _DeviceProperties:
    name: str
    total_memory: int
    multi_processor_count: int
    major: int
    minor: int


def get_device_properties(device: _DeviceLike = None) -> _DeviceProperties:
    return _DeviceProperties(**_C.device_properties(_device_index(device)))


def get_device_name(device: _DeviceLike = None) -> str:
    return get_device_properties(device).name


def get_device_capability(device: _DeviceLike = None) -> tuple[int, int]:
    properties = get_device_properties(device)
    return properties.major, properties.minor


def get_amp_supported_dtype() -> list[torch.dtype]:
    """Dtypes autocast may use on this device."""
    return [torch.float16, torch.bfloat16]


class _Autocast(torch.amp.autocast_mode.autocast):
    """``torch.autocast`` on this device, like ``torch.cuda.amp.autocast``."""

    def __init__(
        self,
        enabled: bool = True,
        dtype: torch.dtype = torch.float16,
        cache_enabled: bool = True,
    ) -> None:
        super().__init__(
            _C.backend_name(), dtype=dtype, enabled=enabled, cache_enabled=cache_enabled
        )


#: The AMP namespace of the device, like ``torch.cuda.amp``.
amp = types.SimpleNamespace(autocast=_Autocast)


def is_bf16_supported() -> bool:
    return True


def memory_allocated(device: _DeviceLike = None) -> int:
    """Bytes currently allocated by tensors on ``device`` (default: current)."""
    return _C.memory_allocated(_device_index(device))


def max_memory_allocated(device: _DeviceLike = None) -> int:
    """Peak of :func:`memory_allocated` since start or the last reset."""
    return _C.max_memory_allocated(_device_index(device))


def reset_peak_memory_stats(device: _DeviceLike = None) -> None:
    _C.reset_peak_memory_stats(_device_index(device))

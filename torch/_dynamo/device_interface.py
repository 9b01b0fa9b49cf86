"""
Device abstraction layer for TorchDynamo and Inductor backends.

This module provides a unified interface for different hardware backends (CUDA, XPU,
CPU, MPS, MTIA) through a common device interface. Key components include:

- DeviceInterface: Base class defining the common API for all device types
- Device-specific implementations: CudaInterface, XpuInterface, CpuInterface, MpsInterface, MtiaInterface
- Device registration system for managing available backends
- Worker APIs for multi-processing scenarios
- Stream and event management across different devices
- Device property caching for worker processes

The abstraction layer enables device-agnostic code in TorchDynamo while allowing
specialized implementations for each hardware backend's unique features.

The registry (``device_interfaces``) maps a device type name to its interface.
The built-in types (``_BUILTIN_DEVICE_INIT_LIST``) are registered lazily by
``init_device_reg()`` on first lookup; an out-of-tree backend renames
PrivateUse1 and calls ``register_interface_for_device_PrivateUse1()``.

Every registration increments ``_registry_generation`` and then, outside the
registry lock, calls the callbacks subscribed with
``_register_registry_change_callback()``; everything
derived from the registry (``GPU_TYPES``, ``get_gpu_type()``, ``has_triton()``,
device property caches, ...) subscribes, so registering after
``torch._inductor`` was imported, or after a first compile, takes effect on the
next compile.
"""

import functools
import importlib
import inspect
import logging
import threading
import time
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import auto, Enum
from typing import Any, Literal, TypeVar

import torch
from torch.utils._ordered_set import OrderedSet
from torch.utils._pallas import has_torch_tpu


log = logging.getLogger(__name__)

_T = TypeVar("_T")


get_cuda_stream: Callable[[int], int] | None
if torch.cuda._is_compiled():
    from torch._C import _cuda_getCurrentRawStream as get_cuda_stream
else:
    get_cuda_stream = None

# Recording the device properties in the main process but used in worker process.
caching_worker_device_properties: dict[str, Any] = {}
caching_worker_current_devices: dict[str, int] = {}

# (definitions, include_dirs, cflags, ldflags, library_dirs, libraries,
# passthrough_args), see DeviceInterface.get_cpp_device_options.
_CppDeviceOptions = tuple[
    list[str], list[str], list[str], list[str], list[str], list[str], list[str]
]


class BackendFeature(Enum):
    """Capabilities a backend declares instead of being named in a device list.
    Codegen members are answered by the device's Inductor ``Scheduling``
    (``get_backend_features``); framework members by its
    ``DeviceInterface.backend_features()``. Absent means not supported."""

    # Codegen members (BaseScheduling.get_backend_features)
    FOREACH = auto()
    BUCKETIZE = auto()
    INPLACE_BUFFERS = auto()
    MASKED_SCATTER_WITH_INDEX = auto()
    SCAN = auto()
    SORT = auto()
    TUPLE_REDUCTION = auto()
    PREFER_STORE_LOOP_ORDER = auto()
    TRITON_TEMPLATES = auto()
    REDUCE_TO_SINGLE_ELEMENT = auto()
    # Framework members (DeviceInterface.backend_features)
    # GPU-class (declared iff is_gpu()): torch._inductor.utils.GPU_TYPES.
    GPU = auto()
    # Softmax may become Inductor's online-softmax reduction (Triton backends).
    ONLINE_SOFTMAX = auto()
    # Multi-tensor torch._foreach_* kernels: optimizers default to foreach=True.
    FOREACH_KERNELS = auto()
    # Fused optimizer kernels (torch._fused_adam_, ...): fused=True is accepted.
    FUSED_OPTIMIZER = auto()
    # Optimizers accept capturable=True (state steps live on the device).
    CAPTURABLE_OPTIMIZER = auto()
    # FFT operations accept float16 and complex32 inputs.
    HALF_PRECISION_FFT = auto()


class DeviceInterface:
    """
    This is a simple device runtime interface for Inductor. It enables custom
    backends to be integrated with Inductor in a device-agnostic semantic.
    """

    class device:
        def __new__(cls, device: torch.types.Device) -> Any:
            raise NotImplementedError

    class Event:
        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError(
                "Event should be inherited from torch.Event, otherwise, it couldn't be captured by dynamo."
            )

    class Stream:
        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError(
                "Stream should be inherited from torch.Stream, otherwise, it couldn't be captured by dynamo."
            )

    class Worker:
        """
        Worker API to query device properties that will work in multi processing
        workers that cannot use the GPU APIs (due to processing fork() and
        initialization time issues). Properties are recorded in the main process
        before we fork the workers.
        """

        @staticmethod
        def set_device(device: int) -> None:
            raise NotImplementedError

        @staticmethod
        def current_device() -> int:
            raise NotImplementedError

        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            raise NotImplementedError

    @staticmethod
    def current_device() -> int:
        raise NotImplementedError

    @staticmethod
    def set_device(device: torch.types.Device) -> None:
        raise NotImplementedError

    @staticmethod
    def maybe_exchange_device(device: int) -> int:
        raise NotImplementedError

    @staticmethod
    def exchange_device(device: int) -> int:
        raise NotImplementedError

    @staticmethod
    def device_count() -> int:
        raise NotImplementedError

    @staticmethod
    def is_available() -> bool:
        raise NotImplementedError

    @staticmethod
    def stream(stream: torch.Stream) -> Any:
        raise NotImplementedError

    @staticmethod
    def current_stream() -> torch.Stream:
        raise NotImplementedError

    @staticmethod
    def set_stream(stream: torch.Stream) -> None:
        raise NotImplementedError

    @staticmethod
    def _set_stream_by_id(stream_id: int, device_index: int, device_type: int) -> None:
        raise NotImplementedError

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        raise NotImplementedError

    @staticmethod
    def synchronize(device: torch.types.Device = None) -> None:
        raise NotImplementedError

    @classmethod
    def get_device_properties(cls, device: torch.types.Device = None) -> Any:
        return cls.Worker.get_device_properties(device)

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> Any:
        raise NotImplementedError

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        raise NotImplementedError

    @classmethod
    def is_dtype_supported(
        cls, dtype: torch.dtype, including_emulation: bool = False
    ) -> bool:
        return dtype != torch.bfloat16 or cls.is_bf16_supported(including_emulation)

    @staticmethod
    def memory_allocated(device: torch.types.Device = None) -> int:
        raise NotImplementedError

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        """
        Returns True if the device has Triton support, False otherwise, even if
        the appropriate Triton backend is not available.
        """
        return False

    @classmethod
    def raise_if_triton_unavailable(cls, device: torch.types.Device = None) -> None:
        """
        Raises a `torch._dynamo.exc.TritonUnavailableError` (a `RuntimeError`)
        with the appropriate human-readable instructions to resolve the issue if
        Triton is not available for the given device, or the default device if
        `device` is `None`.

        The caller should ensure the presence of the 'triton' package, and check
        `is_triton_capable()`, before calling this method.

        Default: raises if the device is not Triton-capable.
        """
        from torch._dynamo.exc import TritonUnavailableError

        if not cls.is_triton_capable():
            raise TritonUnavailableError(
                "This device is not capable of supporting Triton"
            )

        # A device that names its Triton backend needs it installed, unless
        # Triton's interpreter runs the kernels (TRITON_INTERPRET=1).
        backend_name = cls.triton_backend_name()
        if backend_name is not None:
            import triton.backends

            from torch.utils._triton import triton_interpret

            if not triton_interpret() and backend_name not in triton.backends.backends:
                raise TritonUnavailableError(
                    f"triton not built with the {backend_name!r} backend"
                )

    @staticmethod
    def triton_backend_name() -> str | None:
        """
        Returns the name of the Triton backend that compiles and launches this
        device's Triton kernels (its key in `triton.backends.backends`, as
        registered by the backend's `triton.backends` entry point), or None.

        With a name, Inductor hashes this device's kernels with that backend's
        compiler and makes its driver Triton's active one before it compiles,
        loads or launches them, so a process can hold kernels of several
        devices whose Triton backends are all active. The backend must be
        installed when a kernel is compiled, except under `TRITON_INTERPRET=1`,
        where Triton's interpreter runs the kernels.

        Default: None, the device's kernels use the driver Triton chooses for
        the whole process (`triton.runtime.driver.active`). The in-tree
        interfaces return None. Sampled at code generation of every Triton
        kernel; the name is written into the generated kernel, so compile
        subprocesses do not consult the interface.
        """
        return None

    @staticmethod
    def is_gpu() -> bool:
        """
        Returns True if Inductor treats this device type as GPU-class: it is in
        `torch._inductor.utils.GPU_TYPES` and in
        `torch._inductor.runtime.benchmarking.GPU_BENCHMARK_DEVICE_TYPES`,
        `is_gpu(device)` is True for it and GPU paths (Triton kernels, device
        guards, the autotune subprocess pool, GPU benchmarks that name no
        device) may pick it.

        Default: False. A backend that never overrides it is treated like a
        CPU-class device. Every in-tree interface states its value.
        """
        return False

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        """
        Returns True if Triton kernels on `device` (default: the current
        device) may use host-side TMA descriptors (Triton's tensor descriptor
        and experimental descriptor APIs). Sampled by
        `torch.utils._triton.has_triton_tma()` and the helpers it uses, for
        cuda and for available out-of-tree devices, once per registry change.

        Default: False. CUDA answers True from compute capability 9.0 on
        (not on ROCm); every in-tree interface states its value.
        """
        return False

    @classmethod
    def exposes_streams(cls) -> bool:
        """
        Returns True if the device has streams that generated code must guard
        and switch devices around (`torch._inductor.utils.device_need_guard`).

        Default: True iff the interface overrides the `Stream` slot
        (`cls.Stream is not DeviceInterface.Stream`): overriding
        `Stream` with a `torch.Stream` subclass is the stream-support contract.
        A backend may override this method to opt out (its `Stream` is a
        placeholder) or in (it reuses the base `Stream` but has streams).
        """
        return cls.Stream is not DeviceInterface.Stream

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        """
        Returns the number of multiprocessors (SMs, compute units, cores) of
        `device`, or of the current device if `device` is None. Inductor sizes
        persistent kernels and decides `is_big_gpu` with it.

        Default: `cls.get_device_properties(device).multi_processor_count`; if
        the properties have no such field (or it is None), an `AttributeError`
        says to override this method.
        """
        props = cls.get_device_properties(device)
        count = getattr(props, "multi_processor_count", None)
        if count is None:
            raise AttributeError(
                f"{cls.__name__} must override get_multi_processor_count because "
                f"its device properties do not expose the standard field "
                f"'multi_processor_count': {cls.__name__}.get_device_properties() "
                f"returned a {type(props).__name__} without it; override "
                f"{cls.__name__}.get_multi_processor_count() to return the number "
                "of multiprocessors of the device"
            )
        return count

    @staticmethod
    def visible_devices_env() -> str | None:
        """
        Returns the name of the environment variable that restricts the devices
        of this type a process sees (like `CUDA_VISIBLE_DEVICES`), or None.
        Inductor's autotune subprocess pool reads it to list the devices to
        benchmark on and sets it to pin each subprocess to one device.

        Default: None, meaning "no pinning": subprocesses see every device, and
        the pool uses `range(device_count())`. The in-tree GPU-class devices
        (cuda, xpu, mtia, mps) return "CUDA_VISIBLE_DEVICES", the variable the
        pool sets for whichever of them it runs on; cpu and tpu return None.
        """
        return None

    @classmethod
    def get_cache_system_info(cls) -> dict[str, object] | None:
        """
        Returns device metadata whose change must invalidate compiled artifacts
        (e.g. runtime, driver and compiler versions, device name), as a
        JSON-serializable dict, or None.

        Called only when `is_available()` is True, when Inductor computes its
        system identity (`CacheBase.get_system()`): once per process, and again
        after the device registry changes. The result enters the FX graph cache
        key.

        Default: None, nothing device-specific enters the key (in-tree devices
        also return None; CUDA's metadata is collected by the cache itself).
        """
        return None

    @staticmethod
    def get_cpp_device_options(
        aot_mode: bool, compile_only: bool
    ) -> _CppDeviceOptions | None:
        """
        Returns the C++ build options of this device for Inductor's C++ builds
        (`cpp_builder.get_cpp_torch_device_options`), as a 7-tuple of
        `list[str]`: `(definitions, include_dirs, cflags, ldflags,
        library_dirs, libraries, passthrough_args)`; or None. `aot_mode` is True
        for AOTInductor, `compile_only` when the build produces an object file
        that is linked later.

        Consulted for device types that `cpp_builder` does not know, after a
        callback from `cpp_builder.register_cpp_device_options()` and
        `DeviceOpOverrides.get_cpp_torch_device_options()`. A tuple is the
        device's options: `get_cpp_torch_device_options` returns it as it is,
        without the library paths and custom op libraries it computes for other
        devices (the compiler still gets torch's include directories).

        Default: None, the device gets the generic options computed for any
        device (torch's include and library paths, no device macros or
        libraries).
        """
        return None

    @staticmethod
    def get_cpp_optimization_flags(
        cflags: list[str], ldflags: list[str], min_optimize: bool
    ) -> tuple[list[str], list[str]] | None:
        """
        Adjusts the optimization flags of Inductor's C++ builds for this
        device (`cpp_builder.CppTorchDeviceOptions(device_type=...)` and the
        `device_type=` of the other option classes): receives the flags every
        build gets, without their leading dash (`cflags` such as `"O3"`,
        `"DNDEBUG"`, `"ffast-math"`, `"march=native"`; `ldflags`) and
        `min_optimize` (True for builds that ask for less optimization, such
        as AOTInductor's wrapper), and returns the `(cflags, ldflags)` to use
        instead, or None to keep them. Called on every C++ build for the
        device, after `config.aot_inductor` has chosen the flags; the result
        enters the build command and so the compiled code's cache key. A
        result that is not None or two lists of str fails the build with a
        TypeError naming the device; an exception it raises fails the build.

        Consulted for device types that are not built in; builds for
        built-in devices (cpu included) never call it.

        Default: None, the device's builds use the optimization flags of cpu
        builds.
        """
        return None

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        """
        Returns the framework-wide capabilities of the device (of `device`, or
        of the device type when None) as a new set of
        `torch._inductor.codegen.common.BackendFeature` members; a member that
        is absent means "not supported".

        `BackendFeature` has two kinds of members. Codegen members (FOREACH,
        SORT, TRITON_TEMPLATES, ...) describe what the device's Inductor
        `Scheduling` generates; they are answered by
        `Scheduling.get_backend_features()` and asked through
        `get_backend_features()` / `V.graph.has_feature()`, never here.
        Framework members describe the device itself and are answered here,
        `GPU` (GPU-class, see `is_gpu()`) among them; each member's comment says
        what it declares and who asks. The set is read through a probe
        (`torch._inductor.utils._backend_features_of_interface`): an override
        that raises or returns something other than a set of `BackendFeature`
        members declares nothing (logged once). It is sampled again after
        every change of the device registry.

        Default: `{BackendFeature.GPU}` if `cls.is_gpu()`, else the empty set:
        no framework capability beyond being GPU-class. Every in-tree interface
        states its set. An override should extend
        `super().backend_features(device)`, so that `GPU` stays in the set iff
        `is_gpu()` is True (a mismatch is reported once and the device is
        treated as GPU-class).
        """
        if cls.is_gpu():
            return OrderedSet([BackendFeature.GPU])
        return OrderedSet()

    #: Typed tensor classes of the device (like `torch.cuda.FloatTensor`) that
    #: Dynamo keeps in the graph (`UserDefinedClassVariable._in_graph_classes`).
    #: Default: none. (The `Stream` and `Event` classes of an out-of-tree
    #: device are in-graph classes already.)
    dynamo_tensor_classes: tuple[type, ...] = ()
    #: Runtime functions of the device (like `torch.cuda.is_available`) whose
    #: result Dynamo constant-folds while tracing, without a guard: their value
    #: must not change during the process. Default: none; the device module's
    #: `is_available`, `device_count` and `get_device_properties` are folded
    #: anyway (see `torch._dynamo.trace_rules._DEVICE_MODULE_DEFAULT_RULES`).
    #: Example: `dynamo_constant_fold_fns = (torch.acc._C.device_count,)`.
    dynamo_constant_fold_fns: tuple[Callable[..., Any], ...] = ()
    #: Like `dynamo_constant_fold_fns`, but Dynamo guards on the value of a
    #: call without arguments and recompiles when it changes (like
    #: `torch.cuda.current_device`). Default: none; the device module's
    #: `current_device` and `is_initialized` are folded with guards anyway.
    #: Example: `(torch.acc._C.current_device,)`.
    dynamo_constant_fold_fns_need_guards: tuple[Callable[..., Any], ...] = ()


class DeviceGuard:
    """
    This class provides a context manager for device switching. This is a stripped
    down version of torch.{device_name}.device.

    The context manager changes the current device to the given device index
    on entering the context and restores the original device on exiting.
    The device is switched using the provided device interface.
    """

    def __init__(
        self, device_interface: type[DeviceInterface], index: int | None
    ) -> None:
        self.device_interface = device_interface
        self.idx = index
        self.prev_idx = -1

    def __enter__(self) -> None:
        if self.idx is not None:
            self.prev_idx = self.device_interface.exchange_device(self.idx)

    def __exit__(self, type: Any, value: Any, traceback: Any) -> Literal[False]:
        if self.idx is not None:
            self.idx = self.device_interface.maybe_exchange_device(self.prev_idx)
        return False


class CudaInterface(DeviceInterface):
    device = torch.cuda.device  # type: ignore[assignment]

    # register Event and Stream class into the backend interface
    # make sure Event and Stream are implemented and inherited from the torch.Event and torch.Stream
    Event = torch.cuda.Event  # type: ignore[assignment]
    Stream = torch.cuda.Stream  # type: ignore[assignment]

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def set_device(device: int) -> None:
            caching_worker_current_devices["cuda"] = device

        @staticmethod
        def current_device() -> int:
            if "cuda" in caching_worker_current_devices:
                return caching_worker_current_devices["cuda"]
            return torch.cuda.current_device()

        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            if device is not None:
                if isinstance(device, str):
                    device = torch.device(device)
                    if device.type != "cuda":
                        raise AssertionError(
                            f"Expected device type 'cuda', got '{device.type}'"
                        )
                if isinstance(device, torch.device):
                    device = device.index
            if device is None:
                device = CudaInterface.Worker.current_device()

            if "cuda" not in caching_worker_device_properties:
                device_prop = [
                    torch.cuda.get_device_properties(i)
                    for i in range(torch.cuda.device_count())
                ]
                caching_worker_device_properties["cuda"] = device_prop

            return caching_worker_device_properties["cuda"][device]

    current_device = staticmethod(torch.cuda.current_device)
    set_device = staticmethod(torch.cuda.set_device)
    device_count = staticmethod(torch.cuda.device_count)
    stream = staticmethod(torch.cuda.stream)  # type: ignore[assignment]
    current_stream = staticmethod(torch.cuda.current_stream)
    set_stream = staticmethod(torch.cuda.set_stream)  # type: ignore[assignment]
    _set_stream_by_id = staticmethod(torch.cuda._set_stream_by_id)  # type: ignore[assignment]
    synchronize = staticmethod(torch.cuda.synchronize)
    get_device_properties = staticmethod(torch.cuda.get_device_properties)  # type: ignore[assignment]
    get_raw_stream = staticmethod(get_cuda_stream)  # type: ignore[assignment, arg-type]
    exchange_device = staticmethod(torch.cuda._exchange_device)  # type: ignore[arg-type, has-type]
    maybe_exchange_device = staticmethod(torch.cuda._maybe_exchange_device)  # type: ignore[arg-type, has-type]
    memory_allocated = staticmethod(torch.cuda.memory_allocated)
    is_bf16_supported = staticmethod(torch.cuda.is_bf16_supported)  # type: ignore[arg-type]

    # The torch.cuda entries of Dynamo's in-graph classes and constant-fold
    # lists.
    dynamo_tensor_classes = (
        torch.cuda.FloatTensor,  # type: ignore[attr-defined]
        torch.cuda.DoubleTensor,  # type: ignore[attr-defined]
        torch.cuda.HalfTensor,  # type: ignore[attr-defined]
        torch.cuda.BFloat16Tensor,  # type: ignore[attr-defined]
        torch.cuda.ByteTensor,  # type: ignore[attr-defined]
        torch.cuda.CharTensor,  # type: ignore[attr-defined]
        torch.cuda.IntTensor,  # type: ignore[attr-defined]
        torch.cuda.ShortTensor,  # type: ignore[attr-defined]
        torch.cuda.LongTensor,  # type: ignore[attr-defined]
    )
    dynamo_constant_fold_fns = (
        torch.cuda.get_device_properties,
        torch.cuda.is_available,
    )
    dynamo_constant_fold_fns_need_guards = (
        torch.cuda.current_device,
        torch.cuda.is_initialized,
    )

    @staticmethod
    def is_gpu() -> bool:
        return True

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return (
            torch.cuda.is_available()
            and torch.cuda.get_device_capability(device) >= (9, 0)
            and not torch.version.hip
        )

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet(
            [
                BackendFeature.GPU,
                BackendFeature.ONLINE_SOFTMAX,
                BackendFeature.FOREACH_KERNELS,
                BackendFeature.FUSED_OPTIMIZER,
                BackendFeature.CAPTURABLE_OPTIMIZER,
                BackendFeature.HALF_PRECISION_FFT,
            ]
        )

    @staticmethod
    def visible_devices_env() -> str | None:
        return "CUDA_VISIBLE_DEVICES"

    # Can be mock patched by @patch decorator.
    @staticmethod
    def is_available() -> bool:
        return torch.cuda.is_available()

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> int | str:
        if torch.version.hip is None:
            major, min = torch.cuda.get_device_capability(device)
            return major * 10 + min
        else:
            return torch.cuda.get_device_properties(device).gcnArchName.split(":", 1)[0]

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return (
            torch.version.hip is not None
            or torch.cuda.get_device_properties(device).major >= 7
        )

    @staticmethod
    def raise_if_triton_unavailable(device: torch.types.Device = None) -> None:
        from torch._dynamo.exc import TritonUnavailableError
        from torch._inductor.exc import GPUTooOldForTriton

        if not CudaInterface.is_triton_capable(device):
            device_props = torch.cuda.get_device_properties(device)
            raise GPUTooOldForTriton(device_props, inspect.currentframe())

        import triton.backends

        if torch.version.hip is not None:
            if "amd" not in triton.backends.backends:
                raise TritonUnavailableError("triton not built with the 'amd' backend")
        elif "nvidia" not in triton.backends.backends:
            raise TritonUnavailableError("triton not built with the 'nvidia' backend")

    @staticmethod
    def triton_backend_name() -> str | None:
        # Triton's process-wide active driver.
        return None


get_mtia_stream: Callable[[int], int] | None
if torch.mtia._is_compiled():
    from torch._C import _mtia_getCurrentRawStream as get_mtia_stream
else:
    get_mtia_stream = None


class MtiaInterface(DeviceInterface):
    device = torch.mtia.device  # type: ignore[assignment]
    Event = torch.mtia.Event  # type: ignore[assignment]
    Stream = torch.mtia.Stream  # type: ignore[assignment]

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def set_device(device: int) -> None:
            caching_worker_current_devices["mtia"] = device

        @staticmethod
        def current_device() -> int:
            if "mtia" in caching_worker_current_devices:
                return caching_worker_current_devices["mtia"]
            return torch.mtia.current_device()

        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            if device is not None:
                if isinstance(device, str):
                    device = torch.device(device)
                    if device.type != "mtia":
                        raise AssertionError(
                            f"Expected device type 'mtia', got '{device.type}'"
                        )
                if isinstance(device, torch.device):
                    device = device.index
            if device is None:
                device = MtiaInterface.Worker.current_device()

            if "mtia" not in caching_worker_device_properties:
                device_prop = [
                    torch.mtia.get_device_properties(i)
                    for i in range(torch.mtia.device_count())
                ]
                caching_worker_device_properties["mtia"] = device_prop

            return caching_worker_device_properties["mtia"][device]

    current_device = staticmethod(torch.mtia.current_device)
    set_device = staticmethod(torch.mtia.set_device)  # type: ignore[assignment]
    device_count = staticmethod(torch.mtia.device_count)
    stream = staticmethod(torch.mtia.stream)  # type: ignore[assignment]
    current_stream = staticmethod(torch.mtia.current_stream)
    set_stream = staticmethod(torch.mtia.set_stream)  # type: ignore[assignment]
    _set_stream_by_id = staticmethod(torch.mtia._set_stream_by_id)  # type: ignore[assignment]
    synchronize = staticmethod(torch.mtia.synchronize)
    get_device_properties = staticmethod(torch.mtia.get_device_properties)  # type: ignore[assignment]
    get_raw_stream = staticmethod(get_mtia_stream)  # type: ignore[assignment, arg-type]
    exchange_device = staticmethod(torch.mtia._exchange_device)  # type: ignore[arg-type, has-type]
    maybe_exchange_device = staticmethod(torch.mtia._maybe_exchange_device)  # type: ignore[arg-type, has-type]
    memory_allocated = staticmethod(torch.mtia.memory_allocated)  # type: ignore[assignment]
    is_bf16_supported = staticmethod(torch.mtia.is_bf16_supported)  # type: ignore[arg-type]

    @staticmethod
    def is_gpu() -> bool:
        return True

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return False

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet(
            [
                BackendFeature.GPU,
                BackendFeature.FOREACH_KERNELS,
                BackendFeature.FUSED_OPTIMIZER,
            ]
        )

    @staticmethod
    def visible_devices_env() -> str | None:
        # The autotune subprocess pool pins every in-tree GPU-class device
        # with CUDA_VISIBLE_DEVICES.
        return "CUDA_VISIBLE_DEVICES"

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        try:
            return super().get_multi_processor_count(device)
        except AttributeError:
            # The count DeviceProperties.create assumes for MTIA.
            return 64

    # Can be mock patched by @patch decorator.
    @staticmethod
    def is_available() -> bool:
        ret = torch.mtia.is_available()
        return ret

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> Any:
        cc = torch.mtia.get_device_capability(device)
        return cc

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True

    @staticmethod
    def raise_if_triton_unavailable(device: torch.types.Device = None) -> None:
        import triton.backends

        from torch._dynamo.exc import TritonUnavailableError

        if "mtia" not in triton.backends.backends:
            raise TritonUnavailableError("triton not built with the 'mtia' backend")

    @staticmethod
    def triton_backend_name() -> str | None:
        # Triton's process-wide active driver.
        return None


get_xpu_stream: Callable[[int], int] | None
if torch.xpu._is_compiled():
    from torch._C import _xpu_getCurrentRawStream as get_xpu_stream
else:
    get_xpu_stream = None


class XpuInterface(DeviceInterface):
    device = torch.xpu.device  # type: ignore[assignment]
    Event = torch.xpu.Event  # type: ignore[assignment]
    Stream = torch.xpu.Stream  # type: ignore[assignment]

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def set_device(device: int) -> None:
            caching_worker_current_devices["xpu"] = device

        @staticmethod
        def current_device() -> int:
            if "xpu" in caching_worker_current_devices:
                return caching_worker_current_devices["xpu"]
            return torch.xpu.current_device()

        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            if device is not None:
                if isinstance(device, str):
                    device = torch.device(device)
                    if device.type != "xpu":
                        raise AssertionError(
                            f"Expected device type 'xpu', got '{device.type}'"
                        )
                if isinstance(device, torch.device):
                    device = device.index
            if device is None:
                device = XpuInterface.Worker.current_device()

            if "xpu" not in caching_worker_device_properties:
                device_prop = [
                    torch.xpu.get_device_properties(i)
                    for i in range(torch.xpu.device_count())
                ]
                caching_worker_device_properties["xpu"] = device_prop

            return caching_worker_device_properties["xpu"][device]

    current_device = staticmethod(torch.xpu.current_device)
    set_device = staticmethod(torch.xpu.set_device)
    device_count = staticmethod(torch.xpu.device_count)  # type: ignore[has-type]
    stream = staticmethod(torch.xpu.stream)  # type: ignore[assignment]
    current_stream = staticmethod(torch.xpu.current_stream)
    set_stream = staticmethod(torch.xpu.set_stream)  # type: ignore[assignment]
    _set_stream_by_id = staticmethod(torch.xpu._set_stream_by_id)  # type: ignore[assignment]
    synchronize = staticmethod(torch.xpu.synchronize)
    get_device_properties = staticmethod(torch.xpu.get_device_properties)  # type: ignore[assignment]
    get_raw_stream = staticmethod(get_xpu_stream)  # type: ignore[assignment, arg-type]
    exchange_device = staticmethod(torch.xpu._exchange_device)  # type: ignore[arg-type, has-type]
    maybe_exchange_device = staticmethod(torch.xpu._maybe_exchange_device)  # type: ignore[arg-type, has-type]
    memory_allocated = staticmethod(torch.xpu.memory_allocated)

    # The torch.xpu entries of Dynamo's constant-fold lists.
    dynamo_constant_fold_fns = (
        torch.xpu.get_device_properties,
        torch.xpu.is_available,
    )
    dynamo_constant_fold_fns_need_guards = (
        torch.xpu.current_device,
        torch.xpu.is_initialized,
    )

    @staticmethod
    def is_gpu() -> bool:
        return True

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return False

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet(
            [
                BackendFeature.GPU,
                BackendFeature.ONLINE_SOFTMAX,
                BackendFeature.FOREACH_KERNELS,
                BackendFeature.FUSED_OPTIMIZER,
                BackendFeature.CAPTURABLE_OPTIMIZER,
                BackendFeature.HALF_PRECISION_FFT,
            ]
        )

    @staticmethod
    def visible_devices_env() -> str | None:
        # The autotune subprocess pool pins every in-tree GPU-class device
        # with CUDA_VISIBLE_DEVICES.
        return "CUDA_VISIBLE_DEVICES"

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        try:
            return super().get_multi_processor_count(device)
        except AttributeError:
            # The count DeviceProperties.create uses for XPU.
            return cls.get_device_properties(device).gpu_subslice_count

    # Can be mock patched by @patch decorator.
    @staticmethod
    def is_available() -> bool:
        return torch.xpu.is_available()

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> Any:
        cc = torch.xpu.get_device_capability(device)
        return cc

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return torch.xpu.is_bf16_supported()

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True

    @staticmethod
    def raise_if_triton_unavailable(device: torch.types.Device = None) -> None:
        import triton.backends

        from torch._dynamo.exc import TritonUnavailableError

        if "intel" not in triton.backends.backends:
            raise TritonUnavailableError("triton not built with the 'intel' backend")

    @staticmethod
    def triton_backend_name() -> str | None:
        # Triton's process-wide active driver.
        return None


@dataclass
class CpuDeviceProperties:
    multi_processor_count: int


class CpuInterface(DeviceInterface):
    # pyrefly: ignore [bad-override]
    class Event(torch.Event):
        def __init__(self, enable_timing: bool = True) -> None:
            self.time = 0.0

        def elapsed_time(self, other: Any) -> float:
            return (other.time - self.time) * 1000

        def record(self, stream: Any = None) -> None:
            self.time = time.perf_counter()

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def get_device_properties(
            device: torch.types.Device = None,
        ) -> CpuDeviceProperties:
            import multiprocessing

            cpu_count = multiprocessing.cpu_count()
            return CpuDeviceProperties(cpu_count)

    @staticmethod
    def is_available() -> bool:
        return True

    @staticmethod
    def is_gpu() -> bool:
        return False

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return False

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet(
            [
                BackendFeature.FUSED_OPTIMIZER,
            ]
        )

    @staticmethod
    def visible_devices_env() -> str | None:
        return None

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> str:
        return ""

    @staticmethod
    def get_raw_stream(device_idx: Any) -> int:
        return 0

    @staticmethod
    def current_device() -> int:
        return 0

    @staticmethod
    def synchronize(device: torch.types.Device = None) -> None:
        pass

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True

    @staticmethod
    def raise_if_triton_unavailable(device: torch.types.Device = None) -> None:
        import triton.backends

        from torch._dynamo.exc import TritonUnavailableError

        if "cpu" not in triton.backends.backends:
            raise TritonUnavailableError("triton not built with the 'cpu' backend")

    @staticmethod
    def triton_backend_name() -> str | None:
        # Triton's process-wide active driver.
        return None


class MpsInterface(DeviceInterface):
    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @classmethod
    def is_dtype_supported(
        cls, dtype: torch.dtype, including_emulation: bool = False
    ) -> bool:
        if dtype in [torch.float64, torch.complex128]:
            return False
        return True

    @staticmethod
    def is_available() -> bool:
        return torch.backends.mps.is_available()

    @staticmethod
    def is_gpu() -> bool:
        return True

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return False

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet(
            [
                BackendFeature.GPU,
                BackendFeature.FUSED_OPTIMIZER,
            ]
        )

    @staticmethod
    def visible_devices_env() -> str | None:
        # The autotune subprocess pool pins every in-tree GPU-class device
        # with CUDA_VISIBLE_DEVICES.
        return "CUDA_VISIBLE_DEVICES"

    @staticmethod
    def current_device() -> int:
        return 0

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> str:
        return ""

    @staticmethod
    def synchronize(device: torch.types.Device = None) -> None:
        torch.mps.synchronize()

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            return namedtuple("MPSProperties", ["multi_processor_count"])(
                torch.backends.mps.get_core_count()  # type: ignore[arg-type]
            )

        @staticmethod
        def current_device() -> int:
            return 0


class TpuInterface(DeviceInterface):
    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @classmethod
    def is_dtype_supported(
        cls, dtype: torch.dtype, including_emulation: bool = False
    ) -> bool:
        return dtype not in (
            torch.float64,
            torch.complex32,
            torch.complex64,
            torch.complex128,
            torch.half,
        )

    @staticmethod
    def is_available() -> bool:
        return has_torch_tpu()

    @staticmethod
    def is_gpu() -> bool:
        return False

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return False

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        return OrderedSet()

    @staticmethod
    def visible_devices_env() -> str | None:
        return None

    @staticmethod
    def current_device() -> int:
        return 0

    @staticmethod
    def get_compute_capability(device: torch.types.Device = None) -> str:
        return ""

    # pyrefly: ignore [bad-override]
    class Worker:
        @staticmethod
        def get_device_properties(device: torch.types.Device = None) -> Any:
            return namedtuple("TPUProperties", ["multi_processor_count"])(
                1  # type: ignore[arg-type]
            )

        @staticmethod
        def current_device() -> int:
            return 0


# The device types whose interfaces torch registers itself, in init_device_reg();
# nobody else may register an interface for them.
_BUILTIN_DEVICE_INIT_LIST: tuple[str, ...] = (
    "cuda",
    "xpu",
    "cpu",
    "mps",
    "mtia",
    "meta",
    "tpu",
)

device_interfaces: dict[str, type[DeviceInterface]] = {}
_device_initialized = False

# Protects device_interfaces, _device_initialized, _registry_generation,
# _registry_change_callbacks, the warned sets below and the device trace rules
# (torch._dynamo.trace_rules): each registration validates and resolves first
# (device_count(), discovery's imports and hooks), then publishes its entries
# and increments the generation in one critical section. It is a leaf lock: no
# import, no backend code, no registry-change callback and no other lock is
# taken while it is held. Inductor's loader table has a lock of its own
# (torch._inductor.codegen.common._backend_loader_lock), also a leaf: the two
# are never held together, so there is no order to get wrong.
_device_registry_lock = threading.Lock()
# Incremented by every change of the registry, see _notify_registry_change().
_registry_generation: int = 0
_registry_change_callbacks: list[Callable[[], None]] = []

# (PrivateUse1 name, registry generation, torch.<name> module) of the last
# discovery attempt: lookups retry discovery only when one of them changed.
_privateuse1_discovery_key: tuple[str, int, Any] | None = None
# (PrivateUse1 name, registry generation, torch.<name> module) of the last time
# a compile ran the device's Inductor backend loader to find its interface, see
# _discover_privateuse1_interface_for_compile().
_privateuse1_loader_key: tuple[str, int, Any] | None = None
# Set in a thread while it runs discovery, so that the backend code discovery
# runs does not start it again. Threads discover independently: none waits for
# another (see _maybe_discover_privateuse1_interface()).
_privateuse1_discovering = threading.local()
# Failures already reported, so that each is reported once per process.
_discovery_warned: set[tuple[str, str]] = set()

# (interface, method) of the broken answers _safe_probe() has logged.
_safe_probe_warned: set[tuple[Any, str]] = set()


def _registry_cache(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Caches ``fn(*args)`` until the next change of the device registry (of
    ``_registry_generation``). For answers derived from the registry."""
    entries: tuple[int, dict[Any, Any]] = (-1, {})

    @functools.wraps(fn)
    def cached(*args: Any) -> _T:
        nonlocal entries
        generation, answers = entries
        if generation == _registry_generation:
            try:
                return answers[args]
            except KeyError:
                pass
        else:
            answers = {}
            entries = (_registry_generation, answers)
        # Stored under the generation read before computing: a registration
        # meanwhile makes the next call compute again.
        answer = answers[args] = fn(*args)
        return answer

    def cache_clear() -> None:
        nonlocal entries
        entries = (-1, {})

    cached.cache_clear = cache_clear  # type: ignore[attr-defined]
    return cached


def _bump_registry_generation() -> None:
    """Records a change of a device's registration made outside this module
    (Inductor's backend and overrides registries): every `_registry_cache`
    recomputes."""
    global _registry_generation
    with _device_registry_lock:
        _registry_generation += 1


def _register_registry_change_callback(
    callback: Callable[[], None],
) -> Callable[[], None]:
    """
    Calls `callback()` after every change of the device interface registry:
    each registration (explicit, PrivateUse1, discovered) and each
    `init_device_reg()`. Returns `callback`, so it can be used as a decorator.

    Whatever is derived from the registry subscribes and drops or refreshes its
    derived state here, instead of keeping a snapshot. Callbacks run in the
    registering thread after the registration is published, with no lock held:
    they may read the registry (which may run PrivateUse1 discovery and deliver
    a nested notification, so a callback must tolerate being re-entered), and
    may run in two registering threads at once. When the registry changes while
    callbacks run, they run again, so that the last to finish has seen the
    latest registry.
    """
    with _device_registry_lock:
        if callback not in _registry_change_callbacks:
            _registry_change_callbacks.append(callback)
    return callback


def _notify_registry_change() -> None:
    """
    Records a change of the registry: increments `_registry_generation`, then
    runs the change callbacks (see `_run_registry_change_callbacks`). Called
    without the registry lock held; a registration that publishes under the
    lock increments the generation there and runs the callbacks after
    releasing it.
    """
    global _registry_generation
    with _device_registry_lock:
        _registry_generation += 1
    _run_registry_change_callbacks()


def _run_registry_change_callbacks() -> None:
    """
    Calls every callback subscribed with `_register_registry_change_callback()`,
    with no lock held, and again as long as the registry changed while they
    ran. A callback that raises is logged; the others still run.
    """
    while True:
        with _device_registry_lock:
            generation = _registry_generation
            callbacks = list(_registry_change_callbacks)
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.warning(
                    "Device registry change callback %s failed",
                    getattr(callback, "__qualname__", callback),
                    exc_info=True,
                )
        if _registry_generation == generation:
            return


def _device_type(device: str | torch.device) -> str:
    """The type of `device`: "acc" for "acc", "acc:1" or torch.device("acc", 1)."""
    if isinstance(device, torch.device):
        return device.type
    return device.partition(":")[0]


def _is_builtin_device(device: str | torch.device) -> bool:
    """Whether `device` is of a type whose interface torch registers itself."""
    return _device_type(device) in _BUILTIN_DEVICE_INIT_LIST


def _check_device_interface(device: str, device_interface: Any) -> None:
    if not (
        isinstance(device_interface, type)
        and issubclass(device_interface, DeviceInterface)
    ):
        raise TypeError(
            f"Cannot register {device_interface!r} for device '{device}': it is "
            "not a DeviceInterface subclass; a device interface must be a "
            "subclass of torch._dynamo.device_interface.DeviceInterface"
        )


def register_interface_for_device(
    device: str | torch.device, device_interface: type[DeviceInterface]
) -> None:
    """
    Registers `device_interface` for `device`: a `torch.device` under its type,
    a string as given (so "<type>:<index>" aliases can be registered too).

    Raises `TypeError` if `device_interface` is not a `DeviceInterface`
    subclass, and `ValueError` for a built-in device type
    (`_BUILTIN_DEVICE_INIT_LIST`): an out-of-tree backend renames PrivateUse1
    and calls `register_interface_for_device_PrivateUse1()`.

    Registration may happen at any time, also after `torch._inductor` was
    imported or after a first compile: it notifies every cache derived from the
    registry.
    """
    if isinstance(device, torch.device):
        device = device.type
    if not isinstance(device, str):
        raise TypeError(
            f"Cannot register {device_interface!r} for device {device!r}: the "
            "device must be a str or a torch.device"
        )
    _check_device_interface(device, device_interface)
    global _registry_generation
    with _device_registry_lock:
        if _device_type(device) in _BUILTIN_DEVICE_INIT_LIST:
            raise ValueError(
                f"Cannot register {device_interface.__name__} for device "
                f"'{device}': '{_device_type(device)}' is a built-in device type, "
                "whose interface torch registers itself. An out-of-tree backend "
                "renames PrivateUse1 with torch.utils.rename_privateuse1_backend() "
                "and registers its interface with torch._dynamo.device_interface."
                "register_interface_for_device_PrivateUse1()."
            )
        device_interfaces[device] = device_interface
        _registry_generation += 1
    _run_registry_change_callbacks()


def _privateuse1_names(name: str, device_interface: type[DeviceInterface]) -> list[str]:
    """`name` and "<name>:<i>" for each device; raises RuntimeError if the
    interface cannot count its devices."""
    try:
        count = device_interface.device_count()
    except Exception as err:
        raise RuntimeError(
            f"Cannot register {device_interface.__name__} for the PrivateUse1 "
            f"device '{name}': {device_interface.__name__}.device_count() raised "
            f"{type(err).__name__}: {err}. Nothing was registered; implement "
            "device_count() so that it works before registering."
        ) from err
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RuntimeError(
            f"Cannot register {device_interface.__name__} for the PrivateUse1 "
            f"device '{name}': {device_interface.__name__}.device_count() "
            f"returned {count!r}, expected a non-negative int. Nothing was "
            "registered."
        )
    return [name] + [f"{name}:{i}" for i in range(count)]


def _register_privateuse1(
    name: str,
    names: list[str],
    device_interface: type[DeviceInterface],
    *,
    discovered: bool = False,
) -> bool:
    """Publishes `device_interface` under `names`, then notifies. A discovered
    interface never replaces a registered one (explicit registration takes
    precedence); returns whether it was published."""
    global _registry_generation
    with _device_registry_lock:
        if discovered and name in device_interfaces:
            return False
        # Replace the aliases of an earlier registration (it may have counted
        # more devices); a lookup never finds the name missing meanwhile.
        stale = [
            key
            for key in device_interfaces
            if key.startswith(f"{name}:") and key not in names
        ]
        device_interfaces.update(dict.fromkeys(names, device_interface))
        for key in stale:
            del device_interfaces[key]
        _registry_generation += 1
    _run_registry_change_callbacks()
    return True


def register_interface_for_device_PrivateUse1(
    device_interface: type[DeviceInterface],
) -> None:
    """
    Registers `device_interface` for the PrivateUse1 backend under its current
    name (`torch._C._get_privateuse1_backend_name()`, see
    `torch.utils.rename_privateuse1_backend`) and under "<name>:<i>" for each
    of its `device_interface.device_count()` devices.

    Raises `TypeError` if `device_interface` is not a `DeviceInterface`
    subclass, and `RuntimeError`, registering nothing, if its `device_count()`
    fails. An explicit registration takes precedence over lazy discovery
    (the `get_device_interface()` hook of the device module and the
    `torch_<name>._dynamo.device_interface` module). Like every registration,
    it may happen at any time.
    """
    name = torch._C._get_privateuse1_backend_name()
    _check_device_interface(name, device_interface)
    names = _privateuse1_names(name, device_interface)
    _register_privateuse1(name, names, device_interface)


def _warn_discovery_failure(name: str, source: str, problem: str) -> None:
    key = (source, problem)
    with _device_registry_lock:
        if key in _discovery_warned:
            return
        _discovery_warned.add(key)
    warnings.warn(
        f"Skipping {source} while looking for the DeviceInterface of the "
        f"PrivateUse1 device '{name}': {problem}. Fix it, or register the "
        "interface with torch._dynamo.device_interface."
        "register_interface_for_device_PrivateUse1().",
        stacklevel=2,
    )


def _interface_from_device_module_hook(
    name: str, device_module: Any
) -> tuple[type[DeviceInterface], str] | None:
    if device_module is None:
        return None
    source = f"torch.{name}.get_device_interface()"
    try:
        hook = getattr(device_module, "get_device_interface", None)
        if hook is None:
            return None
        device_interface = hook()
    except Exception as err:
        _warn_discovery_failure(name, source, f"it raised {type(err).__name__}: {err}")
        return None
    if name in device_interfaces:
        # The hook registered the interface explicitly.
        return None
    if not (
        isinstance(device_interface, type)
        and issubclass(device_interface, DeviceInterface)
    ):
        _warn_discovery_failure(
            name,
            source,
            f"it returned {device_interface!r}, which is not a DeviceInterface "
            "subclass; expected a subclass of "
            "torch._dynamo.device_interface.DeviceInterface",
        )
        return None
    return device_interface, source


def _interface_from_convention_module(
    name: str,
) -> tuple[type[DeviceInterface], str] | None:
    module_name = f"torch_{name}._dynamo.device_interface"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        # Absent (the module or one of its parents does not exist) is silent;
        # a missing import inside the backend's code is a failure.
        if err.name is not None and (
            module_name == err.name or module_name.startswith(err.name + ".")
        ):
            return None
        _warn_discovery_failure(name, module_name, f"{type(err).__name__}: {err}")
        return None
    except Exception as err:
        _warn_discovery_failure(name, module_name, f"{type(err).__name__}: {err}")
        return None
    if name in device_interfaces:
        # The module registered the interface explicitly.
        return None
    source = f"{module_name}.DeviceInterface"
    cls = getattr(module, "DeviceInterface", None)
    if not isinstance(cls, type):
        _warn_discovery_failure(name, source, f"it is {cls!r}, expected a class")
        return None
    if issubclass(cls, DeviceInterface):
        return cls, source
    # The class need not inherit from DeviceInterface (so that the backend never
    # imports torch._dynamo); adopt it, so that every default applies.
    try:
        adopted = type(
            cls.__name__, (cls, DeviceInterface), {"__module__": cls.__module__}
        )
    except TypeError as err:
        _warn_discovery_failure(
            name, source, f"it cannot be combined with DeviceInterface: {err}"
        )
        return None
    return adopted, source


def _discover_privateuse1_interface(name: str, device_module: Any) -> None:
    """
    Finds and registers the interface of the PrivateUse1 device `name` that
    was not registered explicitly. Sources, in order of precedence:

    1. the hook `torch.<name>.get_device_interface()` of the device module,
       returning a `DeviceInterface` subclass;
    2. the module `torch_<name>._dynamo.device_interface`, whose attribute
       `DeviceInterface` is a class. It need not inherit from any torch class
       (so that the backend's package never imports `torch._dynamo`): it is
       adopted into a generated `DeviceInterface` subclass, so every default
       applies.

    The first that works is registered as by
    `register_interface_for_device_PrivateUse1()`. An absent source (no hook;
    no `torch_<name>`, `torch_<name>._dynamo` or
    `torch_<name>._dynamo.device_interface` module) is skipped silently. A
    broken one (the hook raises or returns something else; the module raises
    on import or its `DeviceInterface` is not a class; `device_count()` fails)
    is skipped with one warning. An interface that does not implement
    `device_count()` is registered under `name` alone. Runs without the
    registry lock held (it imports and calls the backend's code); what it
    finds is published under it, unless an interface was registered meanwhile.
    """
    sources: tuple[Callable[[], tuple[type[DeviceInterface], str] | None], ...] = (
        lambda: _interface_from_device_module_hook(name, device_module),
        lambda: _interface_from_convention_module(name),
    )
    for find in sources:
        found = find()
        if name in device_interfaces:
            # Registered explicitly by the backend's code that was run.
            return
        if found is None:
            continue
        device_interface, source = found
        if _is_base_default(device_interface, "device_count"):
            # Without device_count() the device type alone is registered;
            # "<name>:<i>" resolves to it (see get_interface_for_device).
            names = [name]
        else:
            try:
                names = _privateuse1_names(name, device_interface)
            except RuntimeError as err:
                _warn_discovery_failure(name, source, str(err))
                continue
        _register_privateuse1(name, names, device_interface, discovered=True)
        return


def _maybe_discover_privateuse1_interface() -> None:
    """
    Runs PrivateUse1 discovery if the backend was renamed and has no interface
    yet, at most once per (backend name, registry generation, `torch.<name>`
    module), so that lookups do not retry an import on every call.

    Discovery runs with no lock held and waits for no other thread: threads
    whose first lookups race each discover, the first interface published wins
    (see `_register_privateuse1`), and all of them then answer with it. Python's
    import lock serialises their imports of the same module. So a backend
    module that registers, or looks up, from another thread while it is being
    imported cannot hang. Backend code run by discovery that looks up the
    device again is answered from the registry as it is.
    """
    global _privateuse1_discovery_key
    name = torch._C._get_privateuse1_backend_name()
    if name == "privateuseone" or name in device_interfaces:
        return
    device_module = getattr(torch, name, None)
    key = (name, _registry_generation, device_module)
    if _privateuse1_discovery_key == key:
        return
    if getattr(_privateuse1_discovering, "active", False):
        # Re-entered from the backend code that discovery runs.
        return
    _privateuse1_discovering.active = True
    try:
        _discover_privateuse1_interface(name, device_module)
    finally:
        _privateuse1_discovering.active = False
    # Keyed by the generation before discovery: a registration meanwhile
    # (another device's, say) makes the next lookup look again.
    _privateuse1_discovery_key = key


def _discover_privateuse1_interface_for_compile() -> None:
    """
    The discovery a compile runs before it needs the PrivateUse1 device's
    interface: `_maybe_discover_privateuse1_interface()`, then, if the device
    still has none, the device's Inductor backend loader (the loader table of
    `torch._inductor.codegen.common.init_backend_registration`), which may
    register the interface along with the backend. So Dynamo and Inductor
    share one discovery path, and a backend that registers its interface only
    in its loader (`register_device_backend_loader`, a `torch_inductor_backends`
    entry point, `torch.<name>._inductor_backend_init()`) is found by the first
    compile.

    Imports Inductor only for a renamed PrivateUse1 device that has no
    interface, and runs the loader at most once per (name, registry
    generation, `torch.<name>` module), as discovery does. A probe: a loader
    that raises is logged, and the Inductor compile that needs the device runs
    it again and fails with its error.
    """
    global _privateuse1_loader_key
    _lazy_init_device_reg()
    _maybe_discover_privateuse1_interface()
    name = torch._C._get_privateuse1_backend_name()
    if name == "privateuseone" or name in device_interfaces:
        return
    key = (name, _registry_generation, getattr(torch, name, None))
    if _privateuse1_loader_key == key:
        return
    _privateuse1_loader_key = key
    from torch._inductor.codegen.common import init_backend_registration

    try:
        init_backend_registration((name,))
    except RuntimeError as err:
        log.warning("%s", err)


def _lazy_init_device_reg() -> None:
    if not _device_initialized:
        _init_device_reg(lazy=True)


def get_interface_for_device(device: str | torch.device) -> type[DeviceInterface]:
    """
    Returns the interface registered for `device` (a `torch.device`, a device
    type, or "<type>:<index>"). For an out-of-tree type, an index that has no
    alias of its own resolves to its type; built-in names resolve through
    their registered aliases only. The
    PrivateUse1 device's interface is discovered lazily if it was not
    registered (see `_discover_privateuse1_interface`). Raises
    `NotImplementedError` for an unknown device.
    """
    if isinstance(device, torch.device):
        device = device.type
    if not _device_initialized:
        # Inlined _lazy_init_device_reg(): this lookup is on hot paths.
        _init_device_reg(lazy=True)
    if device in device_interfaces:
        return device_interfaces[device]
    device_type = _device_type(device) if isinstance(device, str) else device
    if device_type in _BUILTIN_DEVICE_INIT_LIST:
        raise NotImplementedError(f"No interface for device {device}")
    if device_type in device_interfaces:
        return device_interfaces[device_type]
    if device_type == torch._C._get_privateuse1_backend_name():
        _maybe_discover_privateuse1_interface()
        if device_type in device_interfaces:
            return device_interfaces[device_type]
    raise NotImplementedError(f"No interface for device {device}")


def get_registered_device_interfaces() -> Iterable[tuple[str, type[DeviceInterface]]]:
    """
    Returns a live view of the registry: (name, interface) for every device
    type and "<type>:<index>" alias, after running pending PrivateUse1
    discovery.
    """
    _lazy_init_device_reg()
    _maybe_discover_privateuse1_interface()
    return device_interfaces.items()


def get_interface_for_device__PrivateUse1() -> Iterator[
    tuple[str, type[DeviceInterface]]
]:
    """
    Returns an iterator over (name, interface) of the registered out-of-tree
    device types: no built-in types, no "<type>:<index>" aliases.
    """
    _lazy_init_device_reg()
    _maybe_discover_privateuse1_interface()
    return iter(
        [
            (name, device_interface)
            for name, device_interface in list(device_interfaces.items())
            if ":" not in name and name not in _BUILTIN_DEVICE_INIT_LIST
        ]
    )


def init_device_reg() -> None:
    """
    Registers the built-in interfaces (cuda, xpu and mtia with a
    "<type>:<index>" alias per device, then cpu, mps and tpu), notifies
    once, then runs PrivateUse1 discovery. Runs lazily on the first lookup.
    """
    _init_device_reg(lazy=False)


def _init_device_reg(*, lazy: bool) -> None:
    """`init_device_reg()`; when `lazy`, publishes nothing if another thread
    initialised the registry meanwhile."""
    global _device_initialized, _registry_generation
    # Resolved outside the lock: counting devices calls into their runtimes.
    builtins: dict[str, type[DeviceInterface]] = {}
    for device, device_interface, device_module in (
        ("cuda", CudaInterface, torch.cuda),
        ("xpu", XpuInterface, torch.xpu),
        ("mtia", MtiaInterface, torch.mtia),
    ):
        builtins[device] = device_interface
        for i in range(device_module.device_count()):
            builtins[f"{device}:{i}"] = device_interface
    builtins.update(cpu=CpuInterface, mps=MpsInterface, tpu=TpuInterface)
    with _device_registry_lock:
        published = not (lazy and _device_initialized)
        if published:
            device_interfaces.update(builtins)
            _device_initialized = True
            _registry_generation += 1
    # Discovery first: what it registers is announced with the built-ins.
    _maybe_discover_privateuse1_interface()
    if published:
        _run_registry_change_callbacks()


def _is_base_default(device_interface: Any, method: str) -> bool:
    """Whether `device_interface.<method>` is DeviceInterface's own default."""
    if not isinstance(device_interface, type):
        return False
    for klass in device_interface.__mro__:
        if method in vars(klass):
            return klass is DeviceInterface
    return False


def _safe_probe(
    device_interface: Any,
    method: str,
    *args: Any,
    default: Any = False,
    **kwargs: Any,
) -> Any:
    """
    Returns `device_interface.<method>(*args, **kwargs)` for a capability query
    that must not fail (probes are total), or `default` when the answer
    is absent or broken: a broken out-of-tree interface counts as lacking the
    capability instead of failing the compile.

    A `NotImplementedError` from `DeviceInterface`'s own default means "absent"
    and is silent. Any other exception (an override that raises, a missing
    attribute) means "broken": logged once per (interface, method). When
    `default` is a bool the method is a predicate; an answer that is not a
    bool or an int is broken too, and an int answer is returned as a bool.
    """
    try:
        result = getattr(device_interface, method)(*args, **kwargs)
    except Exception as err:
        if not (
            isinstance(err, NotImplementedError)
            and _is_base_default(device_interface, method)
        ):
            _warn_broken_probe(
                device_interface,
                method,
                f"raised {type(err).__name__}: {err}",
                default,
            )
        return default
    if isinstance(default, bool):
        if not isinstance(result, int):
            _warn_broken_probe(
                device_interface, method, f"returned {result!r}, not a bool", default
            )
            return default
        return bool(result)
    return result


def _warn_broken_probe(
    device_interface: Any, method: str, problem: str, default: Any
) -> None:
    try:
        key = (device_interface, method)
        hash(key)
    except TypeError:
        key = (id(device_interface), method)
    with _device_registry_lock:
        if key in _safe_probe_warned:
            return
        _safe_probe_warned.add(key)
    log.warning(
        "%s.%s() %s; treating it as %r",
        getattr(device_interface, "__name__", repr(device_interface)),
        method,
        problem,
        default,
    )

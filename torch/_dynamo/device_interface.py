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

The registry (``device_interfaces``) maps a device type to its interface: the
built-ins are registered by ``init_device_reg()`` on first lookup, an out-of-tree
device by ``register_interface_for_device_PrivateUse1()`` or by ``_discover()``.
Every registration, through any door (Inductor's included), increments
``_registry_generation``; answers derived from the registry are
``_registry_cache``s keyed on it. Through every door a later registration
replaces an earlier one; only built-in device types are refused (``ValueError``).
"""

import difflib
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

        The caller should ensure the presence of the 'triton' package before
        calling this method.
        """
        from torch._dynamo.exc import TritonUnavailableError

        if not cls.is_triton_capable():
            raise TritonUnavailableError(
                "This device is not capable of supporting Triton"
            )

        # A named Triton backend must be installed, unless TRITON_INTERPRET=1.
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
        """The device's key in `triton.backends.backends`, whose compiler and
        driver Inductor uses for its kernels; default None, Triton's active
        driver."""
        return None

    @staticmethod
    def is_gpu() -> bool:
        """Whether Inductor treats the device as GPU-class (`GPU_TYPES`, GPU
        code paths). Default: False, CPU-class."""
        return False

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        """Whether Triton kernels on `device` may use host-side TMA
        descriptors. Default: False."""
        return False

    @classmethod
    def exposes_streams(cls) -> bool:
        """Whether generated code must guard the device and its streams
        (`device_need_guard`). Default: whether `Stream` is overridden."""
        return cls.Stream is not DeviceInterface.Stream

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        """The number of multiprocessors of `device` (default: current).
        Default: `get_device_properties(device).multi_processor_count`, else an
        `AttributeError` saying to override this method."""
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
        """The environment variable restricting the devices a process sees
        (like `CUDA_VISIBLE_DEVICES`), used to pin autotune subprocesses.
        Default: None, no pinning."""
        return None

    @classmethod
    def get_cache_system_info(cls) -> dict[str, object] | None:
        """JSON-serializable device metadata (versions, device name) that enters
        the FX graph cache key; asked only if `is_available()`. Default: None."""
        return None

    @staticmethod
    def get_cpp_device_options(
        aot_mode: bool, compile_only: bool
    ) -> _CppDeviceOptions | None:
        """The device's C++ build options, `(definitions, include_dirs, cflags,
        ldflags, library_dirs, libraries, passthrough_args)`, used as they are
        (see `cpp_builder.get_cpp_torch_device_options` for the precedence).
        Default: None, the generic options."""
        return None

    @staticmethod
    def get_cpp_optimization_flags(
        cflags: list[str], ldflags: list[str], min_optimize: bool
    ) -> tuple[list[str], list[str]] | None:
        """The `(cflags, ldflags)` (without leading dashes) to use instead of
        those given for the device's C++ builds (`min_optimize`: a build that
        asks for less). Default: None, cpu's flags."""
        return None

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        """The device's framework `BackendFeature` members, as a new set;
        absent means "not supported". Default: `{GPU}` if `is_gpu()`, else
        empty; an override should extend `super().backend_features(device)`."""
        if cls.is_gpu():
            return OrderedSet([BackendFeature.GPU])
        return OrderedSet()

    #: Typed tensor classes (like `torch.cuda.FloatTensor`) Dynamo keeps in
    #: the graph. Default: none.
    dynamo_tensor_classes: tuple[type, ...] = ()
    #: Runtime functions whose value never changes in a process, which Dynamo
    #: constant-folds without a guard. Default: none beyond the device module's.
    dynamo_constant_fold_fns: tuple[Callable[..., Any], ...] = ()
    #: Like `dynamo_constant_fold_fns`, folded with a guard (like
    #: `torch.cuda.current_device`). Default: none beyond the device module's.
    dynamo_constant_fold_fns_need_guards: tuple[Callable[..., Any], ...] = ()


def _features(*features: BackendFeature) -> Any:
    """A `backend_features` classmethod answering `features`, as a new set."""
    return classmethod(lambda cls, device=None: OrderedSet(features))


_GPU, _FOREACH, _FUSED = (
    BackendFeature.GPU,
    BackendFeature.FOREACH_KERNELS,
    BackendFeature.FUSED_OPTIMIZER,
)
_CUDA_LIKE = (_GPU, BackendFeature.ONLINE_SOFTMAX, _FOREACH, _FUSED)
_CUDA_LIKE += (BackendFeature.CAPTURABLE_OPTIMIZER, BackendFeature.HALF_PRECISION_FFT)


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

    # Capabilities; triton_backend_name() is the default None (active driver).
    is_gpu = staticmethod(lambda: True)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(*_CUDA_LIKE)

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return (
            torch.cuda.is_available()
            and torch.cuda.get_device_capability(device) >= (9, 0)
            and not torch.version.hip
        )

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

    # Capabilities; triton_backend_name() is the default None (active driver).
    is_gpu = staticmethod(lambda: True)
    supports_tma = staticmethod(lambda device=None: False)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(_GPU, _FOREACH, _FUSED)

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

    # Capabilities; triton_backend_name() is the default None (active driver).
    is_gpu = staticmethod(lambda: True)
    supports_tma = staticmethod(lambda device=None: False)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(*_CUDA_LIKE)

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

    # Capabilities; triton_backend_name() is the default None (active driver).
    is_gpu = staticmethod(lambda: False)
    supports_tma = staticmethod(lambda device=None: False)
    visible_devices_env = staticmethod(lambda: None)
    backend_features = _features(_FUSED)

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

    # Capabilities.
    is_gpu = staticmethod(lambda: True)
    supports_tma = staticmethod(lambda device=None: False)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(_GPU, _FUSED)

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

    # Capabilities.
    is_gpu = staticmethod(lambda: False)
    supports_tma = staticmethod(lambda device=None: False)
    visible_devices_env = staticmethod(lambda: None)
    backend_features = _features()

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
# device_backend_loaders and the discovery state below. A leaf lock: no import,
# no backend code and no other lock is taken while it is held.
_device_registry_lock = threading.Lock()
# Notified on every registration and at the end of every discovery.
_registry_changed = threading.Condition(_device_registry_lock)
# Incremented by every registration through any door (Inductor's call
# _bump_registry_generation()); caches of derived answers key on it.
_registry_generation: int = 0

# Inductor backend loaders, by device type (register_device_backend_loader()).
device_backend_loaders: dict[str, Callable[[], None]] = {}
BACKEND_ENTRY_POINT_GROUP = "torch_inductor_backends"
# (device, source) -> (generation, torch.<device>, raised) of a discovery source
# that left the device without what it needed: skipped until one of them changes.
_discovery_misses: dict[tuple[str, Any], tuple[int, Any, bool]] = {}
# Device type -> the thread discovering it; thread -> the thread it waits for.
_discovering: dict[str, int] = {}
_discovery_waits: dict[int, int] = {}
# Problems already reported (discovery, loaders, broken probe answers).
_warned: set[Any] = set()


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


def _changed() -> None:
    """Records a registration; the caller holds `_device_registry_lock`."""
    global _registry_generation
    _registry_generation += 1
    _registry_changed.notify_all()


def _bump_registry_generation() -> None:
    """Records a registration made outside this module (Inductor's backend,
    overrides and loader doors): every `_registry_cache` recomputes."""
    with _device_registry_lock:
        _changed()


def _warn_once(key: Any, message: str, *, logged: bool = False) -> None:
    with _device_registry_lock:
        if key in _warned:
            return
        _warned.add(key)
    if logged:
        log.warning("%s", message)
    else:
        warnings.warn(message, stacklevel=3)


def _device_type(device: str | torch.device) -> str:
    """The type of `device`: "acc" for "acc", "acc:1" or torch.device("acc", 1)."""
    if isinstance(device, torch.device):
        return device.type
    return device.partition(":")[0]


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
    _check_hook_names(device_interface)


def _check_hook_names(device_interface: type[DeviceInterface]) -> None:
    """Warns once per public attribute the backend's classes define that is no
    DeviceInterface member but close to one: a misspelt hook is ignored."""
    members = [name for name in dir(DeviceInterface) if not name.startswith("_")]
    for klass in device_interface.__mro__:
        if klass in DeviceInterface.__mro__ or klass.__module__ == __name__:
            continue
        for name in vars(klass):
            if name.startswith("_") or name in members:
                continue
            close = difflib.get_close_matches(name, members, n=1, cutoff=0.85)
            if close:
                _warn_once(
                    ("hook name", klass, name),
                    f"{klass.__qualname__}.{name} is not a DeviceInterface member, "
                    f"so it is never called; did you mean {close[0]}?",
                )


def register_interface_for_device(
    device: str | torch.device, device_interface: type[DeviceInterface]
) -> None:
    """
    Registers `device_interface` for `device` (a `torch.device` under its type,
    a string as given). Raises `TypeError` for a non-`DeviceInterface`, and
    `ValueError` for a built-in device type (use a PrivateUse1 backend).
    """
    if isinstance(device, torch.device):
        device = device.type
    if not isinstance(device, str):
        raise TypeError(
            f"Cannot register {device_interface!r} for device {device!r}: the "
            "device must be a str or a torch.device"
        )
    _check_device_interface(device, device_interface)
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
        _changed()


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
) -> None:
    """Publishes `device_interface` under `names` (replacing stale aliases); a
    discovered interface never replaces a registered one."""
    with _device_registry_lock:
        if discovered and name in device_interfaces:
            return
        stale = [
            key
            for key in device_interfaces
            if key.startswith(f"{name}:") and key not in names
        ]
        device_interfaces.update(dict.fromkeys(names, device_interface))
        for key in stale:
            del device_interfaces[key]
        _changed()


def register_interface_for_device_PrivateUse1(
    device_interface: type[DeviceInterface],
) -> None:
    """
    Registers `device_interface` under the PrivateUse1 backend's current name
    and "<name>:<i>" per device. Raises `TypeError` for a non-`DeviceInterface`
    and `RuntimeError`, registering nothing, if its `device_count()` fails.
    """
    name = torch._C._get_privateuse1_backend_name()
    _check_device_interface(name, device_interface)
    names = _privateuse1_names(name, device_interface)
    _register_privateuse1(name, names, device_interface)


def _warn_discovery_failure(name: str, source: str, problem: str) -> None:
    _warn_once(
        ("discovery", source, problem),
        f"Skipping {source} while looking for the DeviceInterface of the "
        f"PrivateUse1 device '{name}': {problem}. Fix it, or register the "
        "interface with torch._dynamo.device_interface."
        "register_interface_for_device_PrivateUse1().",
    )


def _register_discovered(name: str, source: str, found: Any) -> None:
    if name in device_interfaces:
        return  # the backend's code registered it explicitly
    if not (isinstance(found, type) and issubclass(found, DeviceInterface)):
        _warn_discovery_failure(
            name,
            source,
            f"it returned {found!r}, which is not a DeviceInterface subclass; "
            "expected a subclass of torch._dynamo.device_interface.DeviceInterface",
        )
        return
    _check_hook_names(found)
    names = [name]
    if not _is_base_default(found, "device_count"):
        try:
            names = _privateuse1_names(name, found)
        except RuntimeError as err:
            _warn_discovery_failure(name, source, str(err))
            return
    _register_privateuse1(name, names, found, discovered=True)


def _from_device_module_hook(name: str) -> str | None:
    hook = getattr(getattr(torch, name, None), "get_device_interface", None)
    if hook is None:
        return None
    source = f"torch.{name}.get_device_interface()"
    try:
        found = hook()
    except Exception as err:
        _warn_discovery_failure(name, source, f"it raised {type(err).__name__}: {err}")
        return source
    _register_discovered(name, source, found)
    return source


def _from_convention_module(name: str) -> str | None:
    module_name = f"torch_{name}._dynamo.device_interface"
    try:
        module = importlib.import_module(module_name)
    except Exception as err:
        # An absent module (or parent) is silent; a failing import is not.
        absent = isinstance(err, ModuleNotFoundError) and (
            err.name is not None
            and (module_name == err.name or module_name.startswith(err.name + "."))
        )
        if not absent:
            _warn_discovery_failure(name, module_name, f"{type(err).__name__}: {err}")
        return None if absent else module_name
    source = f"{module_name}.DeviceInterface"
    cls = getattr(module, "DeviceInterface", None)
    if name in device_interfaces:
        return source
    if not isinstance(cls, type):
        _warn_discovery_failure(name, source, f"it is {cls!r}, expected a class")
        return source
    if not issubclass(cls, DeviceInterface):
        # Adopted, so that a backend need not import torch._dynamo.
        try:
            cls = type(cls.__name__, (cls, DeviceInterface), {"__module__": cls.__module__})
        except TypeError as err:
            _warn_discovery_failure(
                name, source, f"it cannot be combined with DeviceInterface: {err}"
            )
            return source
    _register_discovered(name, source, cls)
    return source


def _backend_load_error(device: str, source: str, problem: str) -> RuntimeError:
    return RuntimeError(
        f"Could not load the Inductor backend of device '{device}' from "
        f"{source}: {problem}. Fix the backend package, or register the backend "
        "with torch._inductor.codegen.common.register_backend_for_device"
        f"('{device}', ...) before compiling."
    )


def _run_loader(device: str, source: str, loader: Callable[[], None]) -> str:
    try:
        loader()
    except Exception as err:
        raise _backend_load_error(
            device, source, f"it raised {type(err).__name__}: {err}"
        ) from err
    return source


def _from_registered_loader(device: str) -> str | None:
    loader = device_backend_loaders.get(device)
    if loader is None:
        return None
    name = getattr(loader, "__qualname__", None) or repr(loader)
    source = f"the loader {name} given to register_device_backend_loader()"
    return _run_loader(device, source, loader)


def _from_entry_point(device: str) -> str | None:
    from importlib.metadata import entry_points

    group = BACKEND_ENTRY_POINT_GROUP
    found = [ep for ep in entry_points(group=group) if ep.name == device]
    if not found:
        return None
    origins = [
        f"'{ep.name} = {ep.value}' of distribution "
        f"'{ep.dist.name if ep.dist is not None else '?'}'"
        for ep in found
    ]
    if len({ep.value for ep in found}) > 1:
        raise _backend_load_error(
            device,
            f"the {group} entry points",
            "more than one distribution provides it (" + "; ".join(origins) + "); "
            "uninstall all but one",
        )
    source = f"the {group} entry point {origins[0]}"
    try:
        loader = found[0].load()
    except Exception as err:
        raise _backend_load_error(
            device, source, f"loading it raised {type(err).__name__}: {err}"
        ) from err
    if not callable(loader):
        raise _backend_load_error(
            device, source, f"it refers to {loader!r}, which is not callable"
        )
    return _run_loader(device, source, loader)


def _from_inductor_backend_init(device: str) -> str | None:
    hook = getattr(getattr(torch, device, None), "_inductor_backend_init", None)
    if hook is None:
        return None
    if not callable(hook):
        raise _backend_load_error(
            device,
            f"torch.{device}._inductor_backend_init",
            f"it is {hook!r}, which is not callable",
        )
    return _run_loader(device, f"torch.{device}._inductor_backend_init()", hook)


# (source, is an Inductor backend loader, for any device or PrivateUse1 only),
# in the order of precedence of _discover().
_DISCOVERY_SOURCES = (
    (_from_device_module_hook, False, False),
    (_from_convention_module, False, False),
    (_from_registered_loader, True, True),
    (_from_entry_point, True, True),
    (_from_inductor_backend_init, True, False),
)
_LOADERS = (_from_registered_loader, _from_entry_point, _from_inductor_backend_init)


def _waits_for(thread: int, other: int) -> bool:
    """Whether `thread` waits, directly or not, for `other`'s discovery."""
    while thread in _discovery_waits:
        thread = _discovery_waits[thread]
        if thread == other:
            return True
    return False


def _discover(
    device: str, satisfied: Callable[[], bool] | None = None, *, strict: bool = False
) -> bool:
    """
    The one discovery path of an out-of-tree `device`, after explicit
    registration: for the PrivateUse1 device `torch.<name>.get_device_interface()`,
    then `torch_<name>._dynamo.device_interface`, while it has no interface; then,
    given `satisfied` (the caller's need, e.g. an Inductor backend), until it
    holds: the `register_device_backend_loader` loader, the
    `torch_inductor_backends` entry point, `torch.<name>._inductor_backend_init()`.

    A source that leaves the need unmet is skipped until the registry changes
    (a loader that registered nothing warns once). A loader that raises makes a
    `strict` call raise a RuntimeError naming device and loader, chained (and
    runs again on the next strict call); otherwise it is logged once. Backend
    code runs with no lock held, one thread per device: the others wait for it,
    unless they are that thread or it waits for them. Returns False if so.
    """
    privateuse1 = device == torch._C._get_privateuse1_backend_name()
    module = getattr(torch, device, None) if isinstance(device, str) else None

    def todo() -> list[Callable[[str], str | None]]:
        found = []
        for find, loader, any_device in _DISCOVERY_SOURCES:
            if loader:
                met = satisfied is None or satisfied()
            else:
                met = device in device_interfaces
            miss = _discovery_misses.get((device, find))
            if met or not (any_device or privateuse1):
                continue
            if miss is None or miss[:2] != (_registry_generation, module) or (
                strict and miss[2]
            ):
                found.append(find)
        return found

    if device in _BUILTIN_DEVICE_INIT_LIST or not todo():
        return True
    me = threading.get_ident()
    with _registry_changed:
        while (owner := _discovering.get(device)) is not None:
            if owner == me or _waits_for(owner, me):
                return False
            _discovery_waits[me] = owner
            try:
                _registry_changed.wait()
            finally:
                del _discovery_waits[me]
            if not todo():
                return True
        _discovering[device] = me
    try:
        for find in todo():
            if find not in todo():
                continue  # satisfied by an earlier source
            generation, raised = _registry_generation, False
            try:
                source = find(device)
            except RuntimeError as err:
                if strict:
                    raise
                raised, source = True, None
                _warn_once(("loader", device, str(err)), str(err), logged=True)
            if find not in todo():
                continue
            if source and generation == _registry_generation and find in _LOADERS:
                _warn_once(
                    ("loader", device, source),
                    f"The Inductor backend loader of device '{device}', {source}, "
                    f"returned without registering a backend for '{device}' with "
                    "register_backend_for_device(). Compiles that need the device "
                    "fail until a registration makes them run it again.",
                )
            with _device_registry_lock:
                _discovery_misses[(device, find)] = (_registry_generation, module, raised)
    finally:
        with _registry_changed:
            del _discovering[device]
            _registry_changed.notify_all()
    return True


def register_device_backend_loader(device: str, loader: Callable[[], None]) -> None:
    """
    Registers `loader`, a no-argument callable that registers the Inductor
    backend of the out-of-tree device type `device`, run by the first compile
    that needs it (see `_discover` for the order and rule of all loaders).
    Replaces an earlier loader. Raises `ValueError` for an in-tree or indexed
    device type and `TypeError` for a loader that is not callable.
    """
    if not isinstance(device, str) or not device or ":" in device:
        raise ValueError(
            f"register_device_backend_loader() expects a device type such as "
            f"'{torch._C._get_privateuse1_backend_name()}', got {device!r}"
        )
    if device in _BUILTIN_DEVICE_INIT_LIST:
        raise ValueError(
            f"'{device}' is an in-tree device type; its Inductor backend is "
            "registered by torch and cannot be given a loader"
        )
    if not callable(loader):
        raise TypeError(
            f"The Inductor backend loader of device '{device}' must be callable, "
            f"got {loader!r}"
        )
    with _device_registry_lock:
        device_backend_loaders[device] = loader
        _changed()


def _lazy_init_device_reg() -> None:
    if not _device_initialized:
        _init_device_reg(lazy=True)


def _discover_privateuse1(*, loaders: bool = False) -> None:
    """`_discover` for the PrivateUse1 device's interface; with `loaders`, as a
    compile does, also from its Inductor backend loaders (a probe)."""
    name = torch._C._get_privateuse1_backend_name()
    if name != "privateuseone" and name not in device_interfaces:
        _discover(name, (lambda: name in device_interfaces) if loaders else None)


def _discover_privateuse1_interface_for_compile() -> None:
    _lazy_init_device_reg()
    _discover_privateuse1(loaders=True)


def get_interface_for_device(device: str | torch.device) -> type[DeviceInterface]:
    """
    Returns the interface of `device` (a `torch.device`, a type or
    "<type>:<index>"; an out-of-tree index without an alias resolves to its
    type), discovering the PrivateUse1 device's if needed. Raises
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
    if isinstance(device_type, str):
        _discover(device_type)
    if device_type in device_interfaces:
        return device_interfaces[device_type]
    raise NotImplementedError(f"No interface for device {device}")


def get_registered_device_interfaces() -> Iterable[tuple[str, type[DeviceInterface]]]:
    """A live view of the registry (types and "<type>:<index>" aliases), after
    discovering the PrivateUse1 device's interface if needed."""
    _lazy_init_device_reg()
    _discover_privateuse1()
    return device_interfaces.items()


def get_interface_for_device__PrivateUse1() -> Iterator[
    tuple[str, type[DeviceInterface]]
]:
    """(name, interface) of the registered out-of-tree device types: no
    built-in types, no "<type>:<index>" aliases."""
    _lazy_init_device_reg()
    _discover_privateuse1()
    return iter(
        [
            (name, device_interface)
            for name, device_interface in list(device_interfaces.items())
            if ":" not in name and name not in _BUILTIN_DEVICE_INIT_LIST
        ]
    )


def init_device_reg() -> None:
    """Registers the built-in interfaces (cuda, xpu and mtia with a
    "<type>:<index>" alias per device, then cpu, mps and tpu), then discovers
    the PrivateUse1 device's. Runs lazily on the first lookup."""
    _init_device_reg(lazy=False)


def _init_device_reg(*, lazy: bool) -> None:
    global _device_initialized
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
        if not (lazy and _device_initialized):
            device_interfaces.update(builtins)
            _device_initialized = True
            _changed()
    _discover_privateuse1()


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
    `device_interface.<method>(*args, **kwargs)` for a query that must not fail,
    or `default` if the method is absent (DeviceInterface's NotImplementedError,
    silent) or broken (raises, or a predicate's answer is no bool/int; logged once).
    """
    try:
        result = getattr(device_interface, method)(*args, **kwargs)
    except Exception as err:
        if not (
            isinstance(err, NotImplementedError)
            and _is_base_default(device_interface, method)
        ):
            problem = f"raised {type(err).__name__}: {err}"
            _warn_broken_probe(device_interface, method, problem, default)
        return default
    if isinstance(default, bool):
        if not isinstance(result, int):
            problem = f"returned {result!r}, not a bool"
            _warn_broken_probe(device_interface, method, problem, default)
            return default
        return bool(result)
    return result


def _warn_broken_probe(
    device_interface: Any, method: str, problem: str, default: Any
) -> None:
    name = getattr(device_interface, "__name__", repr(device_interface))
    message = f"{name}.{method}() {problem}; treating it as {default!r}"
    _warn_once(("probe", id(device_interface), method), message, logged=True)

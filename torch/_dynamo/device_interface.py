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
from collections.abc import Callable, ItemsView, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, replace
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

_CppDeviceOptions = tuple[
    list[str], list[str], list[str], list[str], list[str], list[str], list[str]
]


class BackendFeature(Enum):
    """Capabilities a backend declares: codegen members by its Inductor
    ``Scheduling.get_backend_features()``, framework members by its
    ``DeviceInterface.backend_features()``. Absent means not supported."""

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
    # Framework members:
    GPU = auto()  # GPU-class, declared iff is_gpu() (GPU_TYPES)
    ONLINE_SOFTMAX = auto()  # softmax may use Inductor's online softmax
    FOREACH_KERNELS = auto()  # optimizers default to foreach=True
    FUSED_OPTIMIZER = auto()  # optimizers accept fused=True
    CAPTURABLE_OPTIMIZER = auto()  # optimizers accept capturable=True
    HALF_PRECISION_FFT = auto()  # FFTs accept float16 and complex32 inputs
    MM_OUT_DTYPE = auto()  # mm and bmm lowerings accept out_dtype
    NATIVE_MATMUL = auto()  # matmuls may lower to Triton dot/reduction IR
    MIX_ORDER_REDUCTION = auto()  # Triton fuses reductions over different dims
    CPP_TEMPLATES = auto()  # C++ GEMM/flex templates: host code on host memory


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
        Raises a `RuntimeError` with the appropriate human-readable instructions
        to resolve the issue if Triton is not available for the given device, or
        the default device if `device` is `None`.

        The caller should ensure the presence of the 'triton' package before
        calling this method.
        """
        from torch._dynamo.exc import TritonUnavailableError
        from torch.utils._triton import triton_interpret

        if not cls.is_triton_capable():
            raise TritonUnavailableError(
                "This device is not capable of supporting Triton"
            )
        backend_name = cls.triton_backend_name()
        if backend_name is not None and not triton_interpret():
            _require_triton_backend(backend_name)

    @staticmethod
    def triton_backend_name() -> str | None:
        """The device's key in `triton.backends.backends`. Default: None (active)."""
        return None

    @staticmethod
    def is_gpu() -> bool:
        """Whether Inductor treats the device as GPU-class. Default: False."""
        return False

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        """Whether Triton kernels may use host-side TMA descriptors. Default: False."""
        return False

    @staticmethod
    def supports_tensor_descriptors(device: torch.types.Device = None) -> bool:
        """Whether kernels may call `tl.make_tensor_descriptor`. Default: False."""
        return False

    @staticmethod
    def eager_uses_fma(op: str) -> bool:
        """Whether eager `op` ("add" with alpha, "addcmul", "addcdiv") rounds its
        multiply-add once, lowered to `ops.fma` to match. Default: False."""
        return False

    @staticmethod
    def max_autotune_gemm_min_sms() -> int:
        """Fewest multiprocessors for Triton GEMM templates. Default: 68."""
        return 68

    @staticmethod
    def pads_matmuls() -> bool:
        """Whether mm, addmm and bmm operands are padded to aligned sizes where that
        benchmarks faster (`config.shape_padding`). Default: False."""
        return False

    @classmethod
    def exposes_streams(cls) -> bool:
        """Whether generated code guards the device. Default: `Stream` overridden."""
        return cls.Stream is not DeviceInterface.Stream

    @classmethod
    def wakes_async_compile(cls) -> bool:
        """Whether an input on it wakes the async-compile pool. Default: `is_gpu()`."""
        return cls.is_gpu()

    @classmethod
    def runs_passes_under_device(cls) -> bool:
        """Whether graph passes run under `device(index)`. Default: `device` set."""
        return cls.device is not DeviceInterface.device

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        """Default: `get_device_properties(device).multi_processor_count`."""
        props = cls.get_device_properties(device)
        count = getattr(props, "multi_processor_count", None)
        if count is None:
            raise AttributeError(
                f"{cls.__name__} must override get_multi_processor_count because "
                f"its device properties do not expose the standard field "
                f"'multi_processor_count': {cls.__name__}.get_device_properties() "
                f"returned a {type(props).__name__} without it; override "
                f"{cls.__name__}.get_multi_processor_count() to return it"
            )
        return count

    @staticmethod
    def visible_devices_env() -> str | None:
        """The variable pinning autotune subprocesses' devices. Default: None."""
        return None

    @classmethod
    def get_cache_system_info(cls) -> dict[str, object] | None:
        """JSON-serializable metadata for the FX graph cache key. Default: None."""
        return None

    @staticmethod
    def get_cpp_device_options(
        aot_mode: bool, compile_only: bool
    ) -> _CppDeviceOptions | None:
        """`(definitions, include_dirs, cflags, ldflags, library_dirs, libraries,
        passthrough_args)` of C++ builds. Default: None, the generic options."""
        return None

    @staticmethod
    def get_cpp_optimization_flags(
        cflags: list[str], ldflags: list[str], min_optimize: bool
    ) -> tuple[list[str], list[str]] | None:
        """`(cflags, ldflags)` (no dashes) of C++ builds. Default: None, cpu's."""
        return None

    @classmethod
    def backend_features(
        cls, device: torch.types.Device = None
    ) -> OrderedSet[BackendFeature]:
        """The framework `BackendFeature`s, as a new set. Default: `{GPU}` if
        `is_gpu()`, else empty; overrides extend `super().backend_features()`."""
        if cls.is_gpu():
            return OrderedSet([BackendFeature.GPU])
        return OrderedSet()

    #: Typed tensor classes (like `torch.cuda.FloatTensor`) Dynamo keeps in the
    #: graph, and runtime functions it constant-folds without and with a guard.
    dynamo_tensor_classes: tuple[type, ...] = ()
    dynamo_constant_fold_fns: tuple[Callable[..., Any], ...] = ()
    dynamo_constant_fold_fns_need_guards: tuple[Callable[..., Any], ...] = ()

    @staticmethod
    def dynamo_config_defaults() -> dict[str, Any]:
        """`torch._dynamo.config` values for frames whose first tensor is on the
        device; options the user set win. Default: {}."""
        return {}

    @staticmethod
    def on_dynamo_reset() -> None:
        """Called by `torch._dynamo.reset()` after it cleared Dynamo. Default: none."""

    @staticmethod
    def get_inductor_choices() -> Any:
        """The `InductorChoices` the scheduler asks about fusing this device's nodes.
        Default: None, `V.choices`."""
        return None


def _require_triton_backend(backend: str) -> None:
    import triton.backends

    from torch._dynamo.exc import TritonUnavailableError

    if backend not in triton.backends.backends:
        raise TritonUnavailableError(f"triton not built with the {backend!r} backend")


def _features(*features: BackendFeature) -> Any:
    """A `backend_features` classmethod answering `features`, as a new set."""
    return classmethod(lambda cls, device=None: OrderedSet(features))


_GPU, _FOREACH, _FUSED = (
    BackendFeature.GPU, BackendFeature.FOREACH_KERNELS, BackendFeature.FUSED_OPTIMIZER
)
_CUDA_LIKE = (_GPU, BackendFeature.ONLINE_SOFTMAX, _FOREACH, _FUSED)
_CUDA_LIKE += (BackendFeature.CAPTURABLE_OPTIMIZER, BackendFeature.HALF_PRECISION_FFT)
_CUDA_LIKE += (BackendFeature.MM_OUT_DTYPE, BackendFeature.NATIVE_MATMUL)
_CUDA_LIKE += (BackendFeature.MIX_ORDER_REDUCTION,)


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

    dynamo_tensor_classes = tuple(
        getattr(torch.cuda, f"{kind}Tensor")
        for kind in "Float Double Half BFloat16 Byte Char Int Short Long".split()
    )
    dynamo_constant_fold_fns = (
        torch.cuda.get_device_properties, torch.cuda.is_available
    )
    dynamo_constant_fold_fns_need_guards = (
        torch.cuda.current_device, torch.cuda.is_initialized
    )

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = staticmethod(lambda: True)
    runs_passes_under_device = staticmethod(lambda: torch.cuda.is_available())
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(*_CUDA_LIKE)
    eager_uses_fma = staticmethod(lambda op: torch.version.hip is None or op == "addcmul")
    pads_matmuls = staticmethod(lambda: True)

    @staticmethod
    def supports_tma(device: torch.types.Device = None) -> bool:
        return (
            torch.cuda.is_available()
            and torch.cuda.get_device_capability(device) >= (9, 0)
            and not torch.version.hip
        )

    supports_tensor_descriptors = supports_tma

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
        from torch._inductor.exc import GPUTooOldForTriton

        if not CudaInterface.is_triton_capable(device):
            device_props = torch.cuda.get_device_properties(device)
            raise GPUTooOldForTriton(device_props, inspect.currentframe())

        _require_triton_backend("amd" if torch.version.hip is not None else "nvidia")


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

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = runs_passes_under_device = staticmethod(lambda: False)
    supports_tma = supports_tensor_descriptors = staticmethod(lambda device=None: False)
    eager_uses_fma = staticmethod(lambda op: False)
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
        _require_triton_backend("mtia")


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

    dynamo_constant_fold_fns = (
        torch.xpu.get_device_properties, torch.xpu.is_available
    )
    dynamo_constant_fold_fns_need_guards = (
        torch.xpu.current_device, torch.xpu.is_initialized
    )

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = staticmethod(lambda: True)
    runs_passes_under_device = staticmethod(lambda: False)
    supports_tma = staticmethod(lambda device=None: False)
    supports_tensor_descriptors = staticmethod(
        lambda device=None: torch.xpu.is_available()
    )
    max_autotune_gemm_min_sms = staticmethod(lambda: 16)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(*_CUDA_LIKE)
    eager_uses_fma = staticmethod(lambda op: op in ("addcmul", "addcdiv"))
    pads_matmuls = staticmethod(lambda: True)

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
        _require_triton_backend("intel")


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

    is_gpu = staticmethod(lambda: False)
    wakes_async_compile = runs_passes_under_device = staticmethod(lambda: False)
    supports_tma = supports_tensor_descriptors = staticmethod(lambda device=None: False)
    eager_uses_fma = staticmethod(lambda op: False)
    visible_devices_env = staticmethod(lambda: None)
    backend_features = _features(_FUSED, BackendFeature.CPP_TEMPLATES)

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
        _require_triton_backend("cpu")


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

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = runs_passes_under_device = staticmethod(lambda: False)
    supports_tma = supports_tensor_descriptors = staticmethod(lambda device=None: False)
    eager_uses_fma = staticmethod(lambda op: False)
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

    is_gpu = staticmethod(lambda: False)
    wakes_async_compile = runs_passes_under_device = staticmethod(lambda: False)
    supports_tma = supports_tensor_descriptors = staticmethod(lambda device=None: False)
    eager_uses_fma = staticmethod(lambda op: False)
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


# The device types whose interfaces torch registers itself; nobody else may.
_BUILTIN_DEVICE_INIT_LIST = ("cuda", "xpu", "cpu", "mps", "mtia", "meta", "tpu")


_ABSENT: Any = object()  # a record field that no door set


@dataclass(frozen=True)
class _DeviceRecord:
    """Every answer registered for a device type (or "<type>:<index>")."""

    interface: type[DeviceInterface] | None = None
    loader: Callable[[], None] | None = None  # see register_device_backend_loader
    cpp_options: Callable[[str, bool, bool], Any] | None = None
    trace_rules: dict[Callable[..., Any], str] | None = None  # function -> kind
    operator_policy: Any = None  # a torch._inductor DeviceOperatorPolicy
    # Inductor's: see register_backend_for_device, register_device_op_overrides.
    codegen: Any = None  # a DeviceCodegen
    custom_pass: Any = _ABSENT  # None: registered without one
    custom_config: Any = _ABSENT  # None: registered without one
    op_overrides: Any = None


# Device -> its record, replaced (never changed in place) by every door: the one
# table of device answers; every other one is derived from it.
_device_records: dict[str, _DeviceRecord] = {}
_NO_RECORD = _DeviceRecord()


class _RecordField(MutableMapping[str, Any]):
    """The devices whose record has `field` set, as a dict: a write goes through
    `register(device, value)` (default: sets the field), a deletion unsets it."""

    def __init__(
        self, field: str, register: Callable[[str, Any], None] | None = None
    ) -> None:
        self._field, self._register = field, register
        self._unset = getattr(_NO_RECORD, field)

    def _items(self) -> list[tuple[str, Any]]:
        records, unset = list(_device_records.items()), self._unset
        return [(d, v) for d, r in records if (v := getattr(r, self._field)) is not unset]

    def __contains__(self, device: object) -> bool:
        record = _device_records.get(device, _NO_RECORD)  # type: ignore[call-overload]
        return getattr(record, self._field) is not self._unset

    def __getitem__(self, device: str) -> Any:
        if (value := getattr(_device_records[device], self._field)) is self._unset:
            raise KeyError(device)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([device for device, _ in self._items()])

    def __len__(self) -> int:
        return len(self._items())

    def __setitem__(self, device: str, value: Any) -> None:
        if self._register is None:
            _update_device_record(device, **{self._field: value})
        else:
            self._register(device, value)

    def __delitem__(self, device: str) -> None:
        with _device_registry_lock:
            self[device]
            _set_record(device, **{self._field: self._unset})
            _changed()

    def items(self) -> ItemsView[str, Any]:
        return _RecordItems(self)

    def __repr__(self) -> str:
        return repr(dict(self._items()))


class _RecordItems(ItemsView[str, Any]):
    def __iter__(self) -> Iterator[tuple[str, Any]]:  # a snapshot
        return iter(self._mapping._items())  # type: ignore[attr-defined]


device_interfaces: MutableMapping[str, type[DeviceInterface]] = _RecordField(
    "interface", lambda device, cls: register_interface_for_device(device, cls)
)
_device_initialized = False

# Protects the registry and discovery state below; a leaf lock (no import, no
# backend code, no other lock while held), notified on every registration and
# at the end of every discovery.
_device_registry_lock = threading.Lock()
_registry_changed = threading.Condition(_device_registry_lock)
_registry_generation: int = 0  # bumped by every registration through any door
device_backend_loaders: MutableMapping[str, Callable[[], None]] = _RecordField(
    "loader", lambda device, loader: register_device_backend_loader(device, loader)
)
BACKEND_ENTRY_POINT_GROUP = "torch_inductor_backends"
# (device, source) -> (generation, torch.<device>, raised) of a source that left
# the need unmet: skipped until one of them changes.
_discovery_misses: dict[tuple[str, Any], tuple[int, Any, bool]] = {}
_discovering: dict[str, int] = {}  # device type -> the thread discovering it
_discovery_waits: dict[int, int] = {}  # thread -> the thread it waits for
_warned: set[Any] = set()  # the problems already reported


def _registry_cache(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Caches ``fn(*args)`` until ``_registry_generation`` changes."""
    entries: tuple[int, dict[Any, Any]] = (-1, {})

    @functools.wraps(fn)
    def cached(*args: Any) -> _T:
        nonlocal entries
        if entries[0] != _registry_generation:
            entries = (_registry_generation, {})
        # A registration while computing makes the next call compute again.
        answers = entries[1]
        if args not in answers:
            answers[args] = fn(*args)
        return answers[args]

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
    """Records a change of `_device_records` made without a door (a restore)."""
    with _device_registry_lock:
        _changed()


def _device_record(device_type: str) -> _DeviceRecord:
    return _device_records.get(device_type, _NO_RECORD)


def _set_record(device: str, **answers: Any) -> _DeviceRecord:
    """Sets `answers` on `device`'s record (trace rules merge) and returns the old
    one; the caller holds `_device_registry_lock` and calls `_changed()`."""
    record = _device_record(device)
    if "trace_rules" in answers:
        answers["trace_rules"] = {**(record.trace_rules or {}), **answers["trace_rules"]}
    if record.interface is None and answers.get("interface") is not None:
        _device_records.pop(device, None)  # listed last, as a dict lists a new key
    _device_records[device] = replace(record, **answers)
    return record


def _update_device_record(device_type: str, **answers: Any) -> _DeviceRecord:
    """`_set_record` as a registration of its own."""
    with _device_registry_lock:
        record = _set_record(device_type, **answers)
        _changed()
    return record


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
    return device.type if isinstance(device, torch.device) else device.partition(":")[0]


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
    """Warns once per public attribute of the backend's classes that is no
    DeviceInterface member but close to one: a misspelt hook."""
    members = [name for name in dir(DeviceInterface) if not name.startswith("_")]
    for klass in device_interface.__mro__:
        if klass in DeviceInterface.__mro__ or klass.__module__ == __name__:
            continue
        for name in vars(klass):
            close = difflib.get_close_matches(name, members, n=1, cutoff=0.85)
            if close and not name.startswith("_") and name not in members:
                _warn_once(
                    ("hook name", klass, name),
                    f"{klass.__qualname__}.{name} is not a DeviceInterface member, "
                    f"so it is never called; did you mean {close[0]}?",
                )


def register_interface_for_device(
    device: str | torch.device, device_interface: type[DeviceInterface]
) -> None:
    """Registers `device_interface` for `device`; raises `TypeError` for a
    non-`DeviceInterface`, `ValueError` for a built-in device type."""
    if isinstance(device, torch.device):
        device = device.type
    if not isinstance(device, str):
        raise TypeError(
            f"Cannot register {device_interface!r} for device {device!r}: the "
            "device must be a str or a torch.device"
        )
    _check_device_interface(device, device_interface)
    if _device_type(device) in _BUILTIN_DEVICE_INIT_LIST:
        raise ValueError(
            f"Cannot register {device_interface.__name__} for device '{device}': "
            f"'{_device_type(device)}' is a built-in device type, whose interface "
            "torch registers itself. An out-of-tree backend renames PrivateUse1 "
            "with torch.utils.rename_privateuse1_backend() and registers its "
            "interface with torch._dynamo.device_interface."
            "register_interface_for_device_PrivateUse1()."
        )
    _update_device_record(device, interface=device_interface)


def _register_privateuse1(
    name: str, device_interface: type[DeviceInterface], *, discovered: bool = False
) -> None:
    """Registers `device_interface` as `name` and "<name>:<i>" (dropping stale ones);
    RuntimeError if it cannot count its devices. Discovery replaces nothing."""
    cls = device_interface.__name__
    problem = f"Cannot register {cls} for the PrivateUse1 device '{name}': {cls}"
    names = [name]
    if not (discovered and _is_base_default(device_interface, "device_count")):
        try:
            count = device_interface.device_count()
        except Exception as err:
            raise RuntimeError(
                f"{problem}.device_count() raised {type(err).__name__}: {err}. Nothing "
                "was registered; implement device_count() so that it works first."
            ) from err
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuntimeError(
                f"{problem}.device_count() returned {count!r}, expected a "
                "non-negative int. Nothing was registered."
            )
        names += [f"{name}:{i}" for i in range(count)]
    with _device_registry_lock:
        if discovered and name in device_interfaces:
            return
        for key in [k for k in device_interfaces if k.startswith(f"{name}:")]:
            if key not in names:
                _set_record(key, interface=None)
        for key in names:
            _set_record(key, interface=device_interface)
        _changed()


def register_interface_for_device_PrivateUse1(
    device_interface: type[DeviceInterface],
) -> None:
    """Registers `device_interface` under the PrivateUse1 backend's current name
    and "<name>:<i>" per device. Raises `TypeError` for a non-`DeviceInterface`
    and `RuntimeError`, registering nothing, if its `device_count()` fails."""
    name = torch._C._get_privateuse1_backend_name()
    _check_device_interface(name, device_interface)
    _register_privateuse1(name, device_interface)


def _warn_discovery_failure(name: str, source: str, problem: str) -> None:
    _warn_once(
        ("discovery", source, problem),
        f"Skipping {source} while looking for the DeviceInterface of the "
        f"PrivateUse1 device '{name}': {problem}. Fix it, or register the "
        "interface with torch._dynamo.device_interface."
        "register_interface_for_device_PrivateUse1().",
    )


def _register_discovered(name: str, source: str, found: Any) -> str:
    if name in device_interfaces:
        pass  # the backend's code registered it explicitly
    elif not (isinstance(found, type) and issubclass(found, DeviceInterface)):
        problem = f"it returned {found!r}, which is not a DeviceInterface subclass"
        expected = "a subclass of torch._dynamo.device_interface.DeviceInterface"
        _warn_discovery_failure(name, source, f"{problem}; expected {expected}")
    else:
        _check_hook_names(found)
        try:
            _register_privateuse1(name, found, discovered=True)
        except RuntimeError as err:
            _warn_discovery_failure(name, source, str(err))
    return source


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
    return _register_discovered(name, source, found)


def _from_convention_module(name: str) -> str | None:
    module_name = f"torch_{name}._dynamo.device_interface"
    try:
        module = importlib.import_module(module_name)
    except Exception as err:
        # An absent module (or parent) is silent; a failing import is not.
        missing = isinstance(err, ModuleNotFoundError) and err.name is not None
        if missing and f"{module_name}.".startswith(f"{err.name}."):
            return None
        _warn_discovery_failure(name, module_name, f"{type(err).__name__}: {err}")
        return module_name
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
            bases, namespace = (cls, DeviceInterface), {"__module__": cls.__module__}
            cls = type(cls.__name__, bases, namespace)
        except TypeError as err:
            problem = f"it cannot be combined with DeviceInterface: {err}"
            _warn_discovery_failure(name, source, problem)
            return source
    return _register_discovered(name, source, cls)


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
        problem = f"it raised {type(err).__name__}: {err}"
        raise _backend_load_error(device, source, problem) from err
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
        problem = f"more than one distribution provides it ({'; '.join(origins)}); "
        problem += "uninstall all but one"
        raise _backend_load_error(device, f"the {group} entry points", problem)
    source = f"the {group} entry point {origins[0]}"
    try:
        loader = found[0].load()
    except Exception as err:
        problem = f"loading it raised {type(err).__name__}: {err}"
        raise _backend_load_error(device, source, problem) from err
    if not callable(loader):
        problem = f"it refers to {loader!r}, which is not callable"
        raise _backend_load_error(device, source, problem)
    return _run_loader(device, source, loader)


def _from_inductor_backend_init(device: str) -> str | None:
    hook = getattr(getattr(torch, device, None), "_inductor_backend_init", None)
    if hook is None:
        return None
    if not callable(hook):
        problem = f"it is {hook!r}, which is not callable"
        source = f"torch.{device}._inductor_backend_init"
        raise _backend_load_error(device, source, problem)
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


def _discover(
    device: str, satisfied: Callable[[], bool] | None = None, *, strict: bool = False
) -> bool:
    """Resolves an out-of-tree `device` from `_DISCOVERY_SOURCES` in order: its
    interface (PrivateUse1 only), then loaders until `satisfied()`. A source that
    leaves the need unmet is skipped until the registry changes; a loader that
    raises raises if `strict`, else is logged once. Backend code runs unlocked,
    one thread per device; returns False where waiting would deadlock."""
    privateuse1 = device == torch._C._get_privateuse1_backend_name()
    module = getattr(torch, device, None) if isinstance(device, str) else None

    def todo() -> list[Callable[[str], str | None]]:
        found = []
        for find, loader, any_device in _DISCOVERY_SOURCES:
            met = (satisfied is None or satisfied()) if loader else device in device_interfaces
            miss = _discovery_misses.get((device, find))
            retry = miss is None or miss[:2] != (_registry_generation, module) or (
                strict and miss[2]
            )
            if not met and (any_device or privateuse1) and retry:
                found.append(find)
        return found

    if device in _BUILTIN_DEVICE_INIT_LIST or not todo():
        return True
    me = threading.get_ident()
    with _registry_changed:
        while (owner := _discovering.get(device)) is not None:
            waited = owner  # the end of the chain of threads owner waits for
            while waited != me and waited in _discovery_waits:
                waited = _discovery_waits[waited]
            if waited == me:
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
        for find, loader, _ in _DISCOVERY_SOURCES:
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
            if source and generation == _registry_generation and loader:
                _warn_once(
                    ("loader", device, source),
                    f"The Inductor backend loader of device '{device}', {source}, "
                    f"returned without registering a backend for '{device}' with "
                    "register_backend_for_device(). Compiles that need the device "
                    "fail until a registration makes them run it again.",
                )
            _discovery_misses[(device, find)] = (_registry_generation, module, raised)
    finally:
        with _registry_changed:
            del _discovering[device]
            _registry_changed.notify_all()
    return True


def register_device_backend_loader(device: str, loader: Callable[[], None]) -> None:
    """Registers `loader()`, run by the first compile that needs the Inductor
    backend of the out-of-tree device type `device`. Raises `ValueError` for an
    in-tree or indexed device type, `TypeError` for a non-callable loader."""
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
    _update_device_record(device, loader=loader)


def _discover_privateuse1(*, loaders: bool = False) -> None:
    """`_discover`s the PrivateUse1 device's interface (and backend, if `loaders`)."""
    if not _device_initialized:
        _init_device_reg(lazy=True)
    name = torch._C._get_privateuse1_backend_name()
    if name != "privateuseone" and name not in device_interfaces:
        _discover(name, (lambda: name in device_interfaces) if loaders else None)


def get_interface_for_device(device: str | torch.device) -> type[DeviceInterface]:
    """The interface of `device`, discovered if needed (an out-of-tree index
    without an alias resolves to its type); `NotImplementedError` if unknown."""
    if isinstance(device, torch.device):
        device = device.type
    if not _device_initialized:
        _init_device_reg(lazy=True)
    if (interface := _device_records.get(device, _NO_RECORD).interface) is not None:
        return interface
    device_type = _device_type(device) if isinstance(device, str) else None
    if device_type is not None and device_type not in _BUILTIN_DEVICE_INIT_LIST:
        _discover(device_type)
        if device_type in device_interfaces:
            return device_interfaces[device_type]
    raise NotImplementedError(f"No interface for device {device}")


def _interface_or_none(device: torch.types.Device) -> type[DeviceInterface] | None:
    """`get_interface_for_device(device)`, or None for a device without one."""
    try:
        return get_interface_for_device(device)
    except NotImplementedError:
        return None


def get_registered_device_interfaces() -> Iterable[tuple[str, type[DeviceInterface]]]:
    """A live view of the registry, after discovering the PrivateUse1 device's."""
    _discover_privateuse1()
    return device_interfaces.items()


def get_interface_for_device__PrivateUse1() -> Iterator[
    tuple[str, type[DeviceInterface]]
]:
    """(name, interface) of the registered out-of-tree device types."""
    _discover_privateuse1()
    found = [(n, i) for n, i in list(device_interfaces.items()) if ":" not in n]
    return iter([(n, i) for n, i in found if n not in _BUILTIN_DEVICE_INIT_LIST])


def init_device_reg() -> None:
    """Registers the built-in interfaces, then discovers the PrivateUse1 one."""
    _init_device_reg(lazy=False)


def _init_device_reg(*, lazy: bool) -> None:
    global _device_initialized
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
            for device, device_interface in builtins.items():
                _set_record(device, interface=device_interface)
            _device_initialized = True
            _changed()
    _discover_privateuse1()


def _is_base_default(device_interface: Any, method: str) -> bool:
    """Whether `device_interface.<method>` is DeviceInterface's own."""
    if not isinstance(device_interface, type):
        return False
    owner = next((k for k in device_interface.__mro__ if method in vars(k)), None)
    return owner is DeviceInterface


def _safe_probe(
    device_interface: Any, method: str, *args: Any, default: Any = False, **kwargs: Any
) -> Any:
    """`device_interface.<method>(*args, **kwargs)`, or `default` if the method is
    absent (DeviceInterface's NotImplementedError, silent) or broken (raises, or a
    predicate's answer is no bool/int; logged once)."""
    try:
        result = getattr(device_interface, method)(*args, **kwargs)
    except Exception as err:
        absent = isinstance(err, NotImplementedError)
        if absent and _is_base_default(device_interface, method):
            return default
        problem = f"raised {type(err).__name__}: {err}"
    else:
        if not isinstance(default, bool):
            return result
        if isinstance(result, int):
            return bool(result)
        problem = f"returned {result!r}, not a bool"
    _warn_broken_probe(device_interface, method, problem, default)
    return default


def _warn_broken_probe(
    device_interface: Any, method: str, problem: str, default: Any
) -> None:
    name = getattr(device_interface, "__name__", repr(device_interface))
    message = f"{name}.{method}() {problem}; treating it as {default!r}"
    _warn_once(("probe", id(device_interface), method), message, logged=True)

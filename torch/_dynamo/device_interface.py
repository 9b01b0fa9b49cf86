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

import inspect
import logging
import threading
import time
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import dataclass
from enum import auto, Enum
from typing import Any, Literal

import torch
from torch.utils._pallas import has_torch_tpu
from torch.utils.backend_registration import _bump_registry_generation, _registry_cache


log = logging.getLogger(__name__)

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
        """Whether eager `op` (add with alpha, addcmul, addcdiv) fuses its FMA."""
        return False

    @staticmethod
    def max_autotune_gemm_min_sms() -> int:
        """Fewest multiprocessors for Triton GEMM templates. Default: 68."""
        return 68

    @staticmethod
    def pads_matmuls() -> bool:
        """Whether `config.shape_padding` may pad mm operands. Default: False."""
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
        """Whether passes run under `device(...)`. Default: it is a context manager."""
        device = cls.device
        return device is not torch.device and hasattr(device, "__exit__")

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        """Default: `get_device_properties(device).multi_processor_count`."""
        props = cls.get_device_properties(device)
        count = getattr(props, "multi_processor_count", None)
        if count is None:
            raise AttributeError(
                f"{cls.__name__} must override get_multi_processor_count because its "
                "device properties do not expose the standard field "
                f"'multi_processor_count' (a {type(props).__name__})"
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
    def backend_features(cls, device: torch.types.Device = None) -> set[BackendFeature]:
        """The `BackendFeature`s of the device, as a new set. Default: `{GPU}` if
        `is_gpu()`, else empty; overrides extend `super().backend_features()`."""
        return {BackendFeature.GPU} if cls.is_gpu() else set()

    @staticmethod
    def dynamo_config_defaults() -> dict[str, Any]:
        """Dynamo config for frames on the device; user-set options win. Default: {}."""
        return {}

    @staticmethod
    def on_dynamo_reset() -> None:
        """Called by `torch._dynamo.reset()` after it cleared Dynamo. Default: none."""

    @staticmethod
    def get_inductor_choices() -> Any:
        """The `InductorChoices` for this device's nodes. Default: None, `V.choices`."""
        return None


def _require_triton_backend(backend: str) -> None:
    import triton.backends

    from torch._dynamo.exc import TritonUnavailableError

    if backend not in triton.backends.backends:
        raise TritonUnavailableError(f"triton not built with the {backend!r} backend")


def _features(names: str) -> Any:
    """A `backend_features` classmethod answering the members `names`, a new set."""
    features = [BackendFeature[name] for name in names.split()]
    return classmethod(lambda cls, device=None: set(features))


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

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = staticmethod(lambda: True)
    runs_passes_under_device = staticmethod(lambda: torch.cuda.is_available())
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features(
        "FOREACH BUCKETIZE SCAN SORT TRITON_TEMPLATES GPU ONLINE_SOFTMAX"
    )
    eager_uses_fma = staticmethod(lambda op: not torch.version.hip or op == "addcmul")
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
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features("GPU")

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        # 64 where no device answers, as DeviceProperties.create assumed.
        try:
            props = cls.get_device_properties(device)
        except RuntimeError:
            return 64
        return getattr(props, "multi_processor_count", 64)

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

    is_gpu = staticmethod(lambda: True)
    wakes_async_compile = staticmethod(lambda: True)
    runs_passes_under_device = staticmethod(lambda: False)
    supports_tensor_descriptors = staticmethod(lambda d=None: torch.xpu.is_available())
    max_autotune_gemm_min_sms = staticmethod(lambda: 16)
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features("FOREACH TRITON_TEMPLATES GPU ONLINE_SOFTMAX")
    eager_uses_fma = staticmethod(lambda op: op in ("addcmul", "addcdiv"))
    pads_matmuls = staticmethod(lambda: True)

    @classmethod
    def get_multi_processor_count(cls, device: torch.types.Device = None) -> int:
        props = cls.get_device_properties(device)
        count = getattr(props, "multi_processor_count", None)
        return props.gpu_subslice_count if count is None else count

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
    visible_devices_env = staticmethod(lambda: None)
    backend_features = _features("FOREACH SORT")

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
    visible_devices_env = staticmethod(lambda: "CUDA_VISIBLE_DEVICES")
    backend_features = _features("GPU")

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
    visible_devices_env = staticmethod(lambda: None)

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

device_interfaces: dict[str, type[DeviceInterface]] = {}
_device_initialized = False

# The GPU-class device types (is_gpu()), built-in ones first; updated in place.
GPU_TYPES: list[str] = ["cuda", "mps", "xpu", "mtia"]

# Protects device_interfaces, GPU_TYPES and _warned; held by no backend code.
_device_registry_lock = threading.RLock()
_warned: set[Any] = set()  # the problems already reported


def _warn_once(key: Any, message: str, *, logged: bool = False) -> None:
    with _device_registry_lock:
        if key in _warned:
            return
        _warned.add(key)
    if logged:
        log.warning("%s", message)
    else:
        warnings.warn(message, stacklevel=3)


def _describe(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__


def _device_type(device: str | torch.device) -> str:
    """The type of `device`: "acc" for "acc", "acc:1" or torch.device("acc", 1)."""
    return device.type if isinstance(device, torch.device) else device.partition(":")[0]


def _check_device_interface(device: str, device_interface: Any) -> None:
    if not (
        isinstance(device_interface, type)
        and issubclass(device_interface, DeviceInterface)
    ):
        raise TypeError(
            f"Cannot register {device_interface!r} for device '{device}': it is not "
            "a subclass of torch._dynamo.device_interface.DeviceInterface"
        )


def _publish(
    interfaces: dict[str, type[DeviceInterface] | None],
    *,
    unless: str | None = None,
    replacing: str | None = None,
) -> None:
    """Sets each device's interface (None: none) and GPU_TYPES, unless `unless` is
    registered; warns if `replacing` is."""
    gpu = {d: _safe_probe(i, "is_gpu") for d, i in interfaces.items() if ":" not in d}
    if replacing in device_interfaces:
        message = f"Device interface for '{replacing}' is already registered"
        warnings.warn(f"{message}, overwriting.", stacklevel=4)
    with _device_registry_lock:
        if unless is not None and unless in device_interfaces:
            return
        for device, device_interface in interfaces.items():
            if device_interface is None:
                device_interfaces.pop(device, None)
            else:
                device_interfaces[device] = device_interface
            if gpu.get(device) and device not in GPU_TYPES:
                GPU_TYPES.append(device)
            elif device in gpu and not gpu[device] and device in GPU_TYPES:
                GPU_TYPES.remove(device)
        _bump_registry_generation()


def register_interface_for_device(
    device: str | torch.device, device_interface: type[DeviceInterface]
) -> None:
    """Registers `device_interface` for `device` ("<type>" or "<type>:<index>"),
    replacing an earlier one with a warning. Raises `TypeError` for a
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
            f"'{_device_type(device)}' is a built-in device type. An out-of-tree "
            "backend renames PrivateUse1 and calls torch._dynamo.device_interface."
            "register_interface_for_device_PrivateUse1()."
        )
    _publish({device: device_interface}, replacing=device)


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
                f"{problem}.device_count() raised {_describe(err)}. Nothing was "
                "registered; implement device_count() so that it works first."
            ) from err
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuntimeError(
                f"{problem}.device_count() returned {count!r}, expected a "
                "non-negative int. Nothing was registered."
            )
        names += [f"{name}:{i}" for i in range(count)]
    stale = [k for k in list(device_interfaces) if k.startswith(f"{name}:")]
    interfaces = {**dict.fromkeys(stale), **dict.fromkeys(names, device_interface)}
    if discovered:
        _publish(interfaces, unless=name)
    else:
        _publish(interfaces, replacing=name)


def register_interface_for_device_PrivateUse1(
    device_interface: type[DeviceInterface],
) -> None:
    """Registers `device_interface` under the PrivateUse1 backend's current name
    and "<name>:<i>" per device, replacing an earlier one with a warning. Raises
    `TypeError` for a non-`DeviceInterface` and `RuntimeError`, registering
    nothing, if its `device_count()` fails."""
    name = torch._C._get_privateuse1_backend_name()
    _check_device_interface(name, device_interface)
    _register_privateuse1(name, device_interface)


def _discover_privateuse1() -> None:
    """Discovers the interface of the renamed PrivateUse1 device if it has none."""
    if not _device_initialized:
        init_device_reg()
    name = torch._C._get_privateuse1_backend_name()
    if name != "privateuseone" and name not in device_interfaces:
        from .device_discovery import _discover, _INTERFACE_ROUTES

        _discover(name, _INTERFACE_ROUTES, lambda: name in device_interfaces)


def get_interface_for_device(device: str | torch.device) -> type[DeviceInterface]:
    """The interface of `device`, discovered if needed (an out-of-tree index
    without an alias resolves to its type); `NotImplementedError` if unknown."""
    if isinstance(device, torch.device):
        device = device.type
    if not _device_initialized:
        init_device_reg()
    if device in device_interfaces:
        return device_interfaces[device]
    device_type = _device_type(device) if isinstance(device, str) else None
    if device_type is not None and device_type not in _BUILTIN_DEVICE_INIT_LIST:
        _discover_privateuse1()
        if device_type in device_interfaces:
            return device_interfaces[device_type]
    raise NotImplementedError(f"No interface for device {device}")


def _interface_or_none(device: torch.types.Device) -> type[DeviceInterface] | None:
    """`get_interface_for_device(device)`, or None for a device without one."""
    try:
        return get_interface_for_device(device)  # type: ignore[arg-type]
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
    found = list(device_interfaces.items())
    skip = _BUILTIN_DEVICE_INIT_LIST
    return iter([(n, i) for n, i in found if n not in skip and ":" not in n])


def init_device_reg() -> None:
    """Registers the built-in interfaces, then discovers the PrivateUse1 one."""
    global _device_initialized
    builtins: dict[str, type[DeviceInterface] | None] = {}
    for device, device_interface, device_module in (
        ("cuda", CudaInterface, torch.cuda),
        ("xpu", XpuInterface, torch.xpu),
        ("mtia", MtiaInterface, torch.mtia),
    ):
        builtins[device] = device_interface
        for i in range(device_module.device_count()):
            builtins[f"{device}:{i}"] = device_interface
    builtins.update(cpu=CpuInterface, mps=MpsInterface, tpu=TpuInterface)
    _publish(builtins)
    _device_initialized = True
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
        problem = f"raised {_describe(err)}"
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


@_registry_cache
def _backend_features(device: torch.types.Device) -> frozenset[BackendFeature] | None:
    """`device`'s interface's `backend_features(device)` with `GPU` iff `is_gpu()`;
    None without an override (a broken answer is logged once, read as empty)."""
    interface = _interface_or_none(device)
    if interface is None or _is_base_default(interface, "backend_features"):
        return None
    declared = _safe_probe(interface, "backend_features", device, default=None)
    features: frozenset[BackendFeature] = frozenset()
    if isinstance(declared, Set) and all(type(f) is BackendFeature for f in declared):
        features = frozenset(declared) - {BackendFeature.GPU}
    elif declared is not None:
        problem = f"returned {declared!r}, not a set of BackendFeature members"
        _warn_broken_probe(interface, "backend_features", problem, features)
    gpu = {BackendFeature.GPU} if _safe_probe(interface, "is_gpu") else set()
    return features | gpu

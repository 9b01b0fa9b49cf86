import functools
import hashlib
import os
from typing import Any

from torch.utils.backend_registration import _registry_cache


_FAILED_TO_MAP_SEGMENT_FROM_SHARED_OBJECT = "failed to map segment from shared object"


def _triton_cache_dir_for_error_message() -> str | None:
    if triton_cache_dir := os.environ.get("TRITON_CACHE_DIR"):
        return triton_cache_dir

    try:
        from triton.runtime.cache import knobs

        return knobs.cache.dir
    except (AttributeError, ImportError):
        return None


def _raise_triton_cache_load_error(exc: BaseException) -> None:
    cache_dir = _triton_cache_dir_for_error_message()
    if "TRITON_CACHE_DIR" in os.environ:
        cache_dir_msg = f" (TRITON_CACHE_DIR={cache_dir})"
    else:
        cache_dir_msg = f" ({cache_dir})" if cache_dir else ""
    raise ImportError(
        f"{exc}. This usually means Triton's cache directory{cache_dir_msg} is on "
        "a filesystem mounted with noexec, so the dynamic loader cannot map "
        "generated shared objects. Set TRITON_CACHE_DIR to a directory on an "
        "executable filesystem."
    ) from exc


@functools.cache
def has_triton_package() -> bool:
    try:
        import triton  # noqa: F401

        return True
    except ImportError:
        return False


@functools.cache
def get_triton_version(fallback: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    try:
        import triton

        major, minor = tuple(int(v) for v in triton.__version__.split(".")[:2])
        return (major, minor)
    except ImportError:
        return fallback


@_registry_cache
def _device_supports_tma() -> bool:
    """Whether an available device's interface says ``supports_tma()``."""
    import torch
    from torch._dynamo import device_interface

    if device_interface.CudaInterface.supports_tma():
        return True
    if (
        not device_interface._device_initialized
        and not device_interface.device_interfaces
        and torch._C._get_privateuse1_backend_name() == "privateuseone"
    ):
        # Nothing but torch's own interfaces can answer; only cuda's says True.
        return False
    return any(
        device_interface._safe_probe(interface, "supports_tma")
        and device_interface._safe_probe(interface, "is_available")
        for name, interface in list(device_interface.get_registered_device_interfaces())
        if ":" not in name
    )


@_registry_cache
def has_triton_experimental_host_tma() -> bool:
    if has_triton_package():
        if _device_supports_tma():
            try:
                from triton.tools.experimental_descriptor import (  # noqa: F401
                    create_1d_tma_descriptor,
                    create_2d_tma_descriptor,
                )

                try:
                    from triton.tools.experimental_descriptor import enable_in_pytorch

                    return enable_in_pytorch()
                except ImportError:
                    return True
            except ImportError:
                pass

    return False


@_registry_cache
def has_triton_tensor_descriptor_host_tma() -> bool:
    if has_triton_package():
        if _device_supports_tma():
            try:
                from triton.tools.tensor_descriptor import (  # noqa: F401
                    TensorDescriptor,
                )

                return True
            except ImportError:
                pass

    return False


@_registry_cache
def has_triton_tma() -> bool:
    return has_triton_tensor_descriptor_host_tma() or has_triton_experimental_host_tma()


@functools.cache
def has_triton_tma_device() -> bool:
    if has_triton_package():
        import torch

        if (
            torch.cuda.is_available()
            and torch.cuda.get_device_capability() >= (9, 0)
            and not torch.version.hip
        ) or torch.xpu.is_available():
            # old API
            try:
                from triton.language.extra.cuda import (  # noqa: F401
                    experimental_device_tensormap_create1d,
                    experimental_device_tensormap_create2d,
                )

                return True
            except ImportError:
                pass

            # new API
            try:
                from triton.language import make_tensor_descriptor  # noqa: F401

                return True
            except ImportError:
                pass

    return False


@_registry_cache
def _has_triton_tma_for_device(device: Any, stable_api: bool = False) -> bool:
    """``has_triton_tma_device()`` (``stable_api``: ``has_triton_stable_tma_api()``);
    for the PrivateUse1 device, its ``supports_tensor_descriptors(device)`` and
    whether Triton has ``tl.make_tensor_descriptor``."""
    import torch

    if device is None or device.type != torch._C._get_privateuse1_backend_name():
        return has_triton_stable_tma_api() if stable_api else has_triton_tma_device()
    from torch._dynamo.device_interface import _interface_or_none, _safe_probe

    if (interface := _interface_or_none(device.type)) is None:
        return False
    if not _safe_probe(interface, "supports_tensor_descriptors", device):
        return False
    try:
        from triton.language import make_tensor_descriptor  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def has_datacenter_blackwell_tma_device() -> bool:
    import torch

    if (
        torch.cuda.is_available()
        and torch.cuda.get_device_capability() >= (10, 0)
        and torch.cuda.get_device_capability() < (11, 0)
        and not torch.version.hip
    ):
        return has_triton_tma_device() and has_triton_tensor_descriptor_host_tma()

    return False


@functools.lru_cache(None)
def has_triton_stable_tma_api() -> bool:
    if has_triton_package():
        import torch

        if (
            torch.cuda.is_available()
            and torch.cuda.get_device_capability() >= (9, 0)
            and not torch.version.hip
        ) or torch.xpu.is_available():
            try:
                from triton.language import make_tensor_descriptor  # noqa: F401

                return True
            except ImportError:
                pass
    return False


@_registry_cache
def has_triton(*, include_cpu: bool = True) -> bool:
    """Whether Triton can generate code for an available registered device:
    ``is_available()``, ``is_triton_capable()`` and ``raise_if_triton_unavailable()``
    not raising. ``include_cpu=False`` leaves cpu out. A probe, never raises."""
    if not has_triton_package():
        return False

    from torch._inductor.config import triton_disable_device_detection

    if triton_disable_device_detection:
        return False

    return _has_triton_capable_device(include_cpu=include_cpu)


def _has_triton_capable_device(*, include_cpu: bool) -> bool:
    """The device walk of ``has_triton``, given a Triton package."""
    from torch._dynamo import device_interface

    for device, interface in list(device_interface.get_registered_device_interfaces()):
        if ":" in device or (device == "cpu" and not include_cpu):
            continue
        if not (
            device_interface._safe_probe(interface, "is_available")
            and device_interface._safe_probe(interface, "is_triton_capable")
        ):
            continue
        try:
            interface.raise_if_triton_unavailable()
        except (RuntimeError, ImportError):  # incl. TritonUnavailableError
            continue
        except Exception as err:
            problem = f"raised {err!r} instead of a RuntimeError"
            device_interface._warn_broken_probe(
                interface, "raise_if_triton_unavailable", problem, "not Triton-capable"
            )
            continue
        return True
    return False


@functools.cache
def triton_backend(backend_name: str | None = None) -> Any:
    """The compiler backend of Triton backend ``backend_name`` (None: active)."""
    from triton.compiler.compiler import make_backend
    from triton.runtime.driver import driver

    try:
        active = driver.active if backend_name is None else triton_driver(backend_name)
        target = active.get_current_target()
        return make_backend(target)
    except (ImportError, OSError) as e:
        if _FAILED_TO_MAP_SEGMENT_FROM_SHARED_OBJECT in str(e):
            _raise_triton_cache_load_error(e)
        raise


def _extern_libs_key(backend: Any) -> str:
    """Return a cache key fragment for extern libs (e.g. libdevice.10.bc).

    These files affect codegen but are not covered by triton_key() (Python
    sources only) or backend.hash() (ptxas version and arch only).
    """
    opts = backend.parse_options({})
    extern_libs = getattr(opts, "extern_libs", None)
    if not extern_libs:
        return ""
    parts = []
    for name, path in sorted(extern_libs):
        if os.path.isfile(path):
            with open(path, "rb") as f:
                parts.append(f"{name}-{hashlib.sha256(f.read()).hexdigest()}")
    return "-".join(parts)


@functools.cache
def triton_hash_with_backend(backend_name: str | None = None) -> str:
    """Hash of the Triton compiler and of ``triton_backend(backend_name)``."""
    from torch._inductor.runtime.triton_compat import triton_key

    backend = triton_backend(backend_name)
    key = f"{triton_key()}-{backend.hash()}"

    # Hash is upper case so that it can't contain any Python keywords.
    return hashlib.sha256(key.encode("utf-8")).hexdigest().upper()


def triton_interpret() -> bool:
    """Whether Triton kernels run in Triton's interpreter (``TRITON_INTERPRET=1``)."""
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


@functools.cache
def triton_driver(backend_name: str) -> Any:
    """The driver of the installed Triton backend ``backend_name``, created once;
    ``RuntimeError`` listing the installed backends if there is none."""
    from triton.backends import backends

    backend = backends.get(backend_name)
    if backend is None:
        raise RuntimeError(
            f"Triton has no backend named {backend_name!r} (installed backends: "
            f"{', '.join(sorted(backends)) or 'none'}). Install the Triton "
            "distribution that provides it, or run the kernels in Triton's "
            "interpreter with TRITON_INTERPRET=1."
        )
    return backend.driver()


def get_triton_backend_name(device_type: str) -> str | None:
    """``triton_backend_name()`` of ``device_type``'s interface (None without
    one); a hook that raises or returns neither str nor None raises."""
    from torch._dynamo.device_interface import _interface_or_none

    if (interface := _interface_or_none(device_type)) is None:
        return None
    hook = f"{interface.__name__}.triton_backend_name() of device {device_type!r}"
    expected = "the name of the device's Triton backend (in triton.backends) or None"
    try:
        name = interface.triton_backend_name()
    except Exception as err:
        raise RuntimeError(f"{hook} raised {err!r}; it must return {expected}") from err
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{hook} returned {name!r}; it must return {expected}")
    return name


@functools.cache
def _triton_interpreter_hash() -> str:
    from torch._inductor.runtime.triton_compat import triton_key

    key = f"{triton_key()}-interpreter"
    return hashlib.sha256(key.encode("utf-8")).hexdigest().upper()


def triton_hash_for_device(device_type: str | None) -> str:
    """``triton_hash_with_backend()`` of ``device_type``'s Triton backend (the
    interpreter's under ``TRITON_INTERPRET=1``; None: the active driver's);
    ``RuntimeError`` if that backend is not installed or there is no driver."""
    backend_name = None if device_type is None else get_triton_backend_name(device_type)
    if backend_name is None:
        try:
            return triton_hash_with_backend()
        except RuntimeError as err:
            import torch
            from torch._dynamo.device_interface import get_interface_for_device

            if device_type != torch._C._get_privateuse1_backend_name():
                raise
            hook = f"{get_interface_for_device(device_type).__name__}.triton_backend_name()"
            raise RuntimeError(
                f"Cannot compile Triton kernels for device {device_type!r}: {hook} "
                "is None, which selects Triton's active driver, and Triton has no "
                f"single active driver ({err}). Make {hook} return the name of the "
                "device's Triton backend (a key of triton.backends.backends)."
            ) from err
    if triton_interpret():
        return _triton_interpreter_hash()
    try:
        return triton_hash_with_backend(backend_name)
    except RuntimeError as err:
        raise RuntimeError(
            f"Cannot compile Triton kernels for device {device_type!r} with its "
            f"Triton backend {backend_name!r}: {err}"
        ) from err

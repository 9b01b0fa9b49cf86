"""Build, load and register the in-tree fake PrivateUse1 device.

The device is implemented by the C++ extension in ``cpp/extension_device.cpp``
(allocator, device guard with two devices, streams and events, generators,
PrivateUse1 hooks, kernels and a CPU fallback) and by the runtime module
``extension_device_module`` that :func:`register` installs as ``torch.<name>``.

Usage::

    from extension_backends.extension_device import register

    register("extension_device")
    x = torch.ones(3, device="extension_device:1")

The extension is compiled into ``$EXTENSION_DEVICE_BUILD_DIR`` (default:
``<repo>/build/extension_device``); other processes using the same directory
reuse the build.  Set ``EXTENSION_DEVICE_VERBOSE_BUILD=1`` to see the compiler
output.

Neither this module nor :func:`register` imports ``torch._dynamo`` or
``torch._inductor``.
"""

import functools
import os
import types
from pathlib import Path

import torch
import torch.utils.cpp_extension


__all__ = ["load_library", "register"]

_SOURCE = Path(__file__).resolve().parent / "cpp" / "extension_device.cpp"
_REPO_ROOT = Path(__file__).resolve().parents[3]


def _build_directory() -> str:
    directory = os.environ.get("EXTENSION_DEVICE_BUILD_DIR") or str(
        _REPO_ROOT / "build" / "extension_device"
    )
    os.makedirs(directory, exist_ok=True)
    return directory


@functools.cache
def load_library() -> types.ModuleType:
    """Compile (if needed) and load the C++ extension; return its module.

    Loading the library registers the PrivateUse1 allocator, device guard,
    hooks and kernels with PyTorch.
    """
    return torch.utils.cpp_extension.load(
        name="extension_device",
        sources=[str(_SOURCE)],
        build_directory=_build_directory(),
        extra_cflags=["-O2"],
        verbose=os.environ.get("EXTENSION_DEVICE_VERBOSE_BUILD", "0") == "1",
    )


def register(name: str = "extension_device") -> types.ModuleType:
    """Make the device usable as ``name`` and return its runtime module.

    Renames PrivateUse1 to ``name``, installs the runtime module as
    ``torch.<name>`` and generates the ``Tensor.<name>()``-style helpers.
    Calling it again with the same name is a no-op; PrivateUse1 can only be
    renamed once per process, so any other name raises a RuntimeError.
    """
    current_name = load_library().backend_name()
    if current_name != name:
        if current_name != "privateuseone":
            raise RuntimeError(
                f"Cannot register the extension device as '{name}': PrivateUse1 "
                f"is already registered as '{current_name}' in this process"
            )
        torch.utils.rename_privateuse1_backend(name)

    # Imported late: the runtime module loads the library through this file.
    from . import extension_device_module

    registered = getattr(torch, name, None)
    if registered is None:
        torch._register_device_module(name, extension_device_module)
    elif registered is not extension_device_module:
        raise RuntimeError(
            f"torch.{name} is already registered as {registered}, not as the "
            "extension device module"
        )
    if not hasattr(torch.Tensor, f"is_{name}"):
        torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
    return extension_device_module

"""The GPU-class variant of ``extension_device``: Inductor's Triton scheduling.

What a vendor whose compiler is Triton (Ascend through triton-ascend, MUSA,
MLU) registers, through the same public calls as the C++ variant
(``extension_backends.cpp.extension_codegen_backend``): a ``DeviceInterface``
that is GPU-class, Triton-capable and names the device's Triton backend, the
``DeviceOpOverrides`` snippets of its streams and device guard, and
``TritonScheduling`` with the Python wrapper.

The device's Triton backend, ``TRITON_BACKEND``, is not installed here: the
kernels run in Triton's interpreter (``TRITON_INTERPRET=1``, set before triton
is imported), which copies each tensor argument to the host and back through
the device's storage copies. Without the interpreter, code generation fails
saying that the backend is not installed.

Importing this module imports ``torch._dynamo`` and ``torch._inductor``.
"""

from __future__ import annotations

import torch
from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._inductor.codegen.common import (
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.triton import TritonScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen

from .cpp.extension_codegen_backend import (
    ExtensionDeviceOpOverrides,
    ExtensionGpuDeviceInterface,
)


__all__ = [
    "ExtensionTritonDeviceInterface",
    "TRITON_BACKEND",
    "VISIBLE_DEVICES_ENV",
    "register_triton_backend",
]

#: The name of the device's Triton backend (its key in
#: ``triton.backends.backends`` once a vendor's Triton distribution provides it).
TRITON_BACKEND = "extension_device"

#: The variable that restricts the devices a process sees (as
#: ``CUDA_VISIBLE_DEVICES`` does for cuda).
VISIBLE_DEVICES_ENV = "EXTENSION_DEVICE_VISIBLE_DEVICES"


class ExtensionTritonDeviceInterface(ExtensionGpuDeviceInterface):
    """The device as a GPU-class Triton device."""

    @staticmethod
    def is_triton_capable(device: torch.types.Device = None) -> bool:
        return True

    @staticmethod
    def triton_backend_name() -> str | None:
        return TRITON_BACKEND

    @staticmethod
    def visible_devices_env() -> str | None:
        return VISIBLE_DEVICES_ENV


def register_triton_backend(
    name: str,
    interface: type[ExtensionTritonDeviceInterface] = ExtensionTritonDeviceInterface,
) -> None:
    """Register the device ``name`` (the renamed PrivateUse1) with Dynamo and
    Inductor as a Triton device; ``interface`` lets tests register variants."""
    if name != torch._C._get_privateuse1_backend_name():
        raise ValueError(f"PrivateUse1 is not named {name!r}; call register({name!r}) first")
    register_interface_for_device_PrivateUse1(interface)
    register_backend_for_device(name, TritonScheduling, PythonWrapperCodegen)
    register_device_op_overrides(name, ExtensionDeviceOpOverrides(name))


def load_extension_device() -> None:
    """The loader that the ``extension-device-triton-backend`` distribution
    (``../site-triton``) declares as its ``torch_inductor_backends`` entry point:
    what a subprocess compiling or autotuning for the parent runs to register
    the device (renaming PrivateUse1) and this backend."""
    from .extension_device import register

    register("extension_device")
    register_triton_backend("extension_device")

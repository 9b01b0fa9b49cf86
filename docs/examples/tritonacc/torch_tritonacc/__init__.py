"""tritonacc: an example GPU-class PrivateUse1 backend whose kernels are the
Triton kernels Inductor generates.

``import torch_tritonacc`` is the eager side: it builds (once) and loads the C++
runtime, renames PrivateUse1 to ``tritonacc`` and installs
:mod:`torch_tritonacc.runtime` as ``torch.tritonacc``. The runtime is toyacc's
(``csrc/runtime.cpp`` links to ``docs/examples/toyacc``'s; the C++ names no
device): memory in host RAM, one device, streams and events. The compiler
finds the rest when it first needs the device: the interface through
``torch.tritonacc.get_device_interface()``, the Inductor backend through the
``torch_inductor_backends`` entry point, the device's Triton backend (the
top-level package ``tritonacc_triton``) through Triton's ``triton.backends``
entry point.
"""

import os
import sys
from pathlib import Path

import torch
import torch.utils.cpp_extension

__all__ = ["NAME"]

#: The device type: ``torch.device("tritonacc")``.
NAME = "tritonacc"

_PACKAGE = Path(__file__).resolve().parent


def _register() -> None:
    current = torch._C._get_privateuse1_backend_name()
    if current == NAME:
        return  # already registered in this process
    if current != "privateuseone":
        raise RuntimeError(
            f"Cannot register tritonacc: PrivateUse1 is already renamed to {current!r} "
            "in this process, and it can be renamed once."
        )
    # A real backend ships the runtime prebuilt; the example compiles it on
    # first import, into $TRITONACC_BUILD_DIR if set (else torch's extension cache).
    build_directory = os.environ.get("TRITONACC_BUILD_DIR") or os.path.join(
        torch.utils.cpp_extension.get_default_build_root(), "tritonacc_runtime"
    )
    os.makedirs(build_directory, exist_ok=True)
    if not os.path.exists(os.path.join(build_directory, "tritonacc_runtime.so")):
        print(
            f"torch_tritonacc: compiling the tritonacc runtime (C++) into {build_directory}, "
            "once (tens of seconds)",
            file=sys.stderr,
            flush=True,
        )
    torch.utils.cpp_extension.load(
        name="tritonacc_runtime",
        sources=[str(_PACKAGE / "csrc" / "runtime.cpp")],
        build_directory=build_directory,
        extra_cflags=["-O2"],
        is_python_module=False,
    )
    torch.utils.rename_privateuse1_backend(NAME)
    from . import runtime

    torch._register_device_module(NAME, runtime)
    torch.utils.generate_methods_for_privateuse1_backend()


_register()

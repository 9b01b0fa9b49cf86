"""protacc: an example PrivateUse1 backend whose memory host code may touch
only while the device grants it, and how ``torch.compile`` works with it.

``import torch_protacc`` is the eager side: it builds (once) and loads the C++
runtime (``csrc/protacc.cpp``), renames PrivateUse1 to ``protacc`` and installs
:mod:`torch_protacc.runtime` as ``torch.protacc``. The compiler finds the rest
when it first needs the device: the interface through
``torch.protacc.get_device_interface()``, the Inductor backend through the
``torch_inductor_backends`` entry point (:func:`torch_protacc.inductor.load_backend`).
"""

import os
import sys
from pathlib import Path

import torch
import torch.utils.cpp_extension

__all__ = ["NAME"]

#: The device type: ``torch.device("protacc")``.
NAME = "protacc"

_PACKAGE = Path(__file__).resolve().parent


def _register() -> None:
    current = torch._C._get_privateuse1_backend_name()
    if current == NAME:
        return  # already registered in this process
    if current != "privateuseone":
        raise RuntimeError(
            f"Cannot register protacc: PrivateUse1 is already renamed to {current!r} "
            "in this process, and it can be renamed once."
        )
    # A real backend ships the runtime prebuilt; the example compiles it on
    # first import, into $PROTACC_BUILD_DIR if set (else torch's extension cache).
    build_directory = os.environ.get("PROTACC_BUILD_DIR") or os.path.join(
        torch.utils.cpp_extension.get_default_build_root(), "protacc_runtime"
    )
    os.makedirs(build_directory, exist_ok=True)
    if not os.path.exists(os.path.join(build_directory, "protacc_runtime.so")):
        print(
            f"torch_protacc: compiling the protacc runtime (C++) into {build_directory}, "
            "once (tens of seconds)",
            file=sys.stderr,
            flush=True,
        )
    torch.utils.cpp_extension.load(
        name="protacc_runtime",
        sources=[str(_PACKAGE / "csrc" / "protacc.cpp")],
        build_directory=build_directory,
        extra_cflags=["-O2"],
        is_python_module=False,
    )
    torch.utils.rename_privateuse1_backend(NAME)
    from . import runtime

    torch._register_device_module(NAME, runtime)
    torch.utils.generate_methods_for_privateuse1_backend()


_register()

"""toyacc: a minimal out-of-tree PrivateUse1 backend that ``torch.compile``
supports through public registration calls only.

``import torch_toyacc`` is the eager side: it builds (once) and loads the C++
runtime, renames PrivateUse1 to ``toyacc`` and installs :mod:`torch_toyacc.runtime`
as ``torch.toyacc``.  It imports neither ``torch._dynamo`` nor
``torch._inductor``; the compiler finds the rest when it first needs the
device:

* Dynamo asks ``torch.toyacc.get_device_interface()``
  (:mod:`torch_toyacc.interface`);
* Inductor calls the ``torch_inductor_backends`` entry point ``toyacc`` of this
  distribution (:func:`torch_toyacc.inductor.load_backend`, see
  ``pyproject.toml``), which registers the codegen backend, the
  ``DeviceOpOverrides``, the compile options (:mod:`torch_toyacc.config`) and
  the operator policy (:mod:`torch_toyacc.policy`).

PrivateUse1 can be renamed once per process: a process that imports this
package cannot use another PrivateUse1 backend.
"""

import os
import sys
from pathlib import Path

import torch
import torch.utils.cpp_extension

__all__ = ["NAME"]

#: The device type: ``torch.device("toyacc")``.
NAME = "toyacc"

_PACKAGE = Path(__file__).resolve().parent


def _load_runtime() -> None:
    # A real backend ships a prebuilt library (a CppExtension in its setup.py);
    # the example compiles it on first import, into $TOYACC_BUILD_DIR if set
    # (else torch's extension cache), and loads it without Python bindings.
    build_directory = os.environ.get("TOYACC_BUILD_DIR") or os.path.join(
        torch.utils.cpp_extension.get_default_build_root(), "toyacc_runtime"
    )
    os.makedirs(build_directory, exist_ok=True)
    if not os.path.exists(os.path.join(build_directory, "toyacc_runtime.so")):
        print(
            f"torch_toyacc: compiling the toyacc runtime (C++) into {build_directory}, "
            "once (tens of seconds)",
            file=sys.stderr,
            flush=True,
        )
    torch.utils.cpp_extension.load(
        name="toyacc_runtime",
        sources=[str(_PACKAGE / "csrc" / "toyacc.cpp")],
        build_directory=build_directory,
        extra_cflags=["-O2"],
        is_python_module=False,
    )


def _register() -> None:
    current = torch._C._get_privateuse1_backend_name()
    if current == NAME:
        return  # already registered in this process
    if current != "privateuseone":
        raise RuntimeError(
            f"Cannot register toyacc: PrivateUse1 is already renamed to {current!r} "
            "in this process, and it can be renamed once. Use toyacc in a process "
            "that loads no other PrivateUse1 backend."
        )
    _load_runtime()
    torch.utils.rename_privateuse1_backend(NAME)
    from . import runtime

    torch._register_device_module(NAME, runtime)
    torch.utils.generate_methods_for_privateuse1_backend()


_register()

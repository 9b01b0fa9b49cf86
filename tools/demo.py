"""Demo: the device report of torch.compile on the fake device renamed ``acc``.

Run with ``python3 tools/dev.py demo`` (which sets up the project environment
first).  It renames the fake PrivateUse1 device ``extension_device`` to
``acc``, registers its eager runtime and its compile backend (GPU-class, C++
kernels: its memory is host memory) through public registration calls only
(``test/inductor/extension_backends``), then prints
``python3 tools/dev.py report acc``'s report: how the compile
stack sees the device, and a few standard programs compiled and compared with
eager.  The exit code is the report's: 0 iff every program matches eager.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The repository root goes last: its torch/ must not shadow the installed torch.
sys.path[:0] = [str(REPO / "test" / "inductor")]
sys.path.append(str(REPO))

from extension_backends.extension_device import register  # noqa: E402
from tools import spec_status  # noqa: E402

NAME = "acc"


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    register(NAME)
    from extension_backends.cpp.extension_codegen_backend import (
        ExtensionGpuDeviceInterface,
        register_compile_backend,
    )
    from tools.device_report import report

    register_compile_backend(NAME, ExtensionGpuDeviceInterface)
    ok = report(NAME)
    pending = [t for t, ids in spec_status.AREAS if spec_status.area_status(ids) != "done"]
    print(f"\nContract areas done: {len(spec_status.AREAS) - len(pending)} of "
          f"{len(spec_status.AREAS)} (docs/contract.md); in progress: {', '.join(pending) or 'none'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

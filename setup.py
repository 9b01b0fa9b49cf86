"""Lay the PrivateUse1-for-torch.compile patch series over an installed torch 2.13.0.

This is not a source build of PyTorch: the series edits torch's Python files
only, so it installs on top of the ``torch==2.13.0`` wheel of the current
environment, through the same code as ``tools/dev.py``:

    python setup.py develop   # link the series' files over this env's torch
    python setup.py restore   # put the pristine 2.13.0 files back

Any other torch version is refused with a message saying which one is needed.
"""

import sys
from pathlib import Path

from setuptools import Command, setup

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tools import series  # noqa: E402


def _this_env_torch() -> series.TorchInstall:
    try:
        return series.locate_torch(sys.executable)
    except series.SeriesError as err:
        sys.exit(f"error: {err}")


class develop(Command):
    description = f"overlay the series on this environment's torch {series.TORCH_VERSION}"
    user_options = []

    def initialize_options(self):
        pass

    def finalize_options(self):
        pass

    def run(self):
        inst = _this_env_torch()
        try:
            report = series.overlay(inst)
        except series.SeriesError as err:
            sys.exit(f"error: {err}")
        print(f"series overlaid on {inst.site / 'torch'}: {len(report.linked)} linked, "
              f"{len(report.unchanged)} unchanged, {len(report.restored)} restored")


class restore(Command):
    description = "put the pristine torch files back"
    user_options = []

    def initialize_options(self):
        pass

    def finalize_options(self):
        pass

    def run(self):
        restored = series.restore(_this_env_torch())
        print(f"restored {len(restored)} files")


class install(develop):
    description = "same as develop: the series is always installed as live links"


setup(
    name="torch-privateuse1-compile-series",
    version="0.1.0",
    description="Patch series making torch.compile recognise PrivateUse1 backends",
    license="BSD-3-Clause",
    python_requires="==3.11.*",
    packages=[],
    cmdclass={"develop": develop, "restore": restore, "install": install},
)

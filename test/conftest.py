"""pytest configuration shared by every test of the series.

Tests run in the project environment (``python3 tools/dev.py test``), where the
series is overlaid on torch 2.13.0.  This file only makes the repository's own
helpers importable: ``tools`` (the standard-library tooling) and
``extension_backends`` (the fake PrivateUse1 device under ``test/inductor``).

The repository root goes *last* on ``sys.path``: its ``torch/`` holds series
files, ``torch/__init__.py`` among them, and must never shadow the installed
torch (tools/dev.py also runs Python with PYTHONSAFEPATH=1 for that reason).
"""

import sys
from pathlib import Path

_TEST = Path(__file__).resolve().parent
if str(_TEST / "inductor") not in sys.path:
    sys.path.insert(0, str(_TEST / "inductor"))
if str(_TEST.parent) not in sys.path:
    sys.path.append(str(_TEST.parent))

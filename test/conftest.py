"""pytest configuration shared by every test of the series.

Tests run in the project environment (``python3 tools/dev.py test``), where the
series is overlaid on torch 2.13.0.  This file only makes the repository's own
helpers importable: ``tools`` (the standard-library tooling) and
``extension_backends`` (the fake PrivateUse1 device under ``test/inductor``).
"""

import sys
from pathlib import Path

_TEST = Path(__file__).resolve().parent
for path in (_TEST.parent, _TEST / "inductor"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

"""CLI entry point: ``python -m tools.differential`` (from the repo root) or
``python tools/differential/__main__.py``.  Standard library only."""

import sys


if __package__ in (None, ""):
    # Run as a file: make the repo root importable so ``tools.differential``
    # resolves.  Only the stdlib-only orchestrator is imported here; torch is
    # never imported in this process.
    from pathlib import Path

    # Last, so that the repository's torch/ never shadows the installed torch.
    sys.path.append(str(Path(__file__).resolve().parent.parent.parent))
    from tools.differential import main
else:
    from . import main


if __name__ == "__main__":
    sys.exit(main())

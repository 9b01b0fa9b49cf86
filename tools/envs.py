"""The two virtual environments of the workbench.

``.venv``        the project environment: torch 2.13.0 with the series overlaid.
``.venv-stock``  the stock twin: the same packages, torch left untouched, for
                 differential checks and as the source of pristine files.

Both are created from ``tools/requirements.txt``.  A stamp file records what
was installed, so calling :func:`ensure_env` again is a no-op in well under a
second when nothing changed.  Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

from tools.series import REPO, TORCH_VERSION, SeriesError

PROJECT_ENV = REPO / ".venv"
STOCK_ENV = REPO / ".venv-stock"
REQUIREMENTS = REPO / "tools" / "requirements.txt"
STAMP = ".workbench-stamp"
PYTHON_VERSION = (3, 11)


def env_python(env: Path) -> Path:
    return env / "bin" / "python"


def _wanted_stamp() -> str:
    h = hashlib.sha256(REQUIREMENTS.read_bytes())
    h.update(".".join(map(str, PYTHON_VERSION)).encode())
    return h.hexdigest()


def _log(msg: str) -> None:
    print(f"[workbench] {msg}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def step(what: str):
    """Print ``what`` as a set-up step starts and its elapsed time when it is
    done (or failed), so that a long step is never silent."""
    _log(f"{what} ...")
    start = time.monotonic()
    try:
        yield
    except BaseException:
        _log(f"{what}: failed after {time.monotonic() - start:.0f} s")
        raise
    _log(f"{what}: done in {time.monotonic() - start:.0f} s")


def ensure_env(env: Path, base_python: str = sys.executable) -> Path:
    """Create or update ``env``; return its interpreter.  Idempotent."""
    python = env_python(env)
    stamp = env / STAMP
    wanted = _wanted_stamp()
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    if not python.exists():
        version = subprocess.run(
            [base_python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        if version != "%d.%d" % PYTHON_VERSION:
            raise SeriesError(
                f"{base_python} is Python {version}; the torch {TORCH_VERSION} wheel "
                f"this project pins needs Python {'%d.%d' % PYTHON_VERSION}"
            )
        with step(f"creating {env.name}"):
            subprocess.run([base_python, "-m", "venv", str(env)], check=True)
    with step(f"installing {REQUIREMENTS.relative_to(REPO)} into {env.name} "
              "(torch, triton: minutes on a fresh clone)"):
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--progress-bar", "off", "-r", str(REQUIREMENTS)],
            check=True,
            env=dict(os.environ, PIP_NO_WARN_SCRIPT_LOCATION="1"),
        )
    stamp.write_text(wanted)
    return python

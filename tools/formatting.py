#!/usr/bin/env python3
"""The series' lines that upstream's formatter would rewrite.

    python3 tools/formatting.py [--tree DIR] [--stock DIR]

Upstream formats ``torch/`` with ``ruff format`` (line length 88, double
quotes, formatted docstring code: its ``pyproject.toml``).  Stock 2.13.0 is
not formatter-clean in every file, so each ``.py`` file of ``series_files()``
is compared with its pristine copy in the stock twin: the lines ruff would
rewrite in the series file, less as many equal lines as it would rewrite in
the pristine file, are the series' own.  A new file has no pristine copy.

The exit status is 1 when a line is listed.  Needs ``ruff``
(``tools/requirements.txt`` installs it into ``.venv``).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python3 tools/formatting.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.device_gates import parse_tree_and_stock  # noqa: E402
from tools.function_sizes import python_sources  # noqa: E402
from tools.series import REPO  # noqa: E402

RUFF_OPTIONS = ("--isolated", "--line-length", "88",
                "--config", "format.quote-style = 'double'",
                "--config", "format.docstring-code-format = true")


def ruff() -> str:
    """The ruff executable: next to this Python, in ``.venv``, or on PATH."""
    for candidate in (Path(sys.executable).parent / "ruff", REPO / ".venv" / "bin" / "ruff"):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("ruff")
    if found is None:
        raise FileNotFoundError("ruff is not installed; run `python3 tools/dev.py setup`")
    return found


def rewritten(source: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of each line of ``source`` that ruff rewrites."""
    proc = subprocess.run([ruff(), "format", *RUFF_OPTIONS, "-"], input=source,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ValueError(f"ruff cannot format it: {proc.stderr.strip()}")
    old, new = source.splitlines(), proc.stdout.splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(i + 1, old[i]) for tag, i1, i2, _, _ in matcher.get_opcodes()
            if tag != "equal" for i in range(i1, i2)]


def unformatted(series: str, stock: str | None) -> list[tuple[int, str]]:
    """The lines of ``series`` ruff rewrites, but for those it rewrites in ``stock``."""
    spare = Counter(line for _, line in rewritten(stock)) if stock is not None else Counter()
    found = []
    for number, line in rewritten(series):
        if spare[line]:
            spare[line] -= 1
        else:
            found.append((number, line))
    return found


def scan(tree: Path, stock_site: Path) -> list[tuple[str, int, str]]:
    """``(rel, line number, line)`` over every series file."""
    return [(rel, n, line) for rel, series, stock in python_sources(tree, stock_site)
            for n, line in unformatted(series, stock)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ns, stock = parse_tree_and_stock(parser, argv)
    if stock is None:
        return 2
    found = scan(ns.tree, stock)
    for rel, number, line in found:
        print(f"{rel}:{number}: {line.strip()}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

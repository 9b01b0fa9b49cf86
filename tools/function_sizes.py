#!/usr/bin/env python3
"""The functions the series adds or grows beyond a size limit.

    python3 tools/function_sizes.py [--limit N] [--tree DIR] [--stock DIR]

Scope: the ``.py`` files of ``tools/series.py``'s ``series_files()``, each
compared with the pristine 2.13.0 file of the stock twin (``.venv-stock``).
A function or method is named by its dotted path (``Class.method``,
``outer.inner``) and measured from its ``def`` line to its last line
(decorators excluded).  It is listed when it is longer than the limit
(default 80) and either stock has no function of that name or stock's is
shorter.  A function stock already had over the limit is listed only while
the series makes it longer by more than ``SLACK`` lines (a wrapped line, an
added import-like line), which does not change its shape.

The exit status is 1 when a function is listed.  Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python3 tools/function_sizes.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.device_gates import parse_tree_and_stock  # noqa: E402
from tools.series import series_files  # noqa: E402

LIMIT = 80
#: Lines a function stock already had over the limit may grow by.
SLACK = 1


def function_sizes(source: str, filename: str = "<source>") -> dict[str, int]:
    """``{dotted name: lines}`` of every function in ``source``; of functions
    sharing a name (overloads, alternatives under ``if``) the longest."""
    sizes: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    length = child.end_lineno - child.lineno + 1
                    sizes[name] = max(length, sizes.get(name, 0))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source, filename=filename), "")
    return sizes


def _allowed(stock: int | None, limit: int) -> int:
    """The most lines a function may have, given its stock length (None: new)."""
    return stock + SLACK if stock is not None and stock > limit else limit


def oversized(series: str, stock: str | None, limit: int = LIMIT,
              filename: str = "<source>") -> list[tuple[str, int | None, int]]:
    """``(name, stock lines or None, series lines)`` of each function of
    ``series`` over ``limit`` lines that is new or longer than in ``stock``."""
    before = function_sizes(stock, filename) if stock is not None else {}
    return [
        (name, before.get(name), n)
        for name, n in function_sizes(series, filename).items()
        if n > limit and n > _allowed(before.get(name), limit)
    ]


def python_sources(tree: Path, stock_site: Path) -> Iterator[tuple[str, str, str | None]]:
    """``(rel, series text, stock text or None)`` of every ``.py`` series file."""
    for rel in series_files(tree):
        if rel.endswith(".py"):
            pristine = stock_site / rel
            stock = pristine.read_text() if pristine.is_file() else None
            yield rel, (tree / rel).read_text(), stock


def scan(tree: Path, stock_site: Path, limit: int = LIMIT) -> list[tuple[str, str, int | None, int]]:
    """``(rel, name, stock lines, series lines)`` over every series file."""
    return [(rel, name, old, new) for rel, series, stock in python_sources(tree, stock_site)
            for name, old, new in oversized(series, stock, limit, rel)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=LIMIT,
                        help=f"longest function allowed, in lines (default {LIMIT})")
    ns, stock = parse_tree_and_stock(parser, argv)
    if stock is None:
        return 2
    found = scan(ns.tree, stock, ns.limit)
    for rel, name, old, new in found:
        size = f"{new}" if old is None else f"stock {old} -> {new} (+{new - old})"
        print(f"{rel}: {name}: {size} lines")
    print(f"function sizes: {len(found)} function(s) added or grown over {ns.limit} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

"""Differential harness: patched torch vs. a stock torch 2.13 twin.

Standard library only -- this module runs under any python3 and drives the two
environments' interpreters as subprocesses, each running ``probe.py``.

    python -m tools.differential [--stock PY] [--patched PY]
                                 [--pythonpath-stock DIR] [--pythonpath-patched DIR]
                                 [--only answers|code] [--corpus NAME ...]
                                 [--json OUT] [--parallel]

Exit status: 0 identical, 1 differences found, 2 harness error.

``make_scratch_torch()`` builds a cheap symlink-farm copy of an installed torch
package with a few files edited -- used by the tests to plant a change.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Mapping, Sequence


HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
PROBE = HERE / "probe.py"

EXIT_SAME = 0
EXIT_DIFF = 1
EXIT_ERROR = 2

SECTIONS = ("answers", "code")


def default_python(kind: str) -> str:
    """Default interpreter: <repo>/.venv (patched) or <repo>/.venv-stock (stock)."""
    venv = {"patched": ".venv", "stock": ".venv-stock"}[kind]
    return str(REPO_ROOT / venv / "bin" / "python")


class HarnessError(Exception):
    pass


# --------------------------------------------------------------------------
# Running the probe
# --------------------------------------------------------------------------


def probe_env(pythonpath: str | None, cache_dir: str) -> dict[str, str]:
    """Environment for one probe process.  Identical for both sides except
    for the optional PYTHONPATH prefix."""
    env = dict(os.environ)
    if pythonpath:
        old = env.get("PYTHONPATH")
        env["PYTHONPATH"] = pythonpath + (os.pathsep + old if old else "")
    env["TORCHINDUCTOR_CACHE_DIR"] = cache_dir
    # Caches that would skip codegen are off; only compiled C++ kernels are
    # shared (through TORCHINDUCTOR_CACHE_DIR).
    env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    # In-process compilation: no worker-pool start-up, deterministic order.
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    # Both sides hash strings the same way.
    env["PYTHONHASHSEED"] = "0"
    env.pop("PYTHONSTARTUP", None)
    return env


@dataclasses.dataclass
class ProbeRun:
    side: str
    python: str
    cmd: list[str]
    workdir: Path
    out_json: Path
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    seconds: float = 0.0
    data: dict[str, Any] | None = None


def _start_probe(
    side: str,
    python: str,
    workroot: Path,
    *,
    pythonpath: str | None,
    cache_dir: str,
    only: str | None,
    corpus: Sequence[str],
) -> ProbeRun:
    if not os.path.exists(python):
        raise HarnessError(f"{side}: interpreter not found: {python}")
    workdir = workroot / side
    workdir.mkdir(parents=True, exist_ok=True)
    out_json = workdir / "probe.json"
    cmd = [python, str(PROBE), "--out", str(out_json)]
    if only:
        cmd += ["--only", only]
    for name in corpus:
        cmd += ["--corpus", name]
    run = ProbeRun(side, python, cmd, workdir, out_json)
    run.started = time.perf_counter()
    with open(workdir / "stdout.txt", "wb") as so, open(workdir / "stderr.txt", "wb") as se:
        run.proc = subprocess.Popen(
            cmd, cwd=workdir, env=probe_env(pythonpath, cache_dir), stdout=so, stderr=se
        )
    return run


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "<no output>"
    return "\n".join(text.splitlines()[-lines:])


def _finish_probe(run: ProbeRun, timeout: float) -> ProbeRun:
    assert run.proc is not None
    try:
        rc = run.proc.wait(timeout=max(1.0, timeout - (time.perf_counter() - run.started)))
    except subprocess.TimeoutExpired:
        run.proc.kill()
        run.proc.wait()
        raise HarnessError(
            f"{run.side} probe timed out after {timeout:.0f}s: {' '.join(run.cmd)}\n"
            f"--- stderr tail ---\n{_tail(run.workdir / 'stderr.txt')}"
        )
    run.seconds = time.perf_counter() - run.started
    if rc != 0:
        raise HarnessError(
            f"{run.side} probe crashed (exit {rc}): {' '.join(run.cmd)}\n"
            f"--- stderr tail ---\n{_tail(run.workdir / 'stderr.txt')}"
        )
    try:
        run.data = json.loads(run.out_json.read_text())
    except (OSError, ValueError) as e:
        raise HarnessError(f"{run.side} probe wrote no readable result: {e}")
    return run


def run_probes(
    sides: Mapping[str, tuple[str, str | None]],
    *,
    cache_dir: str,
    workroot: Path,
    only: str | None = None,
    corpus: Sequence[str] = (),
    parallel: bool = False,
    timeout: float = 1800.0,
) -> dict[str, ProbeRun]:
    """Run the probe for each side {name: (python, pythonpath)}.

    Sequential by default (the first side populates the C++ kernel cache the
    second one reuses); ``parallel`` overlaps them (Inductor's per-kernel file
    locks still compile each identical kernel only once)."""
    runs: dict[str, ProbeRun] = {}
    started: list[ProbeRun] = []
    try:
        for side, (python, pythonpath) in sides.items():
            run = _start_probe(
                side, python, workroot, pythonpath=pythonpath, cache_dir=cache_dir,
                only=only, corpus=corpus,
            )
            started.append(run)
            if not parallel:
                runs[side] = _finish_probe(run, timeout)
        for run in started:
            if run.side not in runs:
                runs[run.side] = _finish_probe(run, timeout)
    finally:
        for run in started:
            if run.proc is not None and run.proc.poll() is None:
                run.proc.kill()
                run.proc.wait()
    return runs


# --------------------------------------------------------------------------
# Comparison and report
# --------------------------------------------------------------------------

ABSENT = object()


@dataclasses.dataclass
class Difference:
    section: str
    name: str
    stock: Any
    patched: Any


def _ordered_union(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    return list(a) + [k for k in b if k not in a]


def compare(stock: Mapping[str, Any], patched: Mapping[str, Any]) -> tuple[dict[str, int], list[Difference]]:
    counts: dict[str, int] = {}
    diffs: list[Difference] = []
    for section in SECTIONS:
        s = stock.get(section, {}) or {}
        p = patched.get(section, {}) or {}
        names = _ordered_union(s, p)
        counts[section] = len(names)
        for name in names:
            sv = s.get(name, ABSENT)
            pv = p.get(name, ABSENT)
            if sv is ABSENT or pv is ABSENT or sv != pv:
                diffs.append(Difference(section, name, sv, pv))
    return counts, diffs


def _report_deliberate(
    diffs: list[Difference], stock: Mapping[str, Any], patched: Mapping[str, Any]
) -> list[Difference]:
    """Print the deliberate differences (tools/differential/deliberate.py) that
    occurred exactly as declared; return every other difference, plus one for
    each declared difference that did not occur in an entry both sides have."""
    from tools.differential.deliberate import DELIBERATE

    remaining = []
    seen = set()
    for d in diffs:
        declared = DELIBERATE.get((d.section, d.name))
        if declared is not None and _as_declared(declared, d.stock, d.patched):
            seen.add((d.section, d.name))
            print(f"differential: deliberate difference in {d.section}: {d.name}: {declared[2]}")
        else:
            remaining.append(d)
    for (section, name), (stock_value, patched_value, _) in DELIBERATE.items():
        compared = name in (stock.get(section) or {}) and name in (patched.get(section) or {})
        if compared and (section, name) not in seen:
            if callable(patched_value):
                patched_value = "stock's value, changed as deliberate.py declares"
            remaining.append(Difference(section, f"{name} (declared deliberate, did not occur)",
                                        stock_value, patched_value))
    return remaining


def _as_declared(declared: tuple[object, object, str], stock: Any, patched: Any) -> bool:
    """Whether a difference is the declared one: both values as declared, or,
    where the patched value is declared as a function of stock's, that."""
    stock_value, patched_value, _ = declared
    if callable(patched_value):
        return patched_value(stock) == patched
    return (stock, patched) == (stock_value, patched_value)


def _render(v: Any) -> list[str]:
    if v is ABSENT:
        return ["<absent>"]
    if isinstance(v, str) and "\n" in v:
        return v.splitlines()
    return json.dumps(v, indent=2, ensure_ascii=False).splitlines()


def format_difference(d: Difference, max_lines: int = 200) -> str:
    lines = list(
        difflib.unified_diff(
            _render(d.stock),
            _render(d.patched),
            fromfile=f"stock    {d.section}: {d.name}",
            tofile=f"patched  {d.section}: {d.name}",
            lineterm="",
            n=3,
        )
    )
    if not lines:  # equal renderings but unequal values (e.g. 1 vs 1.0)
        lines = [f"--- stock    {d.section}: {d.name}", f"+++ patched  {d.section}: {d.name}",
                 f"-{d.stock!r}", f"+{d.patched!r}"]
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"... ({len(lines) - max_lines} more diff lines)"]
    header = f"=== DIFFERENCE in {d.section}: {d.name}"
    return "\n".join([header, *lines])


def _check_stock_corpus(stock: Mapping[str, Any]) -> None:
    """The corpus must compile on the stock side; otherwise the harness (or
    the environment) is broken, not the patch."""
    code = stock.get("code", {}) or {}
    errors = {k: v for k, v in code.items() if k.endswith("!error")}
    if errors:
        name, tb = next(iter(errors.items()))
        raise HarnessError(
            f"stock side failed to compile corpus item(s) {sorted(errors)}; first traceback ({name}):\n{tb}"
        )
    for item in (stock.get("meta", {}) or {}).get("corpus", []):
        if not any(k.startswith(f"{item}[") for k in code):
            raise HarnessError(f"stock side produced no output code for corpus item {item!r}")


# --------------------------------------------------------------------------
# Scratch torch (symlink farm) for planted-change tests
# --------------------------------------------------------------------------


def find_torch_dir(python: str) -> Path:
    """The installed torch package directory of ``python`` (without importing it)."""
    code = (
        "import importlib.util; "
        "print(list(importlib.util.find_spec('torch').submodule_search_locations)[0])"
    )
    out = subprocess.run(
        [python, "-I", "-c", code], check=True, capture_output=True, text=True,
        cwd=tempfile.gettempdir(),
    )
    return Path(out.stdout.strip())


def make_scratch_torch(
    site_torch_dir: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    edits: Mapping[str, Callable[[str], str]],
) -> Path:
    """Build ``<dest>/torch``: a copy of ``site_torch_dir`` that is a symlink farm.

    Only the directories on the way to an edited file are real directories;
    every other entry is a symlink to the original, so building it is cheap and
    ``import torch`` from ``dest`` (put it first on PYTHONPATH) still finds its
    shared libraries, headers etc. through the links.  ``edits`` maps a path
    relative to the torch package (e.g. ``"_inductor/utils.py"``) to a function
    that gets the original text and returns the new text; an edit that changes
    nothing is an error.  ``__pycache__`` is not linked inside real
    directories, so edited modules never share bytecode with the original.
    Returns ``dest`` (the directory to put on PYTHONPATH).
    """
    src = Path(site_torch_dir).absolute()
    if not (src / "__init__.py").is_file():
        raise ValueError(f"not a torch package directory: {src}")
    dest = Path(dest).absolute()
    root = dest / "torch"
    if root.exists() or root.is_symlink():
        raise FileExistsError(root)

    norm_edits: dict[PurePosixPath, Callable[[str], str]] = {}
    real_dirs: set[PurePosixPath] = {PurePosixPath(".")}
    for rel, fn in edits.items():
        p = PurePosixPath(rel)
        if p.is_absolute() or ".." in p.parts:
            raise ValueError(f"edit path must be relative to the torch package: {rel}")
        if not (src / p).is_file():
            raise FileNotFoundError(src / p)
        norm_edits[p] = fn
        real_dirs.update(p.parents)

    def build(rel: PurePosixPath) -> None:
        (root / rel).mkdir(parents=True, exist_ok=True)
        with os.scandir(src / rel) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            r = rel / entry.name if rel != PurePosixPath(".") else PurePosixPath(entry.name)
            if r in real_dirs:
                build(r)
            elif r in norm_edits:
                original = (src / r).read_text(encoding="utf-8")
                edited = norm_edits[r](original)
                if edited == original:
                    raise ValueError(f"edit of {r} changed nothing")
                (root / r).write_text(edited, encoding="utf-8")
            elif entry.name == "__pycache__":
                continue
            else:
                os.symlink(src / r, root / r)

    build(PurePosixPath("."))
    return dest


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tools.differential",
        description="Compare device answers and Inductor output code between a "
        "patched torch environment and a stock torch twin.",
    )
    ap.add_argument("--stock", default=default_python("stock"),
                    help="stock interpreter (default: %(default)s)")
    ap.add_argument("--patched", default=default_python("patched"),
                    help="patched interpreter (default: %(default)s)")
    ap.add_argument("--pythonpath-stock", default=None, metavar="DIR",
                    help="prepended to PYTHONPATH for the stock side")
    ap.add_argument("--pythonpath-patched", default=None, metavar="DIR",
                    help="prepended to PYTHONPATH for the patched side")
    ap.add_argument("--only", choices=SECTIONS, default=None,
                    help="compare only the answers table or only the code corpus")
    ap.add_argument("--corpus", action="append", default=[], metavar="NAME",
                    help="restrict the code corpus to NAME (repeatable, comma-separated ok)")
    ap.add_argument("--json", default=None, metavar="OUT", help="write a JSON report")
    ap.add_argument("--parallel", action="store_true",
                    help="run both probes concurrently (default: one after the other)")
    ap.add_argument("--timeout", type=float, default=1800.0,
                    help="seconds per probe before it counts as a harness error")
    ap.add_argument("--max-diff-lines", type=int, default=200,
                    help="cap on printed diff lines per entry")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (probe JSON, stdout/stderr)")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    corpus = [n for spec in args.corpus for n in spec.split(",") if n]
    workroot = Path(tempfile.mkdtemp(prefix="differential-"))
    env_cache = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    cache_dir = env_cache or str(workroot / "inductor-cache")
    os.makedirs(cache_dir, exist_ok=True)
    t0 = time.perf_counter()
    result: dict[str, Any] = {"exit": EXIT_ERROR}
    try:
        try:
            runs = run_probes(
                {
                    "stock": (args.stock, args.pythonpath_stock),
                    "patched": (args.patched, args.pythonpath_patched),
                },
                cache_dir=cache_dir,
                workroot=workroot,
                only=args.only,
                corpus=corpus,
                parallel=args.parallel,
                timeout=args.timeout,
            )
            stock = runs["stock"].data or {}
            patched = runs["patched"].data or {}
            if args.only in (None, "code"):
                _check_stock_corpus(stock)
        except HarnessError as e:
            print(f"differential: HARNESS ERROR: {e}", file=sys.stdout)
            print("differential: harness error, nothing compared")
            result["error"] = str(e)
            return EXIT_ERROR

        for side, run in runs.items():
            meta = (run.data or {}).get("meta", {})
            secs = meta.get("seconds", {})
            print(
                f"differential: {side:<7} {run.python}  torch {meta.get('torch_version')} "
                f"from {os.path.dirname(meta.get('torch_file', '?'))}  "
                f"[{run.seconds:.1f}s: import {secs.get('import_torch', 0):.1f}s, "
                f"answers {secs.get('answers', 0):.1f}s, code {secs.get('code', 0):.1f}s]"
            )
        counts, diffs = compare(stock, patched)
        diffs = _report_deliberate(diffs, stock, patched)
        for d in diffs:
            print(format_difference(d, args.max_diff_lines))
        total = time.perf_counter() - t0
        code = EXIT_DIFF if diffs else EXIT_SAME
        print(
            f"differential: {counts['answers']} answers, {counts['code']} code artefacts "
            f"compared, {len(diffs)} differences ({total:.1f}s)"
        )
        result.update(
            exit=code,
            summary={"answers": counts["answers"], "code": counts["code"],
                     "differences": len(diffs), "seconds": round(total, 2)},
            differences=[
                {"section": d.section, "name": d.name,
                 "stock": None if d.stock is ABSENT else d.stock,
                 "patched": None if d.patched is ABSENT else d.patched,
                 "absent": [s for s, v in (("stock", d.stock), ("patched", d.patched)) if v is ABSENT]}
                for d in diffs
            ],
            meta={side: (run.data or {}).get("meta", {}) for side, run in runs.items()},
        )
        return code
    finally:
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
        if args.keep:
            print(f"differential: work directory kept at {workroot}")
        else:
            shutil.rmtree(workroot, ignore_errors=True)


__all__ = [
    "EXIT_DIFF",
    "EXIT_ERROR",
    "EXIT_SAME",
    "HarnessError",
    "compare",
    "default_python",
    "find_torch_dir",
    "main",
    "make_scratch_torch",
    "run_probes",
]

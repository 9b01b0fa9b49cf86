"""Stock vs patched compile-time benchmark (scaffold).

    python benchmarks/compile_bench.py [--stock PY] [--patched PY]
        [--pythonpath-stock DIR] [--pythonpath-patched DIR]
        [--repeat 3] [--import-repeat 10] [--corpus NAME ...]
        [--only compile,import,micro] [--json OUT]

Measures, for both interpreters in one run (runs alternate stock/patched):

1. cold compile time of the differential corpus (tools/differential/corpus.py,
   python- and C++-wrapper modes) with every cache cold: a fresh
   TORCHINDUCTOR_CACHE_DIR per run, FX graph cache and AOTAutograd cache off;
   C++ kernel compilation included.  Median of ``--repeat`` runs.
2. ``import torch._inductor`` time in a fresh process after ``import torch``
   (and, separately, ``torch._inductor.compile_fx``).  Median of
   ``--import-repeat`` processes.
3. micro-timings (ns per call) of device-classification lookups; a function
   absent on one side is reported as n/a.

Prints a table (stock, patched, patched/stock).  No assertions on time.

The orchestrator uses only the standard library; ``--worker`` modes of this
same file run inside an environment and import torch.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable


REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))  # appended: never shadow an installed torch

SIDES = ("stock", "patched")
PARTS = ("compile", "import", "micro")


# --------------------------------------------------------------------------
# Workers (run inside an environment; may import torch)
# --------------------------------------------------------------------------

IMPORT_TARGETS = ("torch._inductor", "torch._inductor.compile_fx")


def worker_import() -> dict[str, float]:
    import importlib

    import torch  # noqa: F401

    out: dict[str, float] = {}
    for mod in IMPORT_TARGETS:
        t0 = time.perf_counter()
        importlib.import_module(mod)
        out[mod] = time.perf_counter() - t0
    return out


def _micro_targets() -> dict[str, Callable[[], Callable[[], Any] | None]]:
    """name -> resolver returning a zero-arg callable, or None when absent."""

    def attr(module: str, name: str, *args: Any) -> Callable[[], Callable[[], Any] | None]:
        def resolve() -> Callable[[], Any] | None:
            import importlib

            try:
                fn = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):
                return None
            return lambda: fn(*args)

        return resolve

    iu = "torch._inductor.utils"
    return {
        'is_gpu("cuda")': attr(iu, "is_gpu", "cuda"),
        'is_gpu("cpu")': attr(iu, "is_gpu", "cpu"),
        'device_need_guard("cuda")': attr(iu, "device_need_guard", "cuda"),
        "get_gpu_type()": attr(iu, "get_gpu_type"),
        "has_triton()": attr("torch.utils._triton", "has_triton"),
        'get_interface_for_device("cpu")': attr(
            "torch._dynamo.device_interface", "get_interface_for_device", "cpu"
        ),
        'get_scheduling_for_device("cpu")': attr(
            "torch._inductor.codegen.common", "get_scheduling_for_device", "cpu"
        ),
    }


def worker_micro() -> dict[str, float | None]:
    import timeit

    import torch._inductor.codegen.common as common
    import torch._dynamo.device_interface as di

    # Registries initialised, as during any compile.
    common.init_backend_registration()
    list(di.get_registered_device_interfaces())
    out: dict[str, float | None] = {}
    for name, resolve in _micro_targets().items():
        fn = resolve()
        if fn is None:
            out[name] = None
            continue
        try:
            fn()  # warm any functools caches
        except Exception:
            out[name] = None
            continue
        timer = timeit.Timer(fn)
        number, _ = timer.autorange()
        number = max(number, 1)
        samples = timer.repeat(repeat=3, number=number)
        out[name] = statistics.median(samples) / number * 1e9
    return out


def worker_main(kind: str) -> int:
    result = {"import": worker_import, "micro": worker_micro}[kind]()
    print("BENCH_RESULT " + json.dumps(result))
    return 0


# --------------------------------------------------------------------------
# Orchestrator (standard library only)
# --------------------------------------------------------------------------


def _run(cmd: list[str], env: dict[str, str], cwd: str, timeout: float) -> str:
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.splitlines()[-30:])
        raise RuntimeError(f"benchmark subprocess failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")
    return proc.stdout


def _worker(python: str, pythonpath: str | None, kind: str, cache_dir: str, cwd: str) -> dict[str, Any]:
    from tools.differential import probe_env

    out = _run([python, str(Path(__file__).resolve()), "--worker", kind],
               probe_env(pythonpath, cache_dir), cwd, timeout=600)
    for line in out.splitlines():
        if line.startswith("BENCH_RESULT "):
            return json.loads(line[len("BENCH_RESULT "):])
    raise RuntimeError(f"no result from {kind} worker ({python})")


def _cold_compile(python: str, pythonpath: str | None, corpus: list[str], cwd: str) -> dict[str, float]:
    from tools.differential import PROBE, probe_env

    cache = tempfile.mkdtemp(prefix="compile-bench-cache-")
    try:
        out_json = os.path.join(cwd, "probe.json")
        cmd = [python, str(PROBE), "--out", out_json, "--only", "code"]
        for name in corpus:
            cmd += ["--corpus", name]
        t0 = time.perf_counter()
        _run(cmd, probe_env(pythonpath, cache), cwd, timeout=3600)
        wall = time.perf_counter() - t0
        with open(out_json) as f:
            data = json.load(f)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    secs = data["meta"]["seconds"]
    code = data.get("code", {})
    errors = [k for k in code if k.endswith("!error")]
    if errors:
        raise RuntimeError(f"corpus failed to compile with {python}: {errors}")
    row = {"cold compile: corpus total": secs["code"], "cold compile: process wall": wall}
    for item, s in secs["code_items"].items():
        row[f"cold compile: {item}"] = s
    return row


def _order(r: int) -> tuple[str, str]:
    # Alternate which side goes first to cancel drift (thermal, page cache, load).
    return SIDES if r % 2 == 0 else SIDES[::-1]


def _median_rows(samples: dict[str, dict[str, list[float | None]]]) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for side, metrics in samples.items():
        for metric, values in metrics.items():
            vals = [v for v in values if v is not None]
            out.setdefault(metric, {})[side] = statistics.median(vals) if vals else None
    return out


def _collect(samples: dict[str, dict[str, list[float | None]]], side: str, row: dict[str, Any]) -> None:
    for k, v in row.items():
        samples[side].setdefault(k, []).append(v)


def main(argv: list[str] | None = None) -> int:
    from tools.differential import default_python

    ap = argparse.ArgumentParser(description="stock vs patched torch.compile benchmark")
    ap.add_argument("--worker", choices=("import", "micro"), help=argparse.SUPPRESS)
    ap.add_argument("--stock", default=default_python("stock"))
    ap.add_argument("--patched", default=default_python("patched"))
    ap.add_argument("--pythonpath-stock", default=None, metavar="DIR")
    ap.add_argument("--pythonpath-patched", default=None, metavar="DIR")
    ap.add_argument("--repeat", type=int, default=3, help="cold-compile and micro runs per side")
    ap.add_argument("--import-repeat", type=int, default=10, help="import-time processes per side")
    ap.add_argument("--corpus", action="append", default=[], metavar="NAME")
    ap.add_argument("--only", default=",".join(PARTS),
                    help="comma-separated subset of: " + ", ".join(PARTS))
    ap.add_argument("--json", default=None, metavar="OUT")
    args = ap.parse_args(argv)
    if args.worker:
        return worker_main(args.worker)

    parts = [p for p in args.only.split(",") if p]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"unknown part(s) {bad}")
    corpus = [n for spec in args.corpus for n in spec.split(",") if n]
    sides = {"stock": (args.stock, args.pythonpath_stock),
             "patched": (args.patched, args.pythonpath_patched)}
    for side, (py, _) in sides.items():
        if not os.path.exists(py):
            print(f"compile_bench: {side} interpreter not found: {py}", file=sys.stderr)
            return 2

    workdir = tempfile.mkdtemp(prefix="compile-bench-")
    # Import/micro workers never compile kernels; they still get a private cache dir.
    idle_cache = os.path.join(workdir, "inductor-cache")
    tables: list[tuple[str, str, dict[str, dict[str, float | None]]]] = []
    t_start = time.perf_counter()
    try:
        if "compile" in parts:
            samples: dict[str, dict[str, list[float | None]]] = {s: {} for s in SIDES}
            for r in range(args.repeat):
                for side in _order(r):
                    py, pp = sides[side]
                    row = _cold_compile(py, pp, corpus, workdir)
                    _collect(samples, side, row)
                    print(f"compile_bench: cold compile run {r + 1}/{args.repeat} {side}: "
                          f"{row['cold compile: corpus total']:.2f}s", flush=True)
            tables.append(("cold compile (median, s)", "s", _median_rows(samples)))
        if "import" in parts:
            samples = {s: {} for s in SIDES}
            for r in range(args.import_repeat):
                for side in _order(r):
                    py, pp = sides[side]
                    row = _worker(py, pp, "import", idle_cache, workdir)
                    _collect(samples, side, {f"import {k} (ms)": v * 1e3 for k, v in row.items()})
            tables.append(("import time (median of processes, ms)", "ms", _median_rows(samples)))
        if "micro" in parts:
            samples = {s: {} for s in SIDES}
            for r in range(args.repeat):
                for side in _order(r):
                    py, pp = sides[side]
                    _collect(samples, side, _worker(py, pp, "micro", idle_cache, workdir))
            tables.append(("device lookups (median, ns/call)", "ns", _median_rows(samples)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def fmt(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}" if v < 100 else f"{v:.1f}"

    report: list[dict[str, Any]] = []
    width = max([len(m) for _, _, rows in tables for m in rows] + [20])
    print()
    print(f"stock:   {args.stock}" + (f"  (PYTHONPATH+={args.pythonpath_stock})" if args.pythonpath_stock else ""))
    print(f"patched: {args.patched}" + (f"  (PYTHONPATH+={args.pythonpath_patched})" if args.pythonpath_patched else ""))
    for title, unit, rows in tables:
        print()
        print(f"== {title}")
        print(f"{'metric':<{width}}  {'stock':>12}  {'patched':>12}  {'patched/stock':>13}")
        for metric, vals in rows.items():
            s, p = vals.get("stock"), vals.get("patched")
            ratio = p / s if s and p is not None else None
            print(f"{metric:<{width}}  {fmt(s):>12}  {fmt(p):>12}  "
                  f"{('n/a' if ratio is None else f'{ratio:.3f}'):>13}")
            report.append({"table": title, "metric": metric, "unit": unit,
                           "stock": s, "patched": p, "ratio": ratio})
    total = time.perf_counter() - t_start
    print(f"\ncompile_bench: done in {total:.1f}s (repeat={args.repeat}, "
          f"import-repeat={args.import_repeat})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"stock": args.stock, "patched": args.patched,
                       "repeat": args.repeat, "import_repeat": args.import_repeat,
                       "corpus": corpus, "seconds": round(total, 2), "rows": report}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

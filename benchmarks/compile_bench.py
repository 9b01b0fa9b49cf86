"""Stock vs patched compile-time benchmark (scaffold).

    python benchmarks/compile_bench.py [--stock PY] [--patched PY]
        [--pythonpath-stock DIR] [--pythonpath-patched DIR]
        [--repeat 3] [--import-repeat 10] [--corpus NAME ...]
        [--only compile,import,micro,large,calls] [--blocks 200] [--json OUT]

Measures, for both interpreters in one run (runs alternate stock/patched):

1. cold compile time of the differential corpus (tools/differential/corpus.py,
   python- and C++-wrapper modes) with every cache cold: a fresh
   TORCHINDUCTOR_CACHE_DIR per run, FX graph cache and AOTAutograd cache off;
   C++ kernel compilation included.  Median of ``--repeat`` runs.
2. ``import torch._inductor`` time in a fresh process after ``import torch``
   (and, separately, ``torch._inductor.compile_fx``).  Median of
   ``--import-repeat`` processes.
3. micro-timings (ns per call) of the lookups Inductor and Dynamo make per
   node, per frame or per call (device classification, trace rules); a function
   absent on one side is reported as n/a.  The same lookups for the fake
   out-of-tree device (test/inductor/extension_backends, registered GPU-class
   with a C++ backend) are timed in the patched environment, in a process of
   their own, next to their in-tree counterparts.
4. ``large``: cold compile of one large graph (``--blocks`` pointwise +
   reduction blocks, 200 by default), on cpu in both environments and on the
   fake device in the patched one; wall time and CPU time (the process and
   the compiler processes it runs), which other load on the machine disturbs
   less.
5. ``calls`` (only when asked for): Python calls (cProfile's count) made by
   compiling a training step of a small conv, normalisation and attention block
   on cpu, in a fresh process and again after ``torch._dynamo.reset()``: a
   machine-independent measure of compile cost, which differs from run to run
   by a few hundredths of a percent.

Prints a table (stock, patched, patched/stock) with the spread (min-max) of
the samples, then the ratios the series targets (in-tree lookups and cpu
compile against stock; out-of-tree lookups and the fake-device compile
against their in-tree counterparts).  No assertions on time: the numbers are
there to read.

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
PARTS = ("compile", "import", "micro", "large", "calls")
DEFAULT_PARTS = ("compile", "import", "micro", "large")
# The fake out-of-tree device of the tests.
OOT_DEVICE = "extension_device"
TEST_INDUCTOR_DIR = REPO_ROOT / "test" / "inductor"


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

    def lookup(fn_name: str) -> Callable[[], Callable[[], Any] | None]:
        # Dynamo's trace rule of a function, as asked for every call it traces.
        def resolve() -> Callable[[], Any] | None:
            import importlib

            import torch

            from torch._dynamo import trace_rules

            module, _, name = fn_name.rpartition(".")
            fn = getattr(importlib.import_module(module), name, None)
            if fn is None:
                return None
            return lambda: trace_rules.lookup(fn)

        return resolve

    def can_fold(fn_name: str) -> Callable[[], Callable[[], Any] | None]:
        # Dynamo's constant-fold check of a torch function.
        def resolve() -> Callable[[], Any] | None:
            import importlib

            from torch._dynamo.variables.torch import TorchInGraphFunctionVariable

            module, _, name = fn_name.rpartition(".")
            fn = getattr(importlib.import_module(module), name, None)
            if fn is None:
                return None
            var = TorchInGraphFunctionVariable(fn)
            return var.can_constant_fold_through

        return resolve

    iu = "torch._inductor.utils"
    return {
        'is_gpu("cuda")': attr(iu, "is_gpu", "cuda"),
        'is_gpu("cpu")': attr(iu, "is_gpu", "cpu"),
        'device_need_guard("cuda")': attr(iu, "device_need_guard", "cuda"),
        'device_need_guard("cpu")': attr(iu, "device_need_guard", "cpu"),
        'is_cpp_scheduled("cpu")': attr(iu, "is_cpp_scheduled", "cpu"),
        "trace_rules.lookup(torch.cuda.current_device)": lookup(
            "torch.cuda.current_device"
        ),
        "trace_rules.lookup(torch.sin)": lookup("torch.sin"),
        "can_constant_fold(torch.cuda.is_available)": can_fold(
            "torch.cuda.is_available"
        ),
        "get_gpu_type()": attr(iu, "get_gpu_type"),
        "has_triton()": attr("torch.utils._triton", "has_triton"),
        'get_interface_for_device("cpu")': attr(
            "torch._dynamo.device_interface", "get_interface_for_device", "cpu"
        ),
        'get_scheduling_for_device("cpu")': attr(
            "torch._inductor.codegen.common", "get_scheduling_for_device", "cpu"
        ),
    }


# Out-of-tree lookup -> the in-tree lookup it is compared with.
OOT_COUNTERPARTS = {
    f'is_gpu("{OOT_DEVICE}")': 'is_gpu("cuda")',
    f'device_need_guard("{OOT_DEVICE}")': 'device_need_guard("cuda")',
    f'is_cpp_scheduled("{OOT_DEVICE}")': 'is_cpp_scheduled("cpu")',
    f"trace_rules.lookup(torch.{OOT_DEVICE}.current_device)": (
        "trace_rules.lookup(torch.cuda.current_device)"
    ),
    f"can_constant_fold(torch.{OOT_DEVICE}.is_available)": (
        "can_constant_fold(torch.cuda.is_available)"
    ),
}


def _register_oot_device(gpu_class: bool = True) -> None:
    """Registers the fake device with a C++ backend, as its tests do, through
    public calls: GPU-class (the lookups' slower answers: guards, streams), or
    a CPU-like accelerator, which Inductor compiles as it compiles cpu."""
    _register_oot_runtime()
    _register_oot_compile_backend(gpu_class)


def _register_oot_runtime() -> None:
    """The eager side of the fake device (its device module and allocator)."""
    sys.path.insert(0, str(TEST_INDUCTOR_DIR))
    from extension_backends.extension_device import register

    register(OOT_DEVICE)


def _register_oot_compile_backend(gpu_class: bool) -> None:
    """The compile side of the fake device: its interface and C++ backend
    (importing them imports Dynamo and most of Inductor)."""
    from extension_backends.cpp.extension_codegen_backend import (
        ExtensionDeviceInterface,
        ExtensionGpuDeviceInterface,
        register_compile_backend,
    )

    register_compile_backend(
        OOT_DEVICE,
        ExtensionGpuDeviceInterface if gpu_class else ExtensionDeviceInterface,
    )


def _oot_micro_targets() -> dict[str, Callable[[], Callable[[], Any] | None]]:
    targets = _micro_targets()
    oot: dict[str, Callable[[], Callable[[], Any] | None]] = {}
    for name, in_tree in OOT_COUNTERPARTS.items():
        oot[in_tree] = targets[in_tree]
    iu = "torch._inductor.utils"

    def attr(name: str) -> Callable[[], Callable[[], Any] | None]:
        def resolve() -> Callable[[], Any] | None:
            import importlib

            fn = getattr(importlib.import_module(iu), name)
            return lambda: fn(OOT_DEVICE)

        return resolve

    def module_fn(name: str) -> Callable[[], Callable[[], Any] | None]:
        def resolve() -> Callable[[], Any] | None:
            import torch

            from torch._dynamo import trace_rules

            fn = getattr(getattr(torch, OOT_DEVICE), name)
            return lambda: trace_rules.lookup(fn)

        return resolve

    def can_fold(name: str) -> Callable[[], Callable[[], Any] | None]:
        def resolve() -> Callable[[], Any] | None:
            import torch

            from torch._dynamo.variables.torch import TorchInGraphFunctionVariable

            var = TorchInGraphFunctionVariable(getattr(getattr(torch, OOT_DEVICE), name))
            return var.can_constant_fold_through

        return resolve

    oot[f'is_gpu("{OOT_DEVICE}")'] = attr("is_gpu")
    oot[f'device_need_guard("{OOT_DEVICE}")'] = attr("device_need_guard")
    oot[f'is_cpp_scheduled("{OOT_DEVICE}")'] = attr("is_cpp_scheduled")
    oot[f"trace_rules.lookup(torch.{OOT_DEVICE}.current_device)"] = module_fn(
        "current_device"
    )
    oot[f"can_constant_fold(torch.{OOT_DEVICE}.is_available)"] = can_fold(
        "is_available"
    )
    return oot


def worker_micro(oot: bool = False) -> dict[str, float | None]:
    import timeit

    import torch._inductor.codegen.common as common
    import torch._dynamo.device_interface as di

    if oot:
        _register_oot_device()
    # Registries initialised, and Dynamo's device tables derived (which the
    # series does at the start of every frame), as during any compile.
    common.init_backend_registration()
    list(di.get_registered_device_interfaces())
    from torch._dynamo import trace_rules

    derive_device_tables = getattr(trace_rules, "_device_tables", None)
    if derive_device_tables is not None:
        derive_device_tables()
    out: dict[str, float | None] = {}
    targets = _oot_micro_targets() if oot else _micro_targets()
    for name, resolve in targets.items():
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
        # The best of a few repeats: the lookup's own cost, with as little of
        # the shared machine's noise as one process can get.
        samples = timer.repeat(repeat=5, number=number)
        out[name] = min(samples) / number * 1e9
    return out


def _large_graph(blocks: int) -> Callable[[Any], Any]:
    """A function of ``blocks`` blocks, each a pointwise op and a reduction
    (an activation, then centring on the row mean), traced as one graph."""
    import torch

    def fn(x: Any) -> Any:
        for i in range(blocks):
            y = torch.tanh(x * (1.0 + 0.01 * i)) + 0.1 * i
            x = y - y.mean(dim=-1, keepdim=True)
        return x

    return fn


def worker_large(device: str, blocks: int) -> dict[str, float]:
    """Cold compile (every cache cold, see probe_env) of the large graph on
    ``device``; seconds from the call (on the fake device, from registering
    its compile side) to the first result."""
    import torch

    # The fake device's eager module builds on torch.utils.cpp_extension, which
    # compiling on cpu imports too: imported before the clock starts on every
    # run, so that no run pays it in the timed region and another does not.
    import torch.utils.cpp_extension  # noqa: F401

    if device == OOT_DEVICE:
        _register_oot_runtime()
    fn = _large_graph(blocks)
    x = torch.randn(8, 64, device=device)
    compiled = torch.compile(fn, fullgraph=True)
    with torch.no_grad():
        cpu0 = os.times()
        t0 = time.perf_counter()
        if device == OOT_DEVICE:
            # CPU-like, so that the comparison with cpu measures what the series
            # adds, not Inductor's GPU heuristics (padding). Registered in the
            # timed region: importing the compile side imports most of
            # Inductor, which a cpu run imports during its first compile.
            _register_oot_compile_backend(gpu_class=False)
        out = compiled(x)
        if device != "cpu":
            out = out.cpu()
        seconds = time.perf_counter() - t0
        cpu1 = os.times()
    # CPU time of this process and of the compiler processes it waited for:
    # less sensitive than wall time to other load on a shared machine.
    cpu_seconds = sum(cpu1[:4]) - sum(cpu0[:4])
    return {"wall": seconds, "cpu": cpu_seconds}


def _calls_program() -> tuple[Any, Any]:
    """A training step of a small conv, normalisation and attention block."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv, self.group = nn.Conv2d(4, 8, 3, padding=1), nn.GroupNorm(2, 8)
            self.layer, self.linear = nn.LayerNorm(16), nn.Linear(16, 16)

        def forward(self, x: Any) -> Any:
            h = self.layer(F.silu(self.group(self.conv(x))).flatten(2))
            var, mean = torch.var_mean(h, dim=-1, keepdim=True)
            return self.linear((h - mean) * var).softmax(-1)

    torch.manual_seed(0)
    return Block(), torch.randn(2, 4, 4, 4)


def worker_calls() -> dict[str, float]:
    """Python calls (cProfile's count) made by compiling ``_calls_program`` on
    cpu: in a fresh process, and again after ``torch._dynamo.reset()`` (the
    one-time initialisations done).  Inductor compiles in this process
    (``compile_threads=1``), so the counts repeat run after run."""
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import cProfile
    import pstats

    import torch

    out: dict[str, float] = {}
    for label in ("calls: first compile", "calls: compile after reset"):
        torch._dynamo.reset()
        model, x = _calls_program()
        compiled = torch.compile(model)
        profile = cProfile.Profile()
        with profile:
            compiled(x).sum().backward()
        out[label] = float(pstats.Stats(profile).total_calls)
    return out


def worker_main(kind: str, args: argparse.Namespace) -> int:
    if kind == "calls":
        result = worker_calls()
    elif kind == "micro":
        result = worker_micro()
    elif kind == "micro-oot":
        result = worker_micro(oot=True)
    elif kind == "import":
        result = worker_import()
    else:
        result = worker_large(args.device, args.blocks)
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


def _worker(python: str, pythonpath: str | None, kind: str, cache_dir: str, cwd: str,
            extra: list[str] = ()) -> dict[str, Any]:
    from tools.differential import probe_env

    out = _run([python, str(Path(__file__).resolve()), "--worker", kind, *extra],
               probe_env(pythonpath, cache_dir), cwd, timeout=1800)
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


def _spread_rows(samples: dict[str, dict[str, list[float | None]]]) -> dict[str, dict[str, tuple[float, float] | None]]:
    out: dict[str, dict[str, tuple[float, float] | None]] = {}
    for side, metrics in samples.items():
        for metric, values in metrics.items():
            vals = [v for v in values if v is not None]
            out.setdefault(metric, {})[side] = (min(vals), max(vals)) if vals else None
    return out


def _ratio_spread(num: list[float], den: list[float]) -> tuple[float, float, float]:
    """Median ratio of paired samples (same round), and its min-max."""
    ratios = [n / d for n, d in zip(num, den) if n is not None and d]
    return statistics.median(ratios), min(ratios), max(ratios)


def _collect(samples: dict[str, dict[str, list[float | None]]], side: str, row: dict[str, Any]) -> None:
    for k, v in row.items():
        samples[side].setdefault(k, []).append(v)


def main(argv: list[str] | None = None) -> int:
    from tools.differential import default_python

    ap = argparse.ArgumentParser(description="stock vs patched torch.compile benchmark")
    ap.add_argument("--worker", choices=("import", "micro", "micro-oot", "large", "calls"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--device", default="cpu", help=argparse.SUPPRESS)
    ap.add_argument("--blocks", type=int, default=200,
                    help="pointwise + reduction blocks of the large graph")
    ap.add_argument("--stock", default=default_python("stock"))
    ap.add_argument("--patched", default=default_python("patched"))
    ap.add_argument("--pythonpath-stock", default=None, metavar="DIR")
    ap.add_argument("--pythonpath-patched", default=None, metavar="DIR")
    ap.add_argument("--repeat", type=int, default=3, help="cold-compile and micro runs per side")
    ap.add_argument("--import-repeat", type=int, default=10, help="import-time processes per side")
    ap.add_argument("--corpus", action="append", default=[], metavar="NAME")
    ap.add_argument("--only", default=",".join(DEFAULT_PARTS),
                    help="comma-separated subset of: " + ", ".join(PARTS))
    ap.add_argument("--json", default=None, metavar="OUT")
    args = ap.parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args)

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
    # (table title, metric) -> side -> (min, max) of the samples.
    spreads: dict[tuple[str, str], dict[str, tuple[float, float] | None]] = {}
    # Target ratios: (label, target, numerator samples, denominator samples).
    targets: list[tuple[str, float, list[float], list[float]]] = []
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
            oot_samples: dict[str, list[float]] = {}
            for r in range(args.repeat):
                for side in _order(r):
                    py, pp = sides[side]
                    _collect(samples, side, _worker(py, pp, "micro", idle_cache, workdir))
                py, pp = sides["patched"]
                for k, v in _worker(py, pp, "micro-oot", idle_cache, workdir).items():
                    oot_samples.setdefault(k, []).append(v)
            title = "device lookups (median, ns/call)"
            tables.append((title, "ns", _median_rows(samples)))
            spreads.update({(title, k): v for k, v in _spread_rows(samples).items()})
            for metric, by_side in samples["patched"].items():
                stock_vals = samples["stock"].get(metric, [])
                if any(v is None for v in by_side + stock_vals):
                    continue
                targets.append((f"in-tree {metric}: patched / stock", 1.10,
                                by_side, stock_vals))
            oot_rows = {k: {"patched": statistics.median(v)} for k, v in oot_samples.items()}
            title = "out-of-tree lookups, patched only (median, ns/call)"
            tables.append((title, "ns", oot_rows))
            spreads.update({(title, k): {"patched": (min(v), max(v))}
                            for k, v in oot_samples.items()})
            for oot, in_tree in OOT_COUNTERPARTS.items():
                targets.append((f"{oot} / {in_tree}", 1.10,
                                oot_samples[oot], oot_samples[in_tree]))
        if "large" in parts:
            runs = [("stock", "cpu"), ("patched", "cpu"), ("patched", OOT_DEVICE)]
            # (side, device) -> "wall" / "cpu" -> seconds of each round.
            large: dict[tuple[str, str], dict[str, list[float]]] = {
                run: {"wall": [], "cpu": []} for run in runs
            }
            for r in range(args.repeat):
                # Rotate the order of the runs each round to cancel drift.
                for side, device in runs[r % 3:] + runs[:r % 3]:
                    py, pp = sides[side]
                    cache = tempfile.mkdtemp(prefix="compile-bench-large-")
                    try:
                        row = _worker(py, pp, "large", cache, workdir,
                                      ["--device", device, "--blocks", str(args.blocks)])
                    finally:
                        shutil.rmtree(cache, ignore_errors=True)
                    for clock, seconds in row.items():
                        large[(side, device)][clock].append(seconds)
                    print(f"compile_bench: large graph run {r + 1}/{args.repeat} "
                          f"{side} {device}: {row['wall']:.2f}s "
                          f"(CPU time {row['cpu']:.2f}s)", flush=True)
            title = (f"cold compile of {args.blocks} pointwise + reduction blocks "
                     "(median, s)")
            clocks = {"wall": "", "cpu": ", CPU time"}
            rows = {f"large graph on {device} (s{label})": {}
                    for label in clocks.values() for device in ("cpu", OOT_DEVICE)}
            for (side, device), by_clock in large.items():
                for clock, vals in by_clock.items():
                    metric = f"large graph on {device} (s{clocks[clock]})"
                    rows[metric][side] = statistics.median(vals)
                    spreads.setdefault((title, metric), {})[side] = (min(vals), max(vals))
            tables.append((title, "s", rows))
            for clock, label in clocks.items():
                targets.append((f"large graph, cpu: patched / stock{label}", 1.02,
                                large[("patched", "cpu")][clock],
                                large[("stock", "cpu")][clock]))
                targets.append((f"large graph, patched: {OOT_DEVICE} / cpu{label}", 1.05,
                                large[("patched", OOT_DEVICE)][clock],
                                large[("patched", "cpu")][clock]))
        if "calls" in parts:
            samples = {s: {} for s in SIDES}
            for r in range(args.repeat):
                for side in _order(r):
                    py, pp = sides[side]
                    cache = tempfile.mkdtemp(prefix="compile-bench-calls-")
                    try:
                        _collect(samples, side, _worker(py, pp, "calls", cache, workdir))
                    finally:
                        shutil.rmtree(cache, ignore_errors=True)
            title = "Python calls compiling a training step on cpu (median)"
            tables.append((title, "calls", _median_rows(samples)))
            spreads.update({(title, k): v for k, v in _spread_rows(samples).items()})
            for metric in samples["stock"]:
                targets.append((f"{metric}: patched / stock", 1.001,
                                samples["patched"][metric], samples["stock"][metric]))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def fmt(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}" if v < 100 else f"{v:.1f}"

    def fmt_spread(v: tuple[float, float] | None) -> str:
        return "" if v is None else f"[{fmt(v[0])}-{fmt(v[1])}]"

    report: list[dict[str, Any]] = []
    width = max([len(m) for _, _, rows in tables for m in rows] + [20])
    print()
    print(f"stock:   {args.stock}" + (f"  (PYTHONPATH+={args.pythonpath_stock})" if args.pythonpath_stock else ""))
    print(f"patched: {args.patched}" + (f"  (PYTHONPATH+={args.pythonpath_patched})" if args.pythonpath_patched else ""))
    for title, unit, rows in tables:
        print()
        print(f"== {title}")
        print(f"{'metric':<{width}}  {'stock':>12} {'(min-max)':>19}  {'patched':>12} "
              f"{'(min-max)':>19}  {'patched/stock':>13}")
        for metric, vals in rows.items():
            s, p = vals.get("stock"), vals.get("patched")
            ratio = p / s if s and p is not None else None
            spread = spreads.get((title, metric), {})
            print(f"{metric:<{width}}  {fmt(s):>12} {fmt_spread(spread.get('stock')):>19}  "
                  f"{fmt(p):>12} {fmt_spread(spread.get('patched')):>19}  "
                  f"{('n/a' if ratio is None else f'{ratio:.3f}'):>13}")
            report.append({"table": title, "metric": metric, "unit": unit,
                           "stock": s, "patched": p, "ratio": ratio,
                           "spread": spread})
    if targets:
        print()
        print("== target ratios (median of per-round ratios [min-max]; target: at most)")
        twidth = max(len(label) for label, *_ in targets)
        for label, target, num, den in targets:
            median, lo, hi = _ratio_spread(num, den)
            verdict = "within" if median <= target else "ABOVE"
            digits = 4 if target < 1.01 else 3
            print(f"{label:<{twidth}}  {median:6.{digits}f} [{lo:.{digits}f}-{hi:.{digits}f}]  "
                  f"target {target:.{digits - 1}f}: {verdict}")
            report.append({"table": "targets", "metric": label, "target": target,
                           "ratio": median, "min": lo, "max": hi})
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

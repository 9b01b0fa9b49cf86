"""Steady state of compiled programs on cpu and on a C++-scheduled device, side by side.

    PYTHONSAFEPATH=1 .venv/bin/python benchmarks/cpp_device_steady_state.py
        [--rounds 15] [--steps 20] [--threads N] [--json OUT]

The device is the tests' fake PrivateUse1 device (``test/inductor/extension_backends``),
registered with Inductor's ``CppScheduling`` as its tests register it: its
kernels are C++ on host cores, over host memory.  Each workload, a training
step (forward and backward), is compiled once on cpu and once on the device in
this process, with ``cpp.enable_kernel_profile`` so that every C++ kernel is a
profiler event, and once more on cpu with oneDNN off (``torch.backends.mkldnn``),
whose graph is laid out as the device's.  Rounds rotate the three runs (which
goes first rotates too); a round times ``--steps`` steps of each and records,
per step:

* ``kernels``: the time inside Inductor's C++ kernels (the profiler's self time
  of their events), the code the series makes the same on both devices;
* ``step``: the wall time of the whole step, without the profiler, which also
  counts the device's eager kernels (convolution, matmuls), a copy to the host
  and back each, where cpu's run in place.

It prints the median and min-max over rounds of both, per kernel and in total,
and the ratios of the device's medians to cpu's.  Nothing is asserted: a shared machine
widens the spread; compare the min-max columns before reading a ratio.
Workloads:

* ``conv_group_norm``: Conv2d, GroupNorm and SiLU (cpu's oneDNN convolution
  makes its graph channels-last, and takes the bias; the device's graph stays
  contiguous, with the bias added in the GroupNorm kernel: see
  ``EAGER_DIFFERENCES`` in ``test/inductor/extension_backends/kernel_parity.py``);
* ``layer_norm_block``: a pre-LN MLP block (LayerNorm, Linear, GELU, Linear,
  residual).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TEST_INDUCTOR_DIR = REPO_ROOT / "test" / "inductor"
DEVICE = "extension_device"


def _workloads():
    import torch
    import torch.nn as nn

    class LayerNormBlock(nn.Module):
        def __init__(self, dim: int = 256) -> None:
            super().__init__()
            self.norm = nn.LayerNorm(dim)
            self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

        def forward(self, x):
            return x + self.fc2(nn.functional.gelu(self.fc1(self.norm(x))))

    return {
        "conv_group_norm": (
            lambda: nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.GroupNorm(8, 32),
                                  nn.SiLU()),
            lambda: torch.randn(8, 16, 32, 32),
        ),
        "layer_norm_block": (LayerNormBlock, lambda: torch.randn(16, 64, 256)),
    }


def _step(compiled, x):
    compiled(x).sum().backward()


def _kernel_times(profile, steps: int) -> dict[str, float]:
    """Microseconds per step in each C++ kernel (``graph_<i>_cpp_fused_...``),
    keyed by the kernel's name without its graph prefix."""
    out: dict[str, float] = {}
    for event in profile.key_averages():
        if "_cpp_fused" in event.key:
            name = event.key[event.key.index("cpp_fused"):]
            out[name] = out.get(name, 0.0) + event.self_cpu_time_total / steps
    return out


#: label -> (device, oneDNN on): the runs compared.
RUNS = {"cpu": ("cpu", True), "cpu, no oneDNN": ("cpu", False), DEVICE: (DEVICE, True)}


def run(rounds: int, steps: int) -> dict[str, dict[str, dict[str, list[float]]]]:
    import contextlib

    import torch
    from torch._inductor import config

    sys.path.insert(0, str(TEST_INDUCTOR_DIR))
    from extension_backends.cpp.extension_codegen_backend import register_compile_backend
    from extension_backends.extension_device import register

    register(DEVICE)
    register_compile_backend(DEVICE)
    def onednn(on: bool):
        return contextlib.nullcontext() if on else torch.backends.mkldnn.flags(enabled=False)

    # workload -> run -> metric -> samples (one per round)
    results: dict[str, dict[str, dict[str, list[float]]]] = {}
    labels = list(RUNS)
    with config.patch({"cpp.enable_kernel_profile": True, "fx_graph_cache": False}):
        for name, (make, inputs) in _workloads().items():
            compiled = {}
            for label, (device, on) in RUNS.items():
                torch.manual_seed(0)
                torch._dynamo.reset()
                module, x = make().to(device), inputs().to(device)
                compiled[label] = (torch.compile(module), x)
                with onednn(on):
                    for _ in range(3):  # compile, then warm up
                        _step(*compiled[label])
            results[name] = {label: {} for label in labels}
            for r in range(rounds):
                for label in labels[r % 3:] + labels[:r % 3]:
                    fn, x = compiled[label]
                    with onednn(RUNS[label][1]):
                        t0 = time.perf_counter()
                        for _ in range(steps):
                            _step(fn, x)
                        wall = (time.perf_counter() - t0) / steps * 1e6
                        with torch.profiler.profile(
                            activities=[torch.profiler.ProfilerActivity.CPU]
                        ) as profile:
                            for _ in range(steps):
                                _step(fn, x)
                    kernels = _kernel_times(profile, steps)
                    row = {"step": wall, "kernels": sum(kernels.values())}
                    row.update({f"  {k}": v for k, v in kernels.items()})
                    for metric, value in row.items():
                        results[name][label].setdefault(metric, []).append(value)
            print(f"cpp_device_steady_state: {name} done", flush=True)
    return results


def report(results, out=sys.stdout) -> None:
    def cell(values):
        if not values:
            return f"{'-':>9} {'':>19}"
        return (f"{statistics.median(values):9.1f} "
                f"{f'[{min(values):.1f}-{max(values):.1f}]':>19}")

    def ratio(num, den):
        if not num or not den:
            return f"{'':>10}"
        return f"{statistics.median(num) / statistics.median(den):10.3f}"

    for name, by_run in results.items():
        print(f"\n== {name}: microseconds per training step (median [min-max] of rounds)",
              file=out)
        metrics = list(dict.fromkeys(m for d in by_run.values() for m in d))
        width = max(len(m) for m in metrics)
        print(f"{'':<{width}}  " + "  ".join(f"{label:>29}" for label in by_run)
              + f"  {'dev/cpu':>10}  {'dev/no 1DNN':>10}", file=out)
        for metric in metrics:
            cells = [by_run[label].get(metric) for label in by_run]
            print(f"{metric:<{width}}  " + "  ".join(cell(c) for c in cells)
                  + f"  {ratio(cells[2], cells[0])}  {ratio(cells[2], cells[1])}", file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--steps", type=int, default=20, help="steps timed per round")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads")
    ap.add_argument("--json", default=None, metavar="OUT")
    args = ap.parse_args(argv)
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    results = run(args.rounds, args.steps)
    print(f"\nthreads: {torch.get_num_threads()}, rounds: {args.rounds}, steps: {args.steps}")
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Code corpus for the differential harness and the compile benchmark.

Runs inside an environment (imports torch).  Each corpus item is a zero-argument
*builder* that creates fresh inputs/modules and returns a zero-argument callable
which compiles (``torch.compile``) and runs the workload once.  The probe wraps
that callable in ``torch._inductor.utils.run_and_get_code`` (which calls
``torch._dynamo.reset()`` first) once per wrapper mode.

Sizes are deliberately tiny: we care about the generated code, not speed.

To add an item: write a builder and register it with ``@corpus_item("name")``.
Keep names stable -- they are the entry names in the differential report.
"""

from __future__ import annotations

from typing import Callable

import torch


Builder = Callable[[], Callable[[], object]]

CORPUS: dict[str, Builder] = {}

# Wrapper modes every item is compiled in: name -> torch._inductor.config patch.
MODES: dict[str, dict[str, object]] = {
    "python": {"cpp_wrapper": False},
    "cpp": {"cpp_wrapper": True},
}


def corpus_item(name: str) -> Callable[[Builder], Builder]:
    def register(fn: Builder) -> Builder:
        if name in CORPUS:
            raise ValueError(f"duplicate corpus item {name!r}")
        CORPUS[name] = fn
        return fn

    return register


def _gen() -> torch.Generator:
    return torch.Generator().manual_seed(0)


@corpus_item("pointwise")
def pointwise() -> Callable[[], object]:
    g = _gen()
    a, b, c = (torch.randn(8, 16, generator=g) for _ in range(3))

    def fn(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        return torch.sin(a * b + c) * 2.0

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)
    return lambda: compiled(a, b, c)


@corpus_item("reduction")
def reduction() -> Callable[[], object]:
    g = _gen()
    x = torch.randn(8, 32, generator=g)

    def fn(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x.sum(dim=1), x.amax(dim=0)

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)
    return lambda: compiled(x)


@corpus_item("matmul_epilogue")
def matmul_epilogue() -> Callable[[], object]:
    g = _gen()
    x = torch.randn(8, 16, generator=g)
    w = torch.randn(16, 32, generator=g)
    b = torch.randn(32, generator=g)

    def fn(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(x @ w + b)

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)
    return lambda: compiled(x, w, b)


@corpus_item("train_step")
def train_step() -> Callable[[], object]:
    """Small MLP: forward + backward + SGD step, all under one torch.compile.

    Dynamo splits this into the forward/backward (AOTAutograd) graph and the
    optimizer-step graph; run_and_get_code captures all of their output code.
    """
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32),
        torch.nn.ReLU(),
        torch.nn.Linear(32, 4),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = _gen()
    x = torch.randn(8, 16, generator=g)
    y = torch.randn(8, 4, generator=g)

    def step(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss

    compiled = torch.compile(step, backend="inductor")
    return lambda: compiled(x, y)



@corpus_item("decomposed_and_lowered_ops")
def decomposed_and_lowered_ops() -> Callable[[], object]:
    """Ops an operator policy typically retargets (SPEC §5): hardswish and
    hardsigmoid are decomposed, sigmoid and tanh lowered; with no policy
    registered their code must not change."""
    g = _gen()
    x = torch.randn(8, 16, generator=g, requires_grad=True)

    def fn(x: torch.Tensor) -> torch.Tensor:
        f = torch.nn.functional
        return (f.hardswish(x) + f.hardsigmoid(x) * torch.sigmoid(x)).tanh().sum()

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)

    def run() -> object:
        out = compiled(x)
        out.backward()
        return out

    return run

@corpus_item("normalizations")
def normalizations() -> Callable[[], object]:
    """GroupNorm and LayerNorm, forward and backward: their decompositions and
    variance reductions are the C++ backend's, which an out-of-tree
    C++-scheduled device now asks for too (IND-9); cpu's code must not change."""
    torch.manual_seed(0)
    group, layer = torch.nn.GroupNorm(4, 16), torch.nn.LayerNorm(32)
    g = _gen()
    x = torch.randn(2, 16, 4, 4, generator=g, requires_grad=True)
    y = torch.randn(4, 8, 32, generator=g, requires_grad=True)

    def fn(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        var, mean = torch.var_mean(y, dim=-1)
        return group(x).sum() + layer(y).sum() + (var * mean).sum()

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)

    def run() -> object:
        out = compiled(x, y)
        out.backward()
        return out

    return run


@corpus_item("cpu_side_stream")
def cpu_side_stream() -> Callable[[], object]:
    """Multi-stream code on cpu, whose interface exposes no streams: stock 2.13
    declares no stream variables for it (the call raises NameError), and the
    declarations a device with streams but no guard gets must not appear."""
    g = _gen()
    x = torch.randn(8, generator=g)

    def fn(x: torch.Tensor) -> torch.Tensor:
        with torch.Stream(device="cpu"):
            y = x * 2
        return y + 1

    compiled = torch.compile(fn, backend="inductor", fullgraph=True)

    def run() -> object:
        # What is compared is the generated code, which fails either way.
        try:
            return compiled(x)
        except NameError as e:  # Python wrapper: stream1 is not declared
            return e
        except torch._inductor.exc.InductorError as e:
            if "CppCompileError" not in str(e):  # C++ wrapper: `with stream1:`
                raise
            return e

    return run


def names() -> list[str]:
    return list(CORPUS)

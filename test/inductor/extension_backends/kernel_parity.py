"""The kernel-parity corpus: programs compiled on cpu and on a C++-scheduled
device, and the C++ kernels Inductor emits for them.

A device whose Scheduling is Inductor's ``CppScheduling`` gets its kernels
from the same code generator as cpu, so the same graph must give it the same
C++ source, kernel for kernel, unless an eager kernel makes the graphs differ
(``EAGER_DIFFERENCES``).  :func:`compile_program` compiles one program in
inference or training mode (forward and backward, or an optimizer step) and
returns its kernels with device and kernel names normalised, its outputs and
its gradients.

Attention runs under ``sdpa_kernel(SDPBackend.MATH)`` on both sides: cpu's
reference takes the math path, which is what a device without a fused
attention kernel gets (``extension_device`` has one, which the math setting
turns off).  Optimizers are built with ``foreach=True``: by default
``torch.optim`` picks the foreach implementation only for devices with eager
foreach kernels, so cpu and the device would trace different programs.

Shapes are small: the generated code is what is compared.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Callable

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend


__all__ = ["EAGER_DIFFERENCES", "PROGRAMS", "Compiled", "compile_program", "cpp_kernels"]


class Norms(nn.Module):
    """The normalisations, each on an input of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.group = nn.GroupNorm(4, 16)
        self.layer = nn.LayerNorm(32)
        self.rms = nn.RMSNorm(32)
        self.batch = nn.BatchNorm2d(8)

    def forward(self, x, y, z):
        return self.group(x), self.layer(y), self.rms(y), self.batch(z)


class Reductions(nn.Module):
    """Reductions, softmax and a pointwise chain, without parameters."""

    def forward(self, x, y):
        var, mean = torch.var_mean(x, dim=-1)
        return (
            var + mean + x.sum(-1) + x.amax(-1),
            x.softmax(-1) + x.log_softmax(-1),
            (x.sin() * 2 + x.cos()).relu().sigmoid() / 3.7,
            y.permute(2, 0, 1).argmax() + x.t().argmin(),
        )


class GroupNormSiluLinear(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(4, 16)
        self.linear = nn.Linear(16, 16)

    def forward(self, x):
        return self.linear(F.silu(self.norm(x)).transpose(1, -1))


class ConvBlock(nn.Module):
    def __init__(self, bias: bool = True) -> None:
        super().__init__()
        self.conv = nn.Conv2d(8, 16, 3, padding=1, bias=bias)
        self.norm = nn.GroupNorm(4, 16)

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))


class TransformerBlock(nn.Module):
    """A pre-LN block with hand-written attention (``fuse_attention`` makes it SDPA)."""

    def __init__(self, dim: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5).softmax(-1) @ v
        x = x + self.proj(attn.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Matmuls(nn.Module):
    """Matmuls, an int8 cat and a pad, which the C++ backend treats its own way."""

    def forward(self, a, b, c, d, e, f, g):
        return (
            torch.bmm(a, b),  # memory-bound: decomposed
            torch.mm(c, d),  # a dot product: decomposed
            torch.addmm(f, c[:, :16], g),  # memory-bound: decomposed
            torch.mm(d[:64], c[:, :64]),  # an outer product stays a GEMM
            torch.cat([e, e + 1]),  # an int8 cat falls back
            F.pad(c + 1, (0, 3)),  # not rewritten as a cat
        )


class ScatterAdd(nn.Module):
    def forward(self, s, i, v):
        return s.clone().scatter_reduce_(0, i, v, "sum")


@dataclass(frozen=True)
class Program:
    """A module and its inputs, the modes it is compiled in ("inference",
    "training", "step": a training step with an optimizer), Inductor options,
    and whether cpu compiles it with oneDNN (``torch.backends.mkldnn``)."""

    make: Callable[[], nn.Module]
    inputs: Callable[[], tuple[torch.Tensor, ...]]
    modes: tuple[str, ...] = ("inference", "training")
    config: dict[str, object] = field(default_factory=dict)
    onednn: bool = True


def _randn(*size: int, seed: int = 0) -> torch.Tensor:
    return torch.randn(*size, generator=torch.Generator().manual_seed(seed))


def _mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 4))


#: name -> program.  Training differentiates every floating input and parameter.
PROGRAMS: dict[str, Program] = {
    "norms": Program(Norms, lambda: (_randn(2, 16, 4, 4), _randn(4, 8, 32), _randn(4, 8, 4, 4))),
    "reductions": Program(Reductions, lambda: (_randn(8, 64), _randn(4, 5, 6))),
    "group_norm_silu_linear": Program(GroupNormSiluLinear, lambda: (_randn(2, 16, 4, 4),)),
    "conv_block": Program(ConvBlock, lambda: (_randn(2, 8, 8, 8),), ("training",)),
    "transformer_block": Program(TransformerBlock, lambda: (_randn(2, 8, 32),)),
    "mlp_step": Program(_mlp, lambda: (_randn(8, 16), _randn(8, 4, seed=1)), ("step",)),
    "matmuls": Program(
        Matmuls,
        lambda: (_randn(8, 1, 256), _randn(8, 256, 32), _randn(1, 512), _randn(512, 1),
                 torch.ones(4, 8, dtype=torch.int8), _randn(1, 8), _randn(16, 8)),
        ("inference",),
    ),
    "scatter_add": Program(
        ScatterAdd,
        lambda: (_randn(8), _randn(4096).abs().mul(1e3).long() % 8, _randn(4096, seed=1)),
        ("inference",),
        {"cpp.dynamic_threads": True},
    ),
    # conv_block without the causes EAGER_DIFFERENCES names: no bias and, on
    # cpu, no oneDNN; in training, where the layout heuristics then agree.
    "conv_block_without_onednn": Program(
        lambda: ConvBlock(bias=False), lambda: (_randn(2, 8, 8, 8),), ("training",),
        onednn=False,
    ),
}

#: (program, mode) -> why its kernels must differ between cpu and the device:
#: which kernels, and the eager kernel of cpu that causes it.
EAGER_DIFFERENCES: dict[tuple[str, str], str] = {
    ("conv_block", "training"): (
        "the kernels that read the convolution's output: cpu's convolution is oneDNN's,"
        " for which Inductor lays the graph out channels-last (decide_layout_opt) and"
        " which takes the bias itself (kernel/conv.py); the device's"
        " convolution_overrideable returns a contiguous output and has its bias added in"
        " the next kernel"
    ),
}


_KERNEL = re.compile(
    r"^\w+ = async_compile\.cpp_pybinding\((\[.*?\]), r'''\n(.*?)'''", re.S | re.M
)


def cpp_kernels(codes: list[str], device: str) -> list[str]:
    """The C++ kernels defined in Inductor's Python wrapper ``codes``, in order:
    argument types and source, with ``device`` written as cpu (kernel names are
    not part of the source the wrapper compiles)."""
    return [
        f"{types}\n{source}".replace(device, "cpu")
        for code in codes
        for types, source in _KERNEL.findall(code)
    ]


@dataclass
class Compiled:
    kernels: list[str]
    outputs: list[torch.Tensor]  # on the host
    grads: list[torch.Tensor]  # on the host


def _flat_tensors(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    return [t for v in value for t in _flat_tensors(v)]


def compile_program(name: str, mode: str, device: str) -> Compiled:
    """Compile ``PROGRAMS[name]`` in ``mode`` on ``device`` with a fresh Dynamo
    and return its kernels, outputs and gradients."""
    from torch._inductor import config
    from torch._inductor.utils import run_and_get_code

    program = PROGRAMS[name]
    torch.manual_seed(0)
    module = program.make().to(device)
    inputs = [t.to(device) for t in program.inputs()]
    if mode == "inference":
        module.eval()
    elif mode == "training":
        for t in inputs:
            t.requires_grad_(t.is_floating_point())
    params = list(module.parameters())
    torch._dynamo.reset()

    if mode == "step":
        opt = torch.optim.SGD(params, lr=0.1, momentum=0.9, foreach=True)

        def run():
            opt.zero_grad(set_to_none=True)
            loss = F.mse_loss(module(inputs[0]), inputs[1])
            loss.backward()
            opt.step()
            return loss

        fn = torch.compile(run)
    else:
        compiled = torch.compile(module)

        def fn():
            outputs = compiled(*inputs)
            if mode == "training":
                sum(t.float().sum() for t in _flat_tensors(outputs)).backward()
            return outputs

    grad_mode = torch.no_grad() if mode == "inference" else contextlib.nullcontext()
    no_onednn = not program.onednn and torch.device(device).type == "cpu"
    onednn = torch.backends.mkldnn.flags(enabled=False) if no_onednn else contextlib.nullcontext()
    with grad_mode, sdpa_kernel(SDPBackend.MATH), config.patch(program.config), onednn:
        outputs, codes = run_and_get_code(fn)
    if mode == "step":
        outputs = params
    grads = [t.grad for t in [*inputs, *params] if t.grad is not None]
    return Compiled(
        cpp_kernels(codes, device),
        [t.detach().cpu() for t in _flat_tensors(outputs)],
        [g.cpu() for g in grads] if mode == "training" else [],
    )

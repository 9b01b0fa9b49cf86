# Owner(s): ["module: inductor"]
"""What a device's Scheduling and kernel classes may override or ask in code
generation: the FX graph of each kernel (``kernel_graph``), and a Triton
device's compute and store types, expression printer, Triton helpers and
autotuner, and its gathers and scatters.

The C++-scheduled variant of ``extension_device`` runs in this process; the
Triton variant's cases (``extension_backends/triton_kernel_hook_cases.py``)
run under Triton's interpreter in one fresh process.
"""

import copy
import math
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._functorch.config as functorch_config
import torch.nn.functional as F
from torch._inductor import config
from torch._inductor.codegen.common import register_backend_for_device
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.kernel_graph import kernel_graph
from torch._inductor.device_operator_policy import (
    DeviceOperatorPolicy,
    register_device_operator_policy,
)
from torch.nn.attention import sdpa_kernel, SDPBackend
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp import extension_device_config
from extension_backends.cpp.extension_codegen_backend import (
    CppWrapperCpu,
    ExtensionPythonWrapperCodegen,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.kernel_recorder import (
    check_recorded_calls,
    RECORDER,
    register_recording_backend,
)
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python

register(DEVICE)
aten = torch.ops.aten


class RecordingScheduling(CppScheduling):
    """A graph-level codegen's first step: the FX graph of each kernel."""

    graphs: list[torch.fx.GraphModule] = []

    def codegen_node(self, node):
        self.graphs.append(kernel_graph(node.get_nodes()))
        return super().codegen_node(node)


def _ops(gm: torch.fx.GraphModule) -> list[tuple[str, object]]:
    return [(n.op, n.target) for n in gm.graph.nodes]


class KernelGraphTests(TestCase):
    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE)
        register_backend_for_device(
            DEVICE,
            RecordingScheduling,
            ExtensionPythonWrapperCodegen,
            CppWrapperCpu,
            device_custom_config=extension_device_config,
        )
        RecordingScheduling.graphs.clear()

    def test_graph_of_each_kernel(self):
        def fn(x, y):
            a = x.sin() + y
            return a, (a * 2).sum(1), x.t().contiguous().cos()

        x = torch.randn(8, 8, device=DEVICE)
        y = torch.randn(8, device=DEVICE)
        with config.patch(fx_graph_cache=False):
            actual = torch.compile(fn)(x, y)
        expected = fn(x.cpu(), y.cpu())
        for a, e in zip(actual, expected):
            self.assertEqual(a.cpu(), e)
        first, second = RecordingScheduling.graphs
        # The pointwise ops and the reduction fused into one kernel: its
        # inputs, ops in graph order, and both buffers it writes.
        self.assertEqual(
            _ops(first),
            [
                ("placeholder", "arg0_1"),
                ("placeholder", "arg1_1"),
                ("call_function", aten.sin.default),
                ("call_function", aten.add.Tensor),
                ("call_function", aten.mul.Tensor),
                ("call_function", aten.sum.dim_IntList),
                ("output", "output"),
            ],
        )
        self.assertEqual(
            [n.name for n in first.graph.output_node().args[0]], ["buf0", "buf1"]
        )
        self.assertEqual(first(x.cpu(), y.cpu()), expected[:2])
        # Views inlined into the kernel are part of its graph.
        self.assertEqual(
            [t for op, t in _ops(second) if op == "call_function"],
            [aten.permute.default, aten.clone.default, aten.cos.default],
        )
        self.assertEqual(second(x.cpu()), expected[2:])

    def test_placeholders_and_outputs_name_buffers(self):
        def fn(x):
            y = x.exp()
            return y / y.sum(0), y.amax(1)

        x = torch.randn(8, 8, device=DEVICE)
        with config.patch(fx_graph_cache=False):
            torch.compile(fn)(x)
        graphs = RecordingScheduling.graphs
        self.assertEqual(
            [
                (
                    [n.name for n in gm.graph.find_nodes(op="placeholder")],
                    [n.name for n in gm.graph.output_node().args[0]],
                )
                for gm in graphs
            ],
            [
                (["arg0_1"], ["buf0"]),
                (["buf0"], ["buf1"]),
                (["buf0", "buf1"], ["buf2", "buf3"]),
            ],
        )
        # Run kernel by kernel, reading and writing buffers by name: eager's results.
        env = {"arg0_1": x.cpu()}
        for gm in graphs:
            args = [env[n.name] for n in gm.graph.find_nodes(op="placeholder")]
            env.update(zip([n.name for n in gm.graph.output_node().args[0]], gm(*args)))
        self.assertEqual((env["buf2"], env["buf3"]), fn(x.cpu()))


def _attention(q, k, v):
    return (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(-1) @ v


class _Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(16)
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 16)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


def _training_step(model, x):
    loss = model(x).softmax(-1).square().sum()
    loss.backward()
    return loss


def _mean(x, dim=None, keepdim=False, *, dtype=None):
    """aten.mean as a sum and a division, so that the sum has a node."""
    dims = range(x.dim()) if dim is None else dim
    return x.sum(dim, keepdim, dtype=dtype) / math.prod(x.shape[d] for d in dims)


def _var_mean(x, dim=None, *, correction=None, keepdim=False):
    """aten.var_mean in two passes of sums, without a Welford reduction."""
    dims = list(range(x.dim())) if dim is None else dim
    n = math.prod(x.shape[d] for d in dims)
    mean = x.sum(dims, keepdim=True) / n
    var = (x - mean).square().sum(dims, keepdim=keepdim) / (n - (correction or 0))
    return var, mean if keepdim else mean.squeeze(dims)


class KernelGraphCorpusTests(TestCase):
    """Each kernel's graph, run on the arguments its kernel read, gives what the
    kernel wrote (``extension_backends/kernel_recorder.py``)."""

    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_recording_backend(DEVICE)
        # The recording device is C++-scheduled, so it would take cpu's two-pass
        # variance, whose realized sums have no node (see
        # test_buffers_without_a_node_are_not_exact), and its own fused attention,
        # an extern kernel; the corpus is the kernels a graph-level device gets.
        for patcher in (
            config.patch({
                "cpp.use_two_step_variance_threshold": 0, "fx_graph_cache": False,
                "inplace_buffers": False, "allow_buffer_reuse": False,
            }),
            functorch_config.patch(enable_autograd_cache=False),
            sdpa_kernel(SDPBackend.MATH),
        ):
            patcher.__enter__()
            self.addCleanup(patcher.__exit__, None, None, None)

    def _compile(self, fn, *args):
        RECORDER.clear()
        torch._dynamo.reset()
        return torch.compile(fn)(*args)

    def test_corpus(self):
        torch.manual_seed(0)
        qkv = [torch.randn(2, 2, 4, 8, device=DEVICE) for _ in range(3)]
        x, w, b = (torch.randn(*s, device=DEVICE) for s in ((8, 16), (16,), (16,)))
        images = torch.randn(1, 2, 4, 4, device=DEVICE)
        cases = {
            "var_mean": (lambda x: torch.var_mean(x, 1), x),
            "layer_norm": (lambda x, w, b: F.layer_norm(x, (16,), w, b), x, w, b),
            "softmax": (lambda x: (x.softmax(-1), x.log_softmax(0)), x),
            "attention": (_attention, *qkv),
            "sdpa": (F.scaled_dot_product_attention, *qkv),
            "multi_output": (lambda x: (x.max(1), F.max_pool2d_with_indices(x, 2)), images),
            "cat": (lambda x, y: torch.cat([x.sin(), y.cos()]) * 2, x, w.view(1, 16)),
            "in_place": (lambda x: x.mul_(2).add_(1), x.clone()),
        }
        for name, (fn, *args) in cases.items():
            with self.subTest(name):
                expected = fn(*[a.clone() for a in args])
                self.assertEqual(self._compile(fn, *args), expected)
                self.assertGreater(check_recorded_calls(self, atol=1e-4, rtol=1e-4), 0)

    def test_training_step(self):
        torch.manual_seed(0)
        model = _Block().to(DEVICE)
        twin = copy.deepcopy(model)
        x = torch.randn(4, 16, device=DEVICE)
        self.assertEqual(self._compile(_training_step, model, x), _training_step(twin, x))
        for p, q in zip(model.parameters(), twin.parameters()):
            self.assertEqual(p.grad, q.grad)
        # The forward's kernels and the backward's, layer norm's among them.
        self.assertEqual(len({call.compile_id for call in RECORDER.calls}), 2)
        self.assertGreater(check_recorded_calls(self, atol=1e-4, rtol=1e-4), 5)

    def test_buffers_without_a_node_are_not_exact(self):
        # The sum that mean's lowering realizes and the Welford statistics of
        # batch norm's reduction have no node in the graph: the graphs of the
        # kernels that write or read them are not exact.
        x = torch.randn(4, 3, 5, device=DEVICE)

        def fn(x):
            return x.mean(), F.batch_norm(x, None, None, training=True)

        self._compile(fn, x)
        graphs = [graph.gm for call in RECORDER.calls for graph in call.graphs]
        self.assertIn(False, [gm.meta["exact"] for gm in graphs])
        with self.assertRaisesRegex(AssertionError, "not exact"):
            check_recorded_calls(self)
        # With both ops decomposed for the device into sums, every buffer has
        # its node, and the graphs are exact.
        register_device_operator_policy(
            DeviceOperatorPolicy(
                DEVICE,
                "1",
                decomposition_overrides={
                    aten.mean.default: _mean,
                    aten.var_mean.correction: _var_mean,
                },
            )
        )
        self.assertEqual(self._compile(fn, x), fn(x))
        self.assertGreater(check_recorded_calls(self, atol=1e-4, rtol=1e-4), 0)


class TritonKernelHookTests(TestCase):
    def test_cases_under_the_interpreter(self):
        # Compute and store types, printer, helpers, autotuner and indirect
        # indexing of a Triton device's kernel class, and kernel_graph in a
        # TritonScheduling: one process.
        proc = run_python(
            """
            import os
            import sys
            from extension_backends.triton_kernel_hook_cases import run_cases
            status = run_cases()
            sys.stdout.flush()
            os._exit(status)
            """,
            TRITON_INTERPRET="1",
        )
        self.assertIn("cases run: 6, ok: True", proc.stdout)


if __name__ == "__main__":
    run_tests()

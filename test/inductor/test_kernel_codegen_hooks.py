# Owner(s): ["module: inductor"]
"""What a device's Scheduling and kernel classes may override or ask in code
generation: the FX graph of each kernel (``kernel_graph``), and a Triton
device's compute and store types, expression printer and Triton helpers.

The C++-scheduled variant of ``extension_device`` runs in this process; the
Triton variant's cases (``extension_backends/triton_kernel_hook_cases.py``)
run under Triton's interpreter in one fresh process.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from torch._inductor import config
from torch._inductor.codegen.common import register_backend_for_device
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.kernel_graph import kernel_graph
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp import extension_device_config
from extension_backends.cpp.extension_codegen_backend import (
    CppWrapperCpu,
    ExtensionPythonWrapperCodegen,
    register_compile_backend,
)
from extension_backends.extension_device import register
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


class TritonKernelHookTests(TestCase):
    def test_cases_under_the_interpreter(self):
        # Compute and store types, printer and helpers of a Triton device's
        # kernel class, and kernel_graph in a TritonScheduling: one process.
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
        self.assertIn("cases run: 4, ok: True", proc.stdout)


if __name__ == "__main__":
    run_tests()

"""Cases for a Triton device's own kernel class: its compute and store types,
its expression printer, its Triton helpers and autotuner, its gathers and
scatters, and the FX graph of each kernel handed to its ``TritonScheduling``.

They compile for the Triton variant of ``extension_device`` and run under
Triton's interpreter, which must be set before triton is imported:
``test_kernel_codegen_hooks.py`` runs them in a fresh process with
:func:`run_cases`.
"""

from __future__ import annotations

import os
import re
import sys
import unittest

import torch
import torch.nn.functional as F
from torch._inductor import config
from torch._inductor.codegen.common import register_backend_for_device
from torch._inductor.codegen.kernel_graph import kernel_graph
from torch._inductor.codegen.triton import TritonKernel, TritonPrinter, TritonScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.utils import run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import TestCase

from .extension_device import register
from .testing import DEVICE, RegistrySnapshot
from .triton_codegen_backend import register_triton_backend
from .triton_device_heuristics import DeviceAutotuner

register(DEVICE)


class DevicePrinter(TritonPrinter):
    """Prints every integer parenthesized, so that a test sees where it ran."""

    def _print_Integer(self, expr):
        return f"({super()._print_Integer(expr)})"


class DeviceKernel(TritonKernel):
    """A device whose kernels compute in float64 and have their own helpers,
    heuristics and printer, and which sees its kernels' indirect indexing."""

    kexpr = DevicePrinter().doprint
    store_types: list[torch.dtype] = []
    indirect: list[tuple] = []

    def triton_compute_type(self, dtype: torch.dtype) -> str:
        if dtype.is_floating_point:
            return "tl.float64"
        return super().triton_compute_type(dtype)

    def triton_store_type(self, dtype: torch.dtype) -> str:
        self.store_types.append(dtype)
        return super().triton_store_type(dtype)

    @classmethod
    def gen_common_triton_imports(cls) -> str:
        return (
            super().gen_common_triton_imports()
            + "from extension_backends import triton_device_helpers as triton_helpers\n"
            + "from extension_backends import triton_device_heuristics as triton_heuristics\n"
        )

    # Loads and stores through an index read from a tensor (gather, scatter,
    # index_put): where a device emits its own code for them.
    def indirect_load(self, name, index):
        self.indirect.append(("load", name, str(index)))
        return super().indirect_load(name, index)

    def store(self, name, index, value, mode=None):
        if self.is_indirect_indexing(index):
            self.indirect.append(("store", name, str(index), mode))
        return super().store(name, index, value, mode)


class DeviceScheduling(TritonScheduling):
    kernel_type = DeviceKernel
    graphs: list[torch.fx.GraphModule] = []
    tile_sizes: list[int] = []

    @staticmethod
    def is_good_size(s) -> bool:
        DeviceScheduling.tile_sizes.append(int(s))
        return s >= 2

    def codegen_node(self, node):
        self.graphs.append(kernel_graph(node.get_nodes()))
        return super().codegen_node(node)


class TritonKernelHookCases(TestCase):
    def setUp(self):
        super().setUp()
        if os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("these cases need TRITON_INTERPRET=1 set before triton")
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_triton_backend(DEVICE)
        register_backend_for_device(DEVICE, DeviceScheduling, PythonWrapperCodegen)
        DeviceKernel.store_types.clear()
        DeviceKernel.indirect.clear()
        DeviceAutotuner.launched.clear()
        DeviceScheduling.graphs.clear()
        DeviceScheduling.tile_sizes.clear()
        patcher = config.patch(fx_graph_cache=False)
        patcher.__enter__()
        self.addCleanup(patcher.__exit__, None, None, None)

    def test_compute_and_store_types(self):
        def fn(x):
            return x.half() * 2, x.sum(1)

        x = torch.randn(16, 16, device=DEVICE)
        with config.patch({"triton.use_block_ptr": True}):
            actual, (code,) = run_and_get_code(torch.compile(fn), x)
        self.assertEqual([a.cpu() for a in actual], list(fn(x.cpu())))
        # The cast to half computes in the device's type, and so does the sum,
        # whose accumulator type derives from the compute type.
        FileCheck().check(".to(tl.float64)").check("tl.store(").run(code)
        FileCheck().check("tl.full(").check("tl.float64)").check("tl.sum(").run(code)
        self.assertIn(torch.float16, DeviceKernel.store_types)

    def test_printer_and_helpers(self):
        def fn(x, idx):
            return x[idx].amax(1)

        x = torch.randn(16, 8, device=DEVICE)
        x[3, 5] = float("nan")
        idx = torch.tensor([3, 0, 15, 3], device=DEVICE)
        actual, (code,) = run_and_get_code(torch.compile(fn), x, idx)
        # The device's max2 ignores NaN; Inductor's propagates it.
        expected = torch.where(x.isnan(), float("-inf"), x).cpu()[idx.cpu()].amax(1)
        self.assertEqual(actual.cpu(), expected)
        FileCheck().check(
            "from extension_backends import triton_device_helpers as triton_helpers"
        ).check("triton_helpers.max2(").run(code)
        # The device's printer prints the bounds check's size, too.
        FileCheck().check("tl.device_assert(").check("< (16)").run(code)

    def test_autotuner(self):
        # The kernels' heuristics module is the device's: its autotuner class
        # launches them.
        def fn(x):
            return x.sin() + 1

        x = torch.randn(16, device=DEVICE)
        actual, (code,) = run_and_get_code(torch.compile(fn), x)
        self.assertEqual(actual.cpu(), fn(x.cpu()))
        FileCheck().check("triton_device_heuristics as triton_heuristics").check(
            "@triton_heuristics.pointwise("
        ).run(code)
        self.assertEqual(len(DeviceAutotuner.launched), 1)

    def test_gathers_and_scatters(self):
        # What torch_npu declares as ops of its own (index_select,
        # gather_template, indexput_template) reaches its kernel as a load or
        # store whose index holds the indirect variable.
        def fn(w, i, v):
            return F.embedding(i, w) * 2, w.index_put((i,), v, accumulate=True)

        w = torch.randn(10, 4, device=DEVICE)
        i = torch.tensor([3, 0, 3], device=DEVICE)
        v = torch.randn(3, 4, device=DEVICE)
        actual = torch.compile(fn)(w, i, v)
        self.assertEqual([a.cpu() for a in actual], list(fn(w.cpu(), i.cpu(), v.cpu())))
        # The embedding reads w (a graph input) at 4 * tmpN + x0; index_put
        # adds into a buffer at 4 * tmpM + x0.
        kinds = [(kind, name.startswith("arg"), re.sub(r"tmp\d+", "tmp", index), *mode)
                 for kind, name, index, *mode in DeviceKernel.indirect]
        self.assertIn(("load", True, "4*tmp + x0"), kinds)
        self.assertIn(("store", False, "4*tmp + x0", "atomic_add"), kinds)

    def test_kernel_graphs(self):
        def fn(x, y):
            a = x.sin() + y
            return a, (a * 2).sum(1)

        x = torch.randn(8, 8, device=DEVICE)
        y = torch.randn(8, device=DEVICE)
        actual = torch.compile(fn)(x, y)
        expected = fn(x.cpu(), y.cpu())
        (gm,) = DeviceScheduling.graphs
        aten = torch.ops.aten
        self.assertEqual(
            [(n.op, n.target) for n in gm.graph.nodes],
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
        self.assertEqual(gm(x.cpu(), y.cpu()), expected)
        self.assertEqual([a.cpu() for a in actual], list(expected))


    def test_tile_sizes(self):
        # Its tiling heuristics ask the device which tile sizes it favours.
        def fn(x):
            return x + x.t()

        x = torch.randn(48, 48, device=DEVICE)
        self.assertEqual(torch.compile(fn)(x).cpu(), fn(x.cpu()))
        self.assertIn(48, DeviceScheduling.tile_sizes)


def run_cases() -> int:
    """Run every case; exit status 0 iff all ran and passed (none skipped)."""
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(TritonKernelHookCases)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    ok = result.wasSuccessful() and not result.skipped
    print(f"cases run: {result.testsRun}, ok: {ok}")
    return 0 if ok else 1

# Owner(s): ["module: ci"]
"""Tests of tools/device_gates.py, the list of branches on literal device names.

The scanner and the verdict matching are tested on small trees written here;
the last class checks that every branch of this checkout's series has a verdict.
"""

import contextlib
import io
import json
import tempfile
import textwrap
from pathlib import Path

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.testing import run_python
from tools import device_gates as gates
from tools.device_gates import D, L, N

REPO = Path(__file__).resolve().parents[2]


def write(root: Path, rel: str, source: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))


class Trees(TestCase):
    """A series tree (``tree/torch/...``) and a stock site (``stock/torch/...``)."""

    def setUp(self):
        super().setUp()
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tree = Path(tmp.name, "tree")
        self.stock = Path(tmp.name, "stock")
        (self.tree / "torch").mkdir(parents=True)
        (self.stock / "torch").mkdir(parents=True)

    def report(self, verdicts):
        return gates.build_report(self.tree, self.stock, verdicts)

    def branches(self, source, rel="torch/_inductor/m.py"):
        return gates.scan_source(rel, textwrap.dedent(source))


class TestScan(Trees):
    def test_compares_and_attribute_tests(self):
        found = self.branches("""\
            import torch

            class K:
                def f(self, d, t, node):
                    if d.type == "cuda" or d.type not in ("cpu", "meta"):
                        pass
                    if str(d) == "xpu:1" or d.type == "triton" or t.is_mps:
                        pass
                    if hasattr(torch, "hpu") and hasattr(node, "meta"):
                        pass
                    if d.startswith("cuda") or d.startswith("triton"):
                        pass
                    return lambda: d.type in ["mtia", "other"]
            """)
        self.assertEqual(
            [(b.qualname, b.kind, b.names) for b in found],
            [("K.f", "compare", ("cuda",)), ("K.f", "compare", ("cpu", "meta")),
             ("K.f", "compare", ("xpu",)), ("K.f", "attr", ("mps",)),
             ("K.f", "attr", ("hpu",)), ("K.f", "compare", ("cuda",)),
             ("K.f", "compare", ("mtia",))])
        self.assertEqual(found[1].snippet, "d.type not in ('cpu', 'meta')")

    def test_module_level_and_nested_qualnames(self):
        found = self.branches("""\
            X = "cuda" == "cuda"

            def outer():
                def inner(d):
                    return d == "cpu"
            """)
        self.assertEqual([b.qualname for b in found], ["<module>", "outer.inner"])

    def test_series_file_replaces_stock_and_stock_fills_in(self):
        write(self.stock, "torch/_inductor/a.py", 'def f(d):\n    return d == "cuda"\n')
        write(self.stock, "torch/_inductor/b.py", 'def g(d):\n    return d == "xpu"\n')
        write(self.stock, "torch/nn/c.py", 'def h(d):\n    return d == "mps"\n')
        write(self.tree, "torch/_inductor/a.py", "def f(d):\n    return d.is_available()\n")
        report = self.report([])
        self.assertEqual([(b.rel, b.qualname) for b in report.unlisted],
                         [("torch/_inductor/b.py", "g")])
        self.assertEqual(report.gone, [(("torch/_inductor/a.py", "f", ("cuda",)), 1)])

    def test_file_that_does_not_parse_is_a_problem(self):
        write(self.tree, "torch/_dynamo/broken.py", "def f(:\n")
        report = self.report([])
        self.assertEqual(len(report.problems), 1)
        self.assertIn("torch/_dynamo/broken.py:1: cannot be parsed", report.problems[0])


class TestVerdicts(Trees):
    def test_new_branch_is_unlisted_and_fails(self):
        write(self.tree, "torch/_inductor/brand_new.py",
              'def brand_new_gate(d):\n    return d.type == "cuda"\n')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = gates.main(["--tree", str(self.tree), "--stock", str(self.stock)])
        self.assertEqual(rc, 1)
        self.assertIn("unlisted: 1", out.getvalue())
        self.assertIn("torch/_inductor/brand_new.py:2: brand_new_gate: d.type == 'cuda'",
                      out.getvalue())
        self.assertIn("check: unlisted branches: 1 FAIL", out.getvalue())

    def test_listed_branch_is_classified_after_a_line_shift(self):
        verdicts = [L("_inductor/m.py", "Sched.pick", "cuda,xpu", "FMA keyed on names", "S72")]
        source = 'class Sched:\n    def pick(self, d):\n        return d.type in ("cuda", "xpu")\n'
        write(self.tree, "torch/_inductor/m.py", source)
        first = self.report(verdicts)
        write(self.tree, "torch/_inductor/m.py", "import os\n\n\n" + source)
        shifted = self.report(verdicts)
        for report in (first, shifted):
            [(branch, verdict)] = report.classified
            self.assertIs(verdict, verdicts[0])
            self.assertEqual(report.unlisted, [])
            self.assertEqual(report.problems, [])
        self.assertEqual(first.classified[0][0].line + 3, shifted.classified[0][0].line)
        out = io.StringIO()
        gates.print_report(shifted, out=out)
        self.assertIn("left: 1", out.getvalue())
        self.assertIn("FMA keyed on names [S72]", out.getvalue())

    def test_names_must_match_exactly(self):
        write(self.tree, "torch/_inductor/m.py",
              'def pick(d):\n    return d.type in ("cuda", "xpu", "acc")\n')
        report = self.report([L("_inductor/m.py", "pick", "cuda", "why")])
        self.assertEqual(len(report.unlisted), 1)
        self.assertEqual(len(report.stale), 1)

    def test_rule_by_path_covers_an_area(self):
        write(self.tree, "torch/_inductor/codegen/cutlass/deep/x.py",
              'def a(d):\n    return d == "cuda"\n\nclass B:\n    def c(self, t):\n'
              '        return t.is_xpu\n')
        write(self.tree, "torch/_inductor/other.py", 'def a(d):\n    return d == "cuda"\n')
        rule = D("_inductor/codegen/cutlass/*", "*", "*", "CUTLASS")
        report = self.report([rule])
        self.assertEqual([v for b, v in report.classified if b.rel.endswith("x.py")], [rule, rule])
        self.assertEqual([b.rel for b in report.unlisted], ["torch/_inductor/other.py"])

    def test_first_matching_verdict_wins_and_text_narrows(self):
        write(self.tree, "torch/_dynamo/m.py",
              'def f(d, t):\n    a = d.type == "cpu"\n    b = t.device.type == "cpu"\n')
        narrow = N("_dynamo/m.py", "f", "cpu", "host", text="t.device")
        broad = L("_dynamo/m.py", "f", "cpu", "C++ heuristic")
        report = self.report([narrow, broad])
        self.assertEqual([v for _, v in report.classified], [broad, narrow])

    def test_left_branch_of_a_replaced_site_is_a_problem(self):
        write(self.tree, "torch/_inductor/m.py", 'def f(d):\n    return d == "cuda"\n')
        self.assertIn("S1", gates.REPLACED)
        report = self.report([L("_inductor/m.py", "f", "cuda", "why", "S1")])
        self.assertEqual(len(report.problems), 1)
        self.assertIn("counts as replaced", report.problems[0])
        report = self.report([L("_inductor/m.py", "f", "cuda", "why", "S999")])
        self.assertIn("unknown site S999", report.problems[0])


class TestScope(Trees):
    def test_compile_path_modules_are_scanned(self):
        for rel in ("torch/_refs/__init__.py", "torch/_decomp/decompositions.py",
                    "torch/nn/attention/flex_attention.py", "torch/_subclasses/fake_tensor.py",
                    "torch/_meta_registrations.py", "torch/optim/adam.py"):
            self.assertTrue(gates._in_scope(rel), rel)
        self.assertFalse(gates._in_scope("torch/nn/modules/conv.py"))

    def test_unscoped_branches_are_those_that_ran(self):
        source = ('def ran(d):\n    return d == "cuda"\n\n'
                  '@staticmethod\ndef decorated(d):\n    return d == "xpu"\n\n'
                  'def idle(d):\n    return d == "mps"\n')
        for rel in ("torch/nn/m.py", "torch/_refs/m.py", "torch/overrides.py"):
            write(self.tree, rel, source)
        # (file, first line of the code object) as a profile gives them.
        ran = [(rel, line) for rel in ("torch/nn/m.py", "torch/_refs/m.py", "torch/overrides.py")
               for line in (1, 4)]
        found = gates.unscoped_branches(ran, self.tree)
        self.assertEqual([(b.rel, b.qualname) for b in found],
                         [("torch/nn/m.py", "ran"), ("torch/nn/m.py", "decorated")])

    def test_branches_a_compile_runs_are_in_scope(self):
        # Profile a compile (a training step with convolution, normalisations,
        # attention and an optimizer, on the C++-scheduled fake device) and list
        # the branches on device names it ran outside SCOPE and OUTSIDE_SCOPE.
        proc = run_python(
            """
            import cProfile, json, os
            import torch
            import torch.nn as nn, torch.nn.functional as F
            from extension_backends.cpp.extension_codegen_backend import (
                register_compile_backend,
            )
            from extension_backends.extension_device import register
            from torch._inductor import config

            register("extension_device")
            register_compile_backend("extension_device")

            class Block(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.conv, self.gn = nn.Conv2d(4, 8, 3), nn.GroupNorm(2, 8)
                    self.ln = nn.LayerNorm(16)

                def forward(self, x):
                    q = self.ln(F.silu(self.gn(self.conv(x))).flatten(2)).unflatten(1, (2, 4))
                    attn = (q @ q.transpose(-1, -2)).softmax(-1) @ q
                    return attn.sum() + F.scaled_dot_product_attention(q, q, q).sum()

            block = Block().to("extension_device")
            x = torch.randn(2, 4, 6, 6, device="extension_device")
            opt = torch.optim.SGD(block.parameters(), lr=0.1)

            def step():
                loss = block(x)
                loss.backward()
                opt.step()
                return loss

            profile = cProfile.Profile()
            with config.patch(fx_graph_cache=False), profile:
                torch.compile(step)()
            site = os.path.dirname(os.path.dirname(torch.__file__))
            print(json.dumps(sorted({
                (os.path.relpath(e.code.co_filename, site), e.code.co_firstlineno)
                for e in profile.getstats() if not isinstance(e.code, str)
            })))
            """
        )
        ran = [tuple(item) for item in json.loads(proc.stdout.splitlines()[-1])]
        self.assertTrue(any(rel.startswith("torch/_refs/") for rel, _ in ran))
        site = Path(torch.__file__).resolve().parents[1]
        self.assertEqual(
            [f"{b.rel}:{b.line} {b.qualname}: {b.snippet}"
             for b in gates.unscoped_branches(ran, site)], [])


class TestSiteTable(TestCase):
    def test_every_site_once_and_every_hm_site_left_has_a_reason(self):
        self.assertEqual(len(gates.SEVERITY), 92)
        self.assertEqual(set(gates.SEVERITY), gates.REPLACED | set(gates.NOT_REPLACED))
        self.assertFalse(gates.REPLACED & set(gates.NOT_REPLACED))
        self.assertEqual(len(gates.REPLACED), 51)
        for site, (status, reason) in gates.NOT_REPLACED.items():
            self.assertIn(status, ("P", "X", "NA"), site)
            self.assertTrue(reason.strip(), site)
        self.assertEqual(gates.site_problems([]), [])


class TestRealTree(TestCase):
    """This checkout's series over the stock twin's pristine files."""

    def test_no_unlisted_branch(self):
        stock = gates.stock_torch_root(REPO)
        if stock is None:
            self.skipTest("no stock twin environment (python3 tools/dev.py setup)")
        report = gates.build_report(REPO, stock)
        self.assertGreater(len(report.classified), 200)
        self.assertEqual(
            [f"{b.rel}:{b.line} {b.qualname}: {b.snippet}" for b in report.unlisted], [])
        self.assertEqual(report.problems, [])


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: ci"]
"""Tests of tools/function_sizes.py on synthetic sources and a small tree."""

import contextlib
import io
import tempfile
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import function_sizes as fs


def func(name: str, lines: int, indent: str = "") -> str:
    """Source of a function ``name`` that is ``lines`` lines long."""
    body = "".join(f"{indent}    x = {i}\n" for i in range(lines - 1))
    return f"{indent}def {name}():\n{body}"


class TestFunctionSizes(TestCase):
    def test_sizes_name_methods_and_nested_functions(self):
        src = ("@decorator\n" + func("f", 3) + "class C:\n" + func("m", 4, "    ")
               + "def outer():\n" + func("inner", 2, "    "))
        self.assertEqual(fs.function_sizes(src),
                         {"f": 3, "C.m": 4, "outer": 3, "outer.inner": 2})

    def test_oversized(self):
        stock = (func("grown", 70) + func("kept", 90) + func("long", 90) + func("short", 5)
                 + func("wrapped", 90) + func("edge", 80))
        series = (func("grown", 81) + func("kept", 90) + func("long", 92)
                  + func("short", 6) + func("added", 81) + func("small", 80)
                  + func("wrapped", 90 + fs.SLACK) + func("edge", 81))
        # A stock function over the limit may grow by SLACK lines, no more.
        self.assertEqual(fs.oversized(series, stock, limit=80),
                         [("grown", 70, 81), ("long", 90, 92), ("added", None, 81),
                          ("edge", 80, 81)])
        self.assertEqual(fs.oversized(series, None, limit=90),
                         [("long", None, 92), ("wrapped", None, 90 + fs.SLACK)])

    def test_main_reports_and_exits_nonzero(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree, stock = Path(tmp, "tree"), Path(tmp, "stock")
            for root in (tree, stock):
                (root / "torch").mkdir(parents=True)
            (stock / "torch/a.py").write_text(func("f", 10))
            (tree / "torch/a.py").write_text(func("f", 12))
            (tree / "torch/new.py").write_text(func("g", 12))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                args = ["--tree", str(tree), "--stock", str(stock), "--limit", "11"]
                self.assertEqual(fs.main(args), 1)
                self.assertEqual(fs.main([*args[:4], "--limit", "12"]), 0)
            self.assertIn("torch/a.py: f: stock 10 -> 12 (+2) lines", out.getvalue())
            self.assertIn("torch/new.py: g: 12 lines", out.getvalue())


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: ci"]
"""Tests of tools/formatting.py on synthetic sources and a small tree (needs
ruff, which tools/requirements.txt installs)."""

import contextlib
import io
import tempfile
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import formatting
from tools.device_gates import stock_torch_root
from tools.series import REPO


STOCK = 'def stock(a,b):\n    return a\n\n\ndef kept():\n    return 1\n'


class TestFormatting(TestCase):
    def test_rewritten_lines(self):
        self.assertEqual(formatting.rewritten("x = 1\n"), [])
        self.assertEqual(formatting.rewritten("x = {  'a':1 }\ny = 2\n"),
                         [(1, "x = {  'a':1 }")])

    def test_stock_lines_are_not_the_series(self):
        # The stock file's own unformatted line stays; only the series' line is listed.
        series = STOCK + "\n\ndef added():\n    return {  'a':1 }\n"
        self.assertEqual(formatting.unformatted(series, STOCK),
                         [(10, "    return {  'a':1 }")])
        # A new file has no stock copy: every rewritten line is the series'.
        self.assertEqual([n for n, _ in formatting.unformatted(STOCK, None)], [1])
        # Twice the stock line: one of the two is the series'.
        self.assertEqual(len(formatting.unformatted(STOCK + STOCK, STOCK)), 1)

    def test_unparsable_source_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "ruff cannot format it"):
            formatting.rewritten("def f(:\n")

    def test_main_reports_and_exits_nonzero(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree, stock = Path(tmp, "tree"), Path(tmp, "stock")
            for root in (tree, stock):
                (root / "torch").mkdir(parents=True)
            (stock / "torch/a.py").write_text(STOCK)
            (tree / "torch/a.py").write_text(STOCK)
            args = ["--tree", str(tree), "--stock", str(stock)]
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(formatting.main(args), 0)
                (tree / "torch/a.py").write_text(STOCK + "x = {  'a':1 }\n")
                self.assertEqual(formatting.main(args), 1)
            self.assertEqual(out.getvalue(), "torch/a.py:7: x = {  'a':1 }\n")

    def test_the_series_is_formatted(self):
        stock = stock_torch_root(REPO)
        self.assertIsNotNone(stock, "no stock twin (.venv-stock)")
        self.assertEqual(formatting.scan(REPO, stock), [])


if __name__ == "__main__":
    run_tests()

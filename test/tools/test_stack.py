# Owner(s): ["module: ci"]
"""Tests of the pull-request stack (tools/stack.py, tools/stack_plan.py).

The splitting rules are tested on small sources written here; the last class
checks the real plan of this checkout against the stock twin environment.
``python3 tools/dev.py check --stack`` applies the stack and runs each patch's
tests on its own state; that is too slow for this file.
"""

import ast
import glob
import subprocess
import tempfile
import types
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import series, stack
from tools.series import SeriesError
from tools.stack import Patch

REPO = Path(__file__).resolve().parents[2]


def lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def plan(files: dict, names=("a", "b", "c"), isolate=None) -> types.SimpleNamespace:
    return types.SimpleNamespace(
        PATCHES=[Patch(n, f"[test] {n}", "s", "m", "rfc") for n in names],
        FILES=files,
        ISOLATE=isolate or {},
    )


def split(rel, base, final, files, isolate=()):
    import re

    f = stack.split_file(rel, lines(base) if base is not None else None, lines(final),
                         [re.compile(rx) for rx in isolate])
    stack.assign(plan(files), [f])
    return f


def heads(f):
    return [(u.head, u.patch) for c in f.changes for u in c.units]


def states(f, n=3):
    return ["".join(f.state(k) or []) if f.state(k) is not None else None
            for k in range(-1, n)]


BASE = """\
import os


def f():
    return 1
"""

FINAL = """\
import os
import threading


def f():
    setup()
    return 1


def setup():
    return 2


class Thing:
    x = 1

    def method(self):
        return 3
"""


class SplitTest(TestCase):
    def test_units_follow_blank_lines_and_rules(self):
        f = split("torch/m.py", BASE, FINAL, {"torch/m.py": ("a", [(r"def setup", "b")])})
        self.assertEqual(
            heads(f),
            [("import threading", 0), ("setup()", 0), ("def setup():", 1),
             ("class Thing:", 0), ("def method(self):", 0)],
        )

    def test_states_rebuild_base_and_final(self):
        f = split("torch/m.py", BASE, FINAL, {"torch/m.py": ("b", [(r"^setup\(\)", "c")])})
        first, *_, last = states(f)
        self.assertEqual(first, BASE)
        self.assertEqual(last, FINAL)
        # Patch "a" owns nothing; "b" adds all but the call, which "c" adds.
        self.assertEqual(states(f)[1], BASE)
        self.assertNotIn("setup()\n", states(f)[2].replace("def setup():\n", ""))
        for text in states(f):
            ast.parse(text)

    def test_enclosed_units_never_land_before_their_parent(self):
        # The method matches a rule for patch "a", but its class comes with "c".
        f = split("torch/m.py", BASE, FINAL,
                  {"torch/m.py": ("c", [(r"def method", "a")])})
        method = [u for c in f.changes for u in c.units if u.head.startswith("def method")][0]
        self.assertEqual(method.patch, 2)
        self.assertEqual(method.why, "enclosing unit (later)")

    def test_isolated_statement_and_its_comments(self):
        final = """\
def g():
    a = 1
    # Why b.
    b = later()
    return a
"""
        f = split("torch/g.py", None, final,
                  {"torch/g.py": ("a", [(r"^b = later", "b")])}, isolate=[r"^\s+b = later"])
        self.assertEqual(heads(f), [("def g():", 0), ("b = later()", 1), ("return a", 0)])
        self.assertEqual(states(f)[1], "def g():\n    a = 1\n    return a\n")
        self.assertEqual(states(f)[2], final)

    def test_isolated_line_inside_brackets(self):
        base = "from m import (\n    a,\n)\n"
        final = "from m import (\n    a,\n    b,\n    c,\n)\n"
        f = split("torch/i.py", base, final, {"torch/i.py": ("a", [(r"^c,$", "b")])},
                  isolate=[r"^\s+c,$"])
        self.assertEqual(states(f)[1], "from m import (\n    a,\n    b,\n)\n")
        self.assertEqual(states(f)[2], final)

    def test_deleted_lines_go_with_the_unit_that_replaces_them(self):
        base = "class A:\n    def set_device(self, i: int) -> str:\n        raise E\n"
        final = ("class A:\n    def options(self):\n        return None\n\n"
                 "    def set_device(self, i: Idx) -> str:\n        raise E\n")
        f = split("torch/o.py", base, final, {"torch/o.py": ("b", [(r"def set_device", "a")])})
        self.assertEqual(
            states(f)[1], "class A:\n    def set_device(self, i: Idx) -> str:\n        raise E\n"
        )
        self.assertEqual(states(f)[2], final)

    def test_added_copy_of_the_following_lines_slides_down(self):
        # git aligns the unchanged tail with the second block; re-aligned, the
        # first block ends where it did and the second moves alone.
        base = "def f(x):\n    if x:\n        return g(\n            old,\n            y,\n        )\n"
        final = ("def f(x):\n    if x:\n        return g(\n            new,\n            y,\n"
                 "        )\n\n    other = h()\n    if other:\n        return g(\n"
                 "            other,\n            y,\n        )\n")
        f = split("torch/s.py", base, final,
                  {"torch/s.py": ("a", [(r"^other = h\(\)", "b")])})
        ast.parse(states(f)[1])
        self.assertEqual(
            states(f)[1],
            "def f(x):\n    if x:\n        return g(\n            new,\n            y,\n        )\n",
        )
        self.assertEqual(states(f)[2], final)

    def test_markdown_sections(self):
        final = "# Guide\n\nintro\n\n## One\n\ntext\n\n```\n# not a heading\n```\n\n## Two\n"
        f = split("docs/g.md", None, final, {"docs/g.md": ("a", [(r"^## Two", "b")])})
        self.assertEqual(heads(f), [("# Guide", 0), ("## One", 0), ("## Two", 1)])

    def test_new_empty_file(self):
        f = split("test/pkg/__init__.py", None, "", {"test/*": "b"})
        self.assertEqual(states(f)[:3], [None, None, ""])

    def test_plan_errors(self):
        with self.assertRaisesRegex(SeriesError, "no entry in tools/stack_plan.py"):
            split("torch/m.py", BASE, FINAL, {"docs/*": "a"})
        with self.assertRaisesRegex(SeriesError, "unknown patch 'z'"):
            split("torch/m.py", BASE, FINAL, {"torch/m.py": "z"})
        with self.assertRaisesRegex(SeriesError, r"match nothing: \['nowhere'\]"):
            split("torch/m.py", BASE, FINAL, {"torch/m.py": ("a", [("nowhere", "b")])})

    def test_over_budget(self):
        f = split("torch/m.py", BASE, FINAL, {"torch/m.py": ("a", [(r"def setup", "b")])})
        the_plan = plan({})
        self.assertEqual(stack.over_budget(the_plan, [f]), [])
        code = [stack.added_lines([f], k, "code") for k in range(3)]
        self.assertGreater(code[0], code[1])
        self.assertGreater(code[1], code[2])
        the_plan.MAX_CODE_LINES = code[0]
        self.assertEqual(stack.over_budget(the_plan, [f]), [])
        the_plan.MAX_CODE_LINES = code[0] - 1
        (problem,) = stack.over_budget(the_plan, [f])
        self.assertRegex(problem, rf"^a: {code[0]} added lines of code, over the budget of "
                                  rf"{code[0] - 1} \(MAX_CODE_LINES")
        # A series' budget covers the sum of its patches.
        the_plan.MAX_CODE_LINES = None
        the_plan.SERIES = [("first two", ["a", "b"], code[0] + code[1])]
        self.assertEqual(stack.over_budget(the_plan, [f]), [])
        the_plan.SERIES = [("first two", ["a", "b"], code[0] + code[1] - 1)]
        (problem,) = stack.over_budget(the_plan, [f])
        self.assertRegex(problem, rf"^series 'first two': {code[0] + code[1]} added lines")

    def test_code_lines_are_non_blank(self):
        f = split("torch/m.py", BASE, FINAL, {"torch/m.py": "a"})
        added = [line for c in f.changes for u in c.units for line in u.lines]
        self.assertTrue(any(not line.strip() for line in added))
        self.assertEqual(stack.added_lines([f], 0, "code"),
                         sum(1 for line in added if line.strip()))

    def test_unbound_globals(self):
        src = ("import os\nfrom a import b as c\nX = 1\n\n"
               "class K:\n    y = X + z\n\n    def m(self):\n        return os, c, w, len\n\n"
               "def f():\n    global G\n    G = v = 2\n    return v\n\n"
               "def g():\n    return G, H\n")
        self.assertEqual(stack.unbound_globals(src), {"z", "w", "H"})
        self.assertEqual(stack.unbound_globals("from a import *\ndef f():\n    return q\n"),
                         set())

    def test_unbound_in_states(self):
        base = "import os\n"
        final = ("import os\n\n\ndef f():\n    return helper()\n\n\n"
                 "def helper():\n    return os.sep\n")
        # The call lands in a, its definition in b: state a reads an unbound name.
        f = split("torch/m.py", base, final, {"torch/m.py": ("a", [(r"def helper", "b")])})
        self.assertIn("return helper()", states(f)[1])
        self.assertNotIn("def helper", states(f)[1])
        (problem,) = stack.unbound_in_states(plan({}), [f])
        self.assertRegex(problem, r"^a: torch/m.py reads 'helper', which that state does not")
        f = split("torch/m.py", base, final, {"torch/m.py": "a"})
        self.assertEqual(stack.unbound_in_states(plan({}), [f]), [])
        # A name the final tree leaves unbound as well is not the stack's doing.
        f = split("torch/m.py", base, "def f():\n    return nowhere()\n", {"torch/m.py": "a"})
        self.assertEqual(stack.unbound_in_states(plan({}), [f]), [])

    def test_unimported_in_states(self):
        lib = split("torch/pkg/lib.py", "X = 1\n", "X = 1\n\n\ndef helper():\n    return X\n",
                    {"torch/pkg/lib.py": "b"})
        use = ("def f():\n    from .lib import helper\n\n    return helper()\n\n\n"
               "def g():\n    from torch.pkg.lib import X, nowhere\n\n    return X\n")
        user = split("torch/pkg/use.py", None, use, {"torch/pkg/use.py": "a"})
        # The import lands in a, the definition in b; a name the final tree does
        # not define either is not the stack's doing.
        (problem,) = stack.unimported_in_states(plan({}), [lib, user])
        self.assertRegex(problem, r"^a: torch/pkg/use.py:2 imports 'helper' from "
                                  r"torch\.pkg\.lib, which that state does not define")
        user = split("torch/pkg/use.py", None, use, {"torch/pkg/use.py": "b"})
        self.assertEqual(stack.unimported_in_states(plan({}), [lib, user]), [])

    def test_test_ids(self):
        final = ("class T(TestCase):\n    def test_a(self):\n        pass\n\n"
                 "    def test_b(self):\n        pass\n\n\ndef test_c():\n    pass\n")
        f = split("test/x/test_m.py", None, final,
                  {"test/*": ("a", [(r"def test_b", "b")])})
        self.assertEqual(stack.test_ids_of([f], 0),
                         ["test/x/test_m.py::T::test_a", "test/x/test_m.py::test_c"])
        self.assertEqual(stack.test_ids_of([f], 1), ["test/x/test_m.py::T::test_b"])

    def test_sample_prefers_the_quickest_measured_tests(self):
        tests = [f"t::test_{c}" for c in "abcdef"]
        self.assertEqual(stack.sample_tests(tests, None, {}), tests)
        self.assertEqual(stack.sample_tests(tests, 9, {}), tests)
        # No record: evenly spread, the same every run.
        self.assertEqual(stack.sample_tests(tests, 2, {}), ["t::test_a", "t::test_d"])
        # Measured: the quickest, in file order; an unmeasured test counts as slow.
        durations = {"t::test_a": 9.0, "t::test_c": 0.5, "t::test_e": 0.2, "t::test_f": 3.0}
        self.assertEqual(stack.sample_tests(tests, 2, durations), ["t::test_c", "t::test_e"])
        self.assertEqual(stack.sample_tests(tests, 1, {"t::test_f": 0.1}), ["t::test_f"])
        # A class's setup, charged to its first test, is what each of its tests
        # costs alone.
        tests = ["a.py::Slow::test_x", "a.py::Slow::test_y", "a.py::Quick::test_z"]
        durations = {"a.py::Slow::test_x": 120.0, "a.py::Slow::test_y": 0.0,
                     "a.py::Quick::test_z": 2.0, "setup::a.py::Slow": 119.0}
        self.assertEqual(stack.sample_tests(tests, 1, durations), ["a.py::Quick::test_z"])


class RealPlanTest(TestCase):
    """The plan of this checkout, against the stock twin's pristine files."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        sites = glob.glob(str(REPO / ".venv-stock/lib/python3*/site-packages"))
        if not sites:
            raise RuntimeError("no stock twin environment (python3 tools/dev.py setup)")
        cls.pristine = series.torch_install_at(Path(sites[0]))
        cls.plan, cls.files = stack.compute(cls.pristine)

    def test_last_state_is_the_repository(self):
        the_plan, files = self.plan, self.files
        last = len(the_plan.PATCHES) - 1
        for f in files:
            self.assertEqual("".join(f.state(last)), (REPO / f.rel).read_text(), f.rel)
            if f.base is not None:
                self.assertEqual("".join(f.state(-1)), "".join(f.base), f.rel)

    def test_every_patch_has_tests_and_every_test_one_patch(self):
        the_plan, files = self.plan, self.files
        ids = []
        for k, patch in enumerate(the_plan.PATCHES):
            self.assertTrue(stack.test_ids_of(files, k), f"{patch.name} has no tests")
            ids += stack.test_ids_of(files, k)
        self.assertEqual(len(ids), len(set(ids)))

    def test_every_state_binds_the_names_it_reads(self):
        self.assertEqual(stack.unbound_in_states(self.plan, self.files), [])
        self.assertEqual(stack.unimported_in_states(self.plan, self.files), [])

    def test_every_patch_within_the_review_budget(self):
        self.assertIsInstance(self.plan.MAX_CODE_LINES, int)
        self.assertEqual(stack.over_budget(self.plan, self.files), [])

    def test_export_applies_in_order(self):
        with tempfile.TemporaryDirectory() as tmp:
            written = stack.export_stack(Path(tmp, "stack"), self.pristine)
            the_plan, files = self.plan, self.files
            self.assertEqual(len(written), len(the_plan.PATCHES))
            self.assertIn("## Test plan", written[0].read_text())
            tree = Path(tmp, "tree")
            tree.mkdir()
            stack._write_state(tree, files, -1)
            for patch in written:
                subprocess.run(["git", "apply", str(patch)], cwd=tree, check=True)
            for f in files:
                # `==`, not assertEqual: torch's assertEqual compares bytes item by
                # item (minutes for the whole tree).
                applied, final = tree.joinpath(f.rel).read_bytes(), (REPO / f.rel).read_bytes()
                self.assertTrue(applied == final, f"{f.rel}: the applied stack differs")


if __name__ == "__main__":
    run_tests()

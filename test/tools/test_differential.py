# Owner(s): ["module: inductor"]
"""Tests for the differential harness (tools/differential).

1. The patched environment answers and generates code exactly like the stock
   torch 2.13 twin (harness exit 0).
2. The harness catches planted changes: a scratch symlink-farm copy of the
   stock torch with one edited file, run with the stock interpreter on both
   sides, must give exit 1 and name the changed entry.

Interpreters default to <repo>/.venv-stock/bin/python and <repo>/.venv/bin/python;
override with DIFF_STOCK_PYTHON / DIFF_PATCHED_PYTHON.  Compiled C++ kernels are
cached in $TORCHINDUCTOR_CACHE_DIR if set, else in a per-user directory under
the system temp dir, so reruns are warm.
"""

import getpass
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase


REPO_ROOT = Path(__file__).resolve().parents[2]
# Appended, not prepended: the repo root holds partial torch/ copies that must
# never shadow the installed torch.
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from tools.differential import (  # noqa: E402
    compare,
    default_python,
    EXIT_DIFF,
    EXIT_ERROR,
    EXIT_SAME,
    find_torch_dir,
    format_difference,
    make_scratch_torch,
)


STOCK_PYTHON = os.environ.get("DIFF_STOCK_PYTHON") or default_python("stock")
PATCHED_PYTHON = os.environ.get("DIFF_PATCHED_PYTHON") or default_python("patched")


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return str(os.getuid())


CACHE_DIR = os.environ.get("TORCHINDUCTOR_CACHE_DIR") or os.path.join(
    tempfile.gettempdir(), f"torchinductor_differential_{_user()}"
)


def _replace_once(old: str, new: str):
    def edit(text: str) -> str:
        if text.count(old) != 1:
            raise AssertionError(f"expected exactly one {old!r} in the file to edit")
        return text.replace(old, new)

    return edit


# Planted changes.  Each is (relative path in the torch package, edit).
PLANT_GPU_TYPES = {
    "_inductor/utils.py": _replace_once(
        'GPU_TYPES = ["cuda", "mps", "xpu", "mtia"]',
        'GPU_TYPES = ["cuda", "mps", "xpu", "mtia", "planted_gpu"]',
    )
}
# A harmless C++ comment appended to a line every CPU kernel ends with.
PLANT_CPP_CODEGEN = {
    "_inductor/codegen/cpp.py": _replace_once(
        'code.writeline("inductor_cpu_integer_div_error_flag = nullptr;")',
        'code.writeline("inductor_cpu_integer_div_error_flag = nullptr; // planted")',
    )
}


def scratch_torch(name: str, edits) -> str:
    """A planted copy of the stock torch at a content-addressed path under the
    cache dir (stable path => its compiled kernels are reused on reruns).
    Built in a temp dir and renamed into place, so concurrent runs are safe."""
    torch_dir = find_torch_dir(STOCK_PYTHON)
    h = hashlib.sha256(str(torch_dir).encode())
    for rel in sorted(edits):
        h.update(rel.encode())
        h.update(edits[rel]((torch_dir / rel).read_text(encoding="utf-8")).encode())
    base = Path(CACHE_DIR) / "differential-scratch"
    final = base / f"{name}-{h.hexdigest()[:16]}"
    if (final / "torch" / "__init__.py").exists():
        return str(final)
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=base))
    make_scratch_torch(torch_dir, tmp, edits)
    try:
        os.rename(tmp, final)
    except OSError:  # somebody else won the race
        shutil.rmtree(tmp, ignore_errors=True)
    return str(final)


def run_harness(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["TORCHINDUCTOR_CACHE_DIR"] = CACHE_DIR
    os.makedirs(CACHE_DIR, exist_ok=True)
    proc = subprocess.run(
        # As a file: under PYTHONSAFEPATH "-m" would not find tools/.
        [sys.executable, str(REPO_ROOT / "tools" / "differential" / "__main__.py"), *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    # Show the report on failure.
    sys.stdout.write(proc.stdout[-20000:])
    sys.stderr.write(proc.stderr[-5000:])
    return proc


class TestDifferentialHarness(TestCase):
    def _require(self, python: str) -> None:
        if not os.path.exists(python):
            self.fail(
                f"interpreter {python} does not exist; create the environment or "
                "point DIFF_STOCK_PYTHON / DIFF_PATCHED_PYTHON at one"
            )

    def test_patched_matches_stock(self):
        self._require(STOCK_PYTHON)
        self._require(PATCHED_PYTHON)
        proc = run_harness("--stock", STOCK_PYTHON, "--patched", PATCHED_PYTHON)
        self.assertEqual(proc.returncode, EXIT_SAME, proc.stdout[-5000:])
        self.assertIn(" 0 differences", proc.stdout)

    def test_catches_planted_answer_change(self):
        self._require(STOCK_PYTHON)
        scratch = scratch_torch("gpu-types", PLANT_GPU_TYPES)
        proc = run_harness(
            "--stock", STOCK_PYTHON, "--patched", STOCK_PYTHON,
            "--pythonpath-patched", scratch, "--only", "answers",
        )
        self.assertEqual(proc.returncode, EXIT_DIFF, proc.stdout[-5000:])
        # The patched side really imported the scratch copy.
        self.assertIn(os.path.join(scratch, "torch"), proc.stdout)
        self.assertIn("DIFFERENCE in answers: torch._inductor.utils.GPU_TYPES", proc.stdout)
        self.assertIn('+  "planted_gpu"', proc.stdout)
        self.assertIn("0 code artefacts compared", proc.stdout)

    def test_catches_planted_codegen_change(self):
        self._require(STOCK_PYTHON)
        scratch = scratch_torch("cpp-codegen", PLANT_CPP_CODEGEN)
        proc = run_harness(
            "--stock", STOCK_PYTHON, "--patched", STOCK_PYTHON,
            "--pythonpath-patched", scratch, "--only", "code", "--corpus", "pointwise",
        )
        self.assertEqual(proc.returncode, EXIT_DIFF, proc.stdout[-5000:])
        self.assertIn("DIFFERENCE in code: pointwise[python]#0", proc.stdout)
        self.assertIn("DIFFERENCE in code: pointwise[cpp]#0", proc.stdout)
        self.assertIn("+    inductor_cpu_integer_div_error_flag = nullptr; // planted", proc.stdout)
        self.assertIn("0 answers, 2 code artefacts compared, 2 differences", proc.stdout)

    def test_probe_crash_is_harness_error(self):
        self._require(STOCK_PYTHON)
        with tempfile.TemporaryDirectory() as d:
            pkg = Path(d) / "torch"
            pkg.mkdir()
            (pkg / "__init__.py").write_text('raise RuntimeError("planted import failure")\n')
            proc = run_harness(
                "--stock", STOCK_PYTHON, "--patched", STOCK_PYTHON,
                "--pythonpath-patched", d, "--only", "answers",
            )
        self.assertEqual(proc.returncode, EXIT_ERROR, proc.stdout[-5000:])
        self.assertIn("patched probe crashed", proc.stdout)
        self.assertIn("planted import failure", proc.stdout)

    def test_missing_interpreter_is_harness_error(self):
        proc = run_harness("--stock", "/nonexistent/python", "--patched", "/nonexistent/python")
        self.assertEqual(proc.returncode, EXIT_ERROR)
        self.assertIn("interpreter not found", proc.stdout)


class TestDifferentialPieces(TestCase):
    """Cheap, torch-independent checks of the orchestrator's building blocks."""

    def test_make_scratch_torch(self):
        with tempfile.TemporaryDirectory() as d:
            src = Path(d) / "site" / "torch"
            (src / "_inductor" / "codegen").mkdir(parents=True)
            (src / "lib").mkdir()
            (src / "__pycache__").mkdir()
            (src / "__init__.py").write_text("X = 1\n")
            (src / "_inductor" / "__init__.py").write_text("")
            (src / "_inductor" / "utils.py").write_text("GPU_TYPES = ['cuda']\n")
            (src / "_inductor" / "codegen" / "cpp.py").write_text("pass\n")
            (src / "lib" / "libfoo.so").write_text("")
            dest = make_scratch_torch(
                src, Path(d) / "scratch",
                {"_inductor/utils.py": lambda s: s.replace("'cuda'", "'cuda', 'x'")},
            )
            root = dest / "torch"
            self.assertFalse(root.is_symlink())
            self.assertFalse((root / "_inductor").is_symlink())
            self.assertTrue((root / "__init__.py").is_symlink())
            self.assertTrue((root / "lib").is_symlink())
            self.assertTrue((root / "lib" / "libfoo.so").exists())
            self.assertTrue((root / "_inductor" / "codegen").is_symlink())
            self.assertFalse((root / "__pycache__").exists())
            self.assertFalse((root / "_inductor" / "utils.py").is_symlink())
            self.assertEqual(
                (root / "_inductor" / "utils.py").read_text(), "GPU_TYPES = ['cuda', 'x']\n"
            )
            # The original is untouched.
            self.assertEqual((src / "_inductor" / "utils.py").read_text(), "GPU_TYPES = ['cuda']\n")
            with self.assertRaisesRegex(ValueError, "changed nothing"):
                make_scratch_torch(src, Path(d) / "s2", {"__init__.py": lambda s: s})
            with self.assertRaises(FileNotFoundError):
                make_scratch_torch(src, Path(d) / "s3", {"nope.py": lambda s: s + "#"})

    def test_compare_and_format(self):
        stock = {"answers": {"a": [1, 2], "b": "x"}, "code": {"k#0": "l1\nl2\n"}}
        patched = {"answers": {"a": [1, 2, 3], "c": None}, "code": {"k#0": "l1\nl2\n"}}
        counts, diffs = compare(stock, patched)
        self.assertEqual(counts, {"answers": 3, "code": 1})
        self.assertEqual([d.name for d in diffs], ["a", "b", "c"])
        text = format_difference(diffs[0])
        self.assertIn("DIFFERENCE in answers: a", text)
        self.assertIn("+  3", text)
        self.assertIn("<absent>", format_difference(diffs[1]))
        self.assertIn("<absent>", format_difference(diffs[2]))
        self.assertEqual(compare(stock, stock)[1], [])

    def test_normaliser_keeps_real_codegen(self):
        import torch

        from tools.differential.probe import Normaliser

        norm = Normaliser()
        torch_dir = os.path.dirname(torch.__file__)
        h = "c" + "abcdefghijklmnopqrstuvwxyz234567" + "a" * 19
        self.assertEqual(len(h), 52)
        code = (
            f"# kernel path: /somewhere/{h[1:3]}/{h}.py\n"
            f"cpp_fused_add_mul_sin_0 = load('{torch_dir}/include', '{h}')\n"
            "mask = 0xFFFFFFFF  # <function f at 0x7fd6cf1f4720>\n"
        )
        self.assertEqual(
            norm.code(code),
            "# kernel path: <PATH>\n"
            "cpp_fused_add_mul_sin_0 = load('<TORCH_DIR>/include', '<HASH>')\n"
            "mask = 0xFFFFFFFF  # <function f at 0x<ADDR>>\n",
        )


if __name__ == "__main__":
    run_tests()

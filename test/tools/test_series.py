# Owner(s): ["module: ci"]
"""Tests of the series tooling (tools/series.py, tools/dev.py, setup.py).

Most tests work on a fake torch installation in a temporary directory, so they
can break it freely; the last class checks the real series of this checkout
against the stock twin environment.
"""

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

from tools import series

REPO = Path(__file__).resolve().parents[2]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


PRISTINE = {
    "torch/version.py": b"__version__ = '2.13.0+cpu'\n",
    "torch/__init__.py": b"",
    "torch/a.py": b"A = 1\n",
    "torch/sub/__init__.py": b"",
    "torch/sub/b.py": b"def f():\n    return 'b'\n",
    "torch/sub/c.py": b"C = 3\n",
}


class FakeTree:
    """A fake site-packages with a torch package, and a fake series repo."""

    def __init__(self, root: Path, version: str = "2.13.0+cpu") -> None:
        self.site = root / "site"
        self.repo = root / "repo"
        files = dict(PRISTINE)
        files["torch/version.py"] = f"__version__ = '{version}'\n".encode()
        record = []
        for rel, data in files.items():
            path = self.site / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            record.append(f"{rel},sha256={_b64(data)},{len(data)}")
        dist = self.site / f"torch-{version}.dist-info"
        dist.mkdir()
        (dist / "RECORD").write_text("\n".join(record) + "\n")
        (self.repo / "tools").mkdir(parents=True)

    def inst(self) -> series.TorchInstall:
        return series.torch_install_at(self.site)

    def write(self, rel: str, data: bytes) -> None:
        path = self.repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    def import_(self, *rels: str) -> None:
        series.import_files(list(rels), self.inst(), repo=self.repo)

    def manifest(self) -> dict[str, str]:
        return series.read_manifest(self.repo / "tools" / series.MANIFEST.name)

    def overlay(self) -> series.OverlayReport:
        return series.overlay(self.inst(), repo=self.repo, manifest=self.manifest())


class TestFakeTree(TestCase):
    def setUp(self):
        super().setUp()
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tree = FakeTree(Path(tmp.name))

    def test_import_is_byte_identical_and_recorded(self):
        self.tree.import_("torch/sub/b.py", "a.py")
        for rel in ("torch/sub/b.py", "torch/a.py"):
            self.assertEqual((self.tree.repo / rel).read_bytes(), PRISTINE[rel])
            self.assertEqual(
                self.tree.manifest()[rel], hashlib.sha256(PRISTINE[rel]).hexdigest()
            )

    def test_import_refuses_modified_source_and_duplicates(self):
        (self.tree.site / "torch/a.py").write_bytes(b"A = 2\n")
        with self.assertRaisesRegex(series.SeriesError, "does not match the wheel RECORD"):
            self.tree.import_("torch/a.py")
        self.assertFalse((self.tree.repo / "torch/a.py").exists())
        self.tree.import_("torch/sub/c.py")
        with self.assertRaisesRegex(series.SeriesError, "already in the series"):
            self.tree.import_("torch/sub/c.py")
        with self.assertRaisesRegex(series.SeriesError, "does not exist in torch"):
            self.tree.import_("torch/nope.py")

    def test_overlay_links_is_idempotent_and_restores(self):
        self.tree.import_("torch/a.py")
        self.tree.write("torch/a.py", b"A = 42\n")
        self.tree.write("torch/newpkg/mod.py", b"NEW = True\n")
        report = self.tree.overlay()
        self.assertEqual(report.linked, ["torch/a.py", "torch/newpkg/mod.py"])
        site = self.tree.site
        self.assertEqual((site / "torch/a.py").read_bytes(), b"A = 42\n")
        self.assertTrue(os.path.samefile(site / "torch/a.py", self.tree.repo / "torch/a.py"))
        # Edits in the repo are live without running overlay again.
        with open(self.tree.repo / "torch/a.py", "r+b") as f:
            f.write(b"A = 43\n")
        self.assertEqual((site / "torch/a.py").read_bytes(), b"A = 43\n")
        # A tool that replaces the file breaks the link: reported, then repaired.
        os.unlink(self.tree.repo / "torch/a.py")
        self.tree.write("torch/a.py", b"A = 44\n")
        self.assertEqual(series.overlay_status(self.tree.inst(), repo=self.tree.repo)["torch/a.py"],
                         "stale")
        self.assertEqual(self.tree.overlay().linked, ["torch/a.py"])
        self.assertEqual((site / "torch/a.py").read_bytes(), b"A = 44\n")

        again = self.tree.overlay()
        self.assertEqual(again.linked, [])
        self.assertEqual(again.unchanged, ["torch/a.py", "torch/newpkg/mod.py"])

        restored = series.restore(self.tree.inst())
        self.assertEqual(restored, ["torch/a.py", "torch/newpkg/mod.py"])
        self.assertFalse(os.path.samefile(site / "torch/a.py", self.tree.repo / "torch/a.py"))
        self.assertEqual((site / "torch/a.py").read_bytes(), PRISTINE["torch/a.py"])
        self.assertFalse((site / "torch/newpkg").exists())
        self.assertFalse((site / series.STATE_DIRNAME).exists())

    def test_file_leaving_the_series_is_restored(self):
        self.tree.import_("torch/a.py", "torch/sub/c.py")
        self.tree.overlay()
        os.unlink(self.tree.repo / "torch/sub/c.py")
        manifest = self.tree.manifest()
        del manifest["torch/sub/c.py"]
        series.write_manifest(manifest, self.tree.repo / "tools" / series.MANIFEST.name)
        report = self.tree.overlay()
        self.assertEqual(report.restored, ["torch/sub/c.py"])
        path = self.tree.site / "torch/sub/c.py"
        self.assertEqual(path.read_bytes(), PRISTINE["torch/sub/c.py"])

    def test_overlay_refuses_locally_modified_torch_without_touching_it(self):
        self.tree.import_("torch/a.py", "torch/sub/b.py")
        (self.tree.site / "torch/sub/b.py").write_bytes(b"patched by hand\n")
        with self.assertRaisesRegex(
            series.SeriesError, r"sub/b\.py does not match pristine torch 2\.13\.0.*modified locally"
        ):
            self.tree.overlay()
        # Validation runs before any mutation: a.py was not linked either.
        self.assertEqual((self.tree.site / "torch/a.py").read_bytes(), PRISTINE["torch/a.py"])

    def test_overlay_refuses_unimported_upstream_file(self):
        self.tree.write("torch/sub/c.py", b"C = 4\n")
        with self.assertRaisesRegex(series.SeriesError, "tools/dev.py import torch/sub/c.py"):
            self.tree.overlay()

    def test_overlay_refuses_other_torch_version(self):
        with tempfile.TemporaryDirectory() as tmp:
            other = FakeTree(Path(tmp), version="2.14.1+cpu")
            with self.assertRaisesRegex(
                series.SeriesError, r"torch 2\.13\.0 only, but .* has torch 2\.14\.1\+cpu"
            ):
                other.overlay()

    def test_setup_py_develop_refuses_other_torch_version(self):
        with tempfile.TemporaryDirectory() as tmp:
            other = FakeTree(Path(tmp), version="2.12.0")
            proc = subprocess.run(
                [sys.executable, "setup.py", "develop"],
                cwd=REPO, capture_output=True, text=True,
                env=dict(os.environ, PYTHONPATH=str(other.site)),
            )
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("applies to torch 2.13.0 only", proc.stderr)
        self.assertIn("has torch 2.12.0", proc.stderr)

    def test_overlay_changes_inductor_code_hash(self):
        # torch_key() hashes the installed torch package with build_code_hash;
        # run it over the fake package to see the overlay's edits reflected.
        from torch._inductor.codecache import build_code_hash

        def code_hash() -> str:
            h = hashlib.sha256()
            build_code_hash([str(self.tree.site / "torch")], "", h)
            return h.hexdigest()

        before = code_hash()
        self.tree.import_("torch/sub/b.py")
        self.tree.overlay()
        self.assertEqual(code_hash(), before)  # pristine copy: same hash
        self.tree.write("torch/sub/b.py", b"def f():\n    return 'edited'\n")
        self.assertNotEqual(code_hash(), before)

    def test_export_round_trip(self):
        self.tree.import_("torch/a.py", "torch/sub/b.py")
        self.tree.write("torch/a.py", b"A = 1\nB = 2\n")
        self.tree.write("torch/sub/new.py", b"N = 0\n")
        patch = series.export_patch(self.tree.inst(), repo=self.tree.repo)
        self.assertIn("--- a/torch/a.py\n+++ b/torch/a.py\n", patch)
        self.assertIn("+++ b/torch/sub/new.py\n", patch)
        self.assertNotIn("torch/sub/b.py", patch)  # imported, unchanged
        series.check_roundtrip(patch, self.tree.inst(), repo=self.tree.repo)
        with self.assertRaisesRegex(series.SeriesError, "torch/a.py: patched pristine file differs"):
            series.check_roundtrip(patch.replace("+B = 2", "+B = 3"), self.tree.inst(),
                                   repo=self.tree.repo)
        with self.assertRaisesRegex(series.SeriesError, "git apply failed: .*torch/a.py"):
            series.check_roundtrip(patch.replace(" A = 1", " A = 9"), self.tree.inst(),
                                   repo=self.tree.repo)

    def test_verify_import_commits(self):
        repo = self.tree.repo
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        self.tree.import_("torch/a.py")
        subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-qm", series.IMPORT_SUBJECT], cwd=repo, check=True)
        self.assertEqual(series.verify_import_commits(repo), [])
        # An "import" that is not pristine, and that also edits another file.
        self.tree.write("torch/a.py", b"A = 5\n")
        self.tree.import_("torch/sub/c.py")
        (repo / "torch/sub/c.py").write_bytes(b"C = 5\n")
        subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-qm", "[inductor] sneak"], cwd=repo, check=True)
        problems = series.verify_import_commits(repo)
        self.assertEqual(len(problems), 3, problems)
        for problem, expected in zip(problems, [
            "adds it modified, not pristine",
            "also changes ['torch/a.py']",
            "does not say it imports: '[inductor] sneak'",
        ]):
            self.assertIn("torch/sub/c.py", problem)
            self.assertIn(expected, problem)


class TestThisSeries(TestCase):
    """The real series of this checkout, against the stock twin environment."""

    def stock(self) -> series.TorchInstall:
        python = REPO / ".venv-stock" / "bin" / "python"
        self.assertTrue(python.exists(), "run `python3 tools/dev.py setup` first")
        return series.locate_torch(str(python))

    def test_running_torch_has_the_series_overlaid(self):
        site = Path(torch.__file__).resolve().parent.parent
        inst = series.torch_install_at(Path(torch.__path__[0]).parent)
        states = series.overlay_status(inst)
        self.assertEqual({s for s in states.values()} - {"linked"}, set(), (site, states))

    def test_export_applies_to_pristine_tree(self):
        stock = self.stock()
        patch = series.export_patch(stock)
        series.check_roundtrip(patch, stock)
        for rel in series.series_files():
            if rel in series.read_manifest():
                self.assertEqual(series.pristine_bytes(stock, rel) != (REPO / rel).read_bytes(),
                                 f"--- a/{rel}" in patch, rel)
            else:
                self.assertIn(f"+++ b/{rel}", patch)

    def test_import_commits_hold_pristine_files(self):
        self.assertEqual(series.verify_import_commits(), [])


if __name__ == "__main__":
    run_tests()

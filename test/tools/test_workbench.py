# Owner(s): ["module: ci"]
"""The workbench keeps its promises: README commands, CI entry point, status table."""

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from unittest import mock

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import dev, spec_status
from tools.vendor_patches import load_inventory

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()


class TestReadme(TestCase):
    def quick_start_commands(self) -> list[str]:
        section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
        block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
        return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]

    def test_exactly_two_quick_start_commands(self):
        self.assertEqual(
            self.quick_start_commands(),
            ["python3 tools/dev.py demo", "python3 tools/dev.py test"],
        )

    def test_ci_runs_the_readme_test_command(self):
        ci = (REPO / ".ci" / "run").read_text()
        commands = [line.strip() for line in ci.splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
        self.assertIn(self.quick_start_commands()[1], commands)

    def test_status_table_matches_spec_status(self):
        rows = re.findall(r"^\| (§\d+ [^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", README, re.M)
        self.assertEqual([title for title, _, _ in rows],
                         [title for title, _ in spec_status.AREAS])
        for (title, _, status), (_, ids) in zip(rows, spec_status.AREAS):
            self.assertEqual(status, spec_status.area_status(ids), title)


class TestVendorWheels(TestCase):
    """``test`` downloads the inventoried vendor wheels it lacks, through the
    given interpreter's pip; a failed download is reported, not raised."""

    FAKE_PIP = textwrap.dedent("""\
        #!{python}
        import pathlib, sys
        args = sys.argv[1:]
        with open({log!r}, "a") as log:
            log.write(" ".join(args) + "\\n")
        if {fail!r}:
            sys.exit("ERROR: Could not find a version (no network)")
        dest = pathlib.Path(args[args.index("--dest") + 1])
        dest.mkdir(parents=True, exist_ok=True)
        for req in args[args.index("--dest") + 2:]:
            name, version = req.split("==")
            (dest / f"{{name}}-{{version}}-py3-none-any.whl").write_bytes(b"")
    """)

    def fetch(self, tmp: str, *, fail: bool) -> tuple[str, list[str]]:
        python, log = Path(tmp, "python"), Path(tmp, "calls")
        python.write_text(self.FAKE_PIP.format(python=sys.executable, log=str(log), fail=fail))
        python.chmod(0o755)
        err = io.StringIO()
        with mock.patch.dict(os.environ, {"VENDOR_WHEELS": str(Path(tmp, "wheels"))}), \
                contextlib.redirect_stderr(err):
            dev.fetch_vendor_wheels(python)
        return err.getvalue(), log.read_text().splitlines() if log.exists() else []

    def test_missing_wheels_are_downloaded_once(self):
        wanted = [f"{v.package}=={v.version}" for v in load_inventory()]
        with tempfile.TemporaryDirectory() as tmp:
            out, calls = self.fetch(tmp, fail=False)
            self.assertEqual(len(calls), 1)
            self.assertTrue(calls[0].startswith("-m pip download --no-deps"), calls[0])
            self.assertEqual(calls[0].split()[-len(wanted):], wanted)
            self.assertRegex(out, r"downloading .*: done in \d+ s")
            out, calls = self.fetch(tmp, fail=False)  # all there: nothing to do
            self.assertEqual((out, len(calls)), ("", 1))

    def test_failed_download_says_the_test_skips(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, calls = self.fetch(tmp, fail=True)
        self.assertEqual(len(calls), 1)
        self.assertIn("no network", out)
        self.assertIn(f"{dev.VENDOR_WHEELS_TEST} will skip", out)


class TestSetupOnce(TestCase):
    """A set-up step that built its library does not run again: the stamp
    records what the step left, not what it found."""

    # Stands for the project interpreter: logs each call and "builds" a
    # library into $FAKE_BUILD_DIR, as importing the package would.
    FAKE_PYTHON = textwrap.dedent("""\
        #!{python}
        import os, pathlib, sys
        with open({log!r}, "a") as log:
            log.write(sys.argv[-1].splitlines()[-1] + "\\n")
        pathlib.Path(os.environ["FAKE_BUILD_DIR"], "runtime.so").write_bytes(b"")
    """)

    def run_twice(self, step, variable: str) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            python, log, build = Path(tmp, "python"), Path(tmp, "calls"), Path(tmp, "build")
            python.write_text(self.FAKE_PYTHON.format(python=sys.executable, log=str(log)))
            python.chmod(0o755)
            build.mkdir()
            outputs = []
            with mock.patch.dict(os.environ, {variable: str(build), "FAKE_BUILD_DIR": str(build)}):
                for _ in range(2):
                    err = io.StringIO()
                    with contextlib.redirect_stderr(err):
                        step(python)
                    outputs.append(err.getvalue())
                self.assertRegex(outputs[0], r"building .*: done in \d+ s")
                self.assertEqual((outputs[1], len(log.read_text().splitlines())), ("", 1))
                # A library that is gone is built again.
                Path(build, "runtime.so").unlink()
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    step(python)
                self.assertRegex(err.getvalue(), r"building .*: done in \d+ s")
                self.assertEqual(len(log.read_text().splitlines()), 2)

    def test_fake_device_build_runs_once(self):
        self.run_twice(dev.build_device, "EXTENSION_DEVICE_BUILD_DIR")

    def test_example_runtime_build_runs_once(self):
        for name in dev.EXAMPLES:
            with self.subTest(name):
                self.run_twice(lambda python: dev.build_example_runtime(python, name),
                               f"{name.upper()}_BUILD_DIR")


class TestDemo(TestCase):
    def test_demo_reports_and_succeeds(self):
        proc = subprocess.run([sys.executable, "tools/demo.py"], cwd=REPO,
                              capture_output=True, text=True, timeout=900)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        out = proc.stdout
        self.assertIn("Device 'acc' as the compile stack sees it", out)
        self.assertRegex(out, r"GPU-class \(is_gpu\) +yes")
        for program in ("MLP inference", "training step (SGD)",
                        "training step, cpp_wrapper=True", "side stream"):
            self.assertRegex(out, rf"{re.escape(program)} +ok \(matches eager\)")
        self.assertIn("All programs match eager.", out)


if __name__ == "__main__":
    run_tests()

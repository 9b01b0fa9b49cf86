# Owner(s): ["module: ci"]
"""The workbench keeps its promises: README commands, CI entry point, status table."""

import re
import subprocess
import sys
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import spec_status

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

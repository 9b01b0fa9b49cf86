# Owner(s): ["module: inductor"]
"""The guide's protected-memory example, ``docs/examples/protacc``, installed
into the environment (``pip install -e docs/examples/protacc``) and compiled
for in one fresh interpreter, since it renames PrivateUse1 (this process uses
the fake device). Its scenarios check that host code faults on the device's
memory, that both wrappers grant access around each generated kernel, and run
the device report: inference and a training step in both wrappers, against
eager.
"""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "protacc"


class TestExampleProtacc(TestCase):
    def test_distribution_declares_the_inductor_entry_point(self):
        try:
            dist = importlib.metadata.distribution("torch-protacc")
        except importlib.metadata.PackageNotFoundError:
            self.fail(f"the example is not installed: pip install -e {EXAMPLE}")
        (entry_point,) = [
            ep for ep in dist.entry_points if ep.group == "torch_inductor_backends"
        ]
        self.assertEqual(
            (entry_point.name, entry_point.value),
            ("protacc", "torch_protacc.inductor:load_backend"),
        )
        self.assertNotEqual(torch._C._get_privateuse1_backend_name(), "protacc")

    def test_compile_scenarios_match_eager(self):
        proc = subprocess.run(
            [sys.executable, str(EXAMPLE / "scenarios.py")],
            capture_output=True,
            text=True,
            timeout=900,
            env=dict(os.environ, PYTHONSAFEPATH="1"),
        )
        output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        self.assertEqual(proc.returncode, 0, output)
        for line in (
            "ok memory_is_protected",
            "ok python_wrapper_inference",
            "ok cpp_wrapper_inference",
        ):
            self.assertIn(f"{line}\n", proc.stdout, output)

    def test_device_report(self):
        # The project's report on the example: its programs against eager.
        proc = subprocess.run(
            [sys.executable, str(REPO / "tools" / "device_report.py"), "protacc"],
            capture_output=True,
            text=True,
            timeout=900,
            env=dict(os.environ, PYTHONSAFEPATH="1"),
        )
        output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        self.assertEqual(proc.returncode, 0, output)
        for line in (
            "MLP inference                      ok (matches eager)",
            "training step (SGD)                ok (matches eager)",
            "training step, cpp_wrapper=True    ok (matches eager)",
        ):
            self.assertIn(f"{line}\n", proc.stdout, output)


if __name__ == "__main__":
    run_tests()

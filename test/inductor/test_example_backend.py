# Owner(s): ["module: inductor"]
"""The guide's example backend, ``docs/examples/toyacc``, as its author would
use it: installed into the environment (``tools/dev.py setup`` runs
``pip install -e docs/examples/toyacc``) and compiled for in a fresh
interpreter, since it renames PrivateUse1, which a process can do once (this
process uses the fake device).  Its scenarios compare Python- and C++-wrapper
compiles, inference and training, with eager mode.
"""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "toyacc"
SETUP_HINT = "install it with `python3 tools/dev.py setup` (pip install -e docs/examples/toyacc)"


class TestExampleBackend(TestCase):
    def test_distribution_declares_the_inductor_entry_point(self):
        try:
            dist = importlib.metadata.distribution("torch-toyacc")
        except importlib.metadata.PackageNotFoundError:
            self.fail(f"the example backend is not installed: {SETUP_HINT}")
        (entry_point,) = [
            ep for ep in dist.entry_points if ep.group == "torch_inductor_backends"
        ]
        self.assertEqual(entry_point.name, "toyacc")
        self.assertEqual(entry_point.value, "torch_toyacc.inductor:load_backend")
        # Importing the distribution's metadata must not have renamed
        # PrivateUse1 in this process.
        self.assertNotEqual(torch._C._get_privateuse1_backend_name(), "toyacc")

    def test_compile_scenarios_match_eager(self):
        env = dict(os.environ, PYTHONSAFEPATH="1")
        proc = subprocess.run(
            [sys.executable, str(EXAMPLE / "scenarios.py")],
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
        )
        output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        self.assertEqual(proc.returncode, 0, output)
        for scenario in (
            "python_wrapper_inference",
            "python_wrapper_training",
            "cpp_wrapper_inference",
            "cpp_wrapper_training",
            "compile_option",
            "streams_in_compiled_code",
        ):
            self.assertIn(f"ok {scenario}\n", proc.stdout, output)


if __name__ == "__main__":
    run_tests()

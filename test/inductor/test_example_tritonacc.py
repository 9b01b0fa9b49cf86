# Owner(s): ["module: inductor"]
"""The guide's Triton example, ``docs/examples/tritonacc``, installed into the
environment (``pip install -e docs/examples/tritonacc``): its Triton backend
as Triton finds it in this process, and its compile scenarios in one fresh
interpreter under Triton's interpreter (the example renames PrivateUse1; this
process uses the fake device): the generated wrapper and kernels, the device
report (inference, an SGD training step, a side-stream program, against
eager), and the backend's hash and driver.
"""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import triton.backends
from triton.backends.compiler import GPUTarget

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "tritonacc"


class TestExampleTritonacc(TestCase):
    def test_distribution_declares_both_entry_points(self):
        try:
            dist = importlib.metadata.distribution("torch-tritonacc")
        except importlib.metadata.PackageNotFoundError:
            self.fail(f"the example is not installed: pip install -e {EXAMPLE}")
        self.assertEqual(
            sorted((ep.group, ep.name, ep.value) for ep in dist.entry_points),
            [
                ("torch_inductor_backends", "tritonacc", "torch_tritonacc.inductor:load_backend"),
                ("triton.backends", "tritonacc", "tritonacc_triton"),
            ],
        )

    def test_triton_finds_the_backend(self):
        backend = triton.backends.backends["tritonacc"]
        self.assertEqual(backend.compiler.__module__, "tritonacc_triton.compiler")
        self.assertTrue(backend.compiler.supports_target(GPUTarget("tritonacc", 0, 32)))
        self.assertFalse(backend.compiler.supports_target(GPUTarget("cuda", 90, 32)))
        # Inactive where the device's package is not imported, so that it
        # changes nothing for other processes that import triton.
        self.assertFalse(backend.driver.is_active())
        self.assertNotIn("torch_tritonacc", sys.modules)
        self.assertNotEqual(torch._C._get_privateuse1_backend_name(), "tritonacc")

    def test_compile_scenarios_match_eager(self):
        proc = subprocess.run(
            [sys.executable, str(EXAMPLE / "scenarios.py")],
            capture_output=True,
            text=True,
            timeout=900,
            env=dict(os.environ, PYTHONSAFEPATH="1", TRITON_INTERPRET="1"),
        )
        output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        self.assertEqual(proc.returncode, 0, output)
        for line in (
            "ok inference_code",
            "ok triton_backend",
        ):
            self.assertIn(f"{line}\n", proc.stdout, output)

    def test_device_report(self):
        # The project's report on the example: its programs against eager.
        proc = subprocess.run(
            [sys.executable, str(REPO / "tools" / "device_report.py"), "tritonacc"],
            capture_output=True,
            text=True,
            timeout=900,
            env=dict(os.environ, PYTHONSAFEPATH="1", TRITON_INTERPRET="1"),
        )
        output = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        for line in (
            "MLP inference                      ok (matches eager)",
            "training step (SGD)                ok (matches eager)",
            "side stream                        ok (matches eager)",
        ):
            self.assertIn(f"{line}\n", proc.stdout, output)


if __name__ == "__main__":
    run_tests()

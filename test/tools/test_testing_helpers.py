# Owner(s): ["module: ci"]
"""The test helpers of test/inductor/extension_backends/testing.py do what they claim."""

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.testing import RegistrySnapshot, subprocess_env

MARKED = """
from extension_backends.testing import xfail_until
from torch.testing._internal.common_utils import TestCase

class T(TestCase):
    @xfail_until("IND-9", r"device \\w+ nyi")
    def test_right_reason(self):
        raise RuntimeError("device acc nyi")

    @xfail_until("IND-9", r"device \\w+ nyi")
    def test_wrong_reason(self):
        raise KeyError("acc")

    @xfail_until("IND-9", r"device \\w+ nyi")
    def test_passes(self):
        pass
"""


class TestXfailUntil(TestCase):
    def test_outcomes(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "test_marked.py"
            path.write_text(MARKED)
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-rfxX", "-p", "no:cacheprovider", str(path)],
                capture_output=True, text=True, env=subprocess_env(), cwd=tmp,
            )
        out = proc.stdout
        self.assertRegex(out, r"XFAIL .*test_right_reason - waits for SPEC IND-9")
        self.assertRegex(out, r"FAILED .*test_wrong_reason - KeyError: 'acc")
        self.assertRegex(out, r"FAILED .*test_passes")
        self.assertIn("2 failed, 1 xfailed", out)


class TestRegistrySnapshot(TestCase):
    def test_restores_registries_in_place(self):
        import torch._inductor.utils as inductor_utils
        from torch._dynamo import device_interface
        from torch._inductor.codegen import common

        snapshot = RegistrySnapshot()  # also initialises the built-ins
        gpu_types = inductor_utils.GPU_TYPES
        before = (dict(device_interface.device_interfaces), list(gpu_types),
                  dict(common.device_codegens))
        self.assertIn("cpu", before[2])
        device_interface.register_interface_for_device("snapshot_probe", device_interface.CpuInterface)
        gpu_types.append("snapshot_probe")
        common.register_backend_for_device("snapshot_probe", object, object)
        snapshot.restore()
        self.assertIs(inductor_utils.GPU_TYPES, gpu_types)
        self.assertEqual((dict(device_interface.device_interfaces), list(gpu_types),
                          dict(common.device_codegens)), before)


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""The ATen device type of generated C++ comes from DeviceOpOverrides (SPEC IND-4).

Built-in answers are pinned to stock 2.13.0's DEVICE_TO_ATEN by the
differential harness (tools/differential); these tests cover the out-of-tree
paths and every error.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch._inductor.codegen import cpp_utils
from torch._inductor.codegen.common import DeviceOpOverrides, register_device_op_overrides
from torch._inductor.codegen.cpu_device_op_overrides import (
    CpuDeviceOpOverrides,
    NoOpDeviceOpOverrides,
)
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceOpOverrides
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


class AtenDeviceTypeTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_builtins(self):
        self.assertFalse(hasattr(cpp_utils, "DEVICE_TO_ATEN"))
        for device, aten in [("cpu", "at::kCPU"), ("meta", "at::kMeta")]:
            self.assertEqual(cpp_utils.device_to_aten(device), aten)

    def test_tpu_and_mtia_have_none(self):
        # TPU's no-op overrides no longer inherit CPU's identity.
        for device, overrides in [("tpu", "NoOpDeviceOpOverrides"), ("mtia", "MTIADeviceOpOverrides")]:
            with self.assertRaisesRegex(
                RuntimeError,
                rf"No ATen device type mapping for {device}: {overrides} does not "
                r"implement aten_device_type\(\); implement it in the DeviceOpOverrides "
                rf"given to register_device_op_overrides\('{device}', ...\)",
            ):
                cpp_utils.device_to_aten(device)

    def test_privateuse1_declared(self):
        register_device_op_overrides(DEVICE, ExtensionDeviceOpOverrides(DEVICE))
        self.assertEqual(cpp_utils.device_to_aten(DEVICE), "at::kPrivateUse1")

    def test_privateuse1_default_and_cpu_like(self):
        class Plain(DeviceOpOverrides):
            pass

        class CpuLike(CpuDeviceOpOverrides):
            pass

        for overrides in (Plain(), CpuLike(), NoOpDeviceOpOverrides()):
            register_device_op_overrides(DEVICE, overrides)
            self.assertEqual(cpp_utils.device_to_aten(DEVICE), "at::kPrivateUse1")

    def test_default_is_what_the_docstring_says(self):
        # The base method raises; device_to_aten answers kPrivateUse1 for it.
        doc = " ".join(DeviceOpOverrides.aten_device_type.__doc__.split())
        self.assertIn("Default: raises NotImplementedError", doc)
        self.assertIn("at::kPrivateUse1", doc)
        with self.assertRaises(NotImplementedError):
            DeviceOpOverrides().aten_device_type()

    def test_unregistered_device(self):
        with self.assertRaisesRegex(
            RuntimeError,
            r"No ATen device type mapping for acc_unregistered: no DeviceOpOverrides "
            r"is registered; call register_device_op_overrides\('acc_unregistered', "
            r"...\) of torch._inductor.codegen.common with overrides that implement "
            r"aten_device_type\(\)",
        ):
            cpp_utils.device_to_aten("acc_unregistered")

    def test_invalid_values(self):
        for value in ("kPrivateUse1", "at::kAcc", "at::kprivateuse1", None, 1):

            class Bad(DeviceOpOverrides):
                def aten_device_type(self):
                    return value

            register_device_op_overrides(DEVICE, Bad())
            with self.assertRaisesRegex(
                RuntimeError,
                r"Bad.aten_device_type\(\) must return an ATen device type expression "
                r"'at::k<DeviceType>' naming a c10 DeviceType, e.g. 'at::kPrivateUse1'; "
                rf"got {value!r} for device '{DEVICE}'",
            ):
                cpp_utils.device_to_aten(DEVICE)

    def test_other_valid_type(self):
        class Hpu(DeviceOpOverrides):
            def aten_device_type(self):
                return "at::kHPU"

        register_device_op_overrides(DEVICE, Hpu())
        self.assertEqual(cpp_utils.device_to_aten(DEVICE), "at::kHPU")


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""DeviceOpOverrides.kernel_call_guard() of an out-of-tree device: the code the
Python wrapper generates around each kernel call of the device, and what the
C++ wrapper does instead."""

import re
import sys
from pathlib import Path

# Make `extension_backends` importable however this file is run.
TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot
from torch.testing._internal.common_utils import run_tests, TestCase


device_module = register(DEVICE)


class KernelCallGuardTests(TestCase):
    """DeviceOpOverrides.kernel_call_guard(): a context manager the Python
    wrapper enters around each generated kernel call of the device."""

    def setUp(self):
        super().setUp()
        from extension_backends.cpp.extension_codegen_backend import (
            register_compile_backend,
        )

        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)
        self.assertEqual(device_module.kernel_guard.depth, 0)
        device_module.kernel_guard.entered.clear()
        self.addCleanup(device_module.kernel_guard.entered.clear)

    def _compile(self, fn, *args, cpp_wrapper=False):
        import torch._inductor.config as inductor_config
        from torch._inductor.utils import run_and_get_code

        with inductor_config.patch(cpp_wrapper=cpp_wrapper, fx_graph_cache=False):
            actual, code = run_and_get_code(torch.compile(fn), *args)
        return actual, "\n".join(code)

    @staticmethod
    def fn(a, b, t):
        # Two kernels of the device around an extern mm, and one cpu kernel.
        x = (a * 2).relu()
        y = (x @ b.t()).sin().sum(0)
        return x, y, t.cos()

    def _inputs(self):
        return (
            torch.randn(4, 8, device=DEVICE),
            torch.randn(4, 8, device=DEVICE),
            torch.randn(3),
        )

    def test_every_kernel_call_runs_inside_the_guard(self):
        from extension_backends.cpp.extension_codegen_backend import (
            ExtensionDeviceOpOverrides,
        )
        from torch._inductor.codegen.common import register_device_op_overrides

        class Guarded(ExtensionDeviceOpOverrides):
            def kernel_call_guard(self, kernel_name):
                return f"torch.{self.name}.kernel_guard({kernel_name!r})"

        register_device_op_overrides(DEVICE, Guarded(DEVICE))
        args = self._inputs()
        expected = self.fn(*args)
        actual, code = self._compile(self.fn, *args)
        for a, e in zip(actual, expected):
            self.assertEqual(a.device, e.device)
            self.assertEqual(a.cpu(), e.cpu())

        # Each device kernel call sits under its guard; the cpu kernel has none.
        kernels = re.findall(r"^(cpp_fused_\w+) = async_compile", code, re.M)
        calls = [
            (m.group(1), m.group(2))
            for m in re.finditer(r"^( *)(cpp_fused_\w+)\(", code, re.M)
        ]
        device_calls = [name for _, name in calls if "cos" not in name]
        self.assertEqual(len(kernels), 3)
        self.assertEqual(len(device_calls), 2)
        for indent, name in calls:
            guard = f"{indent[:-4]}with torch.{DEVICE}.kernel_guard('{name}'):\n"
            self.assertEqual(guard + f"{indent}{name}(" in code, name in device_calls)
        # ... and ran inside it.
        self.assertEqual(device_module.kernel_guard.entered, device_calls)
        self.assertEqual(device_module.kernel_guard.depth, 0)

        # The C++ wrapper does not ask.
        torch._dynamo.reset()
        device_module.kernel_guard.entered.clear()
        actual, code = self._compile(self.fn, *args, cpp_wrapper=True)
        self.assertEqual(actual[1].cpu(), expected[1].cpu())
        self.assertNotIn("kernel_guard", code)
        self.assertEqual(device_module.kernel_guard.entered, [])

    def test_default_and_wrong_type(self):
        from extension_backends.cpp.extension_codegen_backend import (
            ExtensionDeviceOpOverrides,
        )
        from torch._inductor.codegen.common import (
            DeviceOpOverrides,
            register_device_op_overrides,
        )

        self.assertEqual(DeviceOpOverrides().kernel_call_guard("k"), "")
        _, code = self._compile(self.fn, *self._inputs())
        self.assertNotIn("with ", code.split("def call(")[1].split("return")[0])

        class WrongType(ExtensionDeviceOpOverrides):
            def kernel_call_guard(self, kernel_name):
                return None

        register_device_op_overrides(DEVICE, WrongType(DEVICE))
        torch._dynamo.reset()
        with self.assertRaisesRegex(
            Exception,
            r"WrongType.kernel_call_guard\('cpp_fused_\w+'\) of the device "
            r"'extension_device' must return a str",
        ):
            self._compile(self.fn, *self._inputs())


if __name__ == "__main__":
    run_tests()

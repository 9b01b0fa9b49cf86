# Owner(s): ["module: inductor"]
"""``tools/device_report.py`` on the fake device, complete and incomplete."""

import contextlib
import io
import logging
import sys
import warnings
from pathlib import Path

import torch

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._inductor.codegen.common import (
    DeviceOpOverrides,
    register_backend_for_device,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from tools.device_report import (
    _describe,
    _misspelt_hooks,
    _outcome,
    main,
    missing_hook,
    report,
)
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


class DeviceReportTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def run_report(self):
        out = io.StringIO()
        ok = report(DEVICE, file=out)
        return ok, out.getvalue()

    def test_complete_backend_passes(self):
        register_compile_backend(DEVICE)
        ok, text = self.run_report()
        self.assertTrue(ok, text)
        self.assertIn("DeviceOpOverrides        extension_backends.cpp.", text)
        self.assertIn("ATen device type         at::kPrivateUse1", text)
        self.assertIn("side stream                        ok (matches eager)", text)
        self.assertIn("All programs match eager.", text)
        self.assertRegex(text, r"misspelt hooks +none\n")

    def test_missing_device_op_overrides_are_named(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen)
        ok, text = self.run_report()
        self.assertFalse(ok)
        self.assertRegex(
            text, r"DeviceOpOverrides +error: KeyError: .*-> implement "
            r"register_device_op_overrides"
        )
        self.assertRegex(text, r"MLP inference +FAIL .*register_device_op_overrides")

    def test_cpp_wrapper_program_needs_a_registered_cpp_wrapper(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen)
        _, text = self.run_report()
        self.assertRegex(text, r"training step \(SGD\) +FAIL")
        self.assertRegex(
            text, r"training step, cpp_wrapper=True +not applicable "
            r"\(no C\+\+ wrapper registered for the device\)\n"
        )

    def test_missing_codegen_backend_is_named(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        ok, text = self.run_report()
        self.assertFalse(ok)
        self.assertRegex(text, r"codegen backend +none -> implement register_backend_for_device")
        self.assertRegex(text, r"MLP inference +FAIL .*register_backend_for_device")

    def test_misspelt_hook_is_named(self):
        # The report checks hook names; registering a backend does not.
        class Misspelt(ExtensionDeviceInterface):
            @staticmethod
            def is_gpus():
                return True

            compiler_flags_for_vendor = ()

        found = _misspelt_hooks(type("Typo", (Misspelt,), {"exposes_stream": None}))
        self.assertEqual(
            found,
            "Typo.exposes_stream (did you mean exposes_streams?), "
            "Misspelt.is_gpus (did you mean is_gpu?)",
        )
        self.assertEqual(_misspelt_hooks(ExtensionDeviceInterface), "none")

    def test_device_without_cpp_wrapper_has_no_header(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen)
        _, text = self.run_report()
        self.assertIn("  C++ wrapper header       none\n", text)

    def test_unknown_device_name_is_said_in_a_few_lines(self):
        out = io.StringIO()
        self.assertFalse(report(DEVICE[:-1], file=out))
        lines = out.getvalue().splitlines()
        self.assertLessEqual(len(lines), 6, lines)
        self.assertEqual(
            lines[0],
            f"'{DEVICE[:-1]}' is not a device type in this process; did you mean '{DEVICE}'?",
        )
        self.assertEqual(lines[1], f"PrivateUse1 is called '{DEVICE}' here.")
        self.assertRegex(lines[2], r"^Installed backends \('torch_inductor_backends' entry points\)")
        self.assertIn("python3 tools/dev.py report", lines[3])
        self.assertIn("--import <package>", lines[3])
        with contextlib.redirect_stdout(io.StringIO()) as stdout:
            self.assertEqual(main(["nosuchdev"]), 2)
        self.assertTrue(stdout.getvalue().startswith(
            "'nosuchdev' is not a device type in this process."), stdout.getvalue())

    def test_import_of_a_missing_module_is_one_line(self):
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            self.assertEqual(main([DEVICE, "--import", "no_such_backend_package"]), 2)
        self.assertRegex(
            stderr.getvalue(),
            r"^Cannot import 'no_such_backend_package': there is no module "
            r"'no_such_backend_package' in this environment \(.*\); install the backend's "
            r"package here\.\n$",
        )

    def test_wrapped_error_is_described_by_its_root(self):
        # Dynamo reports the missing attribute as an ObservedAttributeError
        # without a message, raised while handling the AttributeError.
        register_compile_backend(DEVICE)
        module = torch.get_device_module(DEVICE)

        def fn(x):
            module.NoSuchStream()
            return x + 1

        with self.assertRaises(Exception) as caught:
            torch.compile(fn, fullgraph=True)(torch.ones(2, device=DEVICE))
        self.assertEqual(
            missing_hook(caught.exception),
            f"torch.{DEVICE}.NoSuchStream (the device module {module.__name__})",
        )
        self.assertRegex(
            _describe(caught.exception),
            rf"^AttributeError: module '{module.__name__}' has no attribute 'NoSuchStream' "
            rf"-> implement torch\.{DEVICE}\.NoSuchStream ",
        )

    def test_programs_run_without_warnings_or_log_records(self):
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        logger = logging.getLogger("test_device_report.program")
        logger.addHandler(handler)
        self.addCleanup(logger.removeHandler, handler)

        def program(device, options):
            logger.error("compiler noise")
            warnings.warn("compiler warning")

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.assertEqual(_outcome(DEVICE, None, program, {}), "ok (matches eager)")
        self.assertEqual((records, caught), ([], []))
        logger.error("after the program")
        self.assertEqual(len(records), 1)

    def test_default_member_that_raised_is_named(self):
        try:
            DeviceOpOverrides().device_guard(0)
        except NotImplementedError as err:
            self.assertEqual(missing_hook(err), "DeviceOpOverrides.device_guard")


if __name__ == "__main__":
    run_tests()

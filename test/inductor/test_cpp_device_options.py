# Owner(s): ["module: inductor"]
"""C++ build options of an out-of-tree device (SPEC IND-3).

``get_cpp_torch_device_options`` takes a non-built-in device's options from
its ``register_cpp_device_options`` callback (one table,
``_cpp_device_options_registry``), else its interface's
``DeviceInterface.get_cpp_device_options``.  Either tuple is the device's
options, returned as it is (as upstream's ``get_cpp_device_options``).
Built-in devices are pinned to stock 2.13.0 by the differential harness.
"""

import sys
import warnings
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._inductor import cpp_builder
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils import backend_registration

from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceInterface
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


def options(definitions, libraries=()):
    return ([*definitions], ["/opt/acc/include"], [], [], ["/opt/acc/lib"], [*libraries], [])


class FromInterface(ExtensionDeviceInterface):
    @staticmethod
    def get_cpp_device_options(aot_mode, compile_only):
        return options(["FROM_INTERFACE"])


class CppDeviceOptionsTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        self.generic = cpp_builder.get_cpp_torch_device_options(DEVICE)

    def get(self, **kwargs):
        return cpp_builder.get_cpp_torch_device_options(DEVICE, **kwargs)

    def test_no_declaration_keeps_the_generic_options(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        self.assertEqual(self.get(), self.generic)
        self.assertEqual(self.generic[0], [])  # no device macros, as in 2.13

    def test_precedence(self):
        register_interface_for_device_PrivateUse1(FromInterface)
        self.assertEqual(self.get()[0], ["FROM_INTERFACE"])
        cpp_builder.register_cpp_device_options(
            DEVICE, lambda device, aot, only: options([f"FROM_CALLBACK_{device}_{int(only)}"])
        )
        self.assertEqual(self.get(compile_only=True)[0], [f"FROM_CALLBACK_{DEVICE}_1"])
        # A callback that answers None leaves the interface's options.
        cpp_builder.register_cpp_device_options(DEVICE, lambda *args: None)
        self.assertEqual(self.get(), options(["FROM_INTERFACE"]))

    def test_callback_and_interface_options_are_the_devices_options(self):
        self.assertNotEqual(self.generic[4], [])  # torch's library paths
        register_interface_for_device_PrivateUse1(FromInterface)
        self.assertEqual(self.get(), options(["FROM_INTERFACE"]))
        cpp_builder.register_cpp_device_options(
            DEVICE, lambda *args: options(["USE_ACC"], ["acc_runtime"])
        )
        self.assertEqual(self.get(), options(["USE_ACC"], ["acc_runtime"]))

    def test_one_table_as_seed_003_describes_it(self):
        # A plain dict, written only by its door; the callback's tuple is the
        # device's options, as PR #190614's tests expect.
        self.assertIs(type(cpp_builder._cpp_device_options_registry), dict)
        self.assertNotIn(DEVICE, cpp_builder._cpp_device_options_registry)

        def mock_options(device_type, aot_mode, compile_only):
            return options([f"USE_{device_type.upper()}"])

        cpp_builder.register_cpp_device_options(DEVICE, mock_options)
        self.assertIs(cpp_builder._cpp_device_options_registry[DEVICE], mock_options)
        self.assertEqual(self.get(), options([f"USE_{DEVICE.upper()}"]))
        # An unregistered device type keeps the generic (empty) options.
        unregistered = cpp_builder.get_cpp_torch_device_options("unregistered_xyz")
        self.assertEqual(unregistered[0], [])
        self.assertEqual(unregistered[5], [])

    def test_cpp_stdlib_and_device_type_normalization(self):
        cpp_builder.register_cpp_device_options(DEVICE, lambda *args: options(["USE_ACC"]))
        self.assertEqual(self.get(cpp_stdlib="libstdc++"), options(["USE_ACC"]))
        self.assertEqual(
            cpp_builder.get_cpp_torch_device_options(f"{DEVICE}:1"), options(["USE_ACC"])
        )
        self.assertEqual(cpp_builder._normalize_device_type(f"{DEVICE}:1"), DEVICE)
        self.assertEqual(cpp_builder._normalize_device_type("cuda:0"), "cuda")
        self.assertEqual(cpp_builder._normalize_device_type("acc_unknown"), "acc_unknown")
        with self.assertRaisesRegex(RuntimeError, "cpp_stdlib='libc\\+\\+' is only supported in fbcode"):
            self.get(cpp_stdlib="libc++")
        with self.assertRaisesRegex(ValueError, "cpp_stdlib must be 'libstdc\\+\\+' or 'libc\\+\\+'"):
            self.get(cpp_stdlib="msvc")

    def test_registered_under_the_device_type(self):
        cpp_builder.register_cpp_device_options(f"{DEVICE}:0", lambda *args: options(["USE_ACC"]))
        self.assertEqual(self.get(), options(["USE_ACC"]))

    def test_reaches_the_compiler_command_line(self):
        cpp_builder.register_cpp_device_options(
            DEVICE, lambda *args: options(["ACC_KERNEL_FLAVOUR=2"], ["acc_runtime"])
        )
        cmd = cpp_builder.CppBuilder(
            name="k", sources="k.cpp",
            BuildOption=cpp_builder.CppTorchDeviceOptions(device_type=DEVICE),
        ).get_command_line()
        for flag in ("-D ACC_KERNEL_FLAVOUR=2", "-I/opt/acc/include", "-L/opt/acc/lib", "-lacc_runtime"):
            self.assertIn(flag, cmd)

    def test_reregistration_warns_and_replaces(self):
        # The rule of every door: a later registration replaces the earlier one,
        # with the warning seed 003 specifies.
        first = lambda *args: options(["FIRST"])  # noqa: E731
        cpp_builder.register_cpp_device_options(DEVICE, first)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cpp_builder.register_cpp_device_options(DEVICE, first)
            cpp_builder.register_cpp_device_options(DEVICE, lambda *args: options(["SECOND"]))
        self.assertEqual(len(caught), 2)
        self.assertIn(f"Device options for '{DEVICE}' is already registered", str(caught[0].message))
        self.assertEqual(self.get()[0], ["SECOND"])

    def test_registration_moves_the_registry_generation(self):
        before = backend_registration._registry_generation
        cpp_builder.register_cpp_device_options(DEVICE, lambda *args: None)
        self.assertGreater(backend_registration._registry_generation, before)

    def test_bad_registrations(self):
        with self.assertRaisesRegex(ValueError, "Cannot register C\\+\\+ device options for 'cuda'"):
            cpp_builder.register_cpp_device_options("cuda", lambda *args: None)
        with self.assertRaisesRegex(ValueError, "Cannot register C\\+\\+ device options for 'cpu:0'"):
            cpp_builder.register_cpp_device_options("cpu:0", lambda *args: None)
        with self.assertRaisesRegex(TypeError, f"for '{DEVICE}': 3 is not callable"):
            cpp_builder.register_cpp_device_options(DEVICE, 3)

    def test_wrong_shape_names_the_device(self):
        for bad in ("USE_ACC", (["A"],) * 6, (["A"],) * 8, (["A"], "inc", [], [], [], [], []), ([1],) * 7):
            cpp_builder.register_cpp_device_options(DEVICE, lambda *args, bad=bad: bad)
            with self.assertRaisesRegex(
                TypeError,
                f"C\\+\\+ device options for '{DEVICE}' from .* must be a 7-tuple of lists of str",
            ):
                self.get()

    def test_callback_errors_propagate(self):
        def broken(*args):
            raise OSError("ACC_HOME is not set")

        cpp_builder.register_cpp_device_options(DEVICE, broken)
        with self.assertRaisesRegex(OSError, "ACC_HOME is not set"):
            self.get()


if __name__ == "__main__":
    run_tests()

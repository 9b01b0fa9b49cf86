# Owner(s): ["module: inductor"]
"""What Inductor and Dynamo ask per node, per frame or per call is answered from
tables derived from the device registry, derived again only when the registry
changes (its change notification is the only invalidation).

Timings are not asserted here; ``benchmarks/compile_bench.py --only micro``
measures them.  These tests check the contract: answers are right for in-tree
and out-of-tree devices, stay put while nothing is registered, and follow every
registration (an interface, a backend) without any cache being cleared by hand.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo import trace_rules
from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._dynamo.utils import common_constant_types
from torch._dynamo.variables import ConstantVariable, torch as torch_variables
from torch._dynamo.variables.builder import VariableBuilder
from torch._inductor import utils as inductor_utils
from torch._inductor.codegen.common import get_compile_option_owner, register_backend_for_device
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
from torch._inductor.codegen.halide import HalideScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils import backend_registration

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    ExtensionGpuDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

device_module = register(DEVICE)

IN_TREE = ("cuda", "xpu", "mps", "mtia", "cpu", "meta", "tpu")


class NoStreams(ExtensionGpuDeviceInterface):
    @classmethod
    def exposes_streams(cls) -> bool:
        return False


class DerivedAnswersTest(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_in_tree_answers_match_2_13(self):
        # torch 2.13: is_gpu(d) = d in ["cuda", "mps", "xpu", "mtia"];
        # device_need_guard(d) = d != "mps" and is_gpu(d).
        for _ in range(2):  # the second round is answered from the tables
            for device in IN_TREE + (None,):
                gpu = device in ("cuda", "mps", "xpu", "mtia")
                self.assertEqual(inductor_utils.is_gpu(device), gpu, device)
                if device is not None:
                    self.assertEqual(
                        inductor_utils.device_need_guard(device),
                        gpu and device != "mps",
                        device,
                    )
            self.assertTrue(inductor_utils.is_cpp_scheduled("cpu"))
            self.assertFalse(inductor_utils.is_cpp_scheduled("cuda"))

    def test_in_tree_compile_fx_gates_match_2_13(self):
        # torch 2.13: the pool wakes for cuda and xpu inputs; post-grad passes run
        # under torch.cuda.device(d) for a graph with one cuda device d.
        from torch._inductor import compile_fx
        from torch._subclasses.fake_tensor import FakeTensorMode

        null = type(compile_fx.contextlib.nullcontext())
        for device in set(IN_TREE) - {"tpu"}:  # no torch.device type
            with FakeTensorMode():
                fake = torch.empty(2, device=device)
            self.assertIs(
                compile_fx._should_wakeup_async_compile([3, fake]),
                device in ("cuda", "xpu"),
                device,
            )
            gm = torch.fx.symbolic_trace(lambda x: x + 1)
            for node in gm.graph.nodes:
                node.meta["val"] = fake
            context = compile_fx.get_device_context(gm)
            if device == "cuda" and torch.cuda.is_available():
                self.assertIsInstance(context, torch.cuda.device)
                self.assertEqual(context.idx, 0)
            else:
                self.assertIsInstance(context, null, device)

    def test_answers_follow_interface_registrations(self):
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        for _ in range(2):
            self.assertFalse(inductor_utils.is_gpu(DEVICE))
            self.assertFalse(inductor_utils.device_need_guard(DEVICE))
            self.assertTrue(inductor_utils.is_cpp_scheduled(DEVICE))
        register_interface_for_device_PrivateUse1(ExtensionGpuDeviceInterface)
        for _ in range(2):
            self.assertTrue(inductor_utils.is_gpu(DEVICE))
            self.assertTrue(inductor_utils.device_need_guard(DEVICE))
        register_interface_for_device_PrivateUse1(NoStreams)
        self.assertTrue(inductor_utils.is_gpu(DEVICE))
        self.assertFalse(inductor_utils.device_need_guard(DEVICE))
        self.assertIn(DEVICE, inductor_utils.GPU_TYPES)

    def test_answers_follow_backend_registrations(self):
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        self.assertTrue(inductor_utils.is_cpp_scheduled(DEVICE))
        self.assertEqual(inductor_utils.get_current_backend(DEVICE), "cpp")
        # Registering another Scheduling is a registry change: no cache is
        # cleared by hand, the next question gets the new answer.
        register_backend_for_device(
            DEVICE, HalideScheduling, PythonWrapperCodegen, CppWrapperCpu
        )
        self.assertFalse(inductor_utils.is_cpp_scheduled(DEVICE))
        self.assertEqual(inductor_utils.get_current_backend(DEVICE), "halide")

    def test_inductor_tables_are_plain_and_written_by_their_doors(self):
        from torch._inductor.codegen import common

        for table in (
            common.device_codegens,
            common.device_op_overrides_dict,
            common.custom_backend_passes,
            common.custom_backend_codegen_configs,
            common.device_backend_loaders,
        ):
            self.assertIs(type(table), dict)
        before = backend_registration._registry_generation
        register_backend_for_device(DEVICE, HalideScheduling, PythonWrapperCodegen)
        overrides = common.NoOpDeviceOpOverrides()
        common.register_device_op_overrides(DEVICE, overrides)
        self.assertEqual(backend_registration._registry_generation, before + 2)
        self.assertIs(common.device_codegens[DEVICE].scheduling, HalideScheduling)
        self.assertIs(common.get_scheduling_for_device(DEVICE), HalideScheduling)
        self.assertIs(common.get_device_op_overrides(DEVICE), overrides)
        # As in 2.13, a backend without a pass or config has None entries.
        self.assertIn(DEVICE, common.custom_backend_passes)
        self.assertIsNone(common.custom_backend_passes[DEVICE])
        self.assertIsNone(common.custom_backend_codegen_configs.get(DEVICE))
        self.assertEqual(set(common.custom_backend_passes), set(common.device_codegens))
        # Registering again replaces, with a warning, and is one more change.
        with self.assertWarnsRegex(UserWarning, f"Inductor backend for '{DEVICE}' is already registered"):
            register_backend_for_device(DEVICE, HalideScheduling, PythonWrapperCodegen)
        with self.assertWarnsRegex(UserWarning, f"DeviceOpOverrides for '{DEVICE}' is already registered"):
            common.register_device_op_overrides(DEVICE, common.NoOpDeviceOpOverrides())
        self.assertIsNot(common.get_device_op_overrides(DEVICE), overrides)
        self.assertEqual(backend_registration._registry_generation, before + 4)

    def test_backend_registration_refuses_what_is_not_a_class(self):
        from torch._inductor.codegen import common

        for bad in ("CppScheduling", object(), None):
            with self.subTest(bad=bad), self.assertRaisesRegex(
                TypeError,
                rf"register_backend_for_device\('{DEVICE}', \.\.\.\): device_scheduling "
                r"must be a class such as CppScheduling or PythonWrapperCodegen, got "
                r".*; pass the class itself",
            ):
                register_backend_for_device(DEVICE, bad, PythonWrapperCodegen)
        with self.assertRaisesRegex(TypeError, r"device_cpp_wrapper_codegen must be a class"):
            register_backend_for_device(DEVICE, HalideScheduling, PythonWrapperCodegen, "x")
        # Nothing was registered.
        self.assertNotIn(DEVICE, common.device_codegens)

    def test_unregistered_name_is_answered_once_registered(self):
        # A name without an interface may be registered (or discovered) later:
        # its answer follows the registration.
        self.assertFalse(inductor_utils.is_gpu("cpu"))
        self.assertFalse(inductor_utils.is_gpu(DEVICE))
        self.assertFalse(inductor_utils.device_need_guard(DEVICE))
        register_compile_backend(DEVICE, ExtensionGpuDeviceInterface)
        self.assertTrue(inductor_utils.is_gpu(DEVICE))
        self.assertTrue(inductor_utils.device_need_guard(DEVICE))
        self.assertFalse(inductor_utils.is_gpu("cpu"))

    def test_dynamo_tables_derived_once_per_registry_change(self):
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        tables = trace_rules._device_tables()
        self.assertIs(trace_rules._device_tables(), tables)
        self.assertIn(device_module.device_count, tables.constant_fold)
        register_interface_for_device_PrivateUse1(ExtensionGpuDeviceInterface)
        derived_again = trace_rules._device_tables()
        self.assertIsNot(derived_again, tables)
        self.assertIs(trace_rules._device_tables(), derived_again)
        trace_rules.register_device_trace_rules(
            DEVICE, skip=[device_module.get_device_capability]
        )
        self.assertIs(
            trace_rules._device_tables().rule_map[device_module.get_device_capability],
            trace_rules.SkipFunctionVariable,
        )

    def test_constant_types_are_not_edited_per_frame(self):
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        props = device_module.get_device_properties()
        x = torch.ones(3, device=DEVICE)
        torch.compile(lambda x: x + 1, backend="eager")(x)
        # The properties are a constant; Dynamo's table of types is not edited.
        self.assertTrue(ConstantVariable.is_literal(props))
        self.assertNotIn(type(props), common_constant_types)
        dispatch = VariableBuilder._type_dispatch_impl
        filled = dispatch.cache_info().currsize
        self.assertGreater(filled, 0)
        torch._dynamo.reset()
        # New frames, no registry change: the shared tables stay as they are
        # (the type dispatch cache is not cleared).
        torch.compile(lambda x: (x + 2, [x]), backend="eager")(x)
        self.assertGreaterEqual(dispatch.cache_info().currsize, filled)
        self.assertTrue(ConstantVariable.is_literal(props))

    def test_constant_fold_functions_follow_the_registry(self):
        # A device's constant-fold functions are folded like torch.cuda's while
        # it is registered, without an edit of Dynamo's constant-fold tables.
        fold = torch_variables.constant_fold_functions
        need_guards = torch_variables.constant_fold_functions_need_guards
        fold_before, need_guards_before = list(fold), list(need_guards)

        def scale():
            return 2

        snapshot = RegistrySnapshot()
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        trace_rules.register_device_trace_rules(
            DEVICE, constant_fold_need_guards=[scale]
        )
        tables = trace_rules._device_tables()
        self.assertIn(device_module.device_count, tables.constant_fold)
        self.assertNotIn(device_module.device_count, tables.constant_fold_need_guards)
        self.assertIn(scale, tables.constant_fold)
        self.assertIn(scale, tables.constant_fold_need_guards)
        variable = torch_variables.TorchInGraphFunctionVariable
        self.assertTrue(variable(scale).can_constant_fold_through())
        self.assertTrue(variable(device_module.device_count).can_constant_fold_through())
        self.assertEqual(list(fold), fold_before)
        self.assertEqual(list(need_guards), need_guards_before)

        snapshot.restore()
        self.assertFalse(variable(scale).can_constant_fold_through())

    def test_compile_option_lookup_reads_the_config_table(self):
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        owner = get_compile_option_owner(f"{DEVICE}.wrapper_banner")
        self.assertIsNotNone(owner)
        self.assertEqual(owner[1], "wrapper_banner")
        # A core Inductor option keeps its owner.
        self.assertIsNone(get_compile_option_owner("triton.cudagraphs"))
        # An undeclared key has no owner; compiling with it names the known ones.
        self.assertIsNone(get_compile_option_owner(f"{DEVICE}.no_such_option"))
        with self.assertRaisesRegex(
            RuntimeError, rf"known options of device '{DEVICE}' are .*wrapper_banner"
        ):
            torch.compile(torch.sin, options={f"{DEVICE}.no_such_option": 1})
        self.assertIs(inductor_config.triton.cudagraphs, False)


if __name__ == "__main__":
    run_tests()

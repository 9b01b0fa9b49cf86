# Owner(s): ["module: dynamo"]
"""Tests of the DeviceInterface contract and of the device interface registry
(SPEC §1 REG-1..REG-5 and §2) in ``torch/_dynamo/device_interface.py``.

In-process tests use the fake PrivateUse1 device as ``extension_device``; the
lazy discovery of REG-5 needs another PrivateUse1 name and a package on disk, so
those tests run in fresh interpreters.
"""

import collections
import json
import logging
import multiprocessing
import os
import subprocess
import sys
import tempfile
import textwrap
import types
import warnings
from pathlib import Path

import torch
from extension_backends.extension_device import register
from extension_backends.testing import (
    REPO,
    RegistrySnapshot,
    run_python,
    subprocess_env,
)
from hypothesis import given, settings, strategies as st
from torch._dynamo import device_interface as di
from torch._dynamo.device_interface import (
    _BUILTIN_DEVICE_INIT_LIST,
    _safe_probe,
    CpuInterface,
    CudaInterface,
    DeviceInterface,
    get_interface_for_device,
    get_interface_for_device__PrivateUse1,
    get_registered_device_interfaces,
    init_device_reg,
    MpsInterface,
    MtiaInterface,
    register_interface_for_device,
    register_interface_for_device_PrivateUse1,
    TpuInterface,
    XpuInterface,
)
from torch._dynamo.exc import TritonUnavailableError
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils import backend_registration
from torch.utils._ordered_set import OrderedSet


DEVICE = "extension_device"
device_module = register(DEVICE)

from extension_backends.cpp.extension_codegen_backend import (  # noqa: E402
    ExtensionDeviceInterface,
)


LOGGER = "torch._dynamo.device_interface"

BUILTIN_INTERFACES = {
    "cuda": CudaInterface,
    "xpu": XpuInterface,
    "mtia": MtiaInterface,
    "cpu": CpuInterface,
    "mps": MpsInterface,
    "tpu": TpuInterface,
}
# What torch 2.13.0 hardcoded: torch/_inductor/utils.py GPU_TYPES and
# device_need_guard (`device != "mps" and is_gpu(device)`).
STOCK_GPU_TYPES = ["cuda", "mps", "xpu", "mtia"]


def stock_multi_processor_count(device_type, props):
    """torch 2.13.0's DeviceProperties.create (torch/_inductor/runtime/hints.py)."""
    try:
        return props.multi_processor_count
    except AttributeError:
        if device_type == "xpu":
            return props.gpu_subslice_count
        elif device_type == "mtia":
            return 64
        raise


def interface_with_properties(base, props):
    """A subclass of ``base`` whose device properties are ``props``."""

    class WithProperties(base):
        @classmethod
        def get_device_properties(cls, device=None):
            return props

    return WithProperties


def generation():
    return backend_registration._registry_generation


class PartialInterface(DeviceInterface):
    """An out-of-tree interface that implements almost nothing."""


class RegistryTestCase(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        # The registry is initialised as by any first lookup.
        get_registered_device_interfaces()

    def subscribe(self):
        """The number of registry changes since this call, as a function."""
        start = generation()
        return lambda: generation() - start


class DeviceInterfaceMembersTest(TestCase):
    """New DeviceInterface members: defaults and in-tree values (SPEC §2)."""

    def test_is_gpu(self):
        self.assertIs(DeviceInterface.is_gpu(), False)
        self.assertIs(PartialInterface.is_gpu(), False)
        for name, interface in BUILTIN_INTERFACES.items():
            # Every in-tree interface states its value ...
            self.assertIn("is_gpu", vars(interface), name)
            # ... and it is what torch 2.13 listed in GPU_TYPES.
            self.assertIs(interface.is_gpu(), name in STOCK_GPU_TYPES, name)

    def test_exposes_streams(self):
        self.assertFalse(DeviceInterface.exposes_streams())
        self.assertFalse(PartialInterface.exposes_streams())
        self.assertTrue(ExtensionDeviceInterface.exposes_streams())
        for name, interface in BUILTIN_INTERFACES.items():
            # Together with is_gpu, torch 2.13's device_need_guard.
            self.assertEqual(
                interface.is_gpu() and interface.exposes_streams(),
                name != "mps" and name in STOCK_GPU_TYPES,
                name,
            )
        self.assertEqual(
            [n for n, i in BUILTIN_INTERFACES.items() if i.exposes_streams()],
            ["cuda", "xpu", "mtia"],
        )

        class OptOut(ExtensionDeviceInterface):
            @classmethod
            def exposes_streams(cls):
                return False

        self.assertFalse(OptOut.exposes_streams())

    def test_compile_fx_gates(self):
        # torch 2.13's compile_fx: the async-compile pool wakes for cuda and xpu
        # inputs; post-grad passes run under torch.cuda.device if cuda is available.
        self.assertFalse(PartialInterface.wakes_async_compile())
        self.assertFalse(PartialInterface.runs_passes_under_device())
        self.assertTrue(_GpuInterface.wakes_async_compile())
        self.assertTrue(ExtensionDeviceInterface.runs_passes_under_device())
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertIn("wakes_async_compile", vars(interface), name)
            self.assertIn("runs_passes_under_device", vars(interface), name)
            self.assertIs(interface.wakes_async_compile(), name in ("cuda", "xpu"), name)
            self.assertIs(
                interface.runs_passes_under_device(),
                name == "cuda" and torch.cuda.is_available(),
                name,
            )

    def test_get_multi_processor_count_default(self):
        props = collections.namedtuple("Props", ["multi_processor_count"])(12)
        self.assertEqual(
            interface_with_properties(PartialInterface, props).get_multi_processor_count(),
            12,
        )
        self.assertEqual(
            ExtensionDeviceInterface.get_multi_processor_count(1),
            device_module.get_device_properties(1).multi_processor_count,
        )
        no_field = interface_with_properties(PartialInterface, types.SimpleNamespace())
        with self.assertRaisesRegex(
            AttributeError,
            r"WithProperties must override get_multi_processor_count because its "
            r"device properties do not expose the standard field "
            r"'multi_processor_count' \(a SimpleNamespace\)",
        ):
            no_field.get_multi_processor_count()
        none_field = interface_with_properties(
            PartialInterface, types.SimpleNamespace(multi_processor_count=None)
        )
        with self.assertRaisesRegex(AttributeError, "must override get_multi_processor_count"):
            none_field.get_multi_processor_count()
        # Absent properties stay absent (NotImplementedError of the default).
        with self.assertRaises(NotImplementedError):
            PartialInterface.get_multi_processor_count()

    def test_get_multi_processor_count_in_tree(self):
        # The fallbacks of torch 2.13's DeviceProperties.create, per device.
        with_field = types.SimpleNamespace(multi_processor_count=7, gpu_subslice_count=3)
        without_field = types.SimpleNamespace(gpu_subslice_count=3)
        for name, interface in BUILTIN_INTERFACES.items():
            for props in (with_field, without_field):
                sub = interface_with_properties(interface, props)
                try:
                    expected = stock_multi_processor_count(name, props)
                except AttributeError:
                    with self.assertRaises(AttributeError):
                        sub.get_multi_processor_count()
                else:
                    self.assertEqual(sub.get_multi_processor_count(), expected, name)
        self.assertEqual(CpuInterface.get_multi_processor_count(), multiprocessing.cpu_count())
        self.assertEqual(TpuInterface.get_multi_processor_count(), 1)
        # MTIA answers 64 without a device (this host has none), as upstream.
        self.assertFalse(torch.mtia.is_available())
        self.assertEqual(MtiaInterface.get_multi_processor_count(), 64)

    def test_visible_devices_env(self):
        self.assertIsNone(DeviceInterface.visible_devices_env())
        self.assertIsNone(ExtensionDeviceInterface.visible_devices_env())
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertIn("visible_devices_env", vars(interface), name)
            # torch 2.13's autotune_process pins every GPU type with its
            # CUDA_VISIBLE_DEVICES constant; cpu and tpu never get there.
            expected = "CUDA_VISIBLE_DEVICES" if name in STOCK_GPU_TYPES else None
            self.assertEqual(interface.visible_devices_env(), expected, name)

    def test_cache_system_info_and_cpp_device_options_default_to_none(self):
        for interface in [DeviceInterface, ExtensionDeviceInterface, *BUILTIN_INTERFACES.values()]:
            self.assertIsNone(interface.get_cache_system_info(), interface)
            for aot_mode in (False, True):
                for compile_only in (False, True):
                    self.assertIsNone(
                        interface.get_cpp_device_options(aot_mode, compile_only), interface
                    )

    def test_backend_features(self):
        from torch._inductor.codegen.common import BackendFeature as F

        # Upstream's sets, exactly: the framework members this series adds are
        # declared by out-of-tree devices only.
        expected = {
            "cuda": {F.FOREACH, F.BUCKETIZE, F.SCAN, F.SORT, F.TRITON_TEMPLATES,
                     F.GPU, F.ONLINE_SOFTMAX},
            "xpu": {F.FOREACH, F.TRITON_TEMPLATES, F.GPU, F.ONLINE_SOFTMAX},
            "mtia": {F.GPU},
            "mps": {F.GPU},
            "cpu": {F.FOREACH, F.SORT},
            "tpu": set(),
        }
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertEqual(interface.backend_features(None), expected[name], name)
            self.assertIs(type(interface.backend_features()), set, name)
        self.assertNotIn("backend_features", vars(TpuInterface))
        self.assertEqual(DeviceInterface.backend_features(), set())
        self.assertEqual(ExtensionDeviceInterface.backend_features(f"{DEVICE}:1"), set())

        class Gpu(ExtensionDeviceInterface):
            @staticmethod
            def is_gpu():
                return True

        features = Gpu.backend_features()
        self.assertEqual(features, {F.GPU})
        # A new set each call: a caller may mutate its copy.
        features.add(F.SORT)
        self.assertEqual(Gpu.backend_features(), {F.GPU})

    def test_cuda_tables_are_stock_and_trace_rules_have_one_door(self):
        from torch._dynamo import trace_rules
        from torch._dynamo.variables import torch as torch_variables
        from torch._dynamo.variables.user_defined import UserDefinedClassVariable

        # Runtime functions of a device get their rules from
        # register_device_trace_rules only: no interface slot duplicates it.
        for attr in (
            "dynamo_tensor_classes",
            "dynamo_constant_fold_fns",
            "dynamo_constant_fold_fns_need_guards",
        ):
            self.assertFalse(hasattr(DeviceInterface, attr), attr)
        self.assertTrue(callable(trace_rules.register_device_trace_rules))
        # cuda's typed tensor classes and constant-fold functions are 2.13's.
        in_graph = UserDefinedClassVariable._in_graph_classes()
        for kind in ("Float", "Double", "Half", "BFloat16", "Byte", "Char", "Int",
                     "Short", "Long"):
            self.assertIn(getattr(torch.cuda, f"{kind}Tensor"), in_graph, kind)
        fold = torch_variables.constant_fold_functions
        for fn in (torch.cuda.get_device_properties, torch.cuda.is_available,
                   torch.xpu.get_device_properties, torch.xpu.is_available):
            self.assertIn(fn, fold)

    def test_triton_unavailable_error(self):
        self.assertTrue(issubclass(TritonUnavailableError, RuntimeError))
        with self.assertRaisesRegex(
            TritonUnavailableError, "not capable of supporting Triton"
        ):
            DeviceInterface.raise_if_triton_unavailable()
        # 2.13-style callers catching RuntimeError still work.
        with self.assertRaises(RuntimeError):
            ExtensionDeviceInterface.raise_if_triton_unavailable()

    def test_in_tree_triton_checks_raise_triton_unavailable_error(self):
        # A triton without any backend (CUDA needs a device and is not covered).
        backends = types.ModuleType("triton.backends")
        backends.backends = {}
        triton = types.ModuleType("triton")
        triton.backends = backends
        modules = {"triton": triton, "triton.backends": backends}
        from unittest import mock

        with mock.patch.dict(sys.modules, modules):
            for interface, backend in (
                (CpuInterface, "cpu"),
                (XpuInterface, "intel"),
                (MtiaInterface, "mtia"),
            ):
                with self.assertRaisesRegex(
                    TritonUnavailableError, f"triton not built with the '{backend}' backend"
                ):
                    interface.raise_if_triton_unavailable()


class RegistrationTest(RegistryTestCase):
    """register_interface_for_device and the PrivateUse1 entry (REG-1, REG-2)."""

    def test_builtin_list(self):
        self.assertEqual(
            _BUILTIN_DEVICE_INIT_LIST,
            ("cuda", "xpu", "cpu", "mps", "mtia", "meta", "tpu"),
        )

    def test_init_registers_2_13_builtins(self):
        expected = {}
        for name in ("cuda", "xpu", "mtia"):
            expected[name] = BUILTIN_INTERFACES[name]
            for i in range(getattr(torch, name).device_count()):
                expected[f"{name}:{i}"] = BUILTIN_INTERFACES[name]
        for name in ("cpu", "mps", "tpu"):
            expected[name] = BUILTIN_INTERFACES[name]
        seen = self.subscribe()
        init_device_reg()
        builtins = [
            (name, interface)
            for name, interface in get_registered_device_interfaces()
            if name.partition(":")[0] in _BUILTIN_DEVICE_INIT_LIST
        ]
        self.assertEqual(builtins, list(expected.items()))
        self.assertEqual(seen(), 1)

    def test_type_errors(self):
        before = dict(di.device_interfaces), generation()
        for bad in (object, ExtensionDeviceInterface(), None, "cpu"):
            with self.assertRaisesRegex(
                TypeError,
                r"Cannot register .* for device 'acc_x': it is not a subclass of "
                r"torch._dynamo.device_interface.DeviceInterface",
            ):
                register_interface_for_device("acc_x", bad)
            with self.assertRaisesRegex(
                TypeError,
                rf"for device '{DEVICE}': it is not a subclass of torch\._dynamo",
            ):
                register_interface_for_device_PrivateUse1(bad)
        with self.assertRaisesRegex(TypeError, "the device must be a str or a torch.device"):
            register_interface_for_device(0, ExtensionDeviceInterface)
        self.assertEqual((dict(di.device_interfaces), generation()), before)

    def test_builtin_names_are_refused(self):
        before = dict(di.device_interfaces), generation()
        for device in [
            *_BUILTIN_DEVICE_INIT_LIST,
            "cuda:0",
            "meta:3",
            torch.device("cpu"),
            torch.device("cuda", 1),
        ]:
            device_type = device.type if isinstance(device, torch.device) else device.split(":")[0]
            with self.assertRaisesRegex(
                ValueError,
                rf"Cannot register ExtensionDeviceInterface for device '.*': "
                rf"'{device_type}' is a built-in device type\. An out-of-tree backend "
                r"renames PrivateUse1 and calls torch._dynamo.device_interface."
                r"register_interface_for_device_PrivateUse1\(\)",
            ):
                register_interface_for_device(device, ExtensionDeviceInterface)
        self.assertEqual((dict(di.device_interfaces), generation()), before)

    def test_register_keys(self):
        seen = self.subscribe()
        register_interface_for_device(torch.device(DEVICE, 1), ExtensionDeviceInterface)
        self.assertIs(di.device_interfaces[DEVICE], ExtensionDeviceInterface)
        self.assertNotIn(f"{DEVICE}:1", di.device_interfaces)
        register_interface_for_device(f"{DEVICE}:1", PartialInterface)
        self.assertIs(di.device_interfaces[f"{DEVICE}:1"], PartialInterface)
        self.assertEqual(seen(), 2)

    def test_register_privateuse1(self):
        seen = self.subscribe()
        before = generation()
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        self.assertEqual(generation(), before + 1)
        self.assertEqual(seen(), 1)
        self.assertEqual(device_module.device_count(), 2)
        for name in (DEVICE, f"{DEVICE}:0", f"{DEVICE}:1"):
            self.assertIs(di.device_interfaces[name], ExtensionDeviceInterface)
        self.assertNotIn(f"{DEVICE}:2", di.device_interfaces)

    def test_reregistration_replaces_aliases(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)

        class OneDevice(ExtensionDeviceInterface):
            @staticmethod
            def device_count():
                return 1

        register_interface_for_device_PrivateUse1(OneDevice)
        self.assertEqual(
            {k: v for k, v in di.device_interfaces.items() if k.startswith(DEVICE)},
            {DEVICE: OneDevice, f"{DEVICE}:0": OneDevice},
        )

    def test_register_privateuse1_device_count_failure(self):
        class Broken(ExtensionDeviceInterface):
            @staticmethod
            def device_count():
                raise RuntimeError("driver not loaded")

        class WrongCount(ExtensionDeviceInterface):
            @staticmethod
            def device_count():
                return "2"

        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        seen = self.subscribe()
        before = dict(di.device_interfaces), generation()
        with self.assertRaisesRegex(
            RuntimeError,
            rf"Cannot register Broken for the PrivateUse1 device '{DEVICE}': "
            r"Broken.device_count\(\) raised RuntimeError: driver not loaded\. "
            r"Nothing was registered",
        ) as ctx:
            register_interface_for_device_PrivateUse1(Broken)
        self.assertIsInstance(ctx.exception.__cause__, RuntimeError)
        with self.assertRaisesRegex(
            RuntimeError, r"NotImplementedError.*Nothing was registered"
        ):
            register_interface_for_device_PrivateUse1(PartialInterface)
        with self.assertRaisesRegex(
            RuntimeError, r"device_count\(\) returned '2', expected a non-negative int"
        ):
            register_interface_for_device_PrivateUse1(WrongCount)
        # No half-registration, no notification.
        self.assertEqual((dict(di.device_interfaces), generation()), before)
        self.assertEqual(seen(), 0)

    def test_registration_runs_no_hook_name_check(self):
        import difflib
        from unittest import mock

        class Misspelt(ExtensionDeviceInterface):
            @staticmethod
            def is_gpus():
                return True

        # The check is the device report's; registering costs no fuzzy match.
        with mock.patch.object(
            difflib, "get_close_matches", side_effect=AssertionError("called")
        ), warnings.catch_warnings():
            warnings.simplefilter("error")
            register_interface_for_device("acc_typo", Misspelt)
            register_interface_for_device_PrivateUse1(Misspelt)

    def test_correct_and_helper_names_are_not_reported(self):
        class Helpers(ExtensionDeviceInterface):
            is_gpu = staticmethod(lambda: True)
            compiler_flags_for_vendor = ()

            @staticmethod
            def load_vendor_runtime():
                pass

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            register_interface_for_device("acc_helpers", Helpers)
            register_interface_for_device_PrivateUse1(Helpers)

    def test_registry_cache_recomputes_after_each_registration(self):
        computed = []

        @di._registry_cache
        def derived(name):
            computed.append(name)
            return name in di.device_interfaces

        self.assertFalse(derived("acc_cb"))
        self.assertFalse(derived("acc_cb"))
        self.assertEqual(computed, ["acc_cb"])
        register_interface_for_device("acc_cb", ExtensionDeviceInterface)
        self.assertTrue(derived("acc_cb"))
        self.assertEqual(computed, ["acc_cb", "acc_cb"])
        derived.cache_clear()
        derived("acc_cb")
        self.assertEqual(len(computed), 3)


    def test_tables_are_plain_and_gpu_types_is_current(self):
        from torch._inductor import utils as inductor_utils

        self.assertIs(type(di.device_interfaces), dict)
        self.assertIs(type(di.GPU_TYPES), list)
        self.assertIs(inductor_utils.GPU_TYPES, di.GPU_TYPES)
        gpu_types = inductor_utils.GPU_TYPES

        class Gpu(ExtensionDeviceInterface):
            is_gpu = staticmethod(lambda: True)

        seen = self.subscribe()
        register_interface_for_device("acc_gpu", Gpu)
        self.assertEqual(seen(), 1)
        # However it is read, right after the registration.
        self.assertIn("acc_gpu", [] + gpu_types)
        self.assertIn("acc_gpu", gpu_types[:])
        self.assertIn("acc_gpu", list(iter(gpu_types)))
        self.assertEqual(gpu_types[: len(STOCK_GPU_TYPES)], STOCK_GPU_TYPES)
        self.assertTrue(inductor_utils.is_gpu("acc_gpu"))
        # Replaced by a non-GPU interface: gone from the same list, with a warning.
        with self.assertWarnsRegex(UserWarning, "'acc_gpu' is already registered"):
            register_interface_for_device("acc_gpu", ExtensionDeviceInterface)
        self.assertNotIn("acc_gpu", [] + gpu_types)
        self.assertIs(inductor_utils.GPU_TYPES, gpu_types)
        with self.assertRaisesRegex(ValueError, "'cuda' is a built-in device type"):
            register_interface_for_device("cuda", ExtensionDeviceInterface)


class LayeringTest(TestCase):
    def test_registry_calls_import_no_inductor_module(self):
        # Beyond what importing torch._dynamo imports (stock torch's set).
        proc = run_python(
            """
            import sys
            import torch
            import torch._dynamo.device_interface as di

            def inductor():
                return {m for m in sys.modules if m.startswith("torch._inductor")}

            before = inductor()
            torch.utils.rename_privateuse1_backend("acc")
            di.get_interface_for_device("cpu")
            list(di.get_registered_device_interfaces())
            list(di.get_interface_for_device__PrivateUse1())
            try:
                di.get_interface_for_device("acc")
            except NotImplementedError:
                pass

            class Acc(di.DeviceInterface):
                device_count = staticmethod(lambda: 1)

            di.register_interface_for_device_PrivateUse1(Acc)
            for interface in (*dict(di.get_registered_device_interfaces()).values(),):
                interface.backend_features()
                di._safe_probe(interface, "is_gpu")
            print(sorted(inductor() - before))
            """
        )
        self.assertEqual(proc.stdout.strip(), "[]")


class LookupTest(RegistryTestCase):
    """get_interface_for_device and the derived views (REG-3, REG-4)."""

    def test_normalisation(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        for device in (
            DEVICE,
            f"{DEVICE}:0",
            f"{DEVICE}:1",
            f"{DEVICE}:7",  # no alias of its own: resolves to the type
            torch.device(DEVICE),
            torch.device(DEVICE, 1),
        ):
            self.assertIs(get_interface_for_device(device), ExtensionDeviceInterface, device)
        # A registered alias keeps its own answer.
        register_interface_for_device(f"{DEVICE}:1", PartialInterface)
        self.assertIs(get_interface_for_device(f"{DEVICE}:1"), PartialInterface)
        self.assertIs(get_interface_for_device(f"{DEVICE}:0"), ExtensionDeviceInterface)
        self.assertIs(get_interface_for_device(torch.device(DEVICE, 1)), ExtensionDeviceInterface)

    def test_builtin_lookups(self):
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertIs(get_interface_for_device(name), interface)
            if name != "tpu":  # not a torch.device type
                self.assertIs(get_interface_for_device(torch.device(name)), interface)
        # Built-in names answer as in 2.13: only registered aliases resolve.
        with self.assertRaisesRegex(NotImplementedError, "^No interface for device cpu:0$"):
            get_interface_for_device("cpu:0")

    def test_unknown_devices(self):
        for device in ("acc_unknown", "acc_unknown:1", "meta", ""):
            with self.assertRaisesRegex(
                NotImplementedError, rf"^No interface for device {device}$"
            ):
                get_interface_for_device(device)
        with self.assertRaisesRegex(NotImplementedError, "No interface for device None"):
            get_interface_for_device(None)

    def test_unregistered_privateuse1_stays_unknown_silently(self):
        # extension_device has neither a get_device_interface() hook nor a
        # torch_extension_device package: discovery finds nothing, quietly.
        self.assertNotIn(DEVICE, di.device_interfaces)
        with self.assertNoLogs(LOGGER, logging.WARNING):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with self.assertRaisesRegex(
                    NotImplementedError, f"No interface for device {DEVICE}:1"
                ):
                    get_interface_for_device(f"{DEVICE}:1")
        self.assertEqual(list(get_interface_for_device__PrivateUse1()), [])

    def test_discovery_is_not_retried_on_every_lookup(self):
        looked_up = []

        class Recorder:
            @staticmethod
            def find_spec(name, path=None, target=None):
                if name.startswith(f"torch_{DEVICE}"):
                    looked_up.append(name)
                return None

        sys.meta_path.insert(0, Recorder)
        self.addCleanup(sys.meta_path.remove, Recorder)
        for _ in range(3):
            with self.assertRaises(NotImplementedError):
                get_interface_for_device(DEVICE)
            get_registered_device_interfaces()
            list(get_interface_for_device__PrivateUse1())
        self.assertLessEqual(len(looked_up), 1)
        attempts = len(looked_up)
        # A registry change makes the next lookup try again, once.
        register_interface_for_device("acc_other", ExtensionDeviceInterface)
        for _ in range(3):
            with self.assertRaises(NotImplementedError):
                get_interface_for_device(DEVICE)
        self.assertEqual(looked_up, [f"torch_{DEVICE}"] * (attempts + 1))

    def test_privateuse1_view(self):
        self.assertIsInstance(get_interface_for_device__PrivateUse1(), collections.abc.Iterator)
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        register_interface_for_device("acc_extra", PartialInterface)
        register_interface_for_device("acc_extra:0", PartialInterface)
        self.assertEqual(
            list(get_interface_for_device__PrivateUse1()),
            [(DEVICE, ExtensionDeviceInterface), ("acc_extra", PartialInterface)],
        )

    def test_registered_view_keeps_2_13_content(self):
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
        view = get_registered_device_interfaces()
        self.assertEqual(list(view), list(di.device_interfaces.items()))
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertIn((name, interface), view)
        self.assertIn((f"{DEVICE}:1", ExtensionDeviceInterface), view)


class SafeProbeTest(TestCase):
    """_safe_probe: probes are total, broken is logged once."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_present(self):
        with self.assertNoLogs(LOGGER, logging.WARNING):
            self.assertTrue(_safe_probe(ExtensionDeviceInterface, "is_available"))
            self.assertTrue(_safe_probe(CudaInterface, "is_gpu"))
            self.assertFalse(_safe_probe(CpuInterface, "is_gpu", default=True))
            self.assertTrue(
                _safe_probe(
                    CpuInterface, "is_dtype_supported", torch.float64, including_emulation=True
                )
            )
            self.assertEqual(_safe_probe(ExtensionDeviceInterface, "device_count", default=0), 2)
            self.assertIsNone(_safe_probe(CpuInterface, "get_cache_system_info", default=None))

    def test_absent_is_silent(self):
        class Absent(DeviceInterface):
            pass

        with self.assertNoLogs(LOGGER, logging.WARNING):
            for _ in range(2):
                self.assertFalse(_safe_probe(Absent, "is_available"))
                self.assertEqual(_safe_probe(Absent, "device_count", default=0), 0)
                # The default get_device_properties reaches the base Worker.
                self.assertIsNone(_safe_probe(Absent, "get_device_properties", default=None))

    def test_broken_is_logged_once(self):
        class Broken(DeviceInterface):
            @staticmethod
            def is_available():
                raise RuntimeError("driver crashed")

            @staticmethod
            def is_gpu():
                raise NotImplementedError("an override that raises is broken")

        with self.assertLogs(LOGGER, logging.WARNING) as logs:
            for _ in range(3):
                self.assertFalse(_safe_probe(Broken, "is_available"))
                self.assertTrue(_safe_probe(Broken, "is_gpu", default=True))
        self.assertEqual(len(logs.output), 2, logs.output)
        self.assertRegex(
            logs.output[0],
            r"Broken.is_available\(\) raised RuntimeError: driver crashed; treating it as False",
        )
        self.assertRegex(logs.output[1], r"Broken.is_gpu\(\) raised NotImplementedError")

    def test_wrong_type(self):
        class WrongType(DeviceInterface):
            @staticmethod
            def is_available():
                return "yes"

            @staticmethod
            def is_gpu():
                return 1

        with self.assertLogs(LOGGER, logging.WARNING) as logs:
            for _ in range(2):
                self.assertFalse(_safe_probe(WrongType, "is_available"))
                # An int answer is a bool.
                self.assertIs(_safe_probe(WrongType, "is_gpu"), True)
                # Not an interface at all, or a method it does not have.
                self.assertFalse(_safe_probe(None, "is_gpu"))
                self.assertEqual(_safe_probe(WrongType, "no_such_probe", default=3), 3)
        self.assertEqual(len(logs.output), 3, logs.output)
        self.assertRegex(logs.output[0], r"WrongType.is_available\(\) returned 'yes', not a bool")
        self.assertRegex(logs.output[1], r"None.is_gpu\(\) raised AttributeError")
        self.assertRegex(logs.output[2], r"WrongType.no_such_probe\(\) raised AttributeError")


# Interfaces for the property test, by name.
def _counted(count):
    class Counted(ExtensionDeviceInterface):
        @staticmethod
        def device_count():
            if count is None:
                raise RuntimeError("cannot count")
            return count

    Counted.__name__ = Counted.__qualname__ = f"Counted{count}"
    return Counted


class _GpuInterface(ExtensionDeviceInterface):
    @staticmethod
    def is_gpu():
        return True


PROPERTY_INTERFACES = [ExtensionDeviceInterface, PartialInterface, _GpuInterface]
COUNTED = {count: _counted(count) for count in (None, 0, 1, 2, 3)}
NAMES = ["acc_a", "acc_b", DEVICE, "acc_a:0", f"{DEVICE}:2"]

operations = st.one_of(
    st.tuples(st.just("register"), st.sampled_from(NAMES), st.integers(0, 2)),
    st.tuples(
        st.just("register_builtin"),
        st.sampled_from([*_BUILTIN_DEVICE_INIT_LIST, "cuda:0", "meta:1"]),
        st.integers(0, 2),
    ),
    st.tuples(st.just("register_pu1"), st.sampled_from(list(COUNTED)), st.just(0)),
    st.tuples(st.just("register_gpu_pu1"), st.just(DEVICE), st.just(0)),
    st.tuples(
        st.just("lookup"),
        st.sampled_from([*NAMES, "acc_a:5", f"{DEVICE}:1", "cuda", "acc_none"]),
        st.just(0),
    ),
)


class RegistryPropertyTest(TestCase):
    @settings(max_examples=50, deadline=None)
    @given(st.lists(operations, max_size=10))
    def test_views_agree_with_registry(self, ops):
        snapshot = RegistrySnapshot()
        try:
            get_registered_device_interfaces()
            model = dict(di.device_interfaces)
            start = generation()
            computed = []

            @di._registry_cache
            def derived():
                computed.append(generation())
                return len(computed)

            derived()
            changes = 0
            for op, name, index in ops:
                if op == "register":
                    register_interface_for_device(name, PROPERTY_INTERFACES[index])
                    model[name] = PROPERTY_INTERFACES[index]
                    changes += 1
                elif op == "register_builtin":
                    with self.assertRaises(ValueError):
                        register_interface_for_device(name, PROPERTY_INTERFACES[index])
                elif op in ("register_pu1", "register_gpu_pu1"):
                    interface = COUNTED[name] if op == "register_pu1" else _GpuInterface
                    count = name if op == "register_pu1" else 2
                    if count is None:
                        with self.assertRaises(RuntimeError):
                            register_interface_for_device_PrivateUse1(interface)
                    else:
                        register_interface_for_device_PrivateUse1(interface)
                        for key in [k for k in model if k.startswith(f"{DEVICE}:")]:
                            del model[key]
                        model[DEVICE] = interface
                        model.update({f"{DEVICE}:{i}": interface for i in range(count)})
                        changes += 1
                else:
                    expected = model.get(name, model.get(name.partition(":")[0]))
                    if expected is None:
                        with self.assertRaises(NotImplementedError):
                            get_interface_for_device(name)
                    else:
                        self.assertIs(get_interface_for_device(name), expected)

                # Every derived view agrees with a fresh scan of the registry.
                scan = dict(di.device_interfaces)
                self.assertEqual(scan, model)
                self.assertEqual(
                    list(get_registered_device_interfaces()), list(di.device_interfaces.items())
                )
                self.assertEqual(
                    list(get_interface_for_device__PrivateUse1()),
                    [
                        (n, i)
                        for n, i in scan.items()
                        if ":" not in n and n not in _BUILTIN_DEVICE_INIT_LIST
                    ],
                )
                self.assertEqual(generation(), start + changes)
                # A cache keyed on the generation recomputes once per change.
                derived()
                derived()
                self.assertEqual(len(computed), len(set(computed)))
                self.assertEqual(computed[-1], generation())
        finally:
            snapshot.restore()


# ---------------------------------------------------------------------------
# Lazy discovery (REG-5), in fresh interpreters with PrivateUse1 renamed "acc".
# ---------------------------------------------------------------------------

# torch_acc/__init__.py variants.
INIT_REGISTER = """
    from extension_backends.extension_device import register

    register("acc")
"""
# Installs its own device module, which has the get_device_interface() hook.
INIT_WITH_HOOK = """
    import torch
    from extension_backends.extension_device import load_library

    load_library()
    torch.utils.rename_privateuse1_backend("acc")
    from . import runtime

    torch._register_device_module("acc", runtime)
"""
RUNTIME_WITH_HOOK = """
    from extension_backends.extension_device_module import *  # noqa: F403

    HOOK_CALLS = []


    def get_device_interface():
        HOOK_CALLS.append(1)
        {body}
"""
HOOK_RETURNS_INTERFACE = """
        from torch_acc.hooked import HookedInterface

        return HookedInterface
"""
HOOKED_INTERFACE = """
    import torch
    from torch._dynamo.device_interface import DeviceInterface


    class HookedInterface(DeviceInterface):
        device_count = staticmethod(lambda: torch.acc.device_count())
"""
# torch_acc/_dynamo/device_interface.py: inherits from nothing in torch.
CONVENTION = """
    import torch


    class DeviceInterface:
        \"\"\"The interface of acc, written without importing torch._dynamo.\"\"\"

        @staticmethod
        def device_count():
            return torch.acc.device_count()

        @staticmethod
        def is_available():
            return torch.acc.is_available()

        @staticmethod
        def current_device():
            return torch.acc.current_device()
"""

# Runs in the child: imports the package, looks acc up in several ways and
# prints a JSON report.
DRIVER = """
    import json, sys, warnings

    warnings.simplefilter("always")
    import torch

    report = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import torch_acc

        report["dynamo_after_package"] = "torch._dynamo" in sys.modules
        from torch._dynamo import device_interface as di
        from torch.utils import backend_registration

        PRELUDE

        def lookup(device):
            try:
                iface = di.get_interface_for_device(device)
            except NotImplementedError as err:
                return "NotImplementedError: " + str(err)
            return iface.__module__ + "." + iface.__qualname__

        report["lookups"] = [lookup(d) for d in ("acc", "acc:1", torch.device("acc", 1))]
        report["names"] = [
            n for n, _ in di.get_registered_device_interfaces() if n.startswith("acc")
        ]
        report["privateuse1"] = [n for n, _ in di.get_interface_for_device__PrivateUse1()]
        report["generation"] = backend_registration._registry_generation
        # A registry change retries discovery; nothing is reported twice.
        class Unrelated(di.DeviceInterface):
            pass

        di.register_interface_for_device("unrelated", Unrelated)
        report["lookup_after_change"] = lookup("acc")
        EPILOGUE
    report["warnings"] = [str(w.message) for w in caught if "PrivateUse1" in str(w.message)]
    print("REPORT" + json.dumps(report))
"""


class LazyDiscoveryTest(TestCase):
    """REG-5: the device-module hook and the torch_<name> convention module."""

    def run_acc(self, files, prelude="pass", epilogue="pass"):
        """Write the package torch_acc (``files``: relative path -> source) and
        run DRIVER in a fresh interpreter; return its report."""
        root = Path(tempfile.mkdtemp(prefix="torch_acc_"))
        self.addCleanup(__import__("shutil").rmtree, root, True)
        for relative, source in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(source))
        code = (
            textwrap.dedent(DRIVER)
            .replace("PRELUDE", textwrap.indent(textwrap.dedent(prelude), " " * 4).strip())
            .replace("EPILOGUE", textwrap.indent(textwrap.dedent(epilogue), " " * 4).strip())
        )
        pythonpath = os.pathsep.join([str(root), subprocess_env()["PYTHONPATH"]])
        proc = run_python(code, timeout=300, PYTHONPATH=pythonpath)
        line = next(l for l in proc.stdout.splitlines() if l.startswith("REPORT"))
        return json.loads(line[len("REPORT"):])

    def package(self, init=INIT_REGISTER, convention=CONVENTION, hook=None, extra=None):
        files = {"torch_acc/__init__.py": init}
        if convention is not None:
            files["torch_acc/_dynamo/__init__.py"] = ""
            files["torch_acc/_dynamo/device_interface.py"] = convention
        if hook is not None:
            files["torch_acc/runtime.py"] = RUNTIME_WITH_HOOK.replace(
                "{body}", textwrap.dedent(hook).strip().replace("\n", "\n        ")
            )
            files["torch_acc/hooked.py"] = HOOKED_INTERFACE
        files.update(extra or {})
        return files

    def assert_unknown(self, report):
        self.assertEqual(
            report["lookups"],
            [
                "NotImplementedError: No interface for device acc",
                "NotImplementedError: No interface for device acc:1",
                "NotImplementedError: No interface for device acc",
            ],
        )
        self.assertEqual(
            report["lookup_after_change"],
            "NotImplementedError: No interface for device acc",
        )
        self.assertEqual(report["privateuse1"], [])

    def test_first_compile_finds_the_convention_interface(self):
        # The package never imports torch._dynamo; the first torch.compile
        # that needs the device's interface (to trace current_stream() with
        # fullgraph=True) discovers it.
        convention = """
            import torch


            class DeviceInterface:
                Stream = torch.acc.Stream
                Event = torch.acc.Event

                @staticmethod
                def device_count():
                    return torch.acc.device_count()

                @staticmethod
                def is_available():
                    return torch.acc.is_available()

                @staticmethod
                def current_device():
                    return torch.acc.current_device()

                @staticmethod
                def current_stream(device=None):
                    return torch.acc.current_stream(device)
        """
        report = self.run_acc(
            self.package(convention=convention),
            prelude="""
                import torch._dynamo.testing

                report["registered_before_compile"] = "acc" in di.device_interfaces
                counter = torch._dynamo.testing.CompileCounter()

                def fn(x):
                    return x + torch.acc.current_stream().stream_id

                x = torch.ones(3, device="acc")
                report["result"] = torch.compile(fn, backend=counter, fullgraph=True)(x).tolist()
                report["frames"] = counter.frame_count
                report["discovered"] = di.device_interfaces["acc"].__name__
            """,
        )
        self.assertFalse(report["dynamo_after_package"])
        self.assertFalse(report["registered_before_compile"])
        self.assertEqual(report["result"], [1.0, 1.0, 1.0])  # default stream: id 0
        self.assertEqual(report["frames"], 1)
        self.assertEqual(report["discovered"], "DeviceInterface")

    def test_convention_module_is_adopted(self):
        report = self.run_acc(
            self.package(),
            epilogue="""
                iface = di.get_interface_for_device("acc")
                convention = sys.modules["torch_acc._dynamo.device_interface"].DeviceInterface
                report["adopted"] = [
                    issubclass(iface, di.DeviceInterface),
                    iface is not convention,
                    iface.__mro__[1] is convention,
                    iface.__name__,
                    iface.device_count(),
                    iface.is_gpu(),
                    iface.exposes_streams(),
                    iface.visible_devices_env(),
                    iface.get_cache_system_info(),
                    list(iface.backend_features()),
                    iface.is_triton_capable(),
                ]
            """,
        )
        self.assertFalse(report["dynamo_after_package"])
        adopted = "torch_acc._dynamo.device_interface.DeviceInterface"
        self.assertEqual(report["lookups"], [adopted] * 3)
        self.assertEqual(report["names"], ["acc", "acc:0", "acc:1"])
        self.assertEqual(report["privateuse1"], ["acc"])
        self.assertEqual(report["lookup_after_change"], adopted)
        self.assertEqual(
            report["adopted"],
            [True, True, True, "DeviceInterface", 2, False, False, None, None, [], False],
        )
        # init_device_reg registered once, then discovery once.
        self.assertEqual(report["generation"], 2)
        self.assertEqual(report["warnings"], [])

    def test_concurrent_first_lookups_discover_once(self):
        report = self.run_acc(
            self.package(),
            prelude="""
                import threading

                barrier = threading.Barrier(8)
                found = []

                def first_lookup():
                    barrier.wait()
                    found.append(di.get_interface_for_device("acc:1"))

                threads = [threading.Thread(target=first_lookup) for _ in range(8)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                report["concurrent"] = [
                    len(found), len(set(found)), backend_registration._registry_generation
                ]
            """,
        )
        # One initialisation, one discovery: every thread got the same class.
        self.assertEqual(report["concurrent"], [8, 1, 2])
        self.assertEqual(report["warnings"], [])

    def test_hook_wins_over_convention_module(self):
        report = self.run_acc(
            self.package(init=INIT_WITH_HOOK, hook=HOOK_RETURNS_INTERFACE),
            epilogue="""
                report["hook_calls"] = len(torch.acc.HOOK_CALLS)
                report["convention_imported"] = "torch_acc._dynamo.device_interface" in sys.modules
            """,
        )
        self.assertFalse(report["dynamo_after_package"])
        self.assertEqual(report["lookups"], ["torch_acc.hooked.HookedInterface"] * 3)
        self.assertEqual(report["names"], ["acc", "acc:0", "acc:1"])
        self.assertEqual(report["hook_calls"], 1)
        self.assertFalse(report["convention_imported"])
        self.assertEqual(report["warnings"], [])

    def test_hook_interface_without_device_count(self):
        # A hook written against upstream returns an interface that need not
        # count devices: the device type is registered alone.
        uncounted = """
            from torch._dynamo.device_interface import DeviceInterface


            class Uncounted(DeviceInterface):
                pass
        """
        report = self.run_acc(
            self.package(
                init=INIT_WITH_HOOK,
                convention=None,
                hook="from torch_acc.uncounted import Uncounted\nreturn Uncounted",
                extra={"torch_acc/uncounted.py": uncounted},
            )
        )
        self.assertEqual(report["lookups"], ["torch_acc.uncounted.Uncounted"] * 3)
        self.assertEqual(report["names"], ["acc"])
        self.assertEqual(report["privateuse1"], ["acc"])
        self.assertEqual(report["warnings"], [])

    def test_explicit_registration_wins_over_hook(self):
        report = self.run_acc(
            self.package(init=INIT_WITH_HOOK, hook=HOOK_RETURNS_INTERFACE),
            prelude="""
                class Explicit(di.DeviceInterface):
                    device_count = staticmethod(lambda: 1)

                di.register_interface_for_device_PrivateUse1(Explicit)
            """,
            epilogue="""
                report["hook_calls"] = len(torch.acc.HOOK_CALLS)
                report["convention_imported"] = "torch_acc._dynamo.device_interface" in sys.modules
            """,
        )
        self.assertEqual(report["lookups"], ["__main__.Explicit"] * 3)
        self.assertEqual(report["names"], ["acc", "acc:0"])
        self.assertEqual(report["hook_calls"], 0)
        self.assertFalse(report["convention_imported"])
        self.assertEqual(report["warnings"], [])

    def test_backend_code_may_register_during_discovery(self):
        convention = """
            from torch._dynamo import device_interface as di

            # A lookup while discovery imports this module does not recurse.
            try:
                di.get_interface_for_device("acc")
            except NotImplementedError:
                pass


            class Registered(di.DeviceInterface):
                device_count = staticmethod(lambda: 2)


            di.register_interface_for_device_PrivateUse1(Registered)
            DeviceInterface = 42  # not looked at: registered explicitly
        """
        report = self.run_acc(self.package(convention=convention))
        self.assertEqual(
            report["lookups"], ["torch_acc._dynamo.device_interface.Registered"] * 3
        )
        self.assertEqual(report["names"], ["acc", "acc:0", "acc:1"])
        self.assertEqual(report["warnings"], [])

    def test_missing_convention_module_is_silent(self):
        for files in (
            self.package(convention=None),
            # torch_acc._dynamo exists, its device_interface does not.
            self.package(convention=None, extra={"torch_acc/_dynamo/__init__.py": ""}),
        ):
            report = self.run_acc(files)
            self.assert_unknown(report)
            self.assertEqual(report["warnings"], [])
        # No torch_acc package at all.
        report = self.run_acc(
            {"torch_acc/__init__.py": INIT_REGISTER},
            prelude="""
                sys.modules.pop("torch_acc")
                sys.path[:] = [p for p in sys.path if "torch_acc_" not in p]
                import importlib
                importlib.invalidate_caches()
            """,
        )
        self.assert_unknown(report)
        self.assertEqual(report["warnings"], [])

    def test_broken_sources_warn_once(self):
        cases = {
            "raises": (
                self.package(convention="raise ImportError('acc runtime is missing')"),
                r"^Skipping torch_acc._dynamo.device_interface while looking for the "
                r"DeviceInterface of the PrivateUse1 device 'acc': ImportError: acc runtime "
                r"is missing\. Fix it, or register the interface with torch._dynamo."
                r"device_interface.register_interface_for_device_PrivateUse1\(\)\.$",
            ),
            "missing dependency": (
                self.package(convention="import torch_acc_missing_dependency"),
                r"^Skipping torch_acc._dynamo.device_interface .*ModuleNotFoundError: "
                r"No module named 'torch_acc_missing_dependency'",
            ),
            "not a class": (
                self.package(convention="DeviceInterface = 42"),
                r"^Skipping torch_acc._dynamo.device_interface.DeviceInterface .*: it is "
                r"42, expected a class",
            ),
            "no attribute": (
                self.package(convention="AccInterface = object"),
                r"^Skipping torch_acc._dynamo.device_interface.DeviceInterface .*: it is "
                r"None, expected a class",
            ),
            "cannot count": (
                self.package(
                    convention=CONVENTION.replace(
                        "return torch.acc.device_count()", "raise RuntimeError('no driver')"
                    )
                ),
                r"^Skipping torch_acc._dynamo.device_interface.DeviceInterface .*"
                r"device_count\(\) raised RuntimeError: no driver",
            ),
            "hook raises": (
                self.package(
                    init=INIT_WITH_HOOK,
                    convention=None,
                    hook="raise RuntimeError('hook is broken')",
                ),
                r"^Skipping torch.acc.get_device_interface\(\) .*: it raised "
                r"RuntimeError: hook is broken",
            ),
            "hook returns a non-class": (
                self.package(init=INIT_WITH_HOOK, convention=None, hook="return 42"),
                r"^Skipping torch.acc.get_device_interface\(\) .*: it returned 42, which "
                r"is not a DeviceInterface subclass; expected a subclass of "
                r"torch._dynamo.device_interface.DeviceInterface",
            ),
            "hook returns a duck-typed class": (
                self.package(init=INIT_WITH_HOOK, convention=None, hook="return object"),
                r"it returned <class 'object'>, which is not a DeviceInterface subclass",
            ),
        }
        for case, (files, message) in cases.items():
            with self.subTest(case):
                report = self.run_acc(files)
                self.assert_unknown(report)
                self.assertEqual(len(report["warnings"]), 1, report["warnings"])
                self.assertRegex(report["warnings"][0], message)

    def test_broken_hook_falls_back_to_convention_module(self):
        report = self.run_acc(
            self.package(init=INIT_WITH_HOOK, hook="raise RuntimeError('hook is broken')")
        )
        self.assertEqual(
            report["lookups"], ["torch_acc._dynamo.device_interface.DeviceInterface"] * 3
        )
        self.assertEqual(len(report["warnings"]), 1)
        self.assertIn("hook is broken", report["warnings"][0])


class StockTwinTest(TestCase):
    """The registry of in-tree devices equals stock torch 2.13.0's."""

    def test_builtin_registry_and_classification_match_stock(self):
        stock_python = os.environ.get(
            "DIFF_STOCK_PYTHON", str(REPO / ".venv-stock" / "bin" / "python")
        )
        if not Path(stock_python).exists():
            self.skipTest(f"no stock torch 2.13.0 twin at {stock_python}")
        code = textwrap.dedent(
            """
            import json
            import torch
            from torch._dynamo.device_interface import get_registered_device_interfaces
            from torch._inductor import autotune_process
            from torch._inductor.runtime.hints import DeviceProperties
            from torch._inductor.utils import device_need_guard, GPU_TYPES

            print(json.dumps({
                "registry": [(n, c.__name__) for n, c in get_registered_device_interfaces()],
                "gpu_types": list(GPU_TYPES),
                "need_guard": {
                    d: device_need_guard(d)
                    for d in ("cuda", "xpu", "mtia", "cpu", "mps", "tpu")
                },
                "cpu_sms": DeviceProperties.create(torch.device("cpu")).multi_processor_count,
                "visible_devices": autotune_process.CUDA_VISIBLE_DEVICES,
            }))
            """
        )
        stock = json.loads(
            subprocess.run(
                [stock_python, "-c", code], capture_output=True, text=True, check=True,
                cwd=tempfile.gettempdir(),
            ).stdout
        )
        self.assertEqual(
            [(n, c.__name__) for n, c in get_registered_device_interfaces()
             if n.partition(":")[0] in _BUILTIN_DEVICE_INIT_LIST],
            [tuple(entry) for entry in stock["registry"]],
        )
        self.assertEqual(
            [n for n in stock["gpu_types"] if BUILTIN_INTERFACES[n].is_gpu()],
            stock["gpu_types"],
        )
        self.assertEqual(
            {n for n, i in BUILTIN_INTERFACES.items() if i.is_gpu()}, set(stock["gpu_types"])
        )
        self.assertEqual(
            {n: i.is_gpu() and i.exposes_streams() for n, i in BUILTIN_INTERFACES.items()},
            stock["need_guard"],
        )
        self.assertEqual(CpuInterface.get_multi_processor_count(), stock["cpu_sms"])
        for name in stock["gpu_types"]:
            self.assertEqual(
                BUILTIN_INTERFACES[name].visible_devices_env(), stock["visible_devices"]
            )


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: dynamo"]
"""The Dynamo members of a device's record for a custom Dynamo backend:
``DeviceInterface.dynamo_config_defaults()`` (the options Dynamo uses while it
compiles a frame of the device) and ``DeviceInterface.on_dynamo_reset()``
(called by ``torch._dynamo.reset()``).

The device is the fake PrivateUse1 backend as ``extension_device``; each test
registers its own interface subclass, and the registries are restored after it.
"""

import warnings

import torch
import torch._dynamo
from extension_backends.extension_device import register
from extension_backends.testing import RegistrySnapshot
from torch._dynamo import config
from torch._dynamo.device_interface import (
    DeviceInterface,
    get_registered_device_interfaces,
    register_interface_for_device,
)
from torch._dynamo.exc import FailOnRecompileLimitHit
from torch.testing._internal.common_utils import run_tests, TestCase


DEVICE = "extension_device"
device_module = register(DEVICE)

from extension_backends.cpp.extension_codegen_backend import (  # noqa: E402
    ExtensionDeviceInterface,
)


def seen_config(seen):
    """A backend recording the Dynamo options it is compiled under."""

    def backend(gm, example_inputs):
        seen.append(
            (config.recompile_limit, config.fail_on_recompile_limit_hit,
             config.specialize_float)
        )
        return gm.forward

    return backend


def add_one(x):
    return x + 1


STOCK = (config.recompile_limit, config.fail_on_recompile_limit_hit, config.specialize_float)


class DeviceDynamoHooksTest(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)

    def register(self, **members):
        interface = type("HookedInterface", (ExtensionDeviceInterface,),
                         {k: staticmethod(v) for k, v in members.items()})
        register_interface_for_device(DEVICE, interface)
        register_interface_for_device(f"{DEVICE}:0", interface)
        return interface

    def test_in_tree_interfaces_keep_stock_behaviour(self):
        for name, interface in get_registered_device_interfaces():
            with self.subTest(name):
                self.assertEqual(interface.dynamo_config_defaults(), {})
                self.assertIs(interface.on_dynamo_reset, DeviceInterface.on_dynamo_reset)

    def test_reset_calls_the_hook_once_per_interface(self):
        calls = []
        self.register(on_dynamo_reset=lambda: calls.append(config.recompile_limit))
        torch._dynamo.reset()
        self.assertEqual(calls, [STOCK[0]])

    def test_broken_reset_hook_warns_once_and_reset_completes(self):
        def broken():
            raise RuntimeError("no runtime")

        self.register(on_dynamo_reset=broken)
        backend = torch._dynamo.testing.CompileCounter()
        fn = torch.compile(add_one, backend=backend)
        fn(torch.ones(2))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch._dynamo.reset()
            torch._dynamo.reset()
        messages = [str(w.message) for w in caught if "on_dynamo_reset" in str(w.message)]
        self.assertEqual(len(messages), 1)
        self.assertRegex(messages[0], r"HookedInterface\.on_dynamo_reset\(\) raised "
                                      r"RuntimeError: no runtime; torch\._dynamo\.reset\(\) "
                                      r"went on without it")
        fn(torch.ones(2))  # the code cache was cleared all the same
        self.assertEqual(backend.frame_count, 2)

    def test_config_defaults_apply_to_the_device_frames_only(self):
        self.register(dynamo_config_defaults=lambda: {
            "cache_size_limit": 3, "fail_on_cache_limit_hit": True, "specialize_float": True,
        })
        names = ("recompile_limit", "fail_on_recompile_limit_hit", "specialize_float")
        # As the process left them (stock's flex_attention, for one, sets
        # recompile_limit back to its default value rather than unsetting it).
        before = [config._config[name].user_override.get() for name in names]
        seen = []
        fn = torch.compile(add_one, backend=seen_config(seen))
        fn(torch.ones(2))
        fn(torch.ones(2, device=DEVICE))
        module = torch.nn.Linear(2, 2).to(DEVICE)
        torch.compile(module, backend=seen_config(seen))(torch.ones(2, device=DEVICE))
        self.assertEqual(seen, [STOCK, (3, True, True), (3, True, True)])
        # Left as they were afterwards: the next frame of the device gets them too.
        self.assertEqual([config._config[name].user_override.get() for name in names], before)
        self.assertEqual((config.recompile_limit, config.specialize_float),
                         (STOCK[0], STOCK[2]))

    def test_recompile_limit_fails_hard_on_the_device(self):
        self.register(dynamo_config_defaults=lambda: {
            "cache_size_limit": 1, "fail_on_cache_limit_hit": True,
        })
        for device, fails in (("cpu", False), (DEVICE, True)):
            with self.subTest(device):
                torch._dynamo.reset()
                fn = torch.compile(add_one, backend="eager", dynamic=False)
                fn(torch.ones(2, device=device))
                if fails:
                    with self.assertRaises(FailOnRecompileLimitHit):
                        fn(torch.ones(3, device=device))
                else:
                    fn(torch.ones(3, device=device))
                    fn(torch.ones(4, device=device))

    def test_options_the_user_set_win(self):
        self.register(dynamo_config_defaults=lambda: {
            "recompile_limit": 3, "specialize_float": True,
        })
        seen = []
        fn = torch.compile(add_one, backend=seen_config(seen))
        with config.patch(cache_size_limit=5):
            fn(torch.ones(2, device=DEVICE))
        # Back at torch's default (config.patch leaves it set): the device's again.
        fn(torch.ones(2, 2, device=DEVICE))
        self.assertEqual(seen, [(5, STOCK[1], True), (3, STOCK[1], True)])

    def test_unknown_option_raises(self):
        self.register(dynamo_config_defaults=lambda: {"cache_size_limt": 3})
        with self.assertRaisesRegex(
            ValueError,
            r"HookedInterface\.dynamo_config_defaults\(\) for device 'extension_device' "
            r"names 'cache_size_limt', which is no torch\._dynamo\.config option",
        ):
            torch.compile(add_one, backend="eager")(torch.ones(2, device=DEVICE))

    def test_broken_config_hook_warns_once(self):
        self.register(dynamo_config_defaults=lambda: [("specialize_float", True)])
        seen = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for n in (2, 3):
                torch.compile(add_one, backend=seen_config(seen))(torch.ones(n, device=DEVICE))
        messages = [str(w.message) for w in caught if "dynamo_config_defaults" in str(w.message)]
        self.assertEqual(len(messages), 1)
        self.assertIn("it returned a list, not a dict", messages[0])
        self.assertEqual(seen[0], STOCK)

    def test_misspelt_member_is_not_a_hook(self):
        # Registration checks no member names (the device report does, see
        # test_device_report.py::test_misspelt_hook_is_named): a misspelt hook
        # costs nothing and is never called.
        calls = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.register(
                on_dynamo_rest=lambda: calls.append("reset"),
                dynamo_config_default=lambda: calls.append("config") or {},
            )
        self.assertEqual([str(w.message) for w in caught], [])
        torch.compile(add_one, backend="eager")(torch.ones(2, device=DEVICE))
        torch._dynamo.reset()
        self.assertEqual(calls, [])


class BackendInitTest(TestCase):
    """A custom backend's ``_dynamo_backend_init``, a no-argument callable
    (upstream 2.15's name): called each time Dynamo resolves the backend,
    at ``torch.compile()`` time, before the backend compiles anything."""

    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        self.events = []

    def record(self, compiler, event):
        def backend(gm, example_inputs):
            self.events.append(event)
            return compiler(gm)

        backend._dynamo_backend_init = lambda: self.events.append("init")
        return backend

    def test_called_at_torch_compile_time(self):
        fn = torch.compile(add_one, backend=self.record(lambda gm: gm.forward, "compile"))
        self.assertEqual(self.events, ["init"])
        fn(torch.ones(2))
        self.assertEqual(self.events, ["init", "compile"])

    def test_called_at_each_resolution(self):
        backend = self.record(lambda gm: gm.forward, "compile")
        torch.compile(add_one, backend=backend)
        torch._dynamo.optimize(backend)(add_one)
        self.assertEqual(self.events, ["init", "init"])

    def test_aot_autograd_reads_the_forward_compiler(self):
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd

        forward = self.record(lambda gm: make_boxed_func(gm.forward), "forward")
        fn = torch.compile(add_one, backend=aot_autograd(fw_compiler=forward))
        self.assertEqual(self.events, ["init"])
        self.assertEqual(fn(torch.ones(2)), torch.full((2,), 2.0))
        self.assertEqual(self.events, ["init", "forward"])


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Per-device Inductor options on ``extension_device``.

A backend's operator policy carries the defaults of core Inductor options
(``config_defaults``) for its device.  They replace global writes such as
``config.size_asserts = False`` at import: they apply to that device's
compiles only, the user's options still win, the global config is never
changed, and they are part of the cache keys.
"""

import sys
from pathlib import Path


TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot
from torch._dynamo.utils import counters
from torch._inductor import config as inductor_config
from torch._inductor.device_operator_policy import (
    DeviceOperatorPolicy,
    DeviceOperatorPolicyError,
    register_device_operator_policy,
)
from torch._inductor.utils import fresh_cache, run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase


aten = torch.ops.aten
device_module = register(DEVICE)


def policy(version="1", **kwargs):
    return DeviceOperatorPolicy(DEVICE, version, **kwargs)


class DeviceCompileConfigTestCase(TestCase):
    def setUp(self):
        super().setUp()
        from extension_backends.cpp.extension_codegen_backend import (
            register_compile_backend,
        )

        self.snapshot = RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)
        self.stock_config = inductor_config.get_config_copy()

    def assertConfigIsStock(self):
        self.assertEqual(inductor_config.get_config_copy(), self.stock_config)

    def compile_code(self, fn, x, options=None):
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            result, codes = run_and_get_code(torch.compile(fn, options=options), x)
        return result, "\n".join(codes)

    def compile_counts(self, fn, x):
        import torch._functorch.config as functorch_config

        torch._dynamo.reset()
        counters.clear()
        with inductor_config.patch(fx_graph_cache=True), functorch_config.patch(
            enable_autograd_cache=True
        ):
            torch.compile(fn)(x)
        return (
            counters["inductor"]["fxgraph_cache_miss"],
            counters["inductor"]["fxgraph_cache_hit"],
        )


class ConfigDefaultsTests(DeviceCompileConfigTestCase):
    def test_default_applies_to_the_device_only(self):
        # What torch_npu/torchair do with `config.size_asserts = False`.
        register_device_operator_policy(policy(config_defaults={"size_asserts": False}))
        x = torch.randn(8, 8)
        fn = lambda a: (a + 1).t().contiguous() * 2  # noqa: E731

        _, dev_code = self.compile_code(fn, x.to(DEVICE))
        FileCheck().check_not("assert_size_stride(arg").run(dev_code)
        self.assertConfigIsStock()
        # A cpu compile in the same process keeps the stock default.
        _, cpu_code = self.compile_code(fn, x)
        FileCheck().check("assert_size_stride(arg").run(cpu_code)
        self.assertConfigIsStock()

    def test_user_options_and_patch_win(self):
        register_device_operator_policy(policy(config_defaults={"size_asserts": False}))
        x = torch.randn(8, 8, device=DEVICE)
        fn = lambda a: (a + 1).t().contiguous() * 2  # noqa: E731
        _, code = self.compile_code(fn, x, options={"size_asserts": True})
        FileCheck().check("assert_size_stride(arg").run(code)
        with inductor_config.patch(size_asserts=False):
            _, code = self.compile_code(fn, x)
        FileCheck().check_not("assert_size_stride(arg").run(code)
        self.assertConfigIsStock()

    def test_config_patches_skip_options_the_user_set(self):
        p = policy(config_defaults={"size_asserts": False, "unroll_reductions_threshold": 1})
        both = {"size_asserts": False, "unroll_reductions_threshold": 1}
        self.assertEqual(p.config_patches(), both)
        # Set to another value by config.patch: the user's.
        with inductor_config.patch(unroll_reductions_threshold=4):
            self.assertEqual(p.config_patches(), {"size_asserts": False})
        # Named in the compile's options, even at the stock value: the user's.
        self.assertEqual(
            p.config_patches(user_options={"unroll-reductions-threshold": 8}),
            {"size_asserts": False},
        )
        self.assertEqual(p.config_patches(), both)

    def test_defaults_in_the_fx_graph_cache_key(self):
        x = torch.randn(8, device=DEVICE)
        fn = lambda a: a.sin() + 1  # noqa: E731
        no_policy = RegistrySnapshot()
        with fresh_cache():
            register_device_operator_policy(policy(config_defaults={"size_asserts": False}))
            self.assertEqual(self.compile_counts(fn, x), (1, 0))
            self.assertEqual(self.compile_counts(fn, x), (0, 1))
            # Same version, another default: the key changes.
            no_policy.restore()
            register_device_operator_policy(policy(config_defaults={"size_asserts": True}))
            self.assertEqual(self.compile_counts(fn, x), (1, 0))
            self.assertEqual(self.compile_counts(fn, x), (0, 1))
        self.assertConfigIsStock()

    def test_invalid_defaults_rejected(self):
        cases = [
            ({"no_such_option": 1}, r"'no_such_option' is not a torch\._inductor\.config option"),
            ({"size_asserts": 1}, r"config_defaults\['size_asserts'\] must be a bool like "
                                  r"the option's default True, got 1"),
            ({"post_grad_custom_post_pass": None}, "holds a callable that no cache key"),
            ({"_pre_fusion_custom_pass": None}, "holds a callable that no cache key"),
            ([("size_asserts", False)], "config_defaults must be a mapping"),
        ]
        for defaults, message in cases:
            with self.subTest(message), self.assertRaisesRegex(
                DeviceOperatorPolicyError, r"device type 'extension_device'.*" + message
            ):
                policy(config_defaults=defaults)

    def test_cache_key_covers_defaults(self):
        a = policy(config_defaults={"size_asserts": False})
        self.assertNotEqual(a.cache_key, policy().cache_key)
        self.assertNotEqual(a.cache_key, policy(config_defaults={"size_asserts": True}).cache_key)
        self.assertEqual(a, policy(config_defaults={"size_asserts": False}))


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Per-device Inductor options and custom graph passes on ``extension_device``.

A backend's operator policy carries the defaults of core Inductor options
(``config_defaults``) and custom graph passes (``custom_passes``) for its
device.  They replace global writes such as ``config.size_asserts = False``
or ``config.post_grad_custom_post_pass = ...`` at import: they apply to that
device's compiles only, the user's options still win, the global config is
never changed, and both are part of the cache keys.
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
from torch._inductor.custom_graph_pass import CustomGraphPass
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


class SinToCos(CustomGraphPass):
    """Rewrites aten.sin as aten.cos, so the result shows where it ran, and
    records the graphs it saw."""

    def __init__(self, version="1"):
        self.version = version
        self.calls = 0

    def __call__(self, graph):
        self.calls += 1
        for node in graph.nodes:
            if node.target is aten.sin.default:
                node.target = aten.cos.default

    def uuid(self):
        return f"SinToCos-{self.version}"


class PreGradRecorder(CustomGraphPass):
    def __init__(self):
        self.calls = 0

    def __call__(self, graph):
        self.calls += 1

    def uuid(self):
        return "PreGradRecorder"


class NoUuid(CustomGraphPass):
    def __call__(self, graph):
        pass

    def uuid(self):
        return None


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
        self.assertIsNone(inductor_config.post_grad_custom_post_pass)

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
            ({"post_grad_custom_post_pass": SinToCos()},
             r"custom graph pass option; pass custom_passes=\{'post_grad_custom_post_pass'"),
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


class CustomPassTests(DeviceCompileConfigTestCase):
    def test_post_grad_pass_runs_on_the_device_only(self):
        # What torch_npu does with `config.post_grad_custom_post_pass = ...`.
        p = SinToCos()
        register_device_operator_policy(policy(custom_passes={"post_grad_custom_post_pass": p}))
        x = torch.randn(8)
        dev_out, _ = self.compile_code(torch.sin, x.to(DEVICE))
        self.assertEqual(dev_out.cpu(), torch.cos(x))
        self.assertEqual(p.calls, 1)
        self.assertConfigIsStock()
        cpu_out, _ = self.compile_code(torch.sin, x)
        self.assertEqual(cpu_out, torch.sin(x))
        self.assertEqual(p.calls, 1)
        self.assertConfigIsStock()

    def test_joint_pass_and_the_users_pass_both_run(self):
        device_pass, user_pass = SinToCos("device"), SinToCos("user")
        register_device_operator_policy(policy(custom_passes={"joint_custom_post_pass": [device_pass]}))
        x = torch.randn(8, device=DEVICE)
        out, _ = self.compile_code(torch.sin, x, options={"joint_custom_post_pass": user_pass})
        self.assertEqual(out.cpu(), torch.cos(x.cpu()))
        self.assertEqual((device_pass.calls, user_pass.calls), (1, 1))
        self.assertConfigIsStock()

    def test_pre_grad_pass_runs_on_the_device_only(self):
        p = PreGradRecorder()
        register_device_operator_policy(policy(custom_passes={"pre_grad_custom_pass": p}))
        x = torch.randn(8)
        self.compile_code(torch.sin, x)
        self.assertEqual(p.calls, 0)
        self.compile_code(torch.sin, x.to(DEVICE))
        self.assertEqual(p.calls, 1)
        self.assertConfigIsStock()

    def test_pass_identity_in_the_fx_graph_cache_key(self):
        x = torch.randn(8, device=DEVICE)
        no_policy = RegistrySnapshot()
        with fresh_cache():
            register_device_operator_policy(
                policy(custom_passes={"post_grad_custom_post_pass": SinToCos("1")})
            )
            self.assertEqual(self.compile_counts(torch.sin, x), (1, 0))
            self.assertEqual(self.compile_counts(torch.sin, x), (0, 1))
            no_policy.restore()
            register_device_operator_policy(
                policy(custom_passes={"post_grad_custom_post_pass": SinToCos("2")})
            )
            self.assertEqual(self.compile_counts(torch.sin, x), (1, 0))
            self.assertEqual(self.compile_counts(torch.sin, x), (0, 1))
        self.assertConfigIsStock()

    def test_invalid_passes_rejected(self):
        cases = [
            ({"post_grad_pass": SinToCos()}, "'post_grad_pass' is not a pass stage; expected one of"),
            ({"post_grad_custom_post_pass": lambda g: None}, "must hold torch._inductor"),
            ({"post_grad_custom_post_pass": NoUuid()}, r"NoUuid\.uuid\(\) returned None"),
        ]
        for passes, message in cases:
            with self.subTest(message), self.assertRaisesRegex(
                DeviceOperatorPolicyError, r"device type 'extension_device'.*" + message
            ):
                policy(custom_passes=passes)


class FakeOverrideTests(DeviceCompileConfigTestCase):
    """``fake_overrides``: what torch_npu does by writing
    ``torch._decomp.decomposition_table``/``meta_table``, popping
    ``py_kernels[Meta]`` and rebinding
    ``fake_tensor.torch_decomp_decompositions``."""

    def setUp(self):
        super().setUp()
        from torch._decomp import decomposition_table, meta_table
        from torch._subclasses import fake_tensor

        self.tables = (
            dict(decomposition_table),
            dict(meta_table),
            fake_tensor.torch_decomp_decompositions,
            dict(aten.sigmoid.default.py_kernels),
        )

    def assertTablesAreStock(self):
        from torch._decomp import decomposition_table, meta_table
        from torch._subclasses import fake_tensor

        self.assertEqual(
            (
                dict(decomposition_table),
                dict(meta_table),
                fake_tensor.torch_decomp_decompositions,
                dict(aten.sigmoid.default.py_kernels),
            ),
            self.tables,
        )

    def test_fake_implementation_for_the_device_only(self):
        from torch._subclasses.fake_tensor import FakeTensorMode

        calls = []

        def sigmoid_fake(x):
            calls.append(x.device.type)
            return x.new_empty(x.shape, dtype=torch.float64)

        register_device_operator_policy(
            policy(fake_overrides={aten.sigmoid.default: sigmoid_fake})
        )
        with FakeTensorMode():
            on_device = aten.sigmoid.default(torch.empty(4, device=DEVICE))
            on_device_again = aten.sigmoid.default(torch.empty(4, device=DEVICE))
            on_cpu = aten.sigmoid.default(torch.empty(4))
        self.assertEqual((on_device.dtype, on_device_again.dtype), (torch.float64,) * 2)
        self.assertEqual(on_cpu.dtype, torch.float32)
        # Not served from the dispatch cache: called for each call.
        self.assertEqual(calls, [DEVICE, DEVICE])
        self.assertTablesAreStock()

    def test_compile_traces_with_the_device_fake(self):
        calls = []

        def sigmoid_fake(x):
            calls.append(x.device.type)
            return torch.empty_like(x)

        register_device_operator_policy(
            policy(fake_overrides={aten.sigmoid.default: sigmoid_fake})
        )
        x = torch.randn(8)
        cpu_out, _ = self.compile_code(torch.sigmoid, x)
        self.assertEqual(cpu_out, torch.sigmoid(x))
        self.assertEqual(calls, [])
        dev_out, _ = self.compile_code(torch.sigmoid, x.to(DEVICE))
        self.assertEqual(dev_out.cpu(), torch.sigmoid(x))
        self.assertIn(DEVICE, calls)
        self.assertTablesAreStock()
        self.assertConfigIsStock()

    def test_a_later_policy_replaces_the_fake_implementations(self):
        from torch._subclasses.fake_tensor import FakeTensorMode

        def sigmoid_fake(x):
            return x.new_empty(x.shape, dtype=torch.float64)

        register_device_operator_policy(
            policy(fake_overrides={aten.sigmoid.default: sigmoid_fake})
        )
        register_device_operator_policy(policy("2"))
        with FakeTensorMode():
            out = aten.sigmoid.default(torch.empty(4, device=DEVICE))
        self.assertEqual(out.dtype, torch.float32)
        self.assertTablesAreStock()

    def test_a_policy_registered_after_a_cached_dispatch_applies(self):
        from torch._subclasses.fake_tensor import FakeTensorMode

        def sigmoid_fake(x):
            return x.new_empty(x.shape, dtype=torch.float64)

        with FakeTensorMode():
            before = aten.sigmoid.default(torch.empty(4, device=DEVICE))
        register_device_operator_policy(
            policy(fake_overrides={aten.sigmoid.default: sigmoid_fake})
        )
        with FakeTensorMode():
            after = aten.sigmoid.default(torch.empty(4, device=DEVICE))
        self.assertEqual((before.dtype, after.dtype), (torch.float32, torch.float64))
        self.assertTablesAreStock()

    def test_fake_overrides_validated_and_keyed(self):
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError,
            r"device type 'extension_device'.*fake_overrides\[aten\.sigmoid\.default\] "
            "must be a callable, got 3",
        ):
            policy(fake_overrides={aten.sigmoid.default: 3})
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "fake_overrides key aten.sigmoid is an overload packet"):
            policy(fake_overrides={aten.sigmoid: torch.empty_like})
        keyed = policy(fake_overrides={aten.sigmoid.default: torch.empty_like})
        self.assertNotEqual(keyed.cache_key, policy().cache_key)


class RealizedInputTests(DeviceCompileConfigTestCase):
    """``realized_input_ops``: what torch_npu does with
    ``add_needs_realized_inputs(...)``, for its device only."""

    @staticmethod
    def fn(x, z):
        y = x + z  # two users, one of them in realized_input_ops
        return y.sigmoid(), y * 2

    def code(self, device):
        x = torch.randn(8, device=device)
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            _, codes = run_and_get_code(torch.compile(self.fn), x, x + 1)
        return "\n".join(codes)

    def test_inputs_realized_on_the_device_only(self):
        from torch._inductor.lowering import needs_realized_inputs

        stock_set = set(needs_realized_inputs)
        # Without the policy y is computed inside the fused kernel.
        FileCheck().check("buf0 = empty_strided").run(self.code(DEVICE))
        register_device_operator_policy(policy(realized_input_ops={aten.sigmoid.default}))
        # Realized: y becomes buf0, which fusion then removes, so the
        # outputs are buf1 and buf2.
        FileCheck().check_not("buf0 = empty_strided").check("buf1 = empty_strided").run(
            self.code(DEVICE)
        )
        FileCheck().check("buf0 = empty_strided").run(self.code("cpu"))
        self.assertEqual(set(needs_realized_inputs), stock_set)
        self.assertConfigIsStock()

    def test_realized_input_ops_validated_and_keyed(self):
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError, "realized_input_ops key aten.sigmoid is an overload packet"
        ):
            policy(realized_input_ops=[aten.sigmoid])
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError, "realized_input_ops must be a collection of OpOverloads"
        ):
            policy(realized_input_ops=aten.sigmoid.default)
        keyed = policy(realized_input_ops=[aten.sigmoid.default])
        self.assertEqual(keyed.realized_input_ops, frozenset({aten.sigmoid.default}))
        self.assertNotEqual(keyed.cache_key, policy().cache_key)
        self.assertEqual(keyed, policy(realized_input_ops={aten.sigmoid.default}))


# Device state a backend keys its compiles on (torch_npu: its determinism
# level); module-level so that the policy's rule has a qualified name.
DETERMINISM = {"level": 0}


def determinism_fields():
    return ("determinism", DETERMINISM["level"])


class CacheKeyFieldTests(DeviceCompileConfigTestCase):
    """``cache_key_fields``: what torch_npu does by wrapping
    ``FxGraphHashDetails.__init__`` and ``AOTAutogradCacheDetails.__init__``."""

    def aot_counts(self, fn, x):
        self.compile_counts(fn, x)
        return (
            counters["inductor"]["fxgraph_cache_miss"],
            counters["inductor"]["fxgraph_cache_hit"],
            counters["aot_autograd"]["autograd_cache_miss"],
            counters["aot_autograd"]["autograd_cache_hit"],
        )

    def test_device_state_in_both_cache_keys(self):
        self.addCleanup(DETERMINISM.update, level=0)
        register_device_operator_policy(policy(cache_key_fields=determinism_fields))
        x = torch.randn(8, device=DEVICE)
        with fresh_cache():
            self.assertEqual(self.aot_counts(torch.sin, x), (1, 0, 1, 0))
            self.assertEqual(self.aot_counts(torch.sin, x), (0, 1, 0, 1))
            DETERMINISM["level"] = 1
            self.assertEqual(self.aot_counts(torch.sin, x), (1, 0, 1, 0))
            self.assertEqual(self.aot_counts(torch.sin, x), (0, 1, 0, 1))
            DETERMINISM["level"] = 0
            self.assertEqual(self.aot_counts(torch.sin, x), (0, 1, 0, 1))
        self.assertConfigIsStock()

    def test_fields_that_raise_fail_the_compile(self):
        def broken():
            raise ValueError("no device")

        p = policy(cache_key_fields=broken)
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError,
            r"cache_key_fields callable .*broken of the operator policy of device "
            r"type 'extension_device' raised ValueError: no device",
        ):
            p.sample_cache_key_fields()
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "cache_key_fields must be a callable"):
            policy(cache_key_fields="level")
        self.assertNotEqual(policy(cache_key_fields=determinism_fields).cache_key, policy().cache_key)


if __name__ == "__main__":
    run_tests()

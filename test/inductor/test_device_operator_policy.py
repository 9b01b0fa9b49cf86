# Owner(s): ["module: inductor"]
"""Device-scoped operator policies (SPEC §5) on ``extension_device``.

A policy changes decompositions and lowerings for its device's compiles only;
the same op compiled on cpu in the same process keeps the default path.
"""

import os
import pickle
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path


TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from extension_backends import operator_policy as policies
from extension_backends.extension_device import register
from extension_backends.testing import BACKEND_SITE, DEVICE, RegistrySnapshot, run_python
from torch._dynamo.utils import counters
from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomGraphPass
from torch._inductor.decomposition import decompositions, select_decomp_table
from torch._inductor.device_operator_policy import (
    DeviceOperatorPolicy,
    DeviceOperatorPolicyError,
    Exclude,
    Fallback,
    get_device_operator_policy,
    PolicyDecompTable,
    register_device_operator_policy,
)
from torch._inductor.lowering import lowerings
from torch._subclasses.fake_tensor import FakeTensorMode
from torch._inductor.utils import fresh_cache, run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils import backend_registration


aten = torch.ops.aten
quarter = policies.quarter
tanh_lowering = policies.tanh_lowering
device_module = register(DEVICE)


def excluding_policy(version="1"):
    return policies.excluding_policy(DEVICE, version)


class PolicyTestCase(TestCase):
    def setUp(self):
        super().setUp()
        from extension_backends.cpp.extension_codegen_backend import (
            register_compile_backend,
        )

        self.snapshot = RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)

    def compile_code(self, fn, x, **config):
        """(result, generated code) of fn(x) compiled without caches."""
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False, **config):
            result, codes = run_and_get_code(torch.compile(fn), x)
        return result, "\n".join(codes)


class DeviceOperatorPolicyConstructionTests(TestCase):
    def test_mappings_are_frozen_copies(self):
        decomps = {aten.hardsigmoid.default: quarter}
        policy = DeviceOperatorPolicy(DEVICE, "1", decomposition_overrides=decomps)
        decomps[aten.silu.default] = quarter
        self.assertEqual(list(policy.decomposition_overrides), [aten.hardsigmoid.default])
        with self.assertRaises(TypeError):
            policy.decomposition_overrides[aten.silu.default] = quarter
        with self.assertRaises(AttributeError):
            policy.version = "2"

    def test_sentinels_pickle_as_themselves(self):
        self.assertIs(pickle.loads(pickle.dumps(Exclude)), Exclude)
        self.assertIs(pickle.loads(pickle.dumps(Fallback)), Fallback)
        self.assertEqual((repr(Exclude), repr(Fallback)), ("Exclude", "Fallback"))

    def test_device_type_normalised(self):
        policy = DeviceOperatorPolicy(torch.device(DEVICE), "1")
        self.assertEqual(policy.device_type, DEVICE)
        self.assertEqual(policy, DeviceOperatorPolicy(DEVICE, "1"))

    def test_exclude_without_lowering_rejected(self):
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError,
            r"device type 'extension_device'.*decomposition_overrides\[aten\.hardswish"
            r"\.default\] is Exclude.*lowering_overrides has no entry for "
            r"aten\.hardswish\.default.*Fallback",
        ):
            DeviceOperatorPolicy(
                DEVICE, "1", decomposition_overrides={aten.hardswish.default: Exclude}
            )
        # A lowering for another op does not count.
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "is Exclude"):
            DeviceOperatorPolicy(
                DEVICE,
                "1",
                decomposition_overrides={aten.hardswish.default: Exclude},
                lowering_overrides={aten.hardsigmoid.default: Fallback},
            )

    def test_invalid_rules_rejected(self):
        cases = [
            ({"decomposition_overrides": {aten.hardswish: quarter}},
             r"overload packet; name the overload, e\.g\. aten\.hardswish\.default"),
            ({"decomposition_overrides": {"aten::hardswish": quarter}},
             "keys must be OpOverloads"),
            ({"decomposition_overrides": {aten.hardswish.default: Fallback}},
             r"decomposition_overrides\[aten\.hardswish\.default\] must be a "
             "callable or Exclude, got Fallback"),
            ({"lowering_overrides": {aten.sigmoid.default: Exclude}},
             r"lowering_overrides\[aten\.sigmoid\.default\] must be a callable "
             "or Fallback, got Exclude"),
            ({"lowering_overrides": {aten.sigmoid.default: 3}},
             "must be a callable or Fallback, got 3"),
            ({"lowering_overrides": [aten.sigmoid.default]},
             "lowering_overrides must be a mapping"),
        ]
        for kwargs, message in cases:
            with self.subTest(message), self.assertRaisesRegex(
                DeviceOperatorPolicyError, message
            ):
                DeviceOperatorPolicy(DEVICE, "1", **kwargs)

    def test_invalid_device_or_version_rejected(self):
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "accelerator device types; 'cpu'"):
            DeviceOperatorPolicy("cpu", "1")
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError, f"per device type; pass '{DEVICE}', not '{DEVICE}:0'"
        ):
            DeviceOperatorPolicy(f"{DEVICE}:0", "1")
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "version must be a non-empty str"):
            DeviceOperatorPolicy(DEVICE, "")
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "expected a device type"):
            DeviceOperatorPolicy(3, "1")

    def test_cache_key_covers_version_and_rules(self):
        base = excluding_policy()
        self.assertTrue(base.cache_key.startswith(f"{DEVICE}:1:"))
        self.assertEqual(base.cache_key, excluding_policy().cache_key)
        other_version = excluding_policy("2")
        # Same version string, one more rule.
        more_rules = DeviceOperatorPolicy(
            DEVICE,
            "1",
            decomposition_overrides={aten.hardswish.default: Exclude},
            lowering_overrides={aten.hardswish.default: Fallback, aten.sigmoid.default: Fallback},
        )
        # Same op, another kind of rule.
        other_kind = DeviceOperatorPolicy(
            DEVICE,
            "1",
            decomposition_overrides={aten.hardswish.default: Exclude},
            lowering_overrides={aten.hardswish.default: tanh_lowering},
        )
        keys = {p.cache_key for p in (base, other_version, more_rules, other_kind)}
        self.assertEqual(len(keys), 4)

    def test_cache_key_names_the_function_a_partial_wraps(self):
        import functools

        def policy(rule):
            return DeviceOperatorPolicy(
                DEVICE, "1", decomposition_overrides={aten.hardsigmoid.default: rule}
            )

        wrapped_quarter = policy(functools.partial(quarter))
        self.assertNotEqual(
            wrapped_quarter.cache_key, policy(functools.partial(torch.sigmoid)).cache_key
        )
        # Rules are identified by qualified name, not by their arguments.
        self.assertEqual(wrapped_quarter.cache_key, policy(quarter).cache_key)

    def test_decomposition_table_never_edits_the_global_one(self):
        before = dict(decompositions)
        policy = DeviceOperatorPolicy(
            DEVICE,
            "1",
            decomposition_overrides={
                aten.hardswish.default: Exclude,
                aten.hardsigmoid.default: quarter,
            },
            lowering_overrides={aten.hardswish.default: Fallback},
        )
        table = PolicyDecompTable(policy, select_decomp_table)()
        self.assertNotIn(aten.hardswish.default, table)
        self.assertIs(table[aten.hardsigmoid.default], quarter)
        self.assertEqual(decompositions, before)
        self.assertIn(aten.hardswish.default, select_decomp_table())
        # An explicit compile_fx(decompositions=...) table wins over the policy.
        explicit = {aten.silu.default: quarter}
        self.assertIs(PolicyDecompTable(policy, lambda: explicit)(), explicit)


class DeviceOperatorPolicyRegistryTests(TestCase):
    def setUp(self):
        super().setUp()
        self.snapshot = RegistrySnapshot.install(self)

    def test_register_and_get(self):
        self.assertIsNone(get_device_operator_policy(DEVICE))
        policy = excluding_policy()
        register_device_operator_policy(policy)
        self.assertIs(get_device_operator_policy(DEVICE), policy)
        self.assertIs(get_device_operator_policy(torch.device(DEVICE)), policy)
        self.assertIsNone(get_device_operator_policy("cpu"))

    def test_get_ignores_the_device_index(self):
        policy = excluding_policy()
        register_device_operator_policy(policy)
        self.assertIs(get_device_operator_policy(f"{DEVICE}:1"), policy)
        self.assertIs(get_device_operator_policy(torch.device(DEVICE, 0)), policy)
        self.assertIsNone(get_device_operator_policy(torch.device("cpu", 0)))

    def test_later_registration_replaces(self):
        # The rule of every door: a later registration replaces the earlier
        # one; the registry's generation moves so that derived answers recompute.
        first, second = excluding_policy("1"), excluding_policy("2")
        register_device_operator_policy(first)
        before = backend_registration._registry_generation
        register_device_operator_policy(second)
        self.assertIs(get_device_operator_policy(DEVICE), second)
        self.assertGreater(backend_registration._registry_generation, before)
        # An equal policy replaces it too.
        again = excluding_policy("2")
        register_device_operator_policy(again)
        self.assertIs(get_device_operator_policy(DEVICE), again)

    def test_register_rejects_other_types(self):
        with self.assertRaisesRegex(DeviceOperatorPolicyError, "expected a DeviceOperatorPolicy, got dict"):
            register_device_operator_policy({"device_type": DEVICE})

    def test_pickles_as_identity_and_resolves_again(self):
        policy = excluding_policy()
        register_device_operator_policy(policy)
        data = pickle.dumps(PolicyDecompTable(policy, select_decomp_table))
        self.assertNotIn(b"hardswish", data)
        table = pickle.loads(data)
        self.assertIs(table.operator_policy, policy)
        self.assertIs(table.base, select_decomp_table)
        # A process without the policy, or with another one, refuses it,
        # naming what it needs.
        self.snapshot.restore()
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError,
            rf"set up with operator policy '{policy.cache_key}' for device type "
            rf"'{DEVICE}', but this process has none\. Import the extension that "
            rf"registers the '{DEVICE}' backend",
        ):
            pickle.loads(data)
        register_device_operator_policy(excluding_policy("2"))
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError, rf"but this process has '{DEVICE}:2:"
        ):
            pickle.loads(data)


class DeviceOperatorPolicyCompileTests(PolicyTestCase):
    def test_exclude_keeps_op_on_the_accelerator_only(self):
        register_device_operator_policy(excluding_policy())
        x = torch.randn(8)

        cpu_out, cpu_code = self.compile_code(torch.nn.functional.hardswish, x)
        FileCheck().check("cpp_fused").check_not("aten.hardswish").run(cpu_code)
        self.assertEqual(cpu_out, torch.nn.functional.hardswish(x))

        dev_out, dev_code = self.compile_code(
            torch.nn.functional.hardswish, x.to(DEVICE)
        )
        FileCheck().check("torch.ops.aten.hardswish.default").run(dev_code)
        self.assertEqual(dev_out.cpu(), torch.nn.functional.hardswish(x))
        # The global table still decomposes it.
        self.assertIn(aten.hardswish.default, decompositions)

    def test_decomposition_override_on_the_accelerator_only(self):
        register_device_operator_policy(policies.decomposing_policy(DEVICE))
        x = torch.randn(8)
        fn = torch.nn.functional.hardsigmoid
        cpu_out, _ = self.compile_code(fn, x)
        self.assertEqual(cpu_out, fn(x))
        dev_out, dev_code = self.compile_code(fn, x.to(DEVICE))
        self.assertEqual(dev_out.cpu(), x * 0.25)
        FileCheck().check("0.25").run(dev_code)

    def test_device_lowering_on_the_accelerator_only(self):
        register_device_operator_policy(policies.lowering_policy(DEVICE))
        x = torch.randn(8)
        cpu_out, cpu_code = self.compile_code(torch.sigmoid, x)
        self.assertEqual(cpu_out, torch.sigmoid(x))
        FileCheck().check("cpp_fused").check_not("tanh").run(cpu_code)
        dev_out, dev_code = self.compile_code(torch.sigmoid, x.to(DEVICE))
        self.assertEqual(dev_out.cpu(), torch.tanh(x))
        FileCheck().check("cpp_fused").check(".tanh()").run(dev_code)

    def test_device_fallback_on_the_accelerator_only(self):
        register_device_operator_policy(policies.fallback_policy(DEVICE))
        x = torch.randn(8)
        _, cpu_code = self.compile_code(torch.sigmoid, x)
        FileCheck().check("cpp_fused_sigmoid").check_not("aten.sigmoid").run(cpu_code)
        dev_out, dev_code = self.compile_code(torch.sigmoid, x.to(DEVICE))
        self.assertEqual(dev_out.cpu(), torch.sigmoid(x))
        FileCheck().check("torch.ops.aten.sigmoid.default").run(dev_code)
        # The default lowering is still there for every other device.
        self.assertIn(aten.sigmoid.default, lowerings)

    def test_user_lowering_wins_over_policy(self):
        from torch._inductor.lowering import register_lowering, user_lowerings

        register_device_operator_policy(policies.fallback_policy(DEVICE))
        # RegistrySnapshot restores user_lowerings.
        register_lowering(aten.sigmoid.default, type_promotion_kind=None, lowering_dict=user_lowerings)(
            tanh_lowering
        )
        x = torch.randn(8, device=DEVICE)
        out, code = self.compile_code(torch.sigmoid, x)
        self.assertEqual(out.cpu(), torch.tanh(x.cpu()))
        FileCheck().check_not("aten.sigmoid").run(code)
        self.snapshot.restore()
        self.assertNotIn(aten.sigmoid.default, user_lowerings)

    def test_training_graph_uses_policy_in_backward(self):
        register_device_operator_policy(excluding_policy())
        x = torch.randn(8, device=DEVICE, requires_grad=True)
        fn = torch.nn.functional.hardswish
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            out, codes = run_and_get_code(lambda: torch.compile(fn)(x).sum().backward())
        ref = x.detach().cpu().requires_grad_()
        fn(ref).sum().backward()
        self.assertEqual(x.grad.cpu(), ref.grad)
        FileCheck().check("torch.ops.aten.hardswish.default").run(codes[0])

    def test_policy_fallback_gets_the_implicit_fallback_layout_constraint(self):
        # hardswish_backward has no default lowering (it is decomposed), so
        # the policy's Fallback stands in for Inductor's implicit fallback and
        # must get its layout constraint: contiguous inputs for an ATen op in
        # a backward graph.  Its first input here is a transposed tangent.
        register_device_operator_policy(
            DeviceOperatorPolicy(
                DEVICE,
                "1",
                decomposition_overrides={
                    aten.hardswish.default: Exclude,
                    aten.hardswish_backward.default: Exclude,
                },
                lowering_overrides={
                    aten.hardswish.default: Fallback,
                    aten.hardswish_backward.default: Fallback,
                },
            )
        )
        self.assertNotIn(aten.hardswish_backward.default, lowerings)
        x = torch.randn(4, 6, device=DEVICE, requires_grad=True)

        def fn(a):
            return torch.nn.functional.hardswish(a).t().contiguous()

        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            _, codes = run_and_get_code(lambda: torch.compile(fn)(x).sum().backward())
        ref = x.detach().cpu().requires_grad_()
        fn(ref).sum().backward()
        self.assertEqual(x.grad.cpu(), ref.grad)
        # The transposed tangent is copied to a contiguous buffer first.
        FileCheck().check("cpp_fused").check(
            "torch.ops.aten.hardswish_backward.default(buf"
        ).run(codes[-1])
        self.assertNotIn(aten.hardswish_backward.default, lowerings)

    def test_cpu_plus_accelerator_supported(self):
        register_device_operator_policy(excluding_policy())
        x = torch.randn(8)

        def fn(a):
            return torch.nn.functional.hardswish(a) + a.cpu().to(DEVICE)

        out, code = self.compile_code(fn, x.to(DEVICE))
        self.assertEqual(out.cpu(), torch.nn.functional.hardswish(x) + x)
        FileCheck().check("torch.ops.aten.hardswish.default").run(code)

    def test_cpu_nodes_of_a_policy_op_keep_the_default_lowering(self):
        register_device_operator_policy(policies.lowering_policy(DEVICE))
        x = torch.randn(8)

        def fn(a):
            return torch.sigmoid(a).cpu() + torch.sigmoid(a.cpu() * 2)

        out, code = self.compile_code(fn, x.to(DEVICE))
        self.assertEqual(out, torch.tanh(x) + torch.sigmoid(x * 2))
        # The device kernel (the one compiled for DEVICE) comes first.
        device_code, cpu_code = code.split(f"device_type='{DEVICE}'", 1)
        FileCheck().check("cpp_fused").check(".tanh()").check_not(".exp()").run(
            device_code
        )
        FileCheck().check("cpp_fused").check(".exp()").check_not("tanh").run(cpu_code)

    def test_policy_lowering_returning_none_defers_to_the_default(self):
        calls = []

        def decline(x):
            calls.append(x)
            return None

        register_device_operator_policy(
            DeviceOperatorPolicy(
                DEVICE, "1", lowering_overrides={aten.sigmoid.default: decline}
            )
        )
        x = torch.randn(8)
        out, code = self.compile_code(torch.sigmoid, x.to(DEVICE))
        self.assertEqual(len(calls), 1)
        self.assertEqual(out.cpu(), torch.sigmoid(x))
        FileCheck().check("cpp_fused").check(".exp()").check_not("aten.sigmoid").run(code)

    def test_excluded_op_on_cpu_nodes_never_edits_global_lowerings(self):
        # The compile's decomposition table keeps hardswish for the CPU nodes
        # of a CPU-plus-accelerator graph too; they fall back to eager
        # without registering a global fallback.
        register_device_operator_policy(excluding_policy())
        self.assertNotIn(aten.hardswish.default, lowerings)
        before = dict(lowerings)
        x = torch.randn(8)

        def fn(a):
            hardswish = torch.nn.functional.hardswish
            return hardswish(a).cpu() + hardswish(a.cpu() * 2)

        out, code = self.compile_code(fn, x.to(DEVICE))
        self.assertEqual(
            out, torch.nn.functional.hardswish(x) + torch.nn.functional.hardswish(x * 2)
        )
        FileCheck().check_count(
            "= torch.ops.aten.hardswish.default(", 2, exactly=True
        ).run(code)
        self.assertEqual(lowerings, before)
        # A CPU-only compile still decomposes it.
        _, cpu_code = self.compile_code(torch.nn.functional.hardswish, x)
        FileCheck().check("cpp_fused").check_not("aten.hardswish").run(cpu_code)

    def test_two_accelerator_types_with_a_policy_refused(self):
        from torch._inductor.device_operator_policy import resolve_operator_policy

        # Resolution reads nothing but the graph's device types.
        device_types = [DEVICE, "cuda"]
        # Without a policy nothing changes: no error, no policy.
        self.assertIsNone(resolve_operator_policy(device_types))
        policy = excluding_policy()
        register_device_operator_policy(policy)
        with self.assertRaisesRegex(
            DeviceOperatorPolicyError,
            rf"accelerator device types 'cuda' \(no policy\), '{DEVICE}' "
            rf"\('{policy.cache_key}'\), whose operator policies conflict.*"
            "Only CPU plus one accelerator is supported",
        ):
            resolve_operator_policy(device_types)
        self.assertIs(resolve_operator_policy([DEVICE, "cpu"]), policy)
        self.assertIs(resolve_operator_policy(iter([DEVICE])), policy)
        self.assertIsNone(resolve_operator_policy(["cpu", "meta"]))
        self.assertIsNone(resolve_operator_policy([]))


class DeviceOperatorPolicyCacheTests(PolicyTestCase):
    def compile_counts(self, fn, x):
        """(FX graph cache misses, hits, AOTAutograd cache misses, hits) of one
        fresh compile of fn(x) with both caches on."""
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
            counters["aot_autograd"]["autograd_cache_miss"],
            counters["aot_autograd"]["autograd_cache_hit"],
        )

    def test_policy_identity_in_both_cache_keys(self):
        x = torch.randn(8, device=DEVICE)
        fn = torch.nn.functional.hardswish
        # Snapshot of the registered compile backend without a policy.
        no_policy = RegistrySnapshot()
        with fresh_cache():
            register_device_operator_policy(excluding_policy("1"))
            self.assertEqual(self.compile_counts(fn, x), (1, 0, 1, 0))
            # Same identity: both caches hit.
            self.assertEqual(self.compile_counts(fn, x), (0, 1, 0, 1))
            # Same rules, another version: both keys change, so both miss
            # (the FX graph is the same, so only the key can make it miss).
            no_policy.restore()
            register_device_operator_policy(excluding_policy("2"))
            self.assertEqual(self.compile_counts(fn, x), (1, 0, 1, 0))
            self.assertEqual(self.compile_counts(fn, x), (0, 1, 0, 1))
            # No policy: a third pair of keys, and the default code.
            no_policy.restore()
            self.assertEqual(self.compile_counts(fn, x), (1, 0, 1, 0))

    def test_autograd_cache_key_helper_matches_policy(self):
        # compile_fx.autograd_cache_key computes the key a compile would use.
        from torch._inductor.compile_fx import autograd_cache_key

        from torch.fx.experimental.symbolic_shapes import ShapeEnv

        def key(device):
            gm = torch.fx.symbolic_trace(lambda a: (torch.nn.functional.hardswish(a),))
            with FakeTensorMode(shape_env=ShapeEnv()):
                inputs = [torch.empty(4, device=device)]
            with inductor_config.patch(fx_graph_cache=True):
                return autograd_cache_key(gm, inputs, ignore_shape_env=False)[0]

        plain = key(DEVICE)
        cpu = key("cpu")
        no_policy = RegistrySnapshot()
        register_device_operator_policy(excluding_policy("1"))
        v1 = key(DEVICE)
        self.assertEqual(v1, key(DEVICE))
        self.assertNotEqual(v1, plain)
        self.assertEqual(key("cpu"), cpu)
        no_policy.restore()
        register_device_operator_policy(excluding_policy("2"))
        self.assertNotIn(key(DEVICE), (plain, v1))

    def test_fx_graph_key_without_policy_is_unchanged(self):
        from torch._inductor.codecache import compiled_fx_graph_hash

        gm = torch.fx.symbolic_trace(lambda a: a + 1)
        inputs = [torch.randn(4)]

        def key(get_decomp_fn):
            return compiled_fx_graph_hash(gm, inputs, {"get_decomp_fn": get_decomp_fn}, [])[0]

        plain = key(select_decomp_table)
        policy = excluding_policy("1")
        register_device_operator_policy(policy)
        # A registered policy leaves the key of a compile without it alone.
        self.assertEqual(key(select_decomp_table), plain)
        with_policy = key(PolicyDecompTable(policy, select_decomp_table))
        self.assertNotEqual(plain, with_policy)
        self.assertEqual(with_policy, key(PolicyDecompTable(policy, select_decomp_table)))
        self.assertNotEqual(
            with_policy, key(PolicyDecompTable(excluding_policy("2"), select_decomp_table))
        )


class DeviceOperatorPolicyProcessTests(TestCase):
    """A compile's policy crosses a process or serialisation boundary as its
    device type and cache key only, and is resolved again on the other side."""

    # A fresh interpreter that registers the device, its compile backend and
    # the lowering policy, as a backend's worker would by importing it.  Run
    # it with ENV (no FX graph cache: every compile lowers).
    ENV = {"TORCHINDUCTOR_FX_GRAPH_CACHE": "0"}
    SETUP = f"""
        import torch
        from extension_backends.extension_device import register
        from extension_backends.cpp.extension_codegen_backend import register_compile_backend
        from extension_backends import operator_policy as policies
        from torch._inductor.device_operator_policy import register_device_operator_policy
        from torch._inductor.utils import run_and_get_code
        import torch._inductor.config as inductor_config

        register({DEVICE!r})
        register_compile_backend({DEVICE!r})
        register_device_operator_policy(policies.lowering_policy({DEVICE!r}))
        assert not inductor_config.fx_graph_cache
        x = torch.randn(8)
    """

    def test_serialized_compile_with_compile_threads_resolves_policy(self):
        # "serialize" pickles the compile's inputs, graph_kwargs included, and
        # compiles from the unpickled copy: the lowering shows only if the
        # policy was resolved again from its key.
        proc = run_python(
            self.SETUP
            + f"""
        from torch._inductor import compile_fx
        assert inductor_config.compile_threads == 2, inductor_config.compile_threads
        assert compile_fx.fx_compile_mode.name == "SERIALIZE", compile_fx.fx_compile_mode
        out, codes = run_and_get_code(torch.compile(torch.sigmoid), x.to({DEVICE!r}))
        assert torch.allclose(out.cpu(), torch.tanh(x)), out
        print("DEVICE CODE", "\\n".join(codes))
        torch._dynamo.reset()
        out, codes = run_and_get_code(torch.compile(torch.sigmoid), x)
        assert torch.allclose(out, torch.sigmoid(x)), out
        print("CPU CODE", "\\n".join(codes))
        """,
            TORCHINDUCTOR_FX_COMPILE_MODE="serialize",
            TORCHINDUCTOR_COMPILE_THREADS="2",
            **self.ENV,
        )
        device_code, cpu_code = proc.stdout.split("CPU CODE")
        FileCheck().check("DEVICE CODE").check("cpp_fused").check(".tanh()").run(device_code)
        FileCheck().check("cpp_fused").check_not("tanh").run(cpu_code)

    def test_fresh_process_resolves_or_names_policy(self):
        policy = policies.lowering_policy(DEVICE)
        data = pickle.dumps(PolicyDecompTable(policy, select_decomp_table)).hex()
        check = f"""
        import pickle
        from torch._inductor.device_operator_policy import DeviceOperatorPolicyError
        try:
            table = pickle.loads(bytes.fromhex({data!r}))
        except DeviceOperatorPolicyError as err:
            print("FAILED:", err)
        else:
            print("RESOLVED:", table.operator_policy.cache_key)
        """
        # With the backend imported, the same policy is found by its key ...
        proc = run_python(self.SETUP + check, **self.ENV)
        self.assertIn(f"RESOLVED: {policy.cache_key}", proc.stdout)
        # ... without it, the failure names the policy and the device.
        proc = run_python(check)
        self.assertRegex(
            proc.stdout,
            rf"FAILED: this compile was set up with operator policy "
            rf"'{policy.cache_key}' for device type '{DEVICE}', but this process "
            rf"has none\. Import the extension that registers the '{DEVICE}' backend",
        )

    def policy_backend_site(self) -> Path:
        """A site directory holding a distribution whose
        ``torch_inductor_backends`` entry point for DEVICE loads the backend
        and registers the lowering policy, as a backend's loader should."""
        site = Path(tempfile.mkdtemp(prefix="site-"))
        self.addCleanup(shutil.rmtree, site, True)
        (site / "policy_backend.py").write_text(textwrap.dedent(
            f"""
            from extension_backends import operator_policy as policies
            from extension_backends.cpp.extension_codegen_backend import load_extension_device
            from torch._inductor.device_operator_policy import register_device_operator_policy

            def load():
                load_extension_device()
                register_device_operator_policy(policies.lowering_policy({DEVICE!r}))
            """
        ))
        dist_info = site / "policy_backend-1.0.dist-info"
        dist_info.mkdir()
        (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: policy-backend\nVersion: 1.0\n")
        (dist_info / "entry_points.txt").write_text(
            f"[torch_inductor_backends]\n{DEVICE} = policy_backend:load\n"
        )
        return site

    def test_first_compile_uses_the_policy_its_backend_loader_registers(self):
        # The device is registered with eager PyTorch only; its Inductor
        # backend and policy come from the entry point, which the first
        # compile loads before it resolves the policy.
        site = self.policy_backend_site()
        code = f"""
        import torch
        from extension_backends.extension_device import register
        from torch._inductor.device_operator_policy import get_device_operator_policy

        register({DEVICE!r})
        assert get_device_operator_policy({DEVICE!r}) is None
        x = torch.randn(8)
        out = torch.compile(torch.sigmoid)(x.to({DEVICE!r}))
        assert get_device_operator_policy({DEVICE!r}) is not None
        print("TANH" if torch.allclose(out.cpu(), torch.tanh(x)) else "SIGMOID")
        """
        proc = run_python(
            code,
            PYTHONPATH=f"{TEST_DIR}{os.pathsep}{site}",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
            **self.ENV,
        )
        self.assertIn("TANH", proc.stdout)

    def test_compile_subprocess_resolves_policy_from_the_backend_distribution(self):
        # fx_compile_mode=subprocess: the graph is compiled in a fresh
        # interpreter, which loads the device's backend by its
        # torch_inductor_backends entry point. If that loader also registers
        # the policy, the child resolves it; if not, the compile fails naming it.
        site = self.policy_backend_site()
        code = self.SETUP + f"""
        try:
            out = torch.compile(torch.sigmoid)(x.to({DEVICE!r}))
        except Exception as err:
            print("FAILED:", err)
        else:
            print("TANH" if torch.allclose(out.cpu(), torch.tanh(x)) else "SIGMOID")
        """
        env = dict(
            TORCHINDUCTOR_FX_COMPILE_MODE="subprocess",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
            **self.ENV,
        )
        proc = run_python(code, PYTHONPATH=f"{TEST_DIR}{os.pathsep}{site}", **env)
        self.assertIn("TANH", proc.stdout)
        proc = run_python(code, PYTHONPATH=f"{TEST_DIR}{os.pathsep}{BACKEND_SITE}", **env)
        self.assertIn("FAILED:", proc.stdout)
        self.assertIn(
            f"this compile was set up with operator policy "
            f"'{policies.lowering_policy(DEVICE).cache_key}' for device type '{DEVICE}', "
            "but this process has none",
            proc.stdout,
        )


class RecordingPass(CustomGraphPass):
    """Rewrites aten.sin as aten.cos; records each call's ``config.max_fusion_size``."""

    def __init__(self):
        self.seen = []

    def __call__(self, graph):
        self.seen.append(inductor_config.max_fusion_size)
        for node in graph.find_nodes(op="call_function", target=aten.sin.default):
            node.target = aten.cos.default

    def uuid(self):
        return "RecordingPass"


def aot_passes_backend(gm, example_inputs):
    """A custom Dynamo backend in torchair's shape: AOTAutograd with Inductor's
    joint-graph and post-grad passes, no compile_fx."""
    from functorch.compile import make_boxed_func
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.partitioners import default_partition
    from torch._inductor.fx_passes.joint_graph import joint_graph_passes
    from torch._inductor.fx_passes.post_grad import post_grad_passes

    def compiler(graph, inputs):
        post_grad_passes(graph, is_inference=False)
        return make_boxed_func(graph.forward)

    def partition_fn(joint, joint_inputs, **kwargs):
        joint_graph_passes(joint)
        return default_partition(joint, joint_inputs, **kwargs)

    backend = aot_autograd(
        fw_compiler=compiler, bw_compiler=compiler, partition_fn=partition_fn
    )
    return backend(gm, example_inputs)


class AotAutogradBackendTests(PolicyTestCase):
    def test_joint_and_post_grad_passes_of_a_custom_backend_get_the_policy(self):
        joint, post = RecordingPass(), RecordingPass()
        register_device_operator_policy(DeviceOperatorPolicy(
            DEVICE, "1", config_defaults={"max_fusion_size": 7},
            custom_passes={"joint_custom_post_pass": joint,
                           "post_grad_custom_post_pass": post},
        ))
        stock = inductor_config.get_config_copy()
        # The joint pass rewrites the forward's sin; sin's backward has none.
        for device, forward in (("cpu", torch.sin), (DEVICE, torch.cos)):
            with self.subTest(device):
                torch._dynamo.reset()
                x = torch.randn(8, device=device, requires_grad=True)
                out = torch.compile(torch.sin, backend=aot_passes_backend)(x)
                out.sum().backward()
                ref = x.detach().cpu()
                self.assertEqual(out.detach().cpu(), forward(ref))
                self.assertEqual(x.grad.cpu(), torch.cos(ref))
        # Once per graph (the joint graph; the forward and the backward), the
        # device's defaults applied around them only.
        self.assertEqual((joint.seen, post.seen), ([7], [7, 7]))
        self.assertEqual(inductor_config.get_config_copy(), stock)

    def test_compile_fx_applies_the_policy_once_under_the_users_options(self):
        # The user sets the option the policy defaults (to its stock value): the
        # passes inside compile_fx must not apply the device default again.
        register_device_operator_policy(DeviceOperatorPolicy(
            DEVICE, "1", config_defaults={"max_fusion_size": 7}))
        user = RecordingPass()
        stock = inductor_config.max_fusion_size
        torch._dynamo.reset()
        options = {"max_fusion_size": stock, "post_grad_custom_post_pass": user}
        with inductor_config.patch(fx_graph_cache=False):
            torch.compile(torch.sin, options=options)(torch.randn(8, device=DEVICE))
        self.assertEqual(user.seen, [stock])


if __name__ == "__main__":
    run_tests()

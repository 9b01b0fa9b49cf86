# Owner(s): ["module: inductor"]
"""C++-backend choices that ask the device's record instead of the name "cpu".

On the C++-scheduled ``extension_device`` the lowerings and decompositions tuned
for Inductor's C++ backend take cpu's path (``is_cpp_scheduled``);
``test_cpp_kernel_parity.py`` checks them all at once, by comparing the C++
kernels of a corpus with cpu's. Here, what that corpus does not reach: the
choices behind options off by default (combo kernels, cooperative reductions,
``disable_cpp_codegen``), the thread count in the FX graph cache key, and the
templates. C++ GEMM and flex-attention templates emit host code that reads host
memory: a C++-scheduled device gets them as cpu does, and opts out by
overriding ``backend_features()`` without ``BackendFeature.CPP_TEMPLATES``.
``flex_attention`` runs on a device whose record is GPU-class (Triton; in
Triton's interpreter, in a fresh process) or uses the C++ templates. Each result
is compared with eager.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import (
    BackendFeature,
    CpuInterface,
    CudaInterface,
    DeviceInterface,
    MpsInterface,
    MtiaInterface,
    TpuInterface,
    XpuInterface,
)
from torch._dynamo.utils import counters
from torch._inductor.choices import InductorChoices
from torch._inductor.codecache import compiled_fx_graph_hash
from torch._inductor.utils import run_and_get_code
from torch.nn.attention.flex_attention import (
    _flex_lowering,
    create_block_mask,
    flex_attention,
)
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python

register(DEVICE)


class CppTemplatesInterface(ExtensionDeviceInterface):
    """The device, declaring its features, C++ templates among them."""

    @classmethod
    def backend_features(cls, device=None):
        return super().backend_features(device) | {BackendFeature.CPP_TEMPLATES}


class NoCppTemplatesInterface(ExtensionDeviceInterface):
    """The device, declaring its features, C++ templates not among them."""

    @classmethod
    def backend_features(cls, device=None):
        return super().backend_features(device) | {BackendFeature.FOREACH_KERNELS}


def _randn(*size):
    return torch.randn(*size, device=DEVICE)


def _causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


class _DeviceTestCase(TestCase):
    interface = ExtensionDeviceInterface

    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE, self.interface)
        patch = inductor_config.patch(fx_graph_cache=False)
        patch.__enter__()
        self.addCleanup(patch.__exit__, None, None, None)
        counters.clear()

    def compile_and_compare(self, fn, *args, exact=True, **patches):
        """``fn`` compiled, compared with eager on the device; the generated code."""
        torch._dynamo.reset()
        with inductor_config.patch(patches):
            actual, codes = run_and_get_code(torch.compile(fn), *args)
        expected = fn(*args)
        self.assertEqual(actual.device, expected.device)
        tol = {"atol": 0, "rtol": 0} if exact else {"atol": 1e-4, "rtol": 1e-4}
        self.assertEqual(actual.cpu(), expected.cpu(), **tol)
        return "".join(codes)


class CppBackendChoiceTests(_DeviceTestCase):
    def test_combo_kernels_leave_cpp_scheduled_nodes(self):
        # Combo kernels are Triton's: the C++ scheduling has none to emit.
        a, b = _randn(64), _randn(8, 256)
        fn = lambda a, b: (a.sin() + 1, b.cos().sum(-1))  # noqa: E731
        with inductor_config.patch(combo_kernels=True):
            actual, codes = run_and_get_code(torch.compile(fn), a, b)
        self.assertEqual([t.cpu() for t in actual], [t.cpu() for t in fn(a, b)])
        self.assertIn("cpp_fused", "".join(codes))

    def test_no_cooperative_reductions(self):
        # A Triton feature: answered before the graph is asked, as for cpu.
        with inductor_config.patch({"triton.cooperative_reductions": True}):
            for device in ("cpu", DEVICE):
                self.assertFalse(InductorChoices.should_use_cooperative_reduction(
                    torch.device(device), 16, 1 << 20))

    def test_fx_graph_cache_key_holds_the_thread_count(self):
        # The C++ kernels specialize on the thread count; a cached graph
        # compiled under another one is not reused.
        gm = torch.fx.symbolic_trace(lambda x: x + 1)
        x = _randn(8)
        threads = torch.get_num_threads()
        self.addCleanup(torch.set_num_threads, threads)
        keys = []
        for count in (threads, 2 if threads == 1 else 1):
            torch.set_num_threads(count)
            keys.append(compiled_fx_graph_hash(gm, [x], {}, [])[0])
        self.assertNotEqual(keys[0], keys[1])

    def test_disable_cpp_codegen_falls_back(self):
        code = self.compile_and_compare(lambda x: (x + 1).sin(), _randn(16),
                                        disable_cpp_codegen=True)
        self.assertNotIn("cpp_fused", code)

    def test_in_tree_answers_are_stock(self):
        # Stock: C++ templates and the C++ flex lowering for cpu only, which the
        # gates keep as 2.13's literal; no in-tree interface declares the member.
        for interface in (CpuInterface, CudaInterface, XpuInterface, MtiaInterface,
                          MpsInterface, TpuInterface, DeviceInterface):
            self.assertNotIn(BackendFeature.CPP_TEMPLATES, interface.backend_features())
        # flex_attention's front end asks no in-tree device's record (mtia is GPU-class).
        for name in ("cuda", "cpu", "xpu", "hpu", "mps", "mtia", "meta"):
            self.assertIsNone(_flex_lowering(torch.device(name)), name)


class DeclaredCppTemplatesTests(_DeviceTestCase):
    interface = CppTemplatesInterface

    def test_declared_member_keeps_the_templates(self):
        code = self.compile_and_compare(torch.bmm, _randn(4, 16, 32), _randn(4, 32, 8),
                                        exact=False, max_autotune=True,
                                        max_autotune_gemm_backends="CPP")
        self.assertIn("micro_gemm", code)
        self.assertEqual(_flex_lowering(torch.device(DEVICE)), "cpp")


class CppTemplatesOptOutTests(_DeviceTestCase):
    # An interface that states its features without the member: its memory
    # need not be host memory, so neither template runs.
    interface = NoCppTemplatesInterface

    def test_override_without_the_member_opts_out(self):
        code = self.compile_and_compare(torch.bmm, _randn(4, 16, 32), _randn(4, 32, 8),
                                        exact=False, max_autotune=True,
                                        max_autotune_gemm_backends="ATEN,CPP")
        self.assertNotIn("micro_gemm", code)
        q = _randn(1, 2, 128, 16)
        with self.assertRaisesRegex(
            ValueError, "FlexAttention is only supported on CUDA, CPU, HPU, or MPS devices"
        ):
            flex_attention(q, q, q)


class CppTemplateTests(_DeviceTestCase):
    # The device's own interface states no features: a C++-scheduled device
    # gets cpu's templates.

    def test_cpp_gemm_templates(self):
        a, b = _randn(4, 16, 32), _randn(4, 32, 8)
        fn = lambda a, b: torch.bmm(a, b).relu()  # noqa: E731
        code = self.compile_and_compare(fn, a, b, exact=False, max_autotune=True,
                                        max_autotune_gemm_backends="CPP")
        self.assertIn("micro_gemm", code)
        linear = torch.nn.Linear(64, 32).to(DEVICE)
        with torch.no_grad():
            code = self.compile_and_compare(linear, _randn(16, 64), exact=False,
                                            max_autotune=True, freezing=True,
                                            max_autotune_gemm_backends="CPP")
        self.assertIn("micro_gemm", code)

    def test_cpp_gemm_template_local_accumulator(self):
        # N = 5 is padded to the register block on every ISA: the template
        # accumulates in a kernel-local buffer, which must live on the device
        # of the output (a cpu one made the store a device copy, and failed).
        a, b = _randn(4, 16, 32), _randn(4, 32, 5)
        code = self.compile_and_compare(torch.bmm, a, b, exact=False, max_autotune=True,
                                        max_autotune_gemm_backends="CPP")
        self.assertIn("local_acc_buf", code)

    def test_cpp_gemm_templates_benchmarked_against_aten(self):
        # The default backends: the template and aten are benchmarked on the
        # host, and no multi-template buffer reaches the C++ scheduling.
        linear = torch.nn.Linear(64, 32).to(DEVICE)
        with torch.no_grad():
            self.compile_and_compare(lambda x: linear(x).relu(), _randn(16, 64), exact=False,
                                     max_autotune=True, freezing=True,
                                     autotune_local_cache=False)
        self.assertEqual(counters["inductor"]["select_algorithm_autotune"], 1)

    def test_flex_attention_in_the_cpp_template(self):
        q, k, v = _randn(1, 2, 128, 16), _randn(1, 2, 128, 16), _randn(1, 2, 128, 16)
        score_mod = lambda s, b, h, q_idx, kv_idx: s + (q_idx - kv_idx)  # noqa: E731
        eager = flex_attention(q, k, v, score_mod=score_mod)
        self.assertEqual(eager.cpu(), flex_attention(q.cpu(), k.cpu(), v.cpu(),
                                                     score_mod=score_mod))
        mask = create_block_mask(_causal, 1, 2, 128, 128, device=DEVICE)
        fn = lambda q, k, v: flex_attention(q, k, v, block_mask=mask)  # noqa: E731
        code = self.compile_and_compare(fn, q, k, v, exact=False)
        self.assertIn("cpp_fused_flex_attention", code)
        # The C++ template is inference only, as on cpu.
        with self.assertRaisesRegex(NotImplementedError, "does not support backward on CPU"):
            flex_attention(q.requires_grad_(), k, v)


class TritonFlexAttentionTests(TestCase):
    def test_flex_attention_in_the_triton_template(self):
        # The Triton variant, GPU-class: its template runs in Triton's interpreter.
        proc = run_python(
            """
            import torch
            from extension_backends.extension_device import register
            from extension_backends.testing import DEVICE
            from extension_backends.triton_codegen_backend import register_triton_backend
            from torch._inductor import config
            from torch._inductor.utils import run_and_get_code
            from torch.nn.attention.flex_attention import flex_attention

            register(DEVICE)
            register_triton_backend(DEVICE)
            q, k, v = (torch.randn(1, 1, 128, 16, device=DEVICE) for _ in range(3))
            expected = flex_attention(q.cpu(), k.cpu(), v.cpu())
            torch.testing.assert_close(flex_attention(q, k, v).cpu(), expected)
            with config.patch(fx_graph_cache=False):
                actual, codes = run_and_get_code(torch.compile(flex_attention), q, k, v)
            torch.testing.assert_close(actual.cpu(), expected)
            assert actual.device == q.device and "@triton.jit" in "".join(codes), codes
            print("flex ok")
            """,
            TRITON_INTERPRET="1",
        )
        self.assertIn("flex ok", proc.stdout)


if __name__ == "__main__":
    run_tests()

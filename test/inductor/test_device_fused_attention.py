# Owner(s): ["module: inductor"]
"""A backend's own fused attention kernel survives torch.compile.

``extension_device`` supplies one the way a real backend does: its
``_fused_sdp_choice`` (the ATen dispatch stub ``scaled_dot_product_attention``
asks, and the operator) picks ``SDPBackend.OVERRIDEABLE``, and it implements
``_scaled_dot_product_fused_attention_overrideable`` and its backward (on the
host, counting its calls).  Compiled, a ``scaled_dot_product_attention`` call
and a hand-written attention that ``fuse_attention`` rewrites both call that
kernel once per attention, forward and backward, as extern kernels, and give
eager's results.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch.nn.functional as F
from torch._inductor import config as inductor_config
from torch._inductor.utils import run_and_get_code
from torch.nn.attention import sdpa_kernel, SDPBackend
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import register_compile_backend
from extension_backends.extension_device import load_library, register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)

FORWARD = "aten._scaled_dot_product_fused_attention_overrideable.default("
BACKWARD = "aten._scaled_dot_product_fused_attention_overrideable_backward.default("


def _qkv(*size):
    generator = torch.Generator().manual_seed(0)
    return [torch.randn(*size, generator=generator).to(DEVICE).requires_grad_()
            for _ in range(3)]


def _calls():
    """(forward, backward) calls of the device's fused attention kernel so far."""
    return load_library().fused_attention_calls()


class FusedAttentionTest(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        patch = inductor_config.patch(fx_graph_cache=False)
        patch.__enter__()
        self.addCleanup(patch.__exit__, None, None, None)

    def run_step(self, fn, inputs, compiled):
        """Forward and backward of ``fn``; outputs, gradients, kernel calls, code."""
        for t in inputs:
            t.grad = None
        before = _calls()
        if compiled:
            torch._dynamo.reset()
            fn = torch.compile(fn)

        def step():
            out = fn(*inputs)
            out.sum().backward()
            return out

        out, codes = run_and_get_code(step) if compiled else (step(), [])
        calls = tuple(after - b for after, b in zip(_calls(), before))
        return out.detach().cpu(), [t.grad.cpu() for t in inputs], calls, "".join(codes)

    def test_choice_is_the_overrideable_kernel(self):
        q, k, v = _qkv(2, 4, 8, 16)

        def choice(*args, **kwargs):
            return SDPBackend(torch._fused_sdp_choice(*args, **kwargs))

        self.assertEqual(choice(q, k, v), SDPBackend.OVERRIDEABLE)
        with sdpa_kernel(SDPBackend.MATH):
            self.assertEqual(choice(q, k, v), SDPBackend.MATH)
        # What the kernel does not support takes the math path.
        self.assertEqual(choice(q, k, v, dropout_p=0.5), SDPBackend.MATH)
        self.assertEqual(choice(q[0], k[0], v[0]), SDPBackend.MATH)

    def test_compiled_sdpa_calls_the_kernel(self):
        q, k, v = _qkv(2, 4, 8, 16)
        bias = torch.randn(8, 8).to(DEVICE).requires_grad_()

        def fn(q, k, v, bias):
            causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return F.scaled_dot_product_attention(causal, k, v, attn_mask=bias)

        inputs = [q, k, v, bias]
        out, grads, calls, _ = self.run_step(fn, inputs, compiled=False)
        self.assertEqual(calls, (2, 2))
        # The kernel computes what the math path computes.
        with sdpa_kernel(SDPBackend.MATH):
            math_out, math_grads, math_calls, _ = self.run_step(fn, inputs, compiled=False)
        self.assertEqual(math_calls, (0, 0))
        self.assertEqual(out, math_out, atol=1e-5, rtol=1e-5)
        self.assertEqual(grads, math_grads, atol=1e-5, rtol=1e-5)

        actual, actual_grads, calls, code = self.run_step(fn, inputs, compiled=True)
        self.assertEqual(calls, (2, 2))
        self.assertEqual(code.count(FORWARD), 2)
        self.assertEqual(code.count(BACKWARD), 2)
        self.assertEqual(actual, out)
        self.assertEqual(actual_grads, grads)

    def test_cpp_wrapper_calls_the_kernel_through_the_dispatcher(self):
        # The device's C shim has no function for the kernel (its overrides'
        # c_shim_device() says so): the C++ wrapper calls it through the
        # dispatcher, integer returns (max_q, max_k) included.
        q, k, v = _qkv(2, 4, 8, 16)

        def fn(q, k, v):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

        out, grads, _, _ = self.run_step(fn, [q, k, v], compiled=False)
        with inductor_config.patch(cpp_wrapper=True):
            actual, actual_grads, calls, code = self.run_step(fn, [q, k, v], compiled=True)
        self.assertEqual(calls, (1, 1))
        self.assertNotIn("aoti_torch_extension_device_", code)
        # Forward: through Python (StableIValue cannot carry its mixed returns);
        # backward: a boxed dispatcher call.
        self.assertIn(FORWARD.replace("aten.", '"torch.ops.aten.').rstrip("("), code)
        self.assertIn('findSchemaOrThrow("aten::_scaled_dot_product_fused_attention_overrideable_backward"', code)
        self.assertEqual(actual, out)
        self.assertEqual(actual_grads, grads)

    def test_hand_written_attention_is_rewritten_to_the_kernel(self):
        q, k, v = _qkv(2, 4, 8, 16)

        def fn(q, k, v):
            return (q @ k.transpose(-2, -1) / 4.0).softmax(dim=-1) @ v

        out, grads, calls, _ = self.run_step(fn, [q, k, v], compiled=False)
        self.assertEqual(calls, (0, 0))
        actual, actual_grads, calls, code = self.run_step(fn, [q, k, v], compiled=True)
        self.assertEqual(calls, (1, 1))
        self.assertEqual((code.count(FORWARD), code.count(BACKWARD)), (1, 1))
        self.assertEqual(actual, out, atol=1e-5, rtol=1e-5)
        self.assertEqual(actual_grads, grads, atol=1e-5, rtol=1e-5)

    def test_math_setting_compiles_without_the_kernel(self):
        q, k, v = _qkv(2, 4, 8, 16)
        fn = lambda q, k, v: F.scaled_dot_product_attention(q, k, v)  # noqa: E731
        with sdpa_kernel(SDPBackend.MATH):
            _, _, calls, code = self.run_step(fn, [q, k, v], compiled=True)
        self.assertEqual(calls, (0, 0))
        self.assertNotIn(FORWARD, code)


if __name__ == "__main__":
    run_tests()

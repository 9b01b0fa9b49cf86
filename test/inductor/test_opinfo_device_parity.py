# Owner(s): ["module: inductor"]
"""torch.compile on the fake PrivateUse1 device against torch.compile on cpu,
over a fixed sample of PyTorch's OpInfo database (``op_db``).

For each sampled op, its first float32 sample (its first two for the ops in
``TWO_SAMPLES``) runs eagerly and compiled (Inductor, Python wrapper) on cpu
and on ``extension_device``; a sample passes
on a device when its compiled results match its eager results there. Every
sample that passes on cpu must pass on the device, unless the device's own
eager kernels cannot run it (``EAGER_GAPS``, each with its reason; a gap that
is no longer one fails the test, so that its entry goes). Random ops compare
with ``fallback_random=True``, the setting under which they match eagerly on
cpu. One process, with Inductor's on-disk caches (``TORCHINDUCTOR_CACHE_DIR``).
"""

import sys
from pathlib import Path


TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from torch._inductor import config
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils._pytree import tree_map

from extension_backends.cpp.extension_codegen_backend import register_compile_backend
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)

#: The sampled ops, by OpInfo name (``name.variant``): the random ops, the
#: factory, attention and FFT ops and the batch norm and convolution samples
#: that once failed on the device only, and one or more ops of each kind of
#: lowering (pointwise, reductions, normalizations, matmuls, indexing, views,
#: sorting, fallbacks).
OPS = [
    # random ops, under fallback_random
    "bernoulli",
    "normal",
    "normal.in_place",
    "exponential",
    "geometric",
    "rand_like",
    "randn_like",
    "nn.functional.rrelu",
    "nn.functional.feature_alpha_dropout.with_train",
    "nn.functional.dropout",
    # factories, attention, FFT
    "empty_strided",
    "nn.functional.multi_head_attention_forward",
    "nn.functional.scaled_dot_product_attention",
    "fft.fft",
    "fft.rfft",
    "fft.hfftn",
    # normalizations and convolutions
    "native_batch_norm",
    "_native_batch_norm_legit",
    "nn.functional.layer_norm",
    "nn.functional.group_norm",
    "nn.functional.conv2d",
    "nn.functional.max_pool2d",
    # pointwise, reductions, softmax
    "add",
    "sin",
    "where",
    "pow",
    "nn.functional.gelu",
    "sum",
    "var_mean",
    "logsumexp",
    "cumsum",
    "argmax",
    "softmax",
    "log_softmax",
    "nn.functional.cross_entropy",
    # matmuls, indexing, views, sorting
    "matmul",
    "addmm",
    "index_put",
    "index_select",
    "gather",
    "scatter_add",
    "masked_fill",
    "nn.functional.embedding",
    "as_strided",
    "unfold",
    "cat",
    "split",
    "sort",
    "topk",
    # an eager gap of the device
    "sparse.sampled_addmm",
]

#: Ops whose samples the device cannot run eagerly, and why.
EAGER_GAPS = {
    "sparse.sampled_addmm": "sparse CSR tensors: the device registers no "
    "SparseCsrPrivateUse1 kernels",
}

#: Ops whose result is uninitialized memory: only shape, dtype and device compare.
UNINITIALIZED = ("empty", "new_empty")

#: Ops whose second sample matters too (eval mode).
TWO_SAMPLES = ("native_batch_norm", "_native_batch_norm_legit")


def _op_name(op) -> str:
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


def _metadata(value):
    if isinstance(value, torch.Tensor):
        return value.shape, value.dtype, value.device
    return value


def _clone(value):
    return value.clone() if isinstance(value, torch.Tensor) else value


class OpInfoDeviceParityTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        patcher = config.patch(fallback_random=True)
        patcher.__enter__()
        self.addCleanup(patcher.__exit__, None, None, None)

    def _verdict(self, op, sample) -> str:
        """'pass', or the stage that failed ('eager', 'compile', 'mismatch')
        with its error."""

        def fn(*args, **kwargs):
            return op(*args, **kwargs)

        torch._dynamo.reset()
        args, kwargs = (sample.input, *sample.args), sample.kwargs
        stage = "eager"
        try:
            eager_args, eager_kwargs = tree_map(_clone, (args, kwargs))
            torch.manual_seed(0)
            expected = fn(*eager_args, **eager_kwargs)
            stage = "compile"
            compiled_args, compiled_kwargs = tree_map(_clone, (args, kwargs))
            torch.manual_seed(0)
            actual = torch.compile(fn)(*compiled_args, **compiled_kwargs)
            stage = "mismatch"
            if op.name.startswith(UNINITIALIZED):
                actual, expected = tree_map(_metadata, (actual, expected))
                self.assertEqual(actual, expected)
            else:
                self.assertEqual(actual, expected, atol=1e-4, rtol=1e-4)
                # In-place ops and their inputs.
                self.assertEqual(compiled_args, eager_args, atol=1e-4, rtol=1e-4)
        except Exception as err:  # noqa: BLE001: every failure is a verdict
            message = str(err).strip().splitlines()
            return f"{stage}: {type(err).__name__}: {message[0] if message else ''}"
        return "pass"

    def _verdicts(self, op, device) -> list[str]:
        torch.manual_seed(0)
        samples = op.sample_inputs(device, torch.float32, requires_grad=False)
        count = 2 if _op_name(op) in TWO_SAMPLES else 1
        return [self._verdict(op, s) for _, s in zip(range(count), samples)]

    def test_samples_passing_on_cpu_pass_on_the_device(self):
        ops = {_op_name(op): op for op in op_db}
        failures, gaps, idle = [], {}, []
        for name in OPS:
            cpu, device = (self._verdicts(ops[name], d) for d in ("cpu", DEVICE))
            self.assertEqual(len(cpu), len(device), name)
            if "pass" not in cpu:
                idle.append(f"{name}: {cpu}")
            for i, (on_cpu, on_device) in enumerate(zip(cpu, device)):
                if on_cpu != "pass" or on_device == "pass":
                    continue
                if name in EAGER_GAPS and on_device.startswith("eager:"):
                    gaps[name] = on_device
                else:
                    failures.append(f"{name} sample {i}: {on_device}")
        if failures:
            failures.insert(0, "samples that pass on cpu, not on the device:")
            self.fail("\n".join(failures))
        self.assertEqual(sorted(gaps), sorted(EAGER_GAPS), "eager gaps that are gone")
        # Every sampled op counts: none fails on cpu, whatever the device does.
        if idle:
            self.fail("ops without a sample that passes on cpu:\n" + "\n".join(idle))


if __name__ == "__main__":
    run_tests()

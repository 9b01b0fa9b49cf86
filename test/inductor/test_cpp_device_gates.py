# Owner(s): ["module: inductor"]
"""C++-backend choices that ask the device's record instead of the name "cpu".

On the C++-scheduled ``extension_device`` the lowerings and decompositions tuned
for Inductor's C++ backend take cpu's path (``is_cpp_scheduled``): argmax over a
permuted tensor computes logical indices, a division by a constant divides,
scatter-add falls back to aten, memory-bound mm/bmm decompose as on cpu, int8
cat falls back and pad is not rewritten as cat. Each result is compared with
eager.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


def _randn(*size):
    return torch.randn(*size, device=DEVICE)


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
    def test_argmax_of_a_permuted_tensor(self):
        # Over several reduced dims of a non-contiguous tensor the C++ kernel
        # must return the logical index, as eager does.
        x = _randn(4, 5, 6)
        self.compile_and_compare(lambda x: x.permute(2, 0, 1).argmax(), x)
        self.compile_and_compare(lambda x: x.t().argmin(), _randn(8, 16))

    def test_division_by_a_constant_rounds_as_eager(self):
        self.compile_and_compare(lambda x: x / 3.7, _randn(64, 64))

    def test_scatter_add_falls_back_when_parallel(self):
        s, i, v = _randn(8), torch.randint(0, 8, (4096,), device=DEVICE), _randn(4096)
        fn = lambda s, i, v: s.clone().scatter_reduce_(0, i, v, "sum")  # noqa: E731
        code = self.compile_and_compare(fn, s, i, v, **{"cpp.dynamic_threads": True})
        self.assertIn("aten.scatter_reduce_.two(", code)

    def test_memory_bound_matmuls_decompose_as_on_cpu(self):
        bmm = self.compile_and_compare(torch.bmm, _randn(8, 1, 256), _randn(8, 256, 32),
                                       exact=False)
        self.assertNotIn("extern_kernels.bmm", bmm)
        dot = self.compile_and_compare(torch.mm, _randn(1, 512), _randn(512, 1), exact=False)
        self.assertNotIn("extern_kernels.mm", dot)
        addmm = self.compile_and_compare(torch.addmm, _randn(1, 8), _randn(1, 16), _randn(16, 8),
                                         exact=False)
        self.assertNotIn("extern_kernels.addmm", addmm)
        # An outer product (K = 1) stays a GEMM unless it is tiny, as on cpu.
        outer = self.compile_and_compare(torch.mm, _randn(64, 1), _randn(1, 64))
        self.assertIn("extern_kernels.mm", outer)

    def test_cat_and_pad_take_cpu_paths(self):
        a = torch.ones(4, 8, dtype=torch.int8, device=DEVICE)
        code = self.compile_and_compare(lambda a, b: torch.cat([a, b]), a, a + 1)
        self.assertIn("torch.ops.aten.cat.default(", code)
        fn = lambda x: torch.nn.functional.pad(x + 1, (0, 3))  # noqa: E731
        self.compile_and_compare(fn, _randn(16, 13))
        self.assertEqual(counters["inductor"]["pad_rewritten_as_cat"], 0)

    def test_disable_cpp_codegen_falls_back(self):
        code = self.compile_and_compare(lambda x: (x + 1).sin(), _randn(16),
                                        disable_cpp_codegen=True)
        self.assertNotIn("cpp_fused", code)



if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Lowering choices that ask the device's record instead of its name.

On the C++-scheduled ``extension_device``: a pointwise op over a 0-d cpu tensor
and a device tensor runs on the device, and add-with-alpha, addcmul and addcdiv
use a fused multiply-add exactly where ``DeviceInterface.eager_uses_fma`` says
the device's eager kernels do; benchmark fusion skips its C++ kernels as it
does cpu's.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import (
    CpuInterface,
    CudaInterface,
    DeviceInterface,
    MpsInterface,
    MtiaInterface,
    TpuInterface,
    XpuInterface,
)
from torch._inductor.utils import run_and_get_code
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)

FMA_OPS = ("add", "addcmul", "addcdiv")


class FusedMultiplyAddInterface(ExtensionDeviceInterface):
    """The device, declaring that its eager multiply-adds are fused."""

    eager_uses_fma = staticmethod(lambda op: True)


def _fma_ops(a, b, c):
    # (addcdiv reaches the lowering only where no decomposition runs first.)
    return torch.add(a, b, alpha=0.3), torch.addcmul(a, b, c, value=0.7)


class LoweringDeviceGateTests(TestCase):
    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)

    def test_cpu_scalar_operand_runs_on_the_device(self):
        register_compile_backend(DEVICE)

        def fn(s, a):
            return s * a + 1

        s = torch.tensor(3.0)
        a = torch.randn(4, device=DEVICE)
        expected = fn(s, a)
        actual = torch.compile(fn)(s, a)
        self.assertEqual(expected.device, torch.device(DEVICE, 0))
        self.assertEqual(actual.device, expected.device)
        self.assertEqual(actual.cpu(), expected.cpu())

    def test_fused_multiply_add_follows_the_record(self):
        a, b, c = (torch.randn(16, device=DEVICE) for _ in range(3))
        expected = _fma_ops(a, b, c)
        for interface, fused in (
            (ExtensionDeviceInterface, False),
            (FusedMultiplyAddInterface, True),
        ):
            with self.subTest(interface=interface.__name__):
                torch._dynamo.reset()
                register_compile_backend(DEVICE, interface)
                # The two registrations compile the same graph: no cache hit.
                with inductor_config.patch(fx_graph_cache=False):
                    actual, (code,) = run_and_get_code(torch.compile(_fma_ops), a, b, c)
                # One fused multiply-add per op (Vectorized fmadd or std::fma).
                count = code.count("fmadd(") or code.count("std::fma(")
                self.assertEqual(count, 2 if fused else 0, code)
                for got, want in zip(actual, expected):
                    self.assertEqual(got.cpu(), want.cpu())

    def test_benchmark_fusion_skips_cpp_kernels(self):
        register_compile_backend(DEVICE)
        x = torch.randn(8, 16, device=DEVICE)

        def fn(x):
            return (x.sin() + 1).sum(1).cos()

        with inductor_config.patch(benchmark_fusion=True, fx_graph_cache=False):
            actual = torch.compile(fn)(x)
        self.assertEqual(actual.cpu(), fn(x).cpu())

    def test_in_tree_answers_are_stock(self):
        # Stock: add-with-alpha on cuda without ROCm; addcmul on cuda and xpu;
        # addcdiv on cuda and xpu without ROCm.
        cuda_ops = FMA_OPS if torch.version.hip is None else ("addcmul",)
        for op in FMA_OPS:
            self.assertEqual(CudaInterface.eager_uses_fma(op), op in cuda_ops)
            self.assertEqual(XpuInterface.eager_uses_fma(op), op != "add")
            for interface in (CpuInterface, MpsInterface, MtiaInterface, TpuInterface,
                              DeviceInterface):
                self.assertFalse(interface.eager_uses_fma(op))


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""GEMM-side choices that ask the device's record instead of its name.

``DeviceInterface.max_autotune_gemm_min_sms`` decides whether Triton GEMM
templates are used (``is_big_gpu``); ``BackendFeature.MM_OUT_DTYPE``,
``NATIVE_MATMUL`` and ``MIX_ORDER_REDUCTION`` open ``out_dtype`` mm/bmm,
native matmul with the dot-shaped bmm decomposition, and mix-order reductions;
``DeviceInterface.supports_tensor_descriptors`` opens in-kernel tensor
descriptors (TMA) for the device, not for every device of the process.
On the Triton variant of ``extension_device`` the generated kernels run in
Triton's interpreter, in one fresh process
(``extension_backends/triton_gemm_cases.py``).
"""

import logging
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
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
from torch._inductor import config as inductor_config, metrics
from torch._inductor.fx_passes import pad_mm
from torch._inductor.utils import is_big_gpu, run_and_get_code
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python
from extension_backends.triton_codegen_backend import (
    ExtensionTritonDeviceInterface,
    register_triton_backend,
)

register(DEVICE)


class FewSmsInterface(ExtensionTritonDeviceInterface):
    max_autotune_gemm_min_sms = staticmethod(lambda: 1)


class CppTritonFeaturesInterface(ExtensionDeviceInterface):
    """The C++-scheduled device declaring Triton's GEMM-side features."""

    max_autotune_gemm_min_sms = staticmethod(lambda: 1)
    supports_tensor_descriptors = staticmethod(lambda device=None: True)

    @classmethod
    def backend_features(cls, device=None):
        return super().backend_features(device) | {
            BackendFeature.NATIVE_MATMUL,
            BackendFeature.MIX_ORDER_REDUCTION,
        }


class PaddingCppInterface(ExtensionDeviceInterface):
    pads_matmuls = staticmethod(lambda: True)


class BrokenSmsInterface(ExtensionTritonDeviceInterface):
    @staticmethod
    def max_autotune_gemm_min_sms():
        raise RuntimeError("no count yet")


class GemmDeviceGateTests(TestCase):
    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)

    def test_in_tree_answers_are_stock(self):
        # Stock: min_sms = 16 if device.type == "xpu" else 68.
        self.assertEqual(XpuInterface.max_autotune_gemm_min_sms(), 16)
        for interface in (CudaInterface, MtiaInterface, CpuInterface, MpsInterface,
                          TpuInterface, DeviceInterface):
            self.assertEqual(interface.max_autotune_gemm_min_sms(), 68)
        # Stock's has_triton_tma_device(): cuda with cc >= 9.0 (not ROCm) or xpu.
        self.assertEqual(
            CudaInterface.supports_tensor_descriptors(), CudaInterface.supports_tma()
        )
        self.assertEqual(XpuInterface.supports_tensor_descriptors(), torch.xpu.is_available())
        for interface in (MtiaInterface, CpuInterface, MpsInterface, TpuInterface,
                          DeviceInterface):
            self.assertFalse(interface.supports_tensor_descriptors())
        # Stock's pad_mm.check_device: both operands on cuda, or both on xpu.
        self.assertTrue(CudaInterface.pads_matmuls() and XpuInterface.pads_matmuls())
        for interface in (MtiaInterface, CpuInterface, MpsInterface, TpuInterface,
                          DeviceInterface):
            self.assertFalse(interface.pads_matmuls())
        cpu = torch.empty(2, 2)
        self.assertFalse(pad_mm.check_device(cpu, cpu))

    def test_mm_padding_follows_the_record(self):
        a = torch.empty(2, 2, device=DEVICE)
        register_compile_backend(DEVICE)
        self.assertFalse(pad_mm.check_device(a, a))
        register_compile_backend(DEVICE, PaddingCppInterface)
        self.assertTrue(pad_mm.check_device(a, a))
        self.assertFalse(pad_mm.check_device(a, torch.empty(2, 2)))
        # Stock's bf16 large-K rule asks torch.cuda.get_device_capability(),
        # which raises on a host without CUDA.
        self.assertIsInstance(pad_mm.is_mm_compute_bound(4, 64, 4, torch.bfloat16), bool)

    def test_big_gpu_follows_the_record(self):
        device = torch.device(DEVICE, 0)
        register_triton_backend(DEVICE)
        with self.assertLogs("torch._inductor.utils", logging.WARNING) as logs:
            self.assertFalse(is_big_gpu(device))
        self.assertIn("Not enough SMs to use max_autotune_gemm mode", logs.output[0])
        self.assertEqual(logs.records[0].min_sms, 68)
        register_triton_backend(DEVICE, FewSmsInterface)
        self.assertTrue(is_big_gpu(device))
        # A hook that raises keeps the default, logged once.
        register_triton_backend(DEVICE, BrokenSmsInterface)
        with self.assertLogs("torch._dynamo.device_interface", logging.WARNING) as logs:
            self.assertFalse(is_big_gpu(device))
        self.assertIn("BrokenSmsInterface.max_autotune_gemm_min_sms", logs.output[0])

    def test_out_dtype_refusal_names_the_feature(self):
        register_compile_backend(DEVICE)
        a, b = (torch.randn(4, 4, dtype=torch.half, device=DEVICE) for _ in range(2))
        with self.assertRaisesRegex(
            Exception,
            "out_dtype is only supported for CUDA or XPU, or a device whose "
            r"DeviceInterface.backend_features\(\) declares BackendFeature.MM_OUT_DTYPE",
        ):
            torch.compile(lambda a, b: torch.mm(a, b, out_dtype=torch.float32))(a, b)

    def test_cpp_variant_keeps_cpp_kernels(self):
        # Native matmul, mix-order reductions and tensor descriptors are
        # Triton's: a C++-scheduled device declaring them compiles as before.
        register_compile_backend(DEVICE, CppTritonFeaturesInterface)
        a, b, x = (torch.randn(16, 16, device=DEVICE) for _ in range(3))
        fn = lambda a, b, x: (torch.mm(a, b), x.sum(0), x.sum(1))  # noqa: E731
        options = {"triton.native_matmul": True, "triton.use_tensor_descriptor": True,
                   "triton.mix_order_reduction_non_strict_mode": True,
                   "fx_graph_cache": False}
        metrics.reset()
        with inductor_config.patch(options):
            actual, (code,) = run_and_get_code(torch.compile(fn), a, b, x)
        self.assertEqual(metrics.codegen_mix_order_reduction, 0)
        self.assertIn("extern_kernels.mm", code)
        for got, want in zip(actual, fn(a, b, x)):
            self.assertEqual(got.cpu(), want.cpu())


class TritonGemmInterpreterTests(TestCase):
    def test_cases_under_the_interpreter(self):
        # bmm with out_dtype in a Triton template, native matmul, the
        # dot-shaped bmm decomposition, a mix-order reduction and tensor
        # descriptors, each compared with eager, in one process.
        proc = run_python(
            """
            import os
            import sys
            from extension_backends.triton_gemm_cases import run_cases
            status = run_cases()
            sys.stdout.flush()
            os._exit(status)
            """,
            TRITON_INTERPRET="1",
        )
        self.assertIn("cases run: 9, ok: True", proc.stdout)


if __name__ == "__main__":
    run_tests()

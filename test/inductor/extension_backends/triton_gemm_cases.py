"""GEMM-side cases for the Triton variant of ``extension_device``, run in
Triton's interpreter: the lowering choices that ask the device's record
(``BackendFeature.MM_OUT_DTYPE``, ``NATIVE_MATMUL``, ``MIX_ORDER_REDUCTION``,
``DeviceInterface.max_autotune_gemm_min_sms``, ``supports_tensor_descriptors``
and ``pads_matmuls``), each compared with eager.

``TRITON_INTERPRET=1`` must be set before triton is imported:
``test_gemm_device_gates.py`` runs :func:`run_cases` in one fresh process.
"""

from __future__ import annotations

import os
import sys
import unittest

import torch
from torch._dynamo.device_interface import BackendFeature
from torch._inductor import config, metrics
from torch._inductor.codegen.cuda.cuda_env import is_datacenter_blackwell_arch
from torch._inductor.ir import FixedLayout, InputBuffer, TensorBox
from torch._inductor.kernel.bmm import bmm_template
from torch._inductor.kernel.mm import (
    blackwell_ws_persistent_device_tma_mm_template,
    persistent_tma_mm_template,
)
from torch._inductor.kernel.mm_grouped import can_use_triton_kernel
from torch._inductor.template_heuristics import registry
from torch._inductor.template_heuristics.triton import (
    BaseConfigHeuristic,
    BlackwellTMATemplateConfigMixin,
    GemmConfig,
    MMTemplateConfigMixin,
    TMATemplateConfigMixin,
)
from torch._inductor.utils import get_code, run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import TestCase

from .extension_device import register
from .testing import DEVICE, RegistrySnapshot
from .triton_codegen_backend import ExtensionTritonDeviceInterface, register_triton_backend

register(DEVICE)


class GemmTritonDeviceInterface(ExtensionTritonDeviceInterface):
    """The Triton variant, declaring the GEMM-side features of cuda and xpu,
    Triton GEMM templates on its few multiprocessors and tensor descriptors."""

    max_autotune_gemm_min_sms = staticmethod(lambda: 1)
    supports_tensor_descriptors = staticmethod(lambda device=None: True)

    @classmethod
    def backend_features(cls, device=None):
        return super().backend_features(device) | {
            BackendFeature.MM_OUT_DTYPE,
            BackendFeature.NATIVE_MATMUL,
            BackendFeature.MIX_ORDER_REDUCTION,
        }


class PaddingInterface(GemmTritonDeviceInterface):
    pads_matmuls = staticmethod(lambda: True)


class OneGemmConfig(MMTemplateConfigMixin, BaseConfigHeuristic):
    """The device's Triton GEMM template configs: one, so nothing is benchmarked."""

    def __init__(self) -> None:
        super().__init__()
        self.mm_configs = [GemmConfig(16, 16, 16, 1, 1)]


class HostTmaInterface(GemmTritonDeviceInterface):
    supports_tma = staticmethod(lambda device=None: True)


class OneTmaGemmConfig(TMATemplateConfigMixin, BaseConfigHeuristic):
    def __init__(self) -> None:
        super().__init__()
        self.mm_configs = [GemmConfig(16, 16, 16, 2, 4)]


class OneBlackwellGemmConfig(BlackwellTMATemplateConfigMixin, OneTmaGemmConfig):
    pass


def _randn(*size, dtype=torch.float32):
    return torch.randn(*size, dtype=dtype, device=DEVICE)


class TritonGemmCases(TestCase):
    def setUp(self):
        super().setUp()
        if os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("these cases need TRITON_INTERPRET=1 set before triton is imported")
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_triton_backend(DEVICE, GemmTritonDeviceInterface)
        # The template configs a backend registers for its device type.
        for table in (registry._TEMPLATE_HEURISTIC_REGISTRY, registry._HEURISTIC_CACHE):
            self.addCleanup(table.update, dict(table))
            self.addCleanup(table.clear)
        registry.register_template_heuristic(bmm_template.uid, DEVICE)(OneGemmConfig)
        patch = config.patch(fx_graph_cache=False)
        patch.__enter__()
        self.addCleanup(patch.__exit__, None, None, None)

    def test_bmm_out_dtype_in_a_triton_template(self):
        # Max-autotune's Triton template on a device with enough multiprocessors
        # for it; aten's bmm.dtype has no kernel on this device.
        a, b = _randn(2, 16, 16, dtype=torch.half), _randn(2, 16, 16, dtype=torch.half)
        fn = lambda a, b: torch.bmm(a, b, out_dtype=torch.float32)  # noqa: E731
        with config.patch(max_autotune_gemm=True, max_autotune_gemm_backends="TRITON"):
            actual, (code,) = run_and_get_code(torch.compile(fn), a, b)
        self.assertEqual(actual.dtype, torch.float32)
        self.assertEqual(actual.cpu(), torch.bmm(a.float(), b.float()).cpu(), atol=1e-2, rtol=1e-2)
        FileCheck().check("@triton.jit").check("tl.dot").run(code)
        self.assertNotIn("extern_kernels.bmm", code, "bmm not lowered to Triton")

    def test_native_matmul(self):
        a, b = _randn(16, 16), _randn(16, 16)
        with config.patch({"triton.native_matmul": True}):
            actual, (code,) = run_and_get_code(torch.compile(torch.mm), a, b)
        self.assertEqual(actual.cpu(), torch.mm(a, b).cpu())
        FileCheck().check("tl.dot").run(code)
        self.assertNotIn("extern_kernels.mm", code)

    def test_dot_shaped_bmm_fuses(self):
        a, b = _randn(4, 1, 8), _randn(4, 8, 1)
        fn = lambda a, b: torch.bmm(a, b).relu()  # noqa: E731
        actual, (code,) = run_and_get_code(torch.compile(fn), a, b)
        self.assertEqual(actual.cpu(), fn(a, b).cpu())
        self.assertNotIn("extern_kernels.bmm", code, "bmm not lowered to Triton")

    def test_mix_order_reduction(self):
        x = _randn(128, 32)
        fn = lambda x: (x.sum(0), x.sum(1))  # noqa: E731
        metrics.reset()
        with config.patch({"triton.mix_order_reduction_non_strict_mode": True}):
            actual = torch.compile(fn)(x)
        self.assertEqual(metrics.codegen_mix_order_reduction, 1)
        for got, want in zip(actual, fn(x)):
            self.assertEqual(got.cpu(), want.cpu())

    def test_mm_padding(self):
        # Unaligned fp32 operands (and the output) are padded to multiples of 4,
        # as on cuda, on a device whose interface pads matmuls; by default not.
        a, b = _randn(33, 65), _randn(65, 17)
        for interface, padded in ((PaddingInterface, True), (GemmTritonDeviceInterface, False)):
            torch._dynamo.reset()
            register_triton_backend(DEVICE, interface)
            with config.patch(force_shape_pad=True):
                actual, (code,) = run_and_get_code(torch.compile(torch.mm), a, b)
            self.assertEqual(actual.cpu(), torch.mm(a, b).cpu(), atol=1e-4, rtol=1e-4)
            self.assertEqual("(36, 20)" in code, padded, interface.__name__)

    def test_tensor_descriptors(self):
        x = _randn(32, 32)
        fn = lambda x: x * 2 + 1  # noqa: E731
        options = {"triton.use_tensor_descriptor": True, "assume_aligned_inputs": True}
        for interface, declared in (
            (GemmTritonDeviceInterface, True),
            (ExtensionTritonDeviceInterface, False),
        ):
            torch._dynamo.reset()
            register_triton_backend(DEVICE, interface)
            with config.patch(options):
                actual, (code,) = run_and_get_code(torch.compile(fn), x)
            self.assertEqual(actual.cpu(), fn(x).cpu())
            self.assertEqual("tl.make_tensor_descriptor" in code, declared, interface.__name__)

    def test_persistent_tma_template(self):
        # The stable tensor-descriptor API, and not NVIDIA's Blackwell template
        # where the process's cuda architecture says Blackwell.
        register_triton_backend(DEVICE, HostTmaInterface)
        for template, heuristic in (
            (persistent_tma_mm_template, OneTmaGemmConfig),
            (blackwell_ws_persistent_device_tma_mm_template, OneBlackwellGemmConfig),
        ):
            registry.register_template_heuristic(template.uid, DEVICE)(heuristic)
        is_datacenter_blackwell_arch.cache_clear()
        self.addCleanup(is_datacenter_blackwell_arch.cache_clear)
        a, b = _randn(32, 32), _randn(32, 32)
        options = {"max_autotune_gemm": True, "max_autotune_gemm_backends": "TRITON",
                   "triton.enable_persistent_tma_matmul": True, "cuda.arch": "100"}
        # Code only: the template's loop indices are Python ints in Triton's
        # interpreter, which has no .to() for them.
        with config.patch(options):
            code = "\n".join(get_code(torch.compile(torch.mm), a, b))
        FileCheck().check("triton.language.make_tensor_descriptor").run(code)
        self.assertNotIn("experimental_device_tensormap", code)
        self.assertNotIn("warp_specialize", code)

    def test_native_matmul_refuses_tma_per_device(self):
        # As for cuda with tensor descriptors; a device without them is not
        # refused for another device's.
        a, b = _randn(16, 16), _randn(16, 16)
        options = {"triton.native_matmul": True, "triton.enable_persistent_tma_matmul": True}
        with config.patch(options), self.assertRaisesRegex(
            Exception, "native matmul doesn't support tma codegen yet"
        ):
            torch.compile(torch.mm)(a, b)

    def test_grouped_mm_asks_the_device(self):
        def box(name):
            layout = FixedLayout(torch.device(DEVICE, 0), torch.bfloat16, [4, 16, 16])
            return TensorBox.create(InputBuffer(name=name, layout=layout))

        a, b = box("a"), box("b")
        self.assertTrue(can_use_triton_kernel(a, b, None, None, None))
        register_triton_backend(DEVICE, ExtensionTritonDeviceInterface)
        self.assertFalse(can_use_triton_kernel(a, b, None, None, None))


def run_cases() -> int:
    """Run every case; exit status 0 iff all ran and passed (none skipped)."""
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(TritonGemmCases)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    ok = result.wasSuccessful() and not result.skipped
    print(f"cases run: {result.testsRun}, ok: {ok}")
    return 0 if ok else 1

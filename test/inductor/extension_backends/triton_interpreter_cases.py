"""Test cases that compile for the Triton variant of ``extension_device`` and
run the generated Triton kernels in Triton's interpreter.

``TRITON_INTERPRET=1`` must be set before triton is imported, so these cases
run in a fresh interpreter: ``test_triton_device.py`` starts one for all of
them with :func:`run_cases` (one process keeps the CI cost to one start). The
device is registered through the guide's public calls only (interface,
overrides, codegen backend); nothing in torch or Triton is replaced.
"""

from __future__ import annotations

import copy
import os
import sys
import unittest

import torch
from torch._inductor.utils import get_code, run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import TestCase

from .extension_device import register
from .testing import DEVICE, RegistrySnapshot
from .triton_codegen_backend import (
    ExtensionTritonDeviceInterface,
    register_triton_backend,
    TRITON_BACKEND,
)

runtime = register(DEVICE)


def _mlp() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
    ).to(DEVICE)


class TritonInterpreterCases(TestCase):
    def setUp(self):
        super().setUp()
        if os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("these cases need TRITON_INTERPRET=1 set before triton is imported")
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        RegistrySnapshot.install(self)
        register_triton_backend(DEVICE)

    def test_inference_code_and_result(self):
        model = _mlp()
        x = torch.randn(4, 8, device=DEVICE)
        with torch.no_grad():
            expected = model(x)
            actual, (code,) = run_and_get_code(torch.compile(model), x)
        self.assertEqual(actual.cpu(), expected.cpu())
        # The wrapper: the device's raw-stream helper, its device guard, and
        # each Triton kernel launched on the raw stream of its device.
        FileCheck().check("def get_raw_stream(index):").check(
            f"return torch.{DEVICE}.current_stream(index).stream_id"
        ).check("def call(").check(f"with torch.{DEVICE}.device(0):").check(
            "raw_stream0 = get_raw_stream(0)"
        ).check(".run(").check("stream=raw_stream0)").run(code)
        # The kernels: the device's Triton backend and the device's properties.
        mpc = runtime.get_device_properties(0).multi_processor_count
        FileCheck().check(
            f"triton_helpers.set_driver_to_backend({TRITON_BACKEND!r})"
        ).check(
            f"'device': DeviceProperties(type='{DEVICE}', index=0, "
            f"multi_processor_count={mpc},"
        ).check(f"'triton_backend': {TRITON_BACKEND!r}").check("@triton.jit").run(code)
        self.assertNotIn("set_driver_to_gpu", code)

    def test_second_device(self):
        def fn(x, y):
            return (x.sin() + y).relu().sum(1)

        x = torch.randn(8, 16, device=f"{DEVICE}:1")
        y = torch.randn(8, 16, device=f"{DEVICE}:1")
        actual, (code,) = run_and_get_code(torch.compile(fn), x, y)
        self.assertEqual(actual.device, torch.device(f"{DEVICE}:1"))
        self.assertEqual(actual.cpu(), fn(x, y).cpu())
        FileCheck().check(f"with torch.{DEVICE}.device(1):").check(
            "raw_stream1 = get_raw_stream(1)"
        ).check("stream=raw_stream1)").run(code)
        FileCheck().check(f"DeviceProperties(type='{DEVICE}', index=1,").run(code)

    def test_training_step(self):
        model = _mlp()
        twin = copy.deepcopy(model)
        x = torch.randn(4, 8, device=DEVICE)

        def step(m):
            loss = m(x).square().mean()
            loss.backward()
            return loss

        expected = step(model)
        actual, codes = run_and_get_code(torch.compile(step), twin)
        self.assertEqual(actual.cpu(), expected.cpu())
        for p, q in zip(twin.parameters(), model.parameters()):
            self.assertEqual(p.grad.cpu(), q.grad.cpu())
        # Forward and backward graphs, both with Triton kernels.
        self.assertEqual(len(codes), 2)
        for code in codes:
            FileCheck().check("async_compile.triton(").check("stream=raw_stream0)").run(code)

    def test_side_stream_graph(self):
        def fn(x):
            side = runtime.Stream()
            done = runtime.Event()
            with runtime.stream(side):
                y = x.cos() * 2
                done.record()
            runtime.current_stream().wait_event(done)
            return y + 1

        x = torch.randn(16, device=f"{DEVICE}:1")
        with runtime.device(1):
            expected = fn(x)
            actual, (code,) = run_and_get_code(torch.compile(fn, fullgraph=True), x)
        self.assertEqual(actual.cpu(), expected.cpu())
        # The side stream's kernel is launched on the raw stream current inside
        # its stream context, the other on the caller's.
        FileCheck().check(f"with torch.{DEVICE}.device(1):").check(
            f"default_stream = torch.{DEVICE}.current_stream()"
        ).check("with stream1:").check("raw_stream = get_raw_stream(1)").check(
            "stream=raw_stream)"
        ).check("torch.ops.streams.record_event").check("with default_stream:").check(
            "torch.ops.streams.wait_event"
        ).check("raw_stream1 = get_raw_stream(1)").check("stream=raw_stream1)").run(code)

    def test_cpu_scalar_operand_runs_on_the_device(self):
        def fn(s, a):
            return s * a + 1

        s, a = torch.tensor(3.0), torch.randn(4, device=DEVICE)
        actual = torch.compile(fn)(s, a)
        self.assertEqual(actual.device, torch.device(DEVICE, 0))
        self.assertEqual(actual.cpu(), fn(s, a).cpu())

    def test_fused_multiply_add_follows_the_record(self):
        class FusedMultiplyAdd(ExtensionTritonDeviceInterface):
            eager_uses_fma = staticmethod(lambda op: True)

        def fn(a, b, c):
            return torch.add(a, b, alpha=0.3) * torch.addcmul(a, b, c, value=0.7)

        a, b, c = (torch.randn(16, device=DEVICE) for _ in range(3))
        actual, (code,) = run_and_get_code(torch.compile(fn), a, b, c)
        self.assertNotIn("tl.fma(", code)
        self.assertEqual(actual.cpu(), fn(a, b, c).cpu())
        # Code only: Triton's interpreter cannot run tl.fma.
        torch._dynamo.reset()
        register_triton_backend(DEVICE, FusedMultiplyAdd)
        with torch._inductor.config.patch(fx_graph_cache=False):
            code = "\n".join(get_code(torch.compile(fn), a, b, c))
        self.assertEqual(code.count("tl.fma("), 2, code)


def run_cases() -> int:
    """Run every case; exit status 0 iff all ran and passed (none skipped)."""
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(TritonInterpreterCases)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    ok = result.wasSuccessful() and not result.skipped
    print(f"cases run: {result.testsRun}, ok: {ok}")
    return 0 if ok else 1

# Owner(s): ["module: inductor"]
"""Same graph, same C++ kernels: a C++-scheduled device gets cpu's code.

``extension_device`` registers Inductor's ``CppScheduling``, so every decision
that belongs to Inductor's C++ backend (decompositions and lowerings tuned for
C++ kernels, realization and fusion heuristics, reduction algorithms) must
give it what it gives cpu.  Rather than checking those decisions one by one,
the corpus of ``extension_backends/kernel_parity.py`` (normalisations,
reductions, softmax, pointwise chains, memory-bound matmuls, a conv block, a
transformer block, an MLP step with an optimizer; inference and training) is
compiled once on cpu and once on the device, and the emitted C++ kernel
sources, with device and kernel names normalised, must be identical, as must
the outputs and gradients.  Where they must differ (``EAGER_DIFFERENCES``),
the corpus names the program, the kernels and cpu's eager kernel that causes
it, and a control program without that cause matches.
"""

import difflib
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import register_compile_backend
from extension_backends.extension_device import register
from extension_backends.kernel_parity import (
    compile_program,
    EAGER_DIFFERENCES,
    PROGRAMS,
)
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


def _first_difference(name, mode, cpu, device) -> str:
    if len(cpu) != len(device):
        return f"{name} [{mode}]: {len(cpu)} kernels on cpu, {len(device)} on {DEVICE}"
    i = next(i for i, (a, b) in enumerate(zip(cpu, device)) if a != b)
    diff = difflib.unified_diff(cpu[i].splitlines(), device[i].splitlines(), "cpu", DEVICE,
                                lineterm="", n=1)
    return f"{name} [{mode}], kernel {i}:\n" + "\n".join(list(diff)[:40])


class CppKernelParityTest(TestCase):
    """Each program is compiled once per device (``setUpClass``); the tests read
    the shared results."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        from torch._inductor import config

        snapshot = RegistrySnapshot()
        cls.addClassCleanup(snapshot.restore)
        cls.addClassCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)
        patch = config.patch(fx_graph_cache=False)
        patch.__enter__()
        cls.addClassCleanup(patch.__exit__, None, None, None)
        cls.compiled = {
            (name, mode, device): compile_program(name, mode, device)
            for name, program in PROGRAMS.items()
            for mode in program.modes
            for device in ("cpu", DEVICE)
        }

    def pairs(self):
        for name, program in PROGRAMS.items():
            for mode in program.modes:
                cpu, device = self.compiled[name, mode, "cpu"], self.compiled[name, mode, DEVICE]
                yield name, mode, cpu, device

    def test_kernels_are_cpus(self):
        for name, mode, cpu, device in self.pairs():
            if (name, mode) in EAGER_DIFFERENCES:
                continue
            with self.subTest(program=name, mode=mode):
                self.assertTrue(cpu.kernels, "the program compiled no C++ kernel")
                if cpu.kernels != device.kernels:
                    self.fail(_first_difference(name, mode, cpu.kernels, device.kernels))

    def test_results_are_cpus(self):
        # The same kernels and eager kernels over the same inputs: bit for bit
        # (cpu's convolution without oneDNN is not the device's, which is).
        for name, mode, cpu, device in self.pairs():
            if (name, mode) in EAGER_DIFFERENCES:
                continue
            exact = PROGRAMS[name].onednn
            tol = {"atol": 0, "rtol": 0} if exact else {"atol": 1e-5, "rtol": 1e-5}
            with self.subTest(program=name, mode=mode):
                self.assertEqual(device.outputs, cpu.outputs, **tol)
                self.assertEqual(device.grads, cpu.grads, **tol)

    def test_differences_are_named(self):
        # A named difference exists (the entry is not stale), and the results
        # still agree within floating-point error.
        for (name, mode), why in EAGER_DIFFERENCES.items():
            with self.subTest(program=name, mode=mode, why=why):
                cpu, device = self.compiled[name, mode, "cpu"], self.compiled[name, mode, DEVICE]
                self.assertNotEqual(cpu.kernels, device.kernels)
                self.assertEqual(device.outputs, cpu.outputs, atol=1e-4, rtol=1e-4)
                self.assertEqual(device.grads, cpu.grads, atol=1e-4, rtol=1e-4)
        self.assertIn(("conv_block_without_onednn", "training"),
                      [(name, mode) for name, mode, *_ in self.pairs()])

    def test_the_corpus_reaches_the_cpp_decisions(self):
        # Kernels of the decisions the C++ backend makes for cpu: two-pass
        # variance (no Welford), GroupNorm's per-channel scale and shift.
        norms = "\n".join(self.compiled["norms", "training", DEVICE].kernels)
        self.assertNotIn("Welford", norms)
        reductions = "\n".join(self.compiled["reductions", "inference", DEVICE].kernels)
        self.assertNotIn("Welford", reductions)


class ImplicitAutogradKernelsTest(TestCase):
    def test_device_registers_ops_that_decompose_above_the_fallback(self):
        # An op with a CompositeImplicitAutograd kernel next to cpu's is
        # decomposed by the dispatcher on a backend without a kernel of its
        # own (a fallback does not count), so its compiled graph would differ
        # from cpu's (silu_backward's product associates differently).
        ops = [
            name for name in torch._C._dispatch_get_all_op_names()
            if name.startswith("aten::")
            and torch._C._dispatch_has_kernel_for_dispatch_key(name, "CompositeImplicitAutograd")
            and torch._C._dispatch_has_kernel_for_dispatch_key(name, "CPU")
        ]
        self.assertIn("aten::silu_backward", ops)
        missing = [name for name in ops
                   if not torch._C._dispatch_has_kernel_for_dispatch_key(name, "PrivateUse1")]
        self.assertEqual(missing, [])


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Device identity and capability of a PrivateUse1 backend in Inductor (SPEC §2).

``extension_device`` is registered through public calls only, once as a
GPU-class device with streams and once as a CPU-like accelerator, and Inductor
is asked what it thinks of it: GPU_TYPES, is_gpu, device guards, get_gpu_type,
has_triton, device properties, the codegen backend, and what the generated code
does on ``extension_device:1``.  Registrations happen after ``torch._inductor``
was imported and after a first compile, the order in which upstream 2.15 fails.
"""

import copy
import re
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import (
    get_interface_for_device,
    register_interface_for_device_PrivateUse1,
)
from torch._inductor import utils as inductor_utils
from torch._inductor.codegen.common import BackendFeature
from torch._inductor.runtime.hints import DeviceProperties
from torch._inductor.utils import run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils._triton import _has_triton_capable_device

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

runtime = register(DEVICE)


class GpuClassInterface(ExtensionDeviceInterface):
    """The fake device, declared GPU-class; it exposes streams (Stream is set)."""

    @staticmethod
    def is_gpu() -> bool:
        return True


def _mlp() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
    ).to(DEVICE)


class PrivateUse1IdentityTestBase(TestCase):
    interface = ExtensionDeviceInterface

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        # A first compile on cpu: registering afterwards must still work.
        torch.compile(lambda x: x + 1)(torch.ones(2))
        register_compile_backend(DEVICE, self.interface)

    def compile_and_check(self, fn, *args, fullgraph=False):
        expected = fn(*args)
        with inductor_config.patch(fx_graph_cache=False):
            actual, (code,) = run_and_get_code(
                torch.compile(fn, fullgraph=fullgraph), *args
            )
        self.assertEqual(actual.device, expected.device)
        self.assertEqual(actual.cpu(), expected.cpu())
        return code

    def check_graph_matches_cpu(self):
        # A device whose kernels the C++ backend generates gets cpu's graph: the
        # realization heuristics tuned for CPU kernels (here: the reused result
        # of a heavy op is realized) apply to it, so it gets the same kernels
        # and buffers as cpu. With the thresholds Inductor uses for GPU kernels,
        # `y` would be recomputed in the reduction and the subtraction.
        def fn(x):
            for _ in range(2):
                y = torch.tanh(x) + 1
                x = y - y.mean(dim=-1, keepdim=True)
            return x

        def kernels_and_buffers(device):
            torch._dynamo.reset()
            with inductor_config.patch(fx_graph_cache=False):
                _, (code,) = run_and_get_code(
                    torch.compile(fn), torch.randn(4, 8, device=device)
                )
            return re.findall(r"'''(.*?)'''", code, re.S), sorted(
                set(re.findall(r"\bbuf\d+\b", code))
            )

        cpu_kernels, cpu_buffers = kernels_and_buffers("cpu")
        kernels, buffers = kernels_and_buffers(DEVICE)
        self.assertEqual(len(cpu_kernels), 1)
        self.assertEqual(kernels, cpu_kernels)
        self.assertEqual(buffers, cpu_buffers)


class GpuClassDeviceTests(PrivateUse1IdentityTestBase):
    interface = GpuClassInterface

    def test_classification(self):
        gpu_types = inductor_utils.GPU_TYPES
        self.assertIs(get_interface_for_device(DEVICE), GpuClassInterface)
        self.assertTrue(inductor_utils.is_gpu(DEVICE))
        self.assertTrue(inductor_utils.device_need_guard(DEVICE))
        # Refreshed in place: holders of the list object see the device.
        self.assertEqual(gpu_types, ["cuda", "mps", "xpu", "mtia", DEVICE])
        self.assertIn(BackendFeature.GPU, GpuClassInterface.backend_features())
        # The only available GPU-class device on this host.
        self.assertEqual(inductor_utils.get_gpu_type(), DEVICE)
        self.assertEqual(inductor_utils.get_current_backend(DEVICE), "cpp")

    def test_device_properties(self):
        props = DeviceProperties.create(torch.device(DEVICE, 1))
        self.assertEqual(props.type, DEVICE)
        self.assertEqual(props.index, 1)
        self.assertEqual(
            props.multi_processor_count,
            runtime.get_device_properties(1).multi_processor_count,
        )
        self.assertEqual(
            inductor_utils.get_max_num_sms(),
            runtime.get_device_properties().multi_processor_count,
        )

    def test_device_guard_for_second_device(self):
        a, b, c = (torch.randn(4, 8, device=f"{DEVICE}:1") for _ in range(3))
        runtime.reset_peak_memory_stats(0)
        code = self.compile_and_check(lambda a, b, c: a * b + c, a, b, c)
        FileCheck().check(f"with torch.{DEVICE}.device(1):").check(
            f"torch.{DEVICE}.set_device(1)"
        ).check(f"buf0 = empty_strided((4, 8), (8, 1), device='{DEVICE}:1'").check(
            "cpp_fused_add_mul_0("
        ).check("return (buf0, )").run(code)
        # The allocation and the kernel call are inside the guard's block.
        guard = re.search(rf"^( *)with torch\.{DEVICE}\.device\(1\):\n", code, re.M)
        body = code[guard.end() :].split("return (buf0, )")[0]
        inner = guard.group(1) + "    "
        self.assertIn(f"\n{inner}buf0 = empty_strided(", "\n" + body)
        self.assertIn(f"\n{inner}cpp_fused_add_mul_0(", "\n" + body)
        # Nothing was allocated on device 0 (compile_and_check also checked
        # that the result is on device 1).
        self.assertEqual(runtime.max_memory_allocated(0), runtime.memory_allocated(0))
        # The guard restores the caller's device.
        self.assertEqual(runtime.current_device(), 0)

    def test_graph_matches_cpu(self):
        # GPU-class, but its kernels are C++ run on the host.
        self.check_graph_matches_cpu()

    def test_training_step(self):
        model = _mlp()
        twin = copy.deepcopy(model)
        x = torch.randn(4, 8, device=DEVICE)

        def step(m):
            loss = m(x).square().mean()
            loss.backward()
            return loss

        expected = step(model)
        actual = torch.compile(step)(twin)
        self.assertEqual(actual.cpu(), expected.cpu())
        for p, q in zip(twin.parameters(), model.parameters()):
            self.assertEqual(p.grad.cpu(), q.grad.cpu())

    def test_matmul_without_max_autotune_does_not_check_sms(self):
        # The GEMM template checks ask is_big_gpu() only under max-autotune:
        # the fake device's few SMs are no reason to warn otherwise.
        a, b = torch.randn(8, 8, device=DEVICE), torch.randn(8, 8, device=DEVICE)
        with inductor_config.patch(max_autotune=False, max_autotune_gemm=False):
            with self.assertNoLogs("torch._inductor.utils", "WARNING"):
                self.compile_and_check(torch.mm, a, b)

    def test_side_stream_and_event(self):
        # Inductor's multi-stream codegen for a GPU-class device with streams:
        # the side stream is entered inside the device guard.
        def fn(x):
            side = runtime.Stream()
            done = runtime.Event()
            scale = runtime.get_device_properties().multi_processor_count
            with runtime.stream(side):
                y = x * scale
                done.record()
            runtime.current_stream().wait_event(done)
            return y + 1

        x = torch.randn(16, device=f"{DEVICE}:1")
        with runtime.device(1):
            code = self.compile_and_check(fn, x)
        FileCheck().check(f"with torch.{DEVICE}.device(1):").check(
            f"torch.{DEVICE}.current_stream()"
        ).run(code)


class AcceleratorDeviceTests(PrivateUse1IdentityTestBase):
    """The default: a CPU-like accelerator scheduled by the C++ backend."""

    def test_classification(self):
        self.assertFalse(inductor_utils.is_gpu(DEVICE))
        self.assertFalse(inductor_utils.device_need_guard(DEVICE))
        self.assertNotIn(DEVICE, inductor_utils.GPU_TYPES)
        self.assertEqual(ExtensionDeviceInterface.backend_features(), set())
        self.assertEqual(inductor_utils.get_gpu_type(), "cuda")  # no GPU-class device
        self.assertTrue(torch._dynamo.utils.is_compile_supported(DEVICE))

    def test_inference_without_device_guard(self):
        model = _mlp()
        x = torch.randn(2, 8, device=DEVICE)
        with torch.no_grad():
            code = self.compile_and_check(model, x)
        self.assertNotIn(f"torch.{DEVICE}.device(", code)

    def test_graph_matches_cpu(self):
        self.check_graph_matches_cpu()

    def test_side_stream_and_event(self):
        # Multi-stream code for a device with streams but no device guard: the
        # stream variables are declared once, outside any guard (stock 2.13
        # declared them only inside the guard: NameError: stream1).
        def fn(x):
            side = runtime.Stream()
            done = runtime.Event()
            with runtime.stream(side):
                y = x * 2
                done.record()
            runtime.current_stream().wait_event(done)
            return y + 1

        x = torch.randn(16, device=f"{DEVICE}:1")
        with runtime.device(1):
            code = self.compile_and_check(fn, x, fullgraph=True)
        self.assertNotIn(f"torch.{DEVICE}.device(", code)
        FileCheck().check(
            "from torch._dynamo.graph_bytecode_inputs import get_external_object_by_index"
        ).check("def call(").check(
            f"default_stream = torch.{DEVICE}.current_stream()"
        ).check("stream1 = get_external_object_by_index(").check(
            "with stream1:"
        ).check("cpp_fused_mul_0(").check("torch.ops.streams.record_event").check(
            "with default_stream:"
        ).check("torch.ops.streams.wait_event").check("cpp_fused_add_1(").run(code)
        FileCheck().check_count("default_stream = ", 1, exactly=True).check_count(
            "stream1 = ", 1, exactly=True
        ).run(code)

    def test_two_side_streams(self):
        # Each side stream gets its variable; the default stream is the
        # caller's current stream, taken before any stream context is entered.
        def fn(x):
            s1, s2 = runtime.Stream(), runtime.Stream()
            e1, e2 = runtime.Event(), runtime.Event()
            with runtime.stream(s1):
                a = x.sin()
                e1.record()
            with runtime.stream(s2):
                b = x.cos()
                e2.record()
            runtime.current_stream().wait_event(e1)
            runtime.current_stream().wait_event(e2)
            return a + b

        x = torch.randn(16, device=DEVICE)
        caller = runtime.Stream()
        with runtime.stream(caller):
            code = self.compile_and_check(fn, x, fullgraph=True)
            self.assertEqual(runtime.current_stream(), caller)
        FileCheck().check(f"default_stream = torch.{DEVICE}.current_stream()").check(
            "stream1 = get_external_object_by_index("
        ).check("stream2 = get_external_object_by_index(").check(
            "with stream1:"
        ).check("with stream2:").check("with default_stream:").run(code)
        FileCheck().check_count("default_stream = ", 1, exactly=True).run(code)

    def test_batched_kernel_runs_before_a_device_less_op(self):
        # Stock 2.13 emitted the C++ kernel batch after record_event, which had
        # already freed the kernel's input: UnboundLocalError at run time.
        def fn(x, y):
            z = x * 2 + y
            runtime.Event().record()
            return z, x + 1

        x, y = (torch.randn(16, device=DEVICE) for _ in range(2))
        expected = fn(x, y)
        with inductor_config.patch(fx_graph_cache=False):
            actual, (code,) = run_and_get_code(torch.compile(fn, fullgraph=True), x, y)
        for a, e in zip(actual, expected):
            self.assertEqual(a.cpu(), e.cpu())
        FileCheck().check("cpp_fused_add_mul_0(arg0_1").check(
            "torch.ops.streams.record_event.default("
        ).check("del arg0_1").run(code)

    def test_training_step(self):
        model = _mlp()
        twin = copy.deepcopy(model)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, foreach=False)
        twin_opt = torch.optim.SGD(twin.parameters(), lr=0.1, foreach=False)
        x = torch.randn(4, 8, device=DEVICE)

        def step(m, o):
            o.zero_grad()
            loss = m(x).square().mean()
            loss.backward()
            o.step()
            return loss

        expected = step(model, opt)
        actual = torch.compile(step)(twin, twin_opt)
        self.assertEqual(actual.cpu(), expected.cpu())
        for p, q in zip(twin.parameters(), model.parameters()):
            self.assertEqual(p.cpu(), q.cpu())


class ProbeSafetyTests(TestCase):
    """Probes treat a partial or broken out-of-tree interface as not capable."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def register(self, interface):
        register_interface_for_device_PrivateUse1(interface)

    def test_raising_is_available(self):
        class Broken(GpuClassInterface):
            @staticmethod
            def is_available():
                raise RuntimeError("driver not loaded")

        self.register(Broken)
        with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
            self.assertFalse(inductor_utils._device_is_available(DEVICE))
            self.assertFalse(inductor_utils._device_is_available(DEVICE))
            self.assertEqual(inductor_utils.get_gpu_type(), "cuda")
            self.assertFalse(_has_triton_capable_device(include_cpu=False))
        self.assertEqual(len(logs.records), 1, logs.output)
        self.assertIn("driver not loaded", logs.output[0])

    # has_triton() answers False without a Triton package (as on this CPU
    # build) before walking the devices; the walk itself is tested directly.
    def test_triton_capable_device_counts(self):
        class Capable(GpuClassInterface):
            @staticmethod
            def is_triton_capable(device=None):
                return True

            @staticmethod
            def raise_if_triton_unavailable(device=None):
                pass

        self.assertFalse(_has_triton_capable_device(include_cpu=False))
        self.register(Capable)
        self.assertTrue(_has_triton_capable_device(include_cpu=False))

    def test_2_13_style_triton_error_means_unavailable(self):
        class OldStyle(GpuClassInterface):
            @staticmethod
            def is_triton_capable(device=None):
                return True

            @staticmethod
            def raise_if_triton_unavailable(device=None):
                raise RuntimeError("triton not built with the 'acc' backend")

        self.register(OldStyle)
        # An expected answer, not a broken probe: nothing is logged.
        with self.assertNoLogs("torch._dynamo.device_interface", "WARNING"):
            self.assertFalse(_has_triton_capable_device(include_cpu=False))

    def test_broken_triton_check_is_logged_once(self):
        class Broken(GpuClassInterface):
            @staticmethod
            def is_triton_capable(device=None):
                return True

            @staticmethod
            def raise_if_triton_unavailable(device=None):
                raise KeyError("acc")

        self.register(Broken)
        with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
            self.assertFalse(_has_triton_capable_device(include_cpu=False))
            self.assertFalse(_has_triton_capable_device(include_cpu=False))
        self.assertEqual(len(logs.records), 1, logs.output)
        self.assertIn(
            "Broken.raise_if_triton_unavailable() raised KeyError('acc') instead of a "
            "RuntimeError; treating it as 'not Triton-capable'",
            logs.output[0],
        )

    def test_broken_is_gpu(self):
        class Broken(ExtensionDeviceInterface):
            @staticmethod
            def is_gpu():
                raise AttributeError("half-written backend")

        with self.assertLogs("torch._dynamo.device_interface", "WARNING"):
            self.register(Broken)
            self.assertFalse(inductor_utils.is_gpu(DEVICE))
        self.assertNotIn(DEVICE, inductor_utils.GPU_TYPES)


if __name__ == "__main__":
    run_tests()

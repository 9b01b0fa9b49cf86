# Owner(s): ["module: inductor"]
"""The single-site device lists that vendors patched, as interface answers.

Each test does through the public registration calls what torch_npu 2.13.0
does by assignment (``tools/vendor_patches.py`` lists those sites), and checks
that the torch globals keep their stock values and the in-tree answers stay
stock's.  ``extension_device`` is registered with a GPU-class
``DeviceInterface`` (``is_gpu()`` True).
"""

import json

import torch
import torch._inductor.runtime.benchmarking as benchmarking
from torch._dynamo.device_interface import get_interface_for_device
from torch._inductor.utils import GPU_TYPES
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python


register(DEVICE)

#: torch 2.13.0's tuple, which torch_npu reassigns to add "npu".
STOCK_GPU_BENCHMARK_DEVICE_TYPES = ("cuda", "xpu", "mtia")


class GpuClassInterface(ExtensionDeviceInterface):
    @staticmethod
    def is_gpu() -> bool:
        return True


class DeviceListTestBase(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def register(self, interface=GpuClassInterface):
        register_compile_backend(DEVICE, interface)


class GpuBenchmarkDeviceTypesTest(DeviceListTestBase):
    def test_in_tree_answer_is_stock(self):
        self.assertEqual(
            benchmarking.GPU_BENCHMARK_DEVICE_TYPES, STOCK_GPU_BENCHMARK_DEVICE_TYPES
        )
        self.assertIsInstance(benchmarking.GPU_BENCHMARK_DEVICE_TYPES, tuple)
        expected = next(
            (
                name
                for name in STOCK_GPU_BENCHMARK_DEVICE_TYPES
                if getattr(torch, name).is_available()
            ),
            "cuda",
        )
        self.assertEqual(benchmarking._get_default_gpu_device_type(), expected)

    def test_gpu_class_device_counts_through_the_registry(self):
        # What torch_npu gets by assigning ("cuda", "xpu", "mtia", "npu"): the
        # tuple stays stock's, and the registry's GPU-class device counts beside it.
        self.register()
        self.assertEqual(
            benchmarking.GPU_BENCHMARK_DEVICE_TYPES, STOCK_GPU_BENCHMARK_DEVICE_TYPES
        )
        self.assertIn(DEVICE, GPU_TYPES)
        self.assertTrue(get_interface_for_device(DEVICE).is_available())
        # The fake device is available, so a benchmark that names no device
        # runs on it (unless a built-in GPU is there too: get_gpu_type picks).
        if not self.builtin_gpu_available():
            self.assertEqual(benchmarking._normalize_gpu_device_type(None), DEVICE)
        self.assertEqual(benchmarking._normalize_gpu_device_type("cpu"), "cpu")

    def test_non_gpu_class_device_and_restore(self):
        if self.builtin_gpu_available():
            self.skipTest("a built-in GPU answers before the fake device")
        self.register(ExtensionDeviceInterface)
        self.assertEqual(benchmarking._get_default_gpu_device_type(), "cuda")
        self.register()
        self.assertEqual(benchmarking._get_default_gpu_device_type(), DEVICE)
        self.doCleanups()
        # The snapshot's restore moves the registry generation: back to stock.
        self.assertEqual(benchmarking._get_default_gpu_device_type(), "cuda")

    @staticmethod
    def builtin_gpu_available():
        return any(
            getattr(torch, name).is_available()
            for name in STOCK_GPU_BENCHMARK_DEVICE_TYPES
        )


class EventPythonTypeTest(DeviceListTestBase):
    """torch_npu assigns ``EventVariable.python_type`` (to ``type(self.value)``)
    and wraps ``BuiltinVariable.call_id``; the interface's ``Event`` does it."""

    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        self.register()
        self.runtime = getattr(torch, DEVICE)

    def compile(self, fn):
        return torch.compile(fn, backend="eager", fullgraph=True)

    def test_event_of_the_interface_traces_with_its_class(self):
        Event = self.runtime.Event

        def fn(x, event):
            made = Event()
            return (
                x + 1,
                isinstance(event, Event),
                type(made) is Event,
                type(event) is torch.Event,
            )

        x = torch.ones(2)
        event = Event()
        self.assertEqual(fn(x, event)[1:], (True, True, False))
        self.assertEqual(self.compile(fn)(x, event)[1:], (True, True, False))

    def test_id_of_events_needs_no_patch(self):
        Event = self.runtime.Event

        # id() works as a dict key and compares within its kind: guarded for
        # the input event, compile-time only for events the graph creates
        # (comparing the two kinds graph-breaks, as for any object; a constant
        # id of a graph-created event, which the vendor's patch returns, would
        # name the example event of the trace rather than the runtime one).
        def fn(x, event):
            made, other = Event(), Event()
            seen = {id(event): 1, id(made): 2, id(other): 3}
            return (
                x + seen[id(event)] + seen[id(made)],
                id(made) == id(other),
                id(event) == id(event),
            )

        x = torch.ones(2)
        event = Event()
        self.assertEqual(self.compile(fn)(x, event), fn(x, event))

    def test_globals_and_in_tree_events_unchanged(self):
        from torch._dynamo.variables.streams import EventVariable

        # No assignment: the class attribute is the one torch defines.
        self.assertIs(EventVariable.python_type, EventVariable.__dict__["python_type"])
        self.assertEqual(EventVariable(None, torch.Event("cpu"), None).python_type(), torch.Event)
        # A plain torch.Event of the device is not of the interface's class.
        self.assertEqual(
            EventVariable(None, torch.Event(DEVICE), None).python_type(), torch.Event
        )


def _no_native_arch(cflags, ldflags, min_optimize):
    # What torch_npu's replacement of _get_optimization_cflags does: no
    # -march=native, O1 for builds that ask for less optimization, and a flag
    # of its own.
    cflags = [flag for flag in cflags if not flag.startswith("march=")]
    if min_optimize:
        cflags = ["O1" if flag == "O3" else flag for flag in cflags]
    return cflags + ["fno-strict-aliasing"], ldflags


class CppOptimizationFlagsTest(DeviceListTestBase):
    def options(self, device_type, **kwargs):
        from torch._inductor.cpp_builder import CppTorchDeviceOptions

        return CppTorchDeviceOptions(device_type=device_type, **kwargs).get_cflags()

    def test_device_adjusts_its_builds_only(self):
        from torch._inductor import cpp_builder

        stock_function = cpp_builder._get_optimization_cflags
        before = {
            "cpu": self.options("cpu"),
            "torch": cpp_builder.CppTorchOptions().get_cflags(),
            "device": self.options(DEVICE),
            "device_min": self.options(DEVICE, min_optimize=True),
        }
        self.register(
            type(
                "FlagsInterface",
                (GpuClassInterface,),
                {"get_cpp_optimization_flags": staticmethod(_no_native_arch)},
            )
        )
        # The device's builds get its flags ...
        flags = self.options(DEVICE)
        self.assertIn("fno-strict-aliasing", flags)
        self.assertFalse(any(flag.startswith("march=") for flag in flags))
        self.assertEqual(
            [f for f in flags if f != "fno-strict-aliasing"],
            [f for f in before["device"] if not f.startswith("march=")],
        )
        # min_optimize reaches the hook.
        min_flags = self.options(DEVICE, min_optimize=True)
        self.assertNotIn("O3", min_flags)
        self.assertEqual(
            [f for f in min_flags if f != "fno-strict-aliasing"],
            [f for f in before["device_min"] if not f.startswith("march=")],
        )
        # ... cpu and device-less builds keep theirs, and no function is replaced.
        self.assertEqual(self.options("cpu"), before["cpu"])
        self.assertEqual(cpp_builder.CppTorchOptions().get_cflags(), before["torch"])
        self.assertIs(cpp_builder._get_optimization_cflags, stock_function)

    def test_a_compile_on_the_device_builds_with_them(self):
        import torch._functorch.config as functorch_config
        import torch._inductor.config as inductor_config
        from torch._inductor.utils import fresh_cache

        calls = []

        def recording(cflags, ldflags, min_optimize):
            calls.append("march=native" in cflags)
            return _no_native_arch(cflags, ldflags, min_optimize)

        self.register(
            type(
                "RecordingFlags",
                (ExtensionDeviceInterface,),
                {"get_cpp_optimization_flags": staticmethod(recording)},
            )
        )
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        x = torch.arange(8.0)

        def fn(a):
            return (a * 2).sin() + 1

        with fresh_cache(), inductor_config.patch(
            fx_graph_cache=False
        ), functorch_config.patch(enable_autograd_cache=False):
            actual = torch.compile(fn)(x.to(DEVICE))
            self.assertEqual(actual.cpu(), fn(x))
            self.assertTrue(calls)
            count = len(calls)
            # A cpu compile in the same process does not consult the device.
            self.assertEqual(torch.compile(fn)(x), fn(x))
        self.assertEqual(len(calls), count)

    def test_none_keeps_the_flags_and_a_wrong_type_fails_the_build(self):
        before = self.options(DEVICE)
        self.register(GpuClassInterface)
        self.assertEqual(self.options(DEVICE), before)
        self.register(
            type(
                "BrokenFlags",
                (GpuClassInterface,),
                {"get_cpp_optimization_flags": staticmethod(lambda c, l, m: ["O2"])},
            )
        )
        with self.assertRaisesRegex(
            TypeError,
            rf"C\+\+ optimization flags for '{DEVICE}' from "
            r"BrokenFlags\.get_cpp_optimization_flags must be None or a pair",
        ):
            self.options(DEVICE)


def _stock_device_supports_tma():
    # torch 2.13.0's _device_supports_tma body, which torch_npu replaces with
    # ``torch.npu.is_available() and not torch.version.hip``.
    return (
        torch.cuda.is_available()
        and torch.cuda.get_device_capability() >= (9, 0)
        and not torch.version.hip
    )


class SupportsTmaTest(DeviceListTestBase):
    def setUp(self):
        super().setUp()
        import torch.utils._triton as triton_utils

        self.triton_utils = triton_utils
        self.function = triton_utils._device_supports_tma
        triton_utils._device_supports_tma.cache_clear()

    def test_in_tree_interfaces_give_the_stock_answer(self):
        from torch._dynamo import device_interface as di

        for interface in (
            di.CudaInterface,
            di.MtiaInterface,
            di.XpuInterface,
            di.CpuInterface,
            di.MpsInterface,
            di.TpuInterface,
        ):
            with self.subTest(interface.__name__):
                expected = (
                    _stock_device_supports_tma()
                    if interface is di.CudaInterface
                    else False
                )
                self.assertEqual(interface.supports_tma(), expected)
        self.assertEqual(
            self.triton_utils._device_supports_tma(), _stock_device_supports_tma()
        )

    def test_device_opts_in_through_its_interface(self):
        tma_interface = type(
            "TmaInterface",
            (GpuClassInterface,),
            {"supports_tma": staticmethod(lambda device=None: True)},
        )
        # Cached before the registration, then the registration is seen.
        self.assertEqual(
            self.triton_utils._device_supports_tma(), _stock_device_supports_tma()
        )
        self.register(tma_interface)
        self.assertTrue(self.triton_utils._device_supports_tma())
        self.register(GpuClassInterface)
        self.assertEqual(
            self.triton_utils._device_supports_tma(), _stock_device_supports_tma()
        )
        self.assertIs(self.triton_utils._device_supports_tma, self.function)

    def test_broken_predicate_counts_as_false(self):
        def broken(device=None):
            raise RuntimeError("no TMA query")

        self.register(
            type("BrokenTma", (GpuClassInterface,), {"supports_tma": staticmethod(broken)})
        )
        with self.assertLogs("torch._dynamo.device_interface", level="WARNING") as logs:
            self.assertEqual(
                self.triton_utils._device_supports_tma(), _stock_device_supports_tma()
            )
        self.assertRegex("\n".join(logs.output), r"supports_tma")


class EagerListsLayeringTest(TestCase):
    def test_eager_lists_import_no_dynamo(self):
        # The optimizer and FFT lists ask the device registry only once it is
        # imported: nothing can have registered an override before.
        proc = run_python(
            """
            import json, sys
            import torch, torch.optim, torch._refs.fft
            torch.utils.rename_privateuse1_backend("acc")
            from torch.optim.optimizer import _get_capturable_supported_devices
            from torch.utils._foreach_utils import (
                _get_foreach_kernels_supported_devices as foreach,
                _get_fused_kernels_supported_devices as fused,
            )
            from torch._refs.fft import _promote_type_fft
            lists = [foreach()[-1], fused()[-1], _get_capturable_supported_devices()[-2]]
            try:
                _promote_type_fft(torch.float16, False, torch.device("acc"))
                half = True
            except RuntimeError:
                half = False
            loaded = sorted(
                m for m in sys.modules if m.startswith(("torch._dynamo", "torch._inductor"))
            )
            print(json.dumps([lists, half, loaded]))
            """
        )
        lists, half, loaded = json.loads(proc.stdout.splitlines()[-1])
        self.assertEqual(lists, ["acc"] * 3)
        self.assertFalse(half)
        self.assertEqual(loaded, [])


if __name__ == "__main__":
    run_tests()

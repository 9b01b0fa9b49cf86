# Owner(s): ["module: inductor"]
"""The C++ wrapper and C++ kernels of an out-of-tree device (SPEC IND-5).

``DeviceOpOverrides.uses_gpu_cpp_wrapper()`` (upstream 2.15) says whether a
device's C++ wrapper is the two-pass GPU one; ``cpp_stream_type()`` is what
that wrapper requires.  A device that registers ``CppWrapperCpu`` gets a
wrapper, and C++ kernels, built for its own device type, so that its C++
build options and its ``cpp_wrapper/<device>.h`` header apply.  In-tree
generated code is pinned to stock 2.13.0 by the differential harness.
"""

import os
import shutil
import stat
import sys
import tempfile
import types
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._inductor import codecache, cpp_builder
from torch._inductor.codegen.common import (
    _find_device_op_overrides,
    _uses_gpu_cpp_wrapper,
    DeviceOpOverrides,
    get_device_op_overrides,
    register_backend_for_device,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
from torch._inductor.codegen.cpp_wrapper_gpu import CppWrapperGpu
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.exc import InductorError
from torch._inductor.graph import GraphLowering
from torch._inductor.utils import get_gpu_type, run_and_get_code
from torch._inductor.virtualized import V
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    cpp_device_options,
    ExtensionDeviceOpOverrides,
    ExtensionGpuDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import check_training_step, DEVICE, RegistrySnapshot

register(DEVICE)


class GpuCppWrapperOverrides(ExtensionDeviceOpOverrides):
    def uses_gpu_cpp_wrapper(self):
        return True


class StreamTypeOnly(ExtensionDeviceOpOverrides):
    """What the GPU C++ wrapper needs to start, without opting in to it."""

    def cpp_stream_type(self):
        return "extension_device::RawStream"

    def kernel_driver(self):
        return "// kernel driver of extension_device"


class WithStreamType(StreamTypeOnly):
    def uses_gpu_cpp_wrapper(self):
        return True


class UsesGpuCppWrapperTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_in_tree_answers(self):
        # What stock 2.13.0's ["cuda", "xpu"] literal answered.
        for device, expected in [("cuda", True), ("xpu", True), ("cpu", False),
                                 ("mps", False), ("mtia", False), ("tpu", False)]:
            self.assertIs(get_device_op_overrides(device).uses_gpu_cpp_wrapper(), expected)
            self.assertIs(_uses_gpu_cpp_wrapper(device), expected)
        self.assertEqual(get_device_op_overrides("cuda").cpp_stream_type(), "cudaStream_t")
        self.assertEqual(get_device_op_overrides("xpu").cpp_stream_type(), "sycl::queue*")

    def test_defaults(self):
        self.assertIs(DeviceOpOverrides().uses_gpu_cpp_wrapper(), False)
        with self.assertRaises(NotImplementedError):
            DeviceOpOverrides().cpp_stream_type()
        # No overrides registered: meta, or a device not registered yet.
        self.assertIs(_uses_gpu_cpp_wrapper("meta"), False)
        self.assertIs(_uses_gpu_cpp_wrapper(DEVICE), False)
        register_device_op_overrides(DEVICE, ExtensionDeviceOpOverrides(DEVICE))
        self.assertIs(_uses_gpu_cpp_wrapper(DEVICE), False)
        register_device_op_overrides(DEVICE, GpuCppWrapperOverrides(DEVICE))
        self.assertIs(_uses_gpu_cpp_wrapper(DEVICE), True)

    def test_broken_override_is_false_and_warns_once(self):
        class Raises(ExtensionDeviceOpOverrides):
            def uses_gpu_cpp_wrapper(self):
                raise RuntimeError("driver not loaded")

        class WrongType(ExtensionDeviceOpOverrides):
            def uses_gpu_cpp_wrapper(self):
                return "yes"

        for overrides, problem in [(Raises(DEVICE), "raised RuntimeError: driver not loaded"),
                                   (WrongType(DEVICE), "returned 'yes', not a bool")]:
            register_device_op_overrides(DEVICE, overrides)
            with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
                self.assertIs(_uses_gpu_cpp_wrapper(DEVICE), False)
                self.assertIs(_uses_gpu_cpp_wrapper(DEVICE), False)
            self.assertEqual(len(logs.output), 1)
            self.assertRegex(logs.output[0], rf"uses_gpu_cpp_wrapper\(\) {problem}; treating it as False")

    def test_two_pass_gate(self):
        # AOTInductor compiles a first Python-wrapper pass exactly for the
        # devices whose C++ wrapper is a GPU one.  The stand-in graph stops at
        # that first pass.
        class FirstPass(Exception):
            pass

        def first_pass():
            raise FirstPass

        def gate(*device_types):
            graph = types.SimpleNamespace(
                device_types=set(device_types), aot_mode=True, operations=[],
                codegen=lambda: "one pass", compile_to_module=first_pass,
            )
            with inductor_config.patch({"triton.autotune_at_compile_time": False}):
                try:
                    return GraphLowering.codegen_with_cpp_wrapper(graph)
                except FirstPass:
                    return "two passes"

        register_device_op_overrides(DEVICE, ExtensionDeviceOpOverrides(DEVICE))
        self.assertEqual(gate("cuda"), "two passes")
        self.assertEqual(gate("cpu", "xpu"), "two passes")
        self.assertEqual(gate("cpu"), "one pass")
        self.assertEqual(gate("cpu", "mtia", "meta"), "one pass")
        self.assertEqual(gate(DEVICE, "cpu"), "one pass")
        register_device_op_overrides(DEVICE, GpuCppWrapperOverrides(DEVICE))
        self.assertEqual(gate(DEVICE, "cpu"), "two passes")


class DeviceOpOverridesRegistryTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_unregistered_device(self):
        self.assertIsNone(_find_device_op_overrides("acc_unregistered"))
        # A KeyError, as stock's dict lookup raised, that says how to fix it.
        with self.assertRaisesRegex(
            KeyError,
            r"No DeviceOpOverrides registered for device 'acc_unregistered'; "
            r"register them with torch\._inductor\.codegen\.common\."
            r"register_device_op_overrides\('acc_unregistered', "
            r"<DeviceOpOverrides instance>\)",
        ):
            get_device_op_overrides("acc_unregistered")
        # An in-tree device without overrides raises as in 2.13.
        with self.assertRaises(KeyError) as raised:
            get_device_op_overrides("meta")
        self.assertEqual(raised.exception.args, ("meta",))

    def test_register_rejects_a_non_instance(self):
        registered = ExtensionDeviceOpOverrides(DEVICE)
        register_device_op_overrides(DEVICE, registered)
        with self.assertRaisesRegex(
            TypeError,
            rf"register_device_op_overrides\('{DEVICE}', ...\) expects a "
            r"DeviceOpOverrides instance, got <class '[\w.]*ExtensionDeviceOpOverrides'>; "
            r"pass an instance: ExtensionDeviceOpOverrides\(\)",
        ):
            register_device_op_overrides(DEVICE, ExtensionDeviceOpOverrides)
        with self.assertRaisesRegex(
            TypeError,
            rf"register_device_op_overrides\('{DEVICE}', ...\) expects a "
            r"DeviceOpOverrides instance, got 'at::kPrivateUse1'$",
        ):
            register_device_op_overrides(DEVICE, "at::kPrivateUse1")
        # Nothing was replaced.
        self.assertIs(get_device_op_overrides(DEVICE), registered)


class GpuCppWrapperDeviceTests(TestCase):
    """CppWrapperGpu serves the out-of-tree device that opts in."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE)

    def make_wrapper(self, device_type):
        graph = GraphLowering(torch.fx.symbolic_trace(lambda x: x + 1))
        graph.device_type = device_type
        with V.set_graph_handler(graph):
            return CppWrapperGpu()

    def test_opted_in_device_gets_its_own_type(self):
        overrides = WithStreamType(DEVICE)
        register_device_op_overrides(DEVICE, overrides)
        wrapper = self.make_wrapper(DEVICE)
        self.assertEqual(wrapper.device, DEVICE)
        self.assertIs(wrapper.device_codegen, overrides)
        FileCheck().check("// kernel driver of extension_device").run(wrapper.header.getvalue())

    def test_not_opted_in_keeps_get_gpu_type(self):
        # Registering CppWrapperGpu does not opt in: as in 2.13, the wrapper
        # is get_gpu_type()'s (cuda on this host).
        register_device_op_overrides(DEVICE, StreamTypeOnly(DEVICE))
        wrapper = self.make_wrapper(DEVICE)
        self.assertEqual(wrapper.device, get_gpu_type())
        self.assertNotEqual(wrapper.device, DEVICE)

    def test_opted_in_without_stream_type(self):
        register_device_op_overrides(DEVICE, GpuCppWrapperOverrides(DEVICE))
        with self.assertRaisesRegex(
            RuntimeError,
            rf"Device '{DEVICE}' uses the GPU C\+\+ wrapper \(GpuCppWrapperOverrides"
            r".uses_gpu_cpp_wrapper\(\) is True\), which needs the C\+\+ type of its raw "
            r"stream, but GpuCppWrapperOverrides.cpp_stream_type\(\) is not implemented: "
            rf"implement it in the DeviceOpOverrides given to register_device_op_overrides\('{DEVICE}', ...\)",
        ):
            self.make_wrapper(DEVICE)


def _logging_compiler(directory: str) -> tuple[str, Path]:
    """A compiler that logs each command line and runs the real compiler; named
    g++ so that Inductor picks the same flags."""
    real = shutil.which(cpp_builder.get_cpp_compiler())
    log = Path(directory) / "commands.log"
    script = Path(directory) / "g++"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script), log


class CppWrapperDeviceCompileTests(TestCase):
    """Compiles on extension_device, in both wrapper modes."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)

    def compile(self, fn, *args, cpp_wrapper, **patches):
        with inductor_config.patch(cpp_wrapper=cpp_wrapper, fx_graph_cache=False, **patches):
            result, code = run_and_get_code(torch.compile(fn), *args)
        return result, "\n".join(code)

    def inputs(self, index=0):
        return [torch.randn(4, 8, device=f"{DEVICE}:{index}") for _ in range(3)]

    def test_inference(self):
        class Recording(ExtensionDeviceOpOverrides):
            calls = 0

            def aten_device_type(self):
                Recording.calls += 1
                return super().aten_device_type()

        register_device_op_overrides(DEVICE, Recording(DEVICE))

        def fn(a, b, c):
            return (a * b + c).relu()

        args = self.inputs()
        expected = fn(*args)
        for cpp_wrapper in (False, True):
            with self.subTest(cpp_wrapper=cpp_wrapper):
                torch._dynamo.reset()
                actual, code = self.compile(fn, *args, cpp_wrapper=cpp_wrapper)
                self.assertEqual(actual.device, expected.device)
                self.assertEqual(actual.cpu(), expected.cpu())
                if cpp_wrapper:
                    # The wrapper is built for the device: its header, its ATen
                    # device type (from aten_device_type()), its build options.
                    FileCheck().check(
                        "#include <torch/csrc/inductor/cpp_wrapper/extension_device.h>"
                    ).check("CACHE_TORCH_DEVICE(privateuse1)").check(
                        "cached_torch_device_type_privateuse1"
                    ).check('device_type="extension_device"').run(code)
                    self.assertGreater(Recording.calls, 0)
                else:
                    FileCheck().check("async_compile.cpp_pybinding(").check(
                        "''', device_type='extension_device')"
                    ).run(code)

    def test_training_step(self):
        code = check_training_step(self, self.compile)[True]
        # Matrix products go through the device's own C shim.
        FileCheck().check("aoti_torch_extension_device_addmm_out(").run(code)
        FileCheck().check("aoti_torch_extension_device_mm_out(").run(code)

    def products_and_fallbacks(self, overrides):
        """Matrix products (extern kernels), sort (a fallback with a C shim for
        cpu) and median.dim (one without), compiled with the C++ wrapper and
        ``overrides`` registered; the results equal eager's."""
        register_device_op_overrides(DEVICE, overrides)

        def fn(a, b, c, x):
            return (
                torch.addmm(c, a, b.t()),
                a @ b.t(),
                torch.bmm(x, x.transpose(1, 2)),
                torch.sort(a, dim=1).values,
                torch.median(a, dim=1).values,
            )

        args = [*self.inputs()[:2], torch.randn(4, 4, device=DEVICE)]
        args.append(torch.randn(2, 3, 5, device=DEVICE))
        actual, code = self.compile(fn, *args, cpp_wrapper=True)
        for got, want in zip(actual, fn(*args), strict=True):
            self.assertEqual(got.device, want.device)
            self.assertEqual(got.cpu(), want.cpu())
        return code

    def test_device_without_a_c_shim_calls_the_dispatcher(self):
        class NoCShim(ExtensionDeviceOpOverrides):
            def c_shim_device(self, device, op):
                return None

        code = self.products_and_fallbacks(NoCShim(DEVICE))
        self.assertNotIn("aoti_torch_extension_device_", code)
        for op in ["addmm", "mm", "bmm"]:
            FileCheck().check(f'findSchemaOrThrow("aten::{op}", "out")').run(code)
        FileCheck().check('"aten::sort", "stable"').check('"aten::median", "dim"').run(code)
        training = check_training_step(self, self.compile)[True]
        self.assertNotIn("aoti_torch_extension_device_", training)

    def test_device_naming_cpus_c_shim(self):
        class CpuCShim(ExtensionDeviceOpOverrides):
            def c_shim_device(self, device, op):
                return "cpu"

        code = self.products_and_fallbacks(CpuCShim(DEVICE))
        self.assertNotIn("aoti_torch_extension_device_", code)
        for op in ["addmm", "mm", "bmm"]:
            FileCheck().check(f"aoti_torch_cpu_{op}_out(").run(code)
        # Sort allocates its outputs: cpu's shim would make them cpu tensors.
        FileCheck().check('"aten::sort", "stable"').run(code)

    def test_side_stream_is_refused_before_codegen(self):
        def fn(x):
            s = torch.extension_device.Stream()
            with torch.extension_device.stream(s):
                y = x + 1
            return y * 2

        (x,) = self.inputs()[:1]
        expected = fn(x)
        actual, _ = self.compile(fn, x, cpp_wrapper=False)
        self.assertEqual(actual.cpu(), expected.cpu())
        torch._dynamo.reset()
        with self.assertRaisesRegex(
            InductorError,
            r"NotImplementedError: The C\+\+ wrapper \(cpp_wrapper=True\) cannot "
            r"run a graph with work on a side stream of the device 'extension_device' \(a `with "
            r"torch.extension_device.stream\(s\):` region.*"
            r"Compile this graph with the Python wrapper \(cpp_wrapper=False\)",
        ):
            self.compile(fn, x, cpp_wrapper=True)

    def test_gpu_class_device_guard(self):
        register_compile_backend(DEVICE, ExtensionGpuDeviceInterface)
        args = self.inputs(1)
        expected = args[0] * args[1] + args[2]
        actual, code = self.compile(lambda a, b, c: a * b + c, *args, cpp_wrapper=True)
        self.assertEqual(actual.device, torch.device(DEVICE, 1))
        self.assertEqual(actual.cpu(), expected.cpu())
        FileCheck().check("extension_device::AOTIDeviceGuard device_guard(1);").run(code)

    def test_build_options_reach_the_compiler(self):
        # The device's C++ build options define EXTENSION_DEVICE_SHIM_SCALE,
        # which makes its C shim (inlined into the C++ wrapper) scale matrix
        # products: the result shows that the definition reached the compiled
        # code, the logged command lines that it reached the compiler.
        def scaled_options(*args):
            definitions, *rest = cpp_device_options(*args)
            return (definitions + ["EXTENSION_DEVICE_SHIM_SCALE=3"], *rest)

        cpp_builder.register_cpp_device_options(DEVICE, scaled_options)
        a, b = torch.randn(4, 8, device=DEVICE), torch.randn(8, 2, device=DEVICE)
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        compiler, log = _logging_compiler(directory)

        def compile_with_log(fn, *args, cpp_wrapper):
            log.write_text("")
            # No precompiled headers: they would be kept for this compiler.
            result, code = self.compile(
                fn, *args, cpp_wrapper=cpp_wrapper, cpp_cache_precompile_headers=False,
                **{"cpp.cxx": (compiler,)},
            )
            commands = [
                line for line in log.read_text().splitlines()
                if ".main.cpp " in line
            ]
            self.assertTrue(commands, "no C++ source was compiled")
            return result, code, commands

        product, _, commands = compile_with_log(torch.mm, a, b, cpp_wrapper=True)
        self.assertEqual(product.cpu(), 3 * (a.cpu() @ b.cpu()))
        for command in commands:
            self.assertIn("-D USE_EXTENSION_DEVICE", command)
            self.assertIn("-D EXTENSION_DEVICE_SHIM_SCALE=3", command)

        # Python wrapper: the C++ kernels of the device get its options, those
        # of cpu do not.
        torch._dynamo.reset()
        c = torch.randn(4, 8)
        _, code, commands = compile_with_log(
            lambda x, y: (x.sin() + 1, (y.cpu() * 2).cos()), a, c, cpp_wrapper=False
        )
        FileCheck().check_count("async_compile.cpp_pybinding(", 2, exactly=True).run(code)
        self.assertEqual(len(commands), 2)
        with_options = [cmd for cmd in commands if "-D EXTENSION_DEVICE_SHIM_SCALE=3" in cmd]
        self.assertEqual(len(with_options), 1, commands)
        include_dir = os.path.join(str(TEST_DIR), "extension_backends", "cpp", "include")
        self.assertIn(f"-I{include_dir}", with_options[0])

    def test_identical_kernels_of_cpu_and_device_are_not_shared(self):
        # Same source on both devices: each device type gets a kernel of its
        # own, built with its own options (sharing would build the device's
        # with cpu's, or the reverse).
        a, c = torch.randn(4, 8, device=DEVICE), torch.randn(4, 8)

        def fn(x, y):
            return x.sin() + 1, y.sin() + 1

        (on_device, on_cpu), code = self.compile(fn, a, c, cpp_wrapper=False)
        self.assertEqual(on_device.cpu(), a.cpu().sin() + 1)
        self.assertEqual(on_cpu, c.sin() + 1)
        FileCheck().check_count("async_compile.cpp_pybinding(", 2, exactly=True).run(code)
        FileCheck().check_count(f"device_type='{DEVICE}')", 1, exactly=True).run(code)


class HostMemoryWrapper(CppWrapperCpu):
    """A wrapper class that maps the device to cpu's runtime header, as a
    backend whose memory is host memory and that reuses CPU kernels does."""

    @staticmethod
    def get_device_include_path_jit(device):
        return CppWrapperCpu.get_device_include_path_jit("cpu")

    @staticmethod
    def get_device_include_path_aot(device):
        return CppWrapperCpu.get_device_include_path_aot("cpu")


CPU_HEADER = "torch/csrc/inductor/cpp_wrapper/cpu.h"
DEVICE_HEADER = f"torch/csrc/inductor/cpp_wrapper/{DEVICE}.h"
MISSING_HEADER = (
    rf"The C\+\+ wrapper of device '{DEVICE}' includes <{DEVICE_HEADER}> "
    r"\(CppWrapperCpu.get_device_include_path_jit\), which is on none of the "
    r"device's C\+\+ include directories. Either ship that header .* in a "
    r"directory the device's C\+\+ build options add .*; or register with "
    r"register_backend_for_device\(\) a C\+\+ wrapper class whose "
    r"get_device_include_path_jit\(\) returns the header to include, e.g. "
    r"cpu's runtime header"
)


class CppWrapperHeaderTests(TestCase):
    """The C++ wrapper header of an out-of-tree device comes from one resolver
    (``codecache._get_cpp_wrapper_header``), which code generation and the
    precompiled-header step share and which honours the registered wrapper
    class."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)

    def register_wrapper(self, wrapper):
        # Without the device's C++ build options, its own cpp_wrapper/<device>.h
        # is on no include directory.
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen, wrapper)
        cpp_builder.register_cpp_device_options(DEVICE, lambda *args: None)

    def compile(self, fn, *args, precompile_headers):
        with inductor_config.patch(
            cpp_wrapper=True,
            fx_graph_cache=False,
            cpp_cache_precompile_headers=precompile_headers,
        ):
            result, code = run_and_get_code(torch.compile(fn), *args)
        return result, "\n".join(code)

    def test_resolver_answers(self):
        self.assertEqual(codecache._get_cpp_wrapper_header(DEVICE), DEVICE_HEADER)
        self.assertEqual(codecache._get_cpp_wrapper_header(f"{DEVICE}:1"), DEVICE_HEADER)
        self.register_wrapper(HostMemoryWrapper)
        self.assertEqual(codecache._get_cpp_wrapper_header(DEVICE), CPU_HEADER)
        self.assertEqual(
            codecache._get_cpp_wrapper_header(DEVICE, aot_mode=True),
            "torch/csrc/inductor/aoti_include/cpu.h",
        )
        # In-tree devices keep their answers.
        self.assertEqual(codecache._get_cpp_wrapper_header("cpu"), CPU_HEADER)
        self.assertEqual(
            codecache._get_cpp_wrapper_header("cuda:0", aot_mode=True),
            "torch/csrc/inductor/aoti_include/cuda.h",
        )

    def test_instance_method_and_absolute_path_overrides(self):
        header = Path(tempfile.mkdtemp()) / "vendor_wrapper.h"
        self.addCleanup(shutil.rmtree, header.parent)
        header.write_text("#pragma once\n")

        class VendorWrapper(CppWrapperCpu):
            def get_device_include_path_jit(self, device):
                return f'#include "{header}"'

        self.register_wrapper(VendorWrapper)
        self.assertEqual(codecache._get_cpp_wrapper_header(DEVICE), str(header))

    def test_not_an_include_line(self):
        class Broken(CppWrapperCpu):
            @staticmethod
            def get_device_include_path_jit(device):
                return "torch/csrc/inductor/cpp_wrapper/cpu.h"

        self.register_wrapper(Broken)
        with self.assertRaisesRegex(
            RuntimeError,
            r"Broken.get_device_include_path_jit\('extension_device'\) returned "
            r"'torch/csrc/inductor/cpp_wrapper/cpu.h'; expected an '#include <header>' line",
        ):
            codecache._get_cpp_wrapper_header(DEVICE)

    def test_wrapper_class_maps_the_device_to_cpus_header(self):
        self.register_wrapper(HostMemoryWrapper)
        args = [torch.randn(4, 8, device=DEVICE) for _ in range(3)]

        def fn(a, b, c):
            return (a * b + c).relu()

        expected = fn(*args)
        for precompile_headers in (True, False):
            with self.subTest(precompile_headers=precompile_headers):
                torch._dynamo.reset()
                actual, code = self.compile(fn, *args, precompile_headers=precompile_headers)
                self.assertEqual(actual.device, expected.device)
                self.assertEqual(actual.cpu(), expected.cpu())
                FileCheck().check(f"#include <{CPU_HEADER}>").check_not(
                    DEVICE_HEADER
                ).run(code)

    def test_missing_header_fails_before_the_compiler_runs(self):
        self.register_wrapper(CppWrapperCpu)
        with self.assertRaisesRegex(RuntimeError, MISSING_HEADER):
            codecache._get_cpp_wrapper_header(DEVICE)
        a = torch.randn(4, device=DEVICE)
        for precompile_headers in (True, False):
            with self.subTest(precompile_headers=precompile_headers):
                torch._dynamo.reset()
                with self.assertRaisesRegex(Exception, MISSING_HEADER):
                    self.compile(lambda x: x.sin() + 1, a, precompile_headers=precompile_headers)


if __name__ == "__main__":
    run_tests()

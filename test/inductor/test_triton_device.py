# Owner(s): ["module: inductor"]
"""The Triton path of an out-of-tree GPU-class device (SPEC §2, §4, §9).

``extension_device`` is registered as a GPU-class device scheduled by
``TritonScheduling`` (``extension_backends.triton_codegen_backend``) through the
guide's public calls; its interface names the device's own Triton backend, so
the kernels' backend hash and driver are the device's, not a process-wide
"active GPU". That backend is not installed here: Triton's interpreter
(``TRITON_INTERPRET=1``) runs the kernels, in fresh processes because the
variable must be set before triton is imported.
"""

import json
import os
import sys
import tempfile
import types
from pathlib import Path
from unittest import mock

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import triton.backends

import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import DeviceInterface, get_interface_for_device
from torch._dynamo.exc import TritonUnavailableError
from torch._inductor.autotune_process import (
    _TestBenchmarkRequest,
    TuningProcess,
    TuningProcessPool,
)
from torch._inductor.codegen.triton import TritonKernel
from torch._inductor.runtime import triton_helpers
from torch._inductor.utils import get_gpu_type
from torch._inductor.virtualized import V
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils._triton import (
    _has_triton_capable_device,
    get_triton_backend_name,
    triton_hash_for_device,
)

from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceOpOverrides
from extension_backends.extension_device import register
from extension_backends.testing import add_site_dir, DEVICE, RegistrySnapshot, run_python
from extension_backends.triton_codegen_backend import (
    ExtensionTritonDeviceInterface,
    register_triton_backend,
    TRITON_BACKEND,
    VISIBLE_DEVICES_ENV,
)

register(DEVICE)

#: A directory with the dist-info of ``extension-device-triton-backend``, whose
#: ``torch_inductor_backends`` entry point registers this Triton variant.
TRITON_BACKEND_SITE = TEST_DIR / "extension_backends" / "site-triton"

#: A directory with the dist-info of ``extension-device-triton-plugins``, whose
#: ``triton.backends`` entry points add two always-active Triton backends,
#: ``extension_device`` and ``other`` (``extension_backends/triton_plugins``).
TRITON_PLUGINS_SITE = TEST_DIR / "extension_backends" / "site-triton-plugins"

INSTALLED = ", ".join(sorted(triton.backends.backends))


def _without_interpreter():
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    return mock.patch.dict(os.environ, env, clear=True)


class TritonBackendSelectionTests(TestCase):
    """Which Triton backend a device's kernels use, without running any."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        patcher = _without_interpreter()
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_default_and_in_tree_devices_name_no_backend(self):
        # None: Triton's process-wide active driver, as before.
        self.assertIsNone(DeviceInterface.triton_backend_name())
        for device in ("cuda", "xpu", "mtia", "cpu", "mps", "tpu"):
            with self.subTest(device=device):
                self.assertIsNone(get_interface_for_device(device).triton_backend_name())
                self.assertIsNone(get_triton_backend_name(device))
        self.assertIsNone(get_triton_backend_name("not_a_registered_device"))

    def test_device_names_its_backend(self):
        register_triton_backend(DEVICE)
        self.assertEqual(get_triton_backend_name(DEVICE), TRITON_BACKEND)

    def test_backend_must_be_installed_to_compile(self):
        register_triton_backend(DEVICE)
        self.assertNotIn(TRITON_BACKEND, triton.backends.backends)
        with self.assertRaisesRegex(
            RuntimeError,
            f"Cannot compile Triton kernels for device '{DEVICE}' with its Triton "
            f"backend '{TRITON_BACKEND}': Triton has no backend named "
            f"'{TRITON_BACKEND}' \\(installed backends: {INSTALLED}\\)",
        ):
            triton_hash_for_device(DEVICE)
        with self.assertRaisesRegex(
            RuntimeError, f"Triton has no backend named '{TRITON_BACKEND}'"
        ):
            triton_helpers.set_driver_to_backend(TRITON_BACKEND)

    def test_uninstalled_backend_means_triton_unavailable(self):
        register_triton_backend(DEVICE)
        with self.assertRaisesRegex(
            TritonUnavailableError,
            f"triton not built with the '{TRITON_BACKEND}' backend",
        ):
            ExtensionTritonDeviceInterface.raise_if_triton_unavailable()
        self.assertFalse(_has_triton_capable_device(include_cpu=False))
        # Triton's interpreter needs no backend.
        with mock.patch.dict(os.environ, {"TRITON_INTERPRET": "1"}):
            ExtensionTritonDeviceInterface.raise_if_triton_unavailable()
            self.assertTrue(_has_triton_capable_device(include_cpu=False))
            # No driver to make active.
            self.assertIsNone(triton_helpers.set_driver_to_backend(TRITON_BACKEND))

    def test_broken_hook_fails_code_generation(self):
        class Raises(ExtensionTritonDeviceInterface):
            @staticmethod
            def triton_backend_name():
                raise KeyError("no backend")

        class WrongType(ExtensionTritonDeviceInterface):
            @staticmethod
            def triton_backend_name():
                return 3

        register_triton_backend(DEVICE, Raises)
        with self.assertRaisesRegex(
            RuntimeError,
            f"Raises.triton_backend_name\\(\\) of device '{DEVICE}' raised "
            "KeyError\\('no backend'\\); it must return the name of the device's "
            "Triton backend",
        ) as caught:
            triton_hash_for_device(DEVICE)
        self.assertIsInstance(caught.exception.__cause__, KeyError)
        register_triton_backend(DEVICE, WrongType)
        with self.assertRaisesRegex(
            TypeError,
            f"WrongType.triton_backend_name\\(\\) of device '{DEVICE}' returned 3; "
            "it must return the name",
        ):
            triton_hash_for_device(DEVICE)

    def test_autotune_subprocess_is_pinned_by_the_device_variable(self):
        # The child loads this Triton variant by entry point, so that it also
        # sees a GPU-class device whose visible-devices variable is ours.
        add_site_dir(self, TRITON_BACKEND_SITE)
        register_triton_backend(DEVICE)
        self.assertEqual(get_gpu_type(), DEVICE)
        with inductor_config.patch(autotune_multi_device=True):
            with mock.patch.dict(os.environ, {VISIBLE_DEVICES_ENV: "1"}):
                self.assertEqual(TuningProcessPool.get_device_list(), [1])
        process = TuningProcess(device=1)
        self.addCleanup(process.kill)
        # The child checks that its variable pins it to the request's device.
        self.assertEqual(self._run(process, _TestBenchmarkRequest(3.0, device=1)), 3.0)
        with self.assertRaises(AssertionError):
            self._run(process, _TestBenchmarkRequest(3.0, device=0))

    @staticmethod
    def _run(process: TuningProcess, request: _TestBenchmarkRequest) -> float:
        process.put(request.benchmark)
        return process.get(timeout=300)


class BenchmarkKernelImportsTests(TestCase):
    def test_multi_line_raw_stream_snippet(self):
        # The fake device defines get_raw_stream in two lines; the imports of a
        # benchmark module (benchmark_fusion, benchmark_kernel) must still parse.
        overrides = ExtensionDeviceOpOverrides(DEVICE)
        self.assertIn("\n", overrides.import_get_raw_stream_as("get_raw_stream").strip())
        kernel = TritonKernel.__new__(TritonKernel)  # the method reads V.graph only
        with V.set_graph_handler(types.SimpleNamespace(device_ops=overrides)):
            source = kernel.imports_for_benchmark_kernel()
        namespace = {}
        exec(compile(source, "<benchmark imports>", "exec"), namespace)
        self.assertTrue(callable(namespace["get_raw_stream"]))


class TwoTritonBackendsTests(TestCase):
    """Two active Triton backends (as CUDA and a vendor's on one machine):
    Triton has no process-wide driver, and each device gets its own."""

    def test_device_gets_its_own_backend(self):
        proc = run_python(
            """
            import triton.backends
            from triton.runtime.driver import driver
            from torch._inductor.runtime import triton_helpers
            from torch.utils._triton import (
                triton_driver, triton_hash_for_device, triton_hash_with_backend,
            )
            from extension_backends.extension_device import register
            from extension_backends.testing import DEVICE
            from extension_backends.triton_codegen_backend import (
                register_triton_backend, TRITON_BACKEND,
            )

            register(DEVICE)
            register_triton_backend(DEVICE)
            print("backends:", sorted(triton.backends.backends))
            try:
                driver.active
            except RuntimeError as err:
                print("process-wide:", str(err).split(" (")[0])
            ours = triton_hash_for_device(DEVICE)
            print("hash is ours:", ours == triton_hash_with_backend(TRITON_BACKEND))
            print("hash is not other's:", ours != triton_hash_with_backend("other"))
            for name in ("other", TRITON_BACKEND, TRITON_BACKEND):
                triton_helpers.set_driver_to_backend(name)
                print("active:", type(driver.active).__name__,
                      driver.active is triton_driver(name))
            """,
            PYTHONPATH=os.pathsep.join([str(TEST_DIR), str(TRITON_PLUGINS_SITE)]),
        )
        self.assertEqual(
            proc.stdout.splitlines(),
            [
                f"backends: {sorted([*triton.backends.backends, TRITON_BACKEND, 'other'])}",
                "process-wide: 2 active drivers",
                "hash is ours: True",
                "hash is not other's: True",
                "active: OtherDriver True",
                "active: ExtensionDeviceDriver True",
                # One driver per backend: the active one stays.
                "active: ExtensionDeviceDriver True",
            ],
        )


class TritonInterpreterTests(TestCase):
    """Compile and run under Triton's interpreter, in fresh processes."""

    def test_cases_under_the_interpreter(self):
        # Inference (generated wrapper and kernels), a second device, a
        # training step and a side-stream graph, each compared with eager:
        # extension_backends/triton_interpreter_cases.py, in one process.
        proc = run_python(
            """
            import os
            import sys
            from extension_backends.triton_interpreter_cases import run_cases
            status = run_cases()
            sys.stdout.flush()
            # Without interpreter teardown, which can abort in the autograd
            # engine's device threads after a backward pass on the fake device.
            os._exit(status)
            """,
            TRITON_INTERPRET="1",
        )
        cases = (TEST_DIR / "extension_backends" / "triton_interpreter_cases.py").read_text()
        self.assertIn(f"cases run: {cases.count('    def test_')}, ok: True", proc.stdout)

    def test_fx_graph_cache_across_processes(self):
        code = """
            import json
            import torch
            from torch._dynamo.utils import counters
            from torch._inductor import config
            from extension_backends.extension_device import register
            from extension_backends.testing import DEVICE
            from extension_backends.triton_codegen_backend import register_triton_backend

            register(DEVICE)
            register_triton_backend(DEVICE)

            def fn(x, y):
                return (x @ y).relu() + x.sin().sum()

            x = torch.randn(8, 8, device=DEVICE)
            y = torch.randn(8, 8, device=DEVICE)
            with config.patch(fx_graph_cache=True, fx_graph_remote_cache=False):
                actual = torch.compile(fn)(x, y)
            torch.testing.assert_close(actual.cpu(), fn(x, y).cpu())
            print(json.dumps({k: counters["inductor"][k]
                              for k in ("fxgraph_cache_hit", "fxgraph_cache_miss")}))
            """
        with tempfile.TemporaryDirectory() as cache_dir:
            counts = [
                json.loads(
                    run_python(
                        code, TRITON_INTERPRET="1", TORCHINDUCTOR_CACHE_DIR=cache_dir
                    ).stdout.splitlines()[-1]
                )
                for _ in range(2)
            ]
        self.assertEqual(
            counts,
            [
                {"fxgraph_cache_hit": 0, "fxgraph_cache_miss": 1},
                {"fxgraph_cache_hit": 1, "fxgraph_cache_miss": 0},
            ],
        )


if __name__ == "__main__":
    run_tests()

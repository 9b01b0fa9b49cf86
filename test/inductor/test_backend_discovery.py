# Owner(s): ["module: inductor"]
"""Inductor finds an out-of-tree backend by itself (SPEC IND-1) and routes
``"<device>.<key>"`` compile options to it (SPEC IND-2).

Discovery is tested with real distributions on ``sys.path``: the checked-in
``extension_backends/site`` and dist-infos written by the tests; nothing stands
in for ``importlib.metadata``.
"""

import shutil
import sys
import tempfile
import textwrap
import threading
import uuid
import warnings
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._functorch.config as functorch_config
import torch._inductor.config as inductor_config
from torch._dynamo.utils import counters
from torch._inductor.codegen import common
from torch._inductor.codegen.common import (
    get_compile_option_owner,
    get_scheduling_for_device,
    get_wrapper_codegen_for_device,
    init_backend_registration,
    register_backend_for_device,
    register_device_backend_loader,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.utils import fresh_cache, run_and_get_code
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils import backend_registration

from extension_backends.cpp import extension_device_config
from extension_backends.cpp.extension_codegen_backend import (
    ExtensionPythonWrapperCodegen,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import (
    add_site_dir,
    BACKEND_SITE,
    DEVICE,
    RegistrySnapshot,
    run_python,
)

register(DEVICE)

NO_BACKEND = f"Inductor has no codegen backend for device '{DEVICE}'"


def add(a, b):
    return a * 2 + b


def causes(error):
    """``error`` and what caused it: its ``__cause__`` chain, through the
    ``inner_exception`` of Dynamo's ``BackendCompilerFailed``."""
    chain = [error]
    while True:
        cause = chain[-1].__cause__ or getattr(chain[-1], "inner_exception", None)
        if cause is None or cause in chain:
            return chain
        chain.append(cause)


class DiscoveryTestCase(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        # Every test starts with the device known to eager mode only, and
        # compiles for real: a cache hit needs no backend, so loads none.
        self.assertIsNone(get_scheduling_for_device(DEVICE))
        self.enterContext(inductor_config.patch(fx_graph_cache=False))
        self.enterContext(functorch_config.patch(enable_autograd_cache=False))
        self.calls = []

    def inputs(self):
        return [torch.randn(8, device=DEVICE) for _ in range(2)]

    def assert_compiles(self, fn=add, *args):
        args = args or self.inputs()
        self.assertEqual(torch.compile(fn)(*args).cpu(), fn(*args).cpu())

    def assert_no_backend(self):
        with self.assertRaisesRegex(Exception, NO_BACKEND):
            torch.compile(add)(*self.inputs())
        torch._dynamo.reset()

    def assert_load_fails(self, message, cause=None):
        """A compile fails with the loader's RuntimeError (matching
        ``message``) in its chain of causes, chained in turn to ``cause``; so
        does the next one, which runs the loader again."""
        for _ in range(2):
            with self.assertRaises(Exception) as caught:
                torch.compile(add)(*self.inputs())
            torch._dynamo.reset()
            errors = [e for e in causes(caught.exception) if type(e) is RuntimeError]
            self.assertTrue(errors, caught.exception)
            with self.assertRaisesRegex(RuntimeError, message):
                raise errors[0]
            self.assertIs(errors[0].__cause__, cause)
        with self.assertRaisesRegex(RuntimeError, message) as caught:
            init_backend_registration((DEVICE,))
        if cause is not None:
            self.assertIs(type(caught.exception.__cause__), type(cause))
        self.assertIsNone(get_scheduling_for_device(DEVICE))

    def write_distribution(self, entry_points, loaders=""):
        """Install a distribution into a fresh site directory on sys.path: a
        dist-info declaring ``entry_points`` ({name: value}) in the
        torch_inductor_backends group, and a module of ``loaders`` code that
        the values may name as ``{module}``. Returns the module name."""
        site = Path(tempfile.mkdtemp(prefix="site-"))
        self.addCleanup(shutil.rmtree, site, True)
        module = f"vendor_loaders_{uuid.uuid4().hex[:8]}"
        self.addCleanup(sys.modules.pop, module, None)
        (site / f"{module}.py").write_text(textwrap.dedent(loaders))
        dist_info = site / f"{module}-1.0.dist-info"
        dist_info.mkdir()
        (dist_info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n"
        )
        lines = [f"{name} = {value.format(module=module)}" for name, value in entry_points.items()]
        (dist_info / "entry_points.txt").write_text(
            "[torch_inductor_backends]\n" + "\n".join(lines) + "\n"
        )
        add_site_dir(self, site)
        return module

    def loader(self, name, *, registers=True, raises=None):
        def load():
            self.calls.append(name)
            if raises is not None:
                raise raises
            if registers:
                register_compile_backend(DEVICE)

        return load


class EntryPointDiscoveryTests(DiscoveryTestCase):
    """SPEC IND-1 through the torch_inductor_backends entry point group."""

    def test_installed_distribution_loads_the_backend(self):
        add_site_dir(self, BACKEND_SITE)
        self.assert_compiles()
        self.assertIs(get_scheduling_for_device(DEVICE), CppScheduling)
        self.assertIs(
            get_wrapper_codegen_for_device(DEVICE), ExtensionPythonWrapperCodegen
        )

    def test_not_loaded_by_a_compile_that_does_not_need_the_device(self):
        module = self.write_distribution(
            {DEVICE: "{module}:load"},
            "CALLS = []\ndef load():\n    CALLS.append(1)\n",
        )
        x = torch.randn(4)
        self.assertEqual(torch.compile(torch.sin)(x), torch.sin(x))
        self.assertNotIn(module, sys.modules)
        self.assertIsNone(get_scheduling_for_device(DEVICE))

    def test_broken_entry_point_fails_the_compile(self):
        module = self.write_distribution({DEVICE: "no_such_vendor_module:load"})
        with self.assertRaisesRegex(
            RuntimeError,
            rf"Could not load the Inductor backend of device '{DEVICE}' from the "
            rf"torch_inductor_backends entry point '{DEVICE} = no_such_vendor_module:load' "
            rf"of distribution '{module}': loading it raised "
            r"ModuleNotFoundError: No module named 'no_such_vendor_module'\. Fix the "
            r"backend package, or register the backend with torch\._inductor\.codegen\."
            rf"common\.register_backend_for_device\('{DEVICE}', \.\.\.\)",
        ) as caught:
            init_backend_registration((DEVICE,))
        self.assertIsInstance(caught.exception.__cause__, ModuleNotFoundError)

    def test_entry_point_that_is_not_callable(self):
        self.write_distribution({DEVICE: "{module}:LOADER"}, "LOADER = 42\n")
        self.assert_load_fails(r"it refers to 42, which is not callable")

    def test_entry_point_that_raises(self):
        module = self.write_distribution(
            {DEVICE: "{module}:load"},
            "def load():\n    raise OSError('no driver found')\n",
        )
        with self.assertRaisesRegex(
            RuntimeError,
            rf"Could not load the Inductor backend of device '{DEVICE}' from the "
            rf"torch_inductor_backends entry point '{DEVICE} = {module}:load' of "
            rf"distribution '{module}': it raised OSError: no driver found\. ",
        ) as caught:
            init_backend_registration((DEVICE,))
        self.assertIsInstance(caught.exception.__cause__, OSError)
        self.assertEqual(str(caught.exception.__cause__), "no driver found")
        # A compile fails with it.
        with self.assertRaises(Exception) as failed:
            torch.compile(add)(*self.inputs())
        self.assertIn(caught.exception.__cause__.__class__, map(type, causes(failed.exception)))

    def test_entry_point_that_registers_nothing_runs_again_next_compile(self):
        module = self.write_distribution(
            {DEVICE: "{module}:load"},
            f"""
            from extension_backends.cpp.extension_codegen_backend import (
                register_compile_backend,
            )
            CALLS, READY = [], []
            def load():
                CALLS.append(1)
                if READY:
                    register_compile_backend({DEVICE!r})
            """,
        )
        with self.assertWarnsRegex(
            UserWarning,
            rf"The Inductor backend loader of device '{DEVICE}', the "
            rf"torch_inductor_backends entry point '{DEVICE} = {module}:load' .*, "
            rf"returned without registering a backend for '{DEVICE}' with "
            r"register_backend_for_device\(\)",
        ):
            self.assert_no_backend()
        loaded = sys.modules[module]
        self.assertTrue(loaded.CALLS)
        # No registration happened since: the next compile runs it again.
        loaded.READY.append(True)
        self.assert_compiles()
        # Success is kept.
        calls = len(loaded.CALLS)
        self.assert_compiles()
        self.assertEqual(len(loaded.CALLS), calls)
        self.assertEqual(self.calls, [])

    def test_two_distributions_for_one_device(self):
        first = self.write_distribution({DEVICE: "{module}:load"}, "def load(): pass\n")
        second = self.write_distribution({DEVICE: "{module}:load"}, "def load(): pass\n")
        with self.assertRaisesRegex(
            RuntimeError, "more than one distribution provides it"
        ) as caught:
            init_backend_registration((DEVICE,))
        self.assertIn(first, str(caught.exception))
        self.assertIn(second, str(caught.exception))
        self.assertNotIn(first, sys.modules)
        self.assertNotIn(second, sys.modules)


class LoaderTableTests(DiscoveryTestCase):
    """register_device_backend_loader(), precedence and re-probing."""

    def test_registered_loader_takes_precedence_over_entry_point(self):
        module = self.write_distribution({DEVICE: "{module}:load"}, "def load(): pass\n")
        register_device_backend_loader(DEVICE, self.loader("registered"))
        self.assert_compiles()
        self.assertEqual(self.calls, ["registered"])
        self.assertNotIn(module, sys.modules)

    def test_unregistered_device(self):
        with self.assertRaisesRegex(
            Exception,
            NO_BACKEND + rf"\. Register one with torch\._inductor\.codegen\.common\."
            rf"register_backend_for_device\('{DEVICE}', \.\.\.\), or let Inductor load it "
            rf"on demand: register_device_backend_loader\('{DEVICE}', loader\), or a "
            rf"'torch_inductor_backends' entry point named '{DEVICE}'",
        ):
            torch.compile(add)(*self.inputs())

    def test_loader_that_raises_fails_each_compile_until_fixed(self):
        error = OSError("busy")
        register_device_backend_loader(DEVICE, self.loader("first", raises=error))
        self.assert_load_fails(
            rf"Could not load the Inductor backend of device '{DEVICE}' from the "
            r"loader .*\.load given to register_device_backend_loader\(\): it "
            r"raised OSError: busy\. ",
            error,
        )
        self.assertEqual(self.calls, ["first"] * 3)
        register_device_backend_loader(DEVICE, self.loader("second"))
        self.assert_compiles()
        self.assertEqual(self.calls, ["first"] * 3 + ["second"])
        self.assert_compiles()
        self.assertEqual(self.calls, ["first"] * 3 + ["second"])

    def test_loader_that_registers_nothing_runs_again_next_compile(self):
        ready = []

        def load():
            self.calls.append("load")
            if ready:
                register_compile_backend(DEVICE)

        register_device_backend_loader(DEVICE, load)
        with self.assertWarnsRegex(
            UserWarning,
            rf"The Inductor backend loader of device '{DEVICE}', the loader "
            r".*\.load given to register_device_backend_loader\(\), returned "
            rf"without registering a backend for '{DEVICE}'",
        ):
            self.assert_no_backend()
        first = len(self.calls)
        self.assertGreaterEqual(first, 1)
        # The error says that the loader ran and registered nothing.
        with self.assertRaisesRegex(Exception, r"\.load given to register_device_backend_"
                                    r"loader\(\) ran and registered nothing"):
            torch.compile(add)(*self.inputs())
        torch._dynamo.reset()
        self.assertGreater(len(self.calls), first)
        ready.append(True)
        self.assert_compiles()
        calls = len(self.calls)
        self.assert_compiles()
        self.assertEqual(len(self.calls), calls)

    def test_probes_outside_a_compile_run_it_again_after_a_registration(self):
        # A probe (get_backend_features) does not rerun a loader that registered
        # nothing; a registration of any device, or a compile, does.
        register_device_backend_loader(DEVICE, self.loader("load", registers=False))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            common.get_backend_features("cpu")
            with self.assertRaises(AssertionError):
                common.get_backend_features(DEVICE)
            common.get_backend_features("cpu")
            self.assertEqual(self.calls, ["load"])
            with self.assertRaises(AssertionError):
                common.get_backend_features(DEVICE)
            self.assertEqual(self.calls, ["load"])
            register_device_backend_loader("unrelated_device", lambda: None)
            with self.assertRaises(AssertionError):
                common.get_backend_features(DEVICE)
            self.assertEqual(self.calls, ["load", "load"])
            init_backend_registration((DEVICE,))
        self.assertEqual(self.calls, ["load", "load", "load"])

    def test_backend_registrations_move_the_registry_generation(self):
        # One invalidation for the device and the backend registries: each
        # door bumps the generation every derived cache keys on.
        from torch._dynamo import device_interface as di

        seen = []

        @di._registry_cache
        def derived():
            seen.append(backend_registration._registry_generation)
            return len(seen)

        first = derived()
        self.assertEqual(derived(), first)
        register_device_backend_loader(DEVICE, self.loader("loader"))
        self.assertEqual(derived(), first + 1)
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen)
        self.assertEqual(derived(), first + 2)
        self.assertEqual(seen[1:], sorted(set(seen[1:])))
        self.assertEqual(self.calls, [])

    def test_loader_that_needs_the_backend_itself_is_not_reentered(self):
        def load():
            self.calls.append("load")
            init_backend_registration((DEVICE,))
            self.assertEqual(self.calls, ["load"])
            register_compile_backend(DEVICE)

        register_device_backend_loader(DEVICE, load)
        self.assert_compiles()
        self.assertEqual(self.calls, ["load"])

    def test_concurrent_first_compiles_all_find_the_backend(self):
        # One thread runs the loader, with no lock held; the others wait for it
        # and return with the backend.
        started = threading.Barrier(4)

        def load():
            self.calls.append("load")
            register_compile_backend(DEVICE)

        register_device_backend_loader(DEVICE, load)
        errors = []

        found = []

        def probe():
            try:
                started.wait()
                init_backend_registration((DEVICE,))
                found.append(get_scheduling_for_device(DEVICE))
            except Exception as err:  # reported below
                errors.append(err)

        threads = [threading.Thread(target=probe) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(found, [CppScheduling] * 4)
        self.assertEqual(self.calls, ["load"])
        init_backend_registration((DEVICE,))
        self.assertEqual(self.calls, ["load"])

    def test_bad_registrations(self):
        cases = [
            (("cuda", self.loader("x")), ValueError, "'cuda' is an in-tree device type"),
            ((f"{DEVICE}:0", self.loader("x")), ValueError, "expects a device type such as"),
            (("", self.loader("x")), ValueError, "expects a device type such as"),
            ((DEVICE, "torch_vendor:load"), TypeError, rf"loader of device '{DEVICE}' must be callable"),
        ]
        for args, exc, message in cases:
            with self.subTest(args=args), self.assertRaisesRegex(exc, message):
                register_device_backend_loader(*args)
        self.assertNotIn(DEVICE, common.device_backend_loaders)


def add_current_device(x):
    return x + torch.extension_device.current_device()


class DynamoDiscoveryTests(DiscoveryTestCase):
    """Dynamo looks the device's interface up through Inductor's loader table,
    so an interface that only the loader registers is there for the first
    compile's tracing."""

    def test_first_compile_traces_with_the_interface_its_loader_registers(self):
        register_device_backend_loader(DEVICE, self.loader("loader"))
        x = torch.randn(4, device=DEVICE)
        expected = add_current_device(x)
        compiled = torch.compile(add_current_device, fullgraph=True)
        self.assertEqual(compiled(x).cpu(), expected.cpu())
        self.assertEqual(self.calls, ["loader"])

    def test_runtime_function_of_a_device_without_interface_names_the_fix(self):
        x = torch.randn(4, device=DEVICE)
        with self.assertRaisesRegex(
            torch._dynamo.exc.Unsupported,
            rf"belongs to the runtime of the out-of-tree device '{DEVICE}', which "
            r"has no DeviceInterface that Dynamo can find(.|\n)*Register the "
            r"device's DeviceInterface with torch\._dynamo\.device_interface\."
            r"register_interface_for_device_PrivateUse1\(\), or make it "
            rf"discoverable: a torch\.{DEVICE}\.get_device_interface\(\) hook",
        ) as caught:
            torch.compile(add_current_device, fullgraph=True)(x)
        self.assertNotIn("custom operator", str(caught.exception))


class DeviceModuleHookTests(TestCase):
    """The device module's ``_inductor_backend_init()`` hook and its 2.13
    ``Scheduling``/... attributes, in a process whose PrivateUse1 device module
    is a module of the test's own, registered with
    ``torch._register_device_module``."""

    def run_with_module(self, body):
        run_python(
            textwrap.dedent(
                """
            import types, warnings
            import torch
            from extension_backends import extension_device_module
            from extension_backends.extension_device import load_library
            from extension_backends.cpp.extension_codegen_backend import (
                register_compile_backend,
            )
            from torch._inductor.codegen.common import get_scheduling_for_device
            from torch._inductor.codegen.cpp import CppScheduling
            from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
            from torch._inductor.codegen.wrapper import PythonWrapperCodegen

            load_library()
            torch.utils.rename_privateuse1_backend("acc")
            module = types.ModuleType("torch_acc_runtime")
            module.__dict__.update(
                (k, v) for k, v in vars(extension_device_module).items()
                if not k.startswith("__")
            )
            calls = []

            def check():
                x = torch.randn(8, device="acc")
                torch._dynamo.reset()
                torch.testing.assert_close(torch.compile(lambda x: x.cos() + 1)(x).cpu(), (x.cos() + 1).cpu())
            """
            )
            + textwrap.dedent(body),
            # Compile for real: a cache hit would need no backend.
            TORCHINDUCTOR_FX_GRAPH_CACHE="0",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
        )

    def test_inductor_backend_init_hook(self):
        self.run_with_module(
            """
            from torch._inductor.codegen.common import init_backend_registration
            ready = []

            def init():
                calls.append("hook")
                if ready:
                    register_compile_backend("acc")
            module._inductor_backend_init = init
            module.Scheduling = "ignored: the hook wins"
            torch._register_device_module("acc", module)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                # Without an argument: the PrivateUse1 device, tried again by
                # each call while it registers nothing (upstream's contract).
                init_backend_registration()
                init_backend_registration()
                assert calls == ["hook", "hook"], calls
                try:
                    check()
                except Exception as err:
                    assert "Inductor has no codegen backend for device 'acc'" in str(err), err
                else:
                    raise AssertionError("compiled without a backend")
            messages = [str(w.message) for w in caught]
            assert any(
                "The Inductor backend loader of device 'acc', "
                "torch.acc._inductor_backend_init(), returned without registering"
                in m for m in messages
            ), messages
            # The next compile runs it again; it registers, which is kept.
            ready.append(True)
            before = len(calls)
            check()
            check()
            init_backend_registration()
            assert len(calls) == before + 1, calls
            """
        )

    def test_2_13_attributes(self):
        self.run_with_module(
            """
            from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
            from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceInterface
            module.Scheduling = CppScheduling
            module.PythonWrapperCodegen = PythonWrapperCodegen
            module.CppWrapperCodegen = CppWrapperCpu
            torch._register_device_module("acc", module)
            register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)
            from torch._inductor.codegen.common import register_device_op_overrides
            from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceOpOverrides
            register_device_op_overrides("acc", ExtensionDeviceOpOverrides("acc"))
            check()
            assert get_scheduling_for_device("acc") is CppScheduling
            """
        )

    # The chain of causes of a failed compile, and the message of its
    # RuntimeError that names the device and the loader.
    CHAIN = """
            def load_error(source, problem, error_type):
                for attempt in range(2):
                    try:
                        check()
                    except Exception as err:
                        chain = [err]
                        while True:
                            cause = chain[-1].__cause__ or getattr(
                                chain[-1], "inner_exception", None
                            )
                            if cause is None or cause in chain:
                                break
                            chain.append(cause)
                    else:
                        raise AssertionError("compiled without a backend")
                    errors = [e for e in chain if type(e) is RuntimeError]
                    assert errors, chain
                    expected = (
                        f"Could not load the Inductor backend of device 'acc' "
                        f"from {source}: {problem}. Fix the backend package"
                    )
                    assert str(errors[0]).startswith(expected), errors[0]
                    assert type(errors[0].__cause__) is error_type, chain
            """

    def test_hook_that_raises(self):
        self.run_with_module(
            self.CHAIN
            + """
            def init():
                calls.append("hook")
                raise ImportError("libacc.so not found")
            module._inductor_backend_init = init
            torch._register_device_module("acc", module)
            load_error(
                "torch.acc._inductor_backend_init()",
                "it raised ImportError: libacc.so not found",
                ImportError,
            )
            # Each compile runs the hook again.
            assert calls == ["hook"] * 2, calls
            """
        )

    def test_2_13_attributes_that_raise(self):
        self.run_with_module(
            self.CHAIN
            + """
            def __getattr__(name):
                if name == "Scheduling":
                    calls.append(name)
                    raise ImportError("acc_inductor is not installed")
                raise AttributeError(name)
            module.__getattr__ = __getattr__
            torch._register_device_module("acc", module)
            load_error(
                "the attributes Scheduling, PythonWrapperCodegen and "
                "CppWrapperCodegen of torch.acc",
                "reading them raised ImportError: acc_inductor is not installed",
                ImportError,
            )
            assert calls == ["Scheduling"] * 2, calls
            """
        )

    def test_entry_point_in_fresh_process_with_compile_threads(self):
        # The checked-in distribution, a fresh interpreter and a worker pool:
        # nothing but the entry point registers the backend. A cache directory
        # of its own, so that the kernel is built, in the pool.
        cache_dir = tempfile.mkdtemp(prefix="inductor-cache-")
        self.addCleanup(shutil.rmtree, cache_dir, True)
        proc = run_python(
            """
            import sys, torch
            from extension_backends.extension_device import register

            register("acc")
            assert not any(m.startswith(("torch._inductor", "torch._dynamo")) for m in sys.modules)
            import torch._inductor.config as config
            from torch._inductor.async_compile import AsyncCompile

            x = torch.randn(16, device="acc")
            with config.patch(compile_threads=2):
                out = torch.compile(lambda x: (x.sin() * 2).relu())(x)
            torch.testing.assert_close(out.cpu(), (x.sin() * 2).relu().cpu())
            print("pool used:", AsyncCompile.pool.cache_info().currsize)
            """,
            PYTHONPATH=f"{TEST_DIR}:{BACKEND_SITE}",
            TORCHINDUCTOR_CACHE_DIR=cache_dir,
            TORCHINDUCTOR_FX_GRAPH_CACHE="0",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
        )
        self.assertIn("pool used: 1", proc.stdout)


class CompileSubprocessTests(TestCase):
    """SPEC IND-8: a compile that runs in a subprocess
    (``fx_compile_mode=subprocess``) loads the backends its parent compiles
    for, or fails naming the device; never compiles without them."""

    SUBPROCESS_ENV = dict(
        TORCHINDUCTOR_FX_COMPILE_MODE="subprocess",
        TORCHINDUCTOR_FX_GRAPH_CACHE="0",
        TORCHINDUCTOR_AUTOGRAD_CACHE="0",
    )

    def test_child_loads_the_backend_by_entry_point(self):
        proc = run_python(
            """
            import torch
            from extension_backends.extension_device import register
            from torch._inductor.compile_fx_subproc import _SubprocessFxCompile

            register("acc")
            x = torch.randn(16, device="acc")
            w = torch.randn(16, device="acc", requires_grad=True)

            def fn(x):
                return ((x * w).sin() * 2).relu().sum()

            out = torch.compile(fn)(x)
            out.backward()
            grad = w.grad.clone()
            w.grad = None
            expected = fn(x)
            expected.backward()
            torch.testing.assert_close(out.cpu(), expected.cpu())
            torch.testing.assert_close(grad.cpu(), w.grad.cpu())
            print("children:", _SubprocessFxCompile.process_pool.cache_info().currsize)
            """,
            PYTHONPATH=f"{TEST_DIR}:{BACKEND_SITE}",
            **self.SUBPROCESS_ENV,
        )
        self.assertIn("children: 1", proc.stdout)

    def test_child_without_a_discoverable_backend_names_it(self):
        # Registered explicitly in the parent only: the child cannot find it.
        proc = run_python(
            """
            import torch
            from extension_backends.extension_device import register
            from extension_backends.cpp.extension_codegen_backend import (
                register_compile_backend,
            )

            register("acc")
            register_compile_backend("acc")
            try:
                torch.compile(lambda x: x.sin() * 2)(torch.randn(16, device="acc"))
            except Exception as err:
                print(err)
            else:
                print("compiled without the backend")
            """,
            **self.SUBPROCESS_ENV,
        )
        self.assertIn(
            "This Inductor compile subprocess cannot load the Inductor backend of "
            "device 'acc' that its parent process compiles for",
            proc.stdout,
        )
        self.assertIn("entry point named 'acc'", proc.stdout)


class AutotuneSubprocessTests(TestCase):
    """SPEC IND-8 for the autotune subprocess of a GPU-class out-of-tree
    device: it loads the device's backend before running a job."""

    CODE = """
        import functools, torch
        from extension_backends.extension_device import register
        from extension_backends.cpp.extension_codegen_backend import (
            ExtensionGpuDeviceInterface,
            register_compile_backend,
        )
        from torch._inductor.autotune_process import TuningProcess
        from torch._inductor.utils import get_gpu_type

        register("acc")
        register_compile_backend("acc", ExtensionGpuDeviceInterface)
        assert get_gpu_type() == "acc", get_gpu_type()
        process = TuningProcess(device=None)
        try:
            process.put(functools.partial(torch.full, (3,), 2.0, device="acc"))
            result = process.get(timeout=300)
            print("result:", result.device, result.cpu().tolist())
        except Exception as err:
            print("failed:", type(err).__name__)
        finally:
            process.shutdown()
        """

    def test_child_loads_the_backend(self):
        proc = run_python(self.CODE, PYTHONPATH=f"{TEST_DIR}:{BACKEND_SITE}")
        self.assertIn("result: acc:0 [2.0, 2.0, 2.0]", proc.stdout)

    def test_child_without_a_discoverable_backend_names_it(self):
        proc = run_python(self.CODE)
        self.assertIn("failed:", proc.stdout)
        self.assertIn(
            "This autotune subprocess cannot load the Inductor backend of device 'acc'",
            proc.stderr,
        )


class CompileOptionTests(TestCase):
    """SPEC IND-2: "<device>.<key>" options of torch.compile."""

    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)
        self.x = torch.randn(8, device=DEVICE)

    def compile_code(self, options, fn=torch.sin):
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            out, codes = run_and_get_code(torch.compile(fn, options=options), self.x)
        self.assertEqual(out.cpu(), fn(self.x).cpu())
        return codes

    def test_option_reaches_the_device_config_module(self):
        for key in ("wrapper_banner", "wrapper-banner"):
            with self.subTest(key=key):
                (code,) = self.compile_code({f"{DEVICE}.{key}": "banner from options"})
                FileCheck().check("# banner from options").run(code)
                self.assertEqual(extension_device_config.wrapper_banner, "")
        (code,) = self.compile_code({})
        FileCheck().check_not("# banner").run(code)

    def test_option_applies_to_the_backward_graph(self):
        w = torch.randn(8, device=DEVICE, requires_grad=True)

        def fn(x):
            return (x * w).sin().sum()

        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            _, codes = run_and_get_code(
                lambda: torch.compile(fn, options={f"{DEVICE}.wrapper_banner": "both"})(self.x).backward()
            )
        self.assertEqual(len(codes), 2)
        for code in codes:
            FileCheck().check("# both").run(code)

    def test_core_options_keep_precedence(self):
        self.assertIsNone(get_compile_option_owner("triton.cudagraphs"))
        self.assertIsNone(get_compile_option_owner("max_autotune"))
        self.assertIsNone(get_compile_option_owner("cuda.anything"))
        self.assertIsNone(get_compile_option_owner("bogus.anything"))
        self.assertIsNone(get_compile_option_owner(f"{DEVICE}.no_such_key"))
        owner, key = get_compile_option_owner(f"{DEVICE}.kernel-batch")
        self.assertIs(owner, extension_device_config)
        self.assertEqual(key, "kernel_batch")

    def test_bad_options(self):
        cases = [
            ({f"{DEVICE}.no_such_key": 1}, rf"Unexpected optimization option {DEVICE}\.no_such_key, "
             rf"known options of device '{DEVICE}' are \[.*'{DEVICE}\.wrapper_banner'"),
            ({f"{DEVICE}.kernel_batch": "8"}, rf"Unexpected type of attr {DEVICE}\.kernel_batch, got str should be int"),
            ({"cuda.no_such_key": 1}, r"Unexpected optimization option cuda\.no_such_key, known options are \["),
            ({"no_such_key": 1}, r"Unexpected optimization option no_such_key, known options are \["),
        ]
        for options, message in cases:
            with self.subTest(options=options), self.assertRaisesRegex(RuntimeError, message):
                torch.compile(torch.sin, options=options)

    def test_device_without_config_module(self):
        register_backend_for_device(DEVICE, CppScheduling, PythonWrapperCodegen)
        # As upstream: no owner, the caller falls back to Inductor's config.
        self.assertIsNone(get_compile_option_owner(f"{DEVICE}.wrapper_banner"))
        with self.assertRaisesRegex(
            RuntimeError,
            rf"Unexpected optimization option {DEVICE}\.wrapper_banner: device '{DEVICE}' has "
            r"no Inductor config module\. A backend declares its options with "
            rf"register_backend_for_device\('{DEVICE}', \.\.\., device_custom_config=",
        ):
            torch.compile(torch.sin, options={f"{DEVICE}.wrapper_banner": "x"})

    def test_fx_graph_cache_key(self):
        def compile_once(banner):
            torch._dynamo.reset()
            counters.clear()
            options = {f"{DEVICE}.wrapper_banner": banner} if banner is not None else None
            self.assertEqual(torch.compile(torch.cos, options=options)(self.x).cpu(), self.x.cos().cpu())
            return counters["inductor"]["fxgraph_cache_hit"], counters["inductor"]["fxgraph_cache_miss"]

        with fresh_cache(), inductor_config.patch(fx_graph_cache=True, fx_graph_remote_cache=False):
            self.assertEqual(compile_once("one"), (0, 1))
            self.assertEqual(compile_once("one"), (1, 0))
            self.assertEqual(compile_once("two"), (0, 1))
            self.assertEqual(compile_once(None), (0, 1))
            self.assertEqual(compile_once("two"), (1, 0))


class UnregisteredDeviceOptionTests(DiscoveryTestCase):
    def test_option_for_device_without_backend(self):
        with self.assertRaisesRegex(
            RuntimeError,
            rf"device '{DEVICE}' has no Inductor config module \(no Inductor backend is "
            r"registered for it\)",
        ):
            torch.compile(torch.sin, options={f"{DEVICE}.wrapper_banner": "x"})

    def test_option_loads_the_backend_on_demand(self):
        register_device_backend_loader(DEVICE, self.loader("loader"))
        torch.compile(torch.sin, options={f"{DEVICE}.wrapper_banner": "x"})
        self.assertEqual(self.calls, ["loader"])


if __name__ == "__main__":
    run_tests()

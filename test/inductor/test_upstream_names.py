# Owner(s): ["module: inductor"]
"""Names upstream torch 2.15 ships for out-of-tree devices keep its signatures.

A backend written against upstream calls these names; each keeps upstream's
parameters (names, kinds, defaults) and method kind, and the names upstream
still lacked in 2.13 exist: ``DeviceIdx``, ``device_op_overrides_lock``,
``DeviceOpOverrides.current_device_idx_expr`` and
``cpp_kernel_launch_supports_pdl``, ``NoOpDeviceOpOverrides`` in
``codegen.common``, ``cpp_builder._normalize_device_type`` and
``UserDefinedClassVariable._is_privateuse1_tensor_class``.
"""

import inspect
import sys
import threading
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from torch._dynamo import device_interface
from torch._dynamo.variables.user_defined import UserDefinedClassVariable
from torch._inductor import (
    autotune_process,
    compile_fx,
    cpp_builder,
    utils as inductor_utils,
)
from torch._inductor.codegen import common, cpp_utils, cpu_device_op_overrides
from torch._inductor.codegen.cuda.device_op_overrides import CUDADeviceOpOverrides
from torch._inductor.codegen.xpu.device_op_overrides import XPUDeviceOpOverrides
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceOpOverrides,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)

DI = device_interface.DeviceInterface
DOO = common.DeviceOpOverrides

#: (owner, attribute) -> (parameters as "name=default", kind), from upstream.
UPSTREAM = {
    (DI, "is_gpu"): ([], staticmethod),
    (DI, "exposes_streams"): ([], classmethod),
    (DI, "get_multi_processor_count"): (["device=None"], classmethod),
    (DI, "get_cache_system_info"): ([], classmethod),
    (DI, "get_cpp_device_options"): (["aot_mode", "compile_only"], staticmethod),
    (inductor_utils, "_gpu_types"): ([], None),
    (inductor_utils, "_device_is_available"): (["device"], None),
    (DOO, "aten_device_type"): (["self"], None),
    (DOO, "uses_gpu_cpp_wrapper"): (["self"], None),
    (DOO, "current_device_idx_expr"): (["self"], None),
    (DOO, "cpp_kernel_launch_supports_pdl"): (["self"], None),
    (common, "get_compile_option_owner"): (["name"], None),
    (common, "patch_compile_options"): (["config_patches"], None),
    (common, "_uses_gpu_cpp_wrapper"): (["device"], None),
    (cpp_utils, "device_to_aten"): (["device_type"], None),
    (autotune_process, "get_visible_devices_env_var"): (["gpu_type=None"], None),
    (cpp_builder, "get_cpp_torch_device_options"): (
        ["device_type", "aot_mode=False", "compile_only=False", "cpp_stdlib='libstdc++'"],
        None,
    ),
    (cpp_builder, "_normalize_device_type"): (["device_type"], None),
    (UserDefinedClassVariable, "_is_privateuse1_tensor_class"): (["value"], staticmethod),
    (compile_fx, "get_device_context"): (["gm"], None),
    (compile_fx, "_should_wakeup_async_compile"): (["example_inputs"], None),
}


def _parameters(fn):
    return [
        name if p.default is inspect.Parameter.empty else f"{name}={p.default!r}"
        for name, p in inspect.signature(fn).parameters.items()
    ]


class UpstreamNamesTest(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_signatures_and_method_kinds(self):
        for (owner, name), (parameters, kind) in UPSTREAM.items():
            with self.subTest(f"{getattr(owner, '__name__', owner)}.{name}"):
                static = inspect.getattr_static(owner, name)
                if kind is not None:
                    self.assertIsInstance(static, kind)
                self.assertEqual(_parameters(getattr(owner, name)), parameters)

    def test_compile_fx_device_names_return_types(self):
        def returns(fn):
            return str(inspect.signature(fn).return_annotation)

        self.assertIn("AbstractContextManager[None]", returns(compile_fx.get_device_context))
        self.assertIn("bool", returns(compile_fx._should_wakeup_async_compile))

    def test_device_idx_and_lock(self):
        self.assertEqual(common.DeviceIdx, int | str)
        self.assertIsInstance(common.device_op_overrides_lock, type(threading.RLock()))
        # Re-entrant: a backend may register while holding it.
        with common.device_op_overrides_lock:
            common.register_device_op_overrides(DEVICE, ExtensionDeviceOpOverrides(DEVICE))
        self.assertIsInstance(common.get_device_op_overrides(DEVICE), ExtensionDeviceOpOverrides)

    def test_no_op_overrides_live_in_common(self):
        self.assertIs(cpu_device_op_overrides.NoOpDeviceOpOverrides, common.NoOpDeviceOpOverrides)
        self.assertIs(type(common.get_device_op_overrides("tpu")), common.NoOpDeviceOpOverrides)
        noop = common.NoOpDeviceOpOverrides()
        self.assertEqual(noop.set_device("idx"), "pass")
        self.assertEqual(noop.device_guard(0), "torch._ops.contextlib.nullcontext()")

    def test_current_device_idx_expr(self):
        self.assertEqual(CUDADeviceOpOverrides().current_device_idx_expr(), "torch.cuda.current_device()")
        self.assertEqual(XPUDeviceOpOverrides().current_device_idx_expr(), "torch.xpu.current_device()")
        with self.assertRaisesRegex(
            RuntimeError,
            r"compile-on-one-rank \(device-as-parameter\) is not supported on "
            r"ExtensionDeviceOpOverrides: it has no current_device_idx_expr\(\), so the "
            r"generated wrapper would bake the compile-time device index .* Implement "
            r"current_device_idx_expr\(\) in the DeviceOpOverrides given to "
            r"register_device_op_overrides\(\)",
        ):
            ExtensionDeviceOpOverrides(DEVICE).current_device_idx_expr()

    def test_cpp_kernel_launch_supports_pdl(self):
        self.assertIs(DOO().cpp_kernel_launch_supports_pdl(), False)
        self.assertIs(CUDADeviceOpOverrides().cpp_kernel_launch_supports_pdl(), False)

    def test_compile_option_owner_is_the_config_module_and_key(self):
        register_compile_backend(DEVICE)
        from extension_backends.cpp import extension_device_config

        self.assertEqual(
            common.get_compile_option_owner(f"{DEVICE}.wrapper-banner"),
            (extension_device_config, "wrapper_banner"),
        )
        self.assertIsNone(common.get_compile_option_owner("triton.cudagraphs"))
        with common.patch_compile_options(None):
            pass
        with common.patch_compile_options({f"{DEVICE}.wrapper_banner": "hi"}):
            self.assertEqual(extension_device_config.wrapper_banner, "hi")

    def test_privateuse1_tensor_class_by_name(self):
        # The fake device's module defines no typed tensor classes; the
        # compatibility corpus compiles one that does.
        self.assertFalse(UserDefinedClassVariable._is_privateuse1_tensor_class(torch.FloatTensor))
        self.assertFalse(UserDefinedClassVariable._is_privateuse1_tensor_class(int))


if __name__ == "__main__":
    run_tests()

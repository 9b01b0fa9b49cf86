# Owner(s): ["module: inductor"]
"""BackendFeature as a framework-wide capability (SPEC §6).

The framework members of ``BackendFeature`` are declared by a device's
``DeviceInterface.backend_features()`` and replace device-name lists:

* ``GPU`` -- ``torch._inductor.utils.GPU_TYPES`` / ``is_gpu``;
* ``ONLINE_SOFTMAX`` -- the online-softmax rewrite in ``fx_passes/post_grad.py``;
* ``FOREACH_KERNELS`` / ``FUSED_OPTIMIZER`` -- ``torch.utils._foreach_utils``;
* ``CAPTURABLE_OPTIMIZER`` -- ``torch.optim.optimizer``;
* ``HALF_PRECISION_FFT`` -- ``torch._refs.fft``.

The in-tree interfaces declare upstream's sets (pull request #193355), which
hold codegen members too and none of the framework members this series adds:
those are declared by out-of-tree devices only, and the in-tree devices keep
the torch 2.13 lists (pinned against a stock torch 2.13.0 interpreter by
``InTreeAnswersMatchStockTest``).  ``extension_device`` is registered through
public calls with interfaces that declare or do not declare each feature.
"""

import functools
import json
import os
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import (
    CpuInterface,
    CudaInterface,
    DeviceInterface,
    get_interface_for_device,
    get_registered_device_interfaces,
    MpsInterface,
    MtiaInterface,
    register_interface_for_device_PrivateUse1,
    TpuInterface,
    XpuInterface,
)
from torch._dynamo import device_interface as di
from torch._inductor import utils as inductor_utils
from torch._inductor.codegen.common import BackendFeature, register_backend_for_device
from torch._inductor.custom_graph_pass import CustomGraphPass
from torch._inductor.fx_passes.post_grad import prepare_softmax_extra_check
from torch._refs.fft import _promote_type_fft
from torch.optim.optimizer import (
    _default_to_fused_or_foreach,
    _get_capturable_supported_devices,
)
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase
from torch.utils._foreach_utils import (
    _device_has_foreach_support,
    _get_foreach_kernels_supported_devices,
    _get_fused_kernels_supported_devices,
)
from torch.utils._ordered_set import OrderedSet

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, REPO, RegistrySnapshot, run_python

register(DEVICE)

BF = BackendFeature

#: The codegen members, with their torch 2.13 values.
CODEGEN_MEMBERS = {
    "FOREACH": 1,
    "BUCKETIZE": 2,
    "INPLACE_BUFFERS": 3,
    "MASKED_SCATTER_WITH_INDEX": 4,
    "SCAN": 5,
    "SORT": 6,
    "TUPLE_REDUCTION": 7,
    "PREFER_STORE_LOOP_ORDER": 8,
    "TRITON_TEMPLATES": 9,
    "REDUCE_TO_SINGLE_ELEMENT": 10,
}
FRAMEWORK_MEMBERS = (
    "GPU",
    "ONLINE_SOFTMAX",
    "FOREACH_KERNELS",
    "FUSED_OPTIMIZER",
    "CAPTURABLE_OPTIMIZER",
    "HALF_PRECISION_FFT",
    "MM_OUT_DTYPE",
    "NATIVE_MATMUL",
    "MIX_ORDER_REDUCTION",
    "CPP_TEMPLATES",
)

BUILTIN_INTERFACES = {
    "cuda": CudaInterface,
    "xpu": XpuInterface,
    "mtia": MtiaInterface,
    "cpu": CpuInterface,
    "mps": MpsInterface,
    "tpu": TpuInterface,
}
#: What each in-tree interface declares: upstream's sets, exactly.
EXPECTED_FEATURES = {
    "cuda": {BF.FOREACH, BF.BUCKETIZE, BF.SCAN, BF.SORT, BF.TRITON_TEMPLATES, BF.GPU,
             BF.ONLINE_SOFTMAX},
    "xpu": {BF.FOREACH, BF.TRITON_TEMPLATES, BF.GPU, BF.ONLINE_SOFTMAX},
    "mtia": {BF.GPU},
    "cpu": {BF.FOREACH, BF.SORT},
    "mps": {BF.GPU},
    "tpu": set(),
}


def _has_half_fft(device: torch.device) -> bool:
    try:
        _promote_type_fft(torch.float16, True, device)
    except RuntimeError:
        return False
    return True


def _softmax_match(device: torch.device) -> types.SimpleNamespace:
    """What prepare_softmax_extra_check reads of a pattern match."""
    node = types.SimpleNamespace(meta={"val": types.SimpleNamespace(device=device)})
    return types.SimpleNamespace(kwargs={"x": node})


def _features_interface(*features: BackendFeature, name: str = "Declaring"):
    """An extension_device interface that declares ``features``."""

    def backend_features(cls, device=None):
        return super(interface, cls).backend_features(device) | set(features)

    interface = type(
        name,
        (ExtensionDeviceInterface,),
        {"backend_features": classmethod(backend_features)},
    )
    return interface


def _device_lists() -> dict[str, bool]:
    """Whether each migrated list names extension_device."""
    return {
        "FOREACH_KERNELS": DEVICE in _get_foreach_kernels_supported_devices(),
        "FUSED_OPTIMIZER": DEVICE in _get_fused_kernels_supported_devices(),
        "CAPTURABLE_OPTIMIZER": DEVICE in _get_capturable_supported_devices(),
        "HALF_PRECISION_FFT": _has_half_fft(torch.device(DEVICE)),
    }


class BackendFeatureEnumTest(TestCase):
    def test_one_enum_with_codegen_and_framework_members(self):
        import torch._inductor.ir as ir
        import torch._inductor.scheduler as scheduler

        self.assertIs(scheduler.BackendFeature, BackendFeature)
        self.assertIs(ir.BackendFeature, BackendFeature)
        self.assertEqual(
            {m.name: m.value for m in BackendFeature if m.name in CODEGEN_MEMBERS},
            CODEGEN_MEMBERS,
        )
        self.assertEqual(
            [m.name for m in BackendFeature],
            [*CODEGEN_MEMBERS, *FRAMEWORK_MEMBERS],
        )

    def test_importable_from_dynamo_as_the_same_enum(self):
        # Where upstream's BackendFeature PR places it.
        from torch._dynamo.device_interface import BackendFeature as DynamoFeature

        self.assertIs(DynamoFeature, BackendFeature)
        self.assertIs(DynamoFeature.GPU, BF.GPU)


class InTreeDeclarationsTest(TestCase):
    def test_each_in_tree_interface_states_its_set(self):
        framework_members = {BF[name] for name in FRAMEWORK_MEMBERS} - {BF.GPU, BF.ONLINE_SOFTMAX}
        for name, interface in BUILTIN_INTERFACES.items():
            # TPU keeps the base default, as upstream.
            self.assertEqual("backend_features" in vars(interface), name != "tpu", name)
            features = interface.backend_features()
            self.assertIs(type(features), set)
            self.assertEqual(features, EXPECTED_FEATURES[name], name)
            self.assertEqual(interface.backend_features("cpu"), features)
            # A new set per call: callers may mutate theirs.
            features.add(BF.INPLACE_BUFFERS)
            self.assertNotIn(BF.INPLACE_BUFFERS, interface.backend_features(), name)
            # The series' framework members are for out-of-tree devices only.
            self.assertFalse(features & framework_members, name)

    def test_registered_in_tree_interfaces_are_these(self):
        registered = dict(get_registered_device_interfaces())
        for name, interface in BUILTIN_INTERFACES.items():
            self.assertIs(registered[name], interface)

    def test_lists_follow_the_declarations(self):
        RegistrySnapshot.install(self)
        foreach = _get_foreach_kernels_supported_devices()
        fused = _get_fused_kernels_supported_devices()
        capturable = _get_capturable_supported_devices()
        # The in-tree devices keep the torch 2.13 lists ...
        self.assertEqual(foreach[:3], ["cuda", "xpu", "mtia"])
        self.assertEqual(set(fused) & set(BUILTIN_INTERFACES), {"cuda", "xpu", "mps", "cpu", "mtia"})
        self.assertEqual(set(capturable) & set(BUILTIN_INTERFACES), {"cuda", "xpu"})
        # ... and GPU and ONLINE_SOFTMAX, upstream's members, are read from theirs.
        for name, features in EXPECTED_FEATURES.items():
            with self.subTest(name):
                self.assertEqual(name in inductor_utils.GPU_TYPES, BF.GPU in features)
                self.assertEqual(inductor_utils.is_gpu(name), BF.GPU in features)
                if name == "tpu":
                    continue  # not a torch.device type
                device = torch.device(name)
                self.assertEqual(
                    bool(prepare_softmax_extra_check(_softmax_match(device))),
                    BF.ONLINE_SOFTMAX in features,
                )
        # Names that have no in-tree interface keep their torch 2.13 entries.
        self.assertIn("hpu", fused)
        self.assertIn("hpu", capturable)
        self.assertIn("xla", capturable)
        self.assertNotIn("xla", _get_capturable_supported_devices(supports_xla=False))
        self.assertTrue(_has_half_fft(torch.device("meta")))

    def test_online_softmax_keeps_the_backend_switch(self):
        for device in ("cuda", "xpu"):
            match = _softmax_match(torch.device(device, 0))
            self.assertTrue(prepare_softmax_extra_check(match))
            with inductor_config.patch({f"{device}_backend": "halide"}):
                self.assertFalse(prepare_softmax_extra_check(match))
            with inductor_config.patch(online_softmax=False):
                self.assertFalse(prepare_softmax_extra_check(match))


# Run in a fresh interpreter, stock torch 2.13.0 and this series alike: the
# answers of every migrated list for the in-tree devices (PrivateUse1 is not
# renamed), computed only through names that exist in both.
_ANSWERS_CODE = """
import json, sys, types
import torch
from torch._refs.fft import _promote_type_fft
from torch.optim.optimizer import (
    _default_to_fused_or_foreach, _device_dtype_check_for_fused,
    _get_capturable_supported_devices,
)
from torch.utils._foreach_utils import (
    _device_has_foreach_support, _get_foreach_kernels_supported_devices,
    _get_fused_kernels_supported_devices,
)

DEVICES = ["cpu", "cuda", "xpu", "mps", "mtia", "meta", "hpu", "xla", "privateuseone"]

def answer(fn):
    try:
        return repr(fn())
    except Exception as err:
        return f"{type(err).__name__}: {err}"

def match(d):
    node = types.SimpleNamespace(meta={"val": types.SimpleNamespace(device=torch.device(d))})
    return types.SimpleNamespace(kwargs={"x": node})

out = {
    "foreach": _get_foreach_kernels_supported_devices(),
    "fused": _get_fused_kernels_supported_devices(),
    "capturable": _get_capturable_supported_devices(),
    "capturable_no_xla": _get_capturable_supported_devices(supports_xla=False),
}
for d in DEVICES:
    dev = torch.device(d)
    out[f"has_foreach[{d}]"] = _device_has_foreach_support(dev)
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.int32):
        for complex_ in (False, True):
            out[f"fft[{d},{dtype},{complex_}]"] = answer(
                lambda: _promote_type_fft(dtype, complex_, dev))
for d in ("cpu", "meta"):
    params = [torch.zeros(2, device=d), torch.zeros(2, device=d, dtype=torch.int32)]
    for use_fused in (False, True):
        out[f"default[{d},{use_fused}]"] = answer(
            lambda: _default_to_fused_or_foreach(params[:1], False, use_fused))
        out[f"default_int[{d},{use_fused}]"] = answer(
            lambda: _default_to_fused_or_foreach(params, False, use_fused))
    for cuda_unsupported in (False, True):
        out[f"fused_check[{d},{cuda_unsupported}]"] = answer(
            lambda: _device_dtype_check_for_fused(params[0], cuda_unsupported))
out["dynamo_imported"] = "torch._dynamo" in sys.modules

import torch._inductor.config as config
from torch._inductor.fx_passes.post_grad import prepare_softmax_extra_check
from torch._inductor.utils import GPU_TYPES, is_gpu

out["gpu_types"] = list(GPU_TYPES)
for d in DEVICES:
    out[f"is_gpu[{d}]"] = is_gpu(d)
    for online in (True, False):
        for backend in ("triton", "halide"):
            with config.patch(online_softmax=online, cuda_backend=backend,
                              xpu_backend=backend):
                out[f"online_softmax[{d},{online},{backend}]"] = answer(
                    lambda: prepare_softmax_extra_check(match(d)))
print(json.dumps(out, sort_keys=True))
"""

_STOCK_PYTHON = REPO / ".venv-stock" / "bin" / "python"


@functools.cache
def _answers(python: str) -> dict:
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run(
            [python, "-c", _ANSWERS_CODE],
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=600,
            env={**os.environ, "TORCH_DEVICE_BACKEND_AUTOLOAD": "0"},
        )
    if proc.returncode != 0:
        raise AssertionError(f"{python} failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


class InTreeAnswersMatchStockTest(TestCase):
    @unittest.skipUnless(_STOCK_PYTHON.exists(), "needs the stock twin .venv-stock")
    def test_in_tree_answers_match_stock(self):
        ours = _answers(sys.executable)
        stock = _answers(str(_STOCK_PYTHON))
        self.assertIn("2.13.0", subprocess.run(
            [str(_STOCK_PYTHON), "-c", "import torch; print(torch.__version__)"],
            capture_output=True, text=True, check=True,
        ).stdout)
        self.assertEqual(ours, stock)

    def test_in_tree_answers_are_the_2_13_lists(self):
        answers = _answers(sys.executable)
        self.assertEqual(answers["foreach"], ["cuda", "xpu", "mtia", "privateuseone"])
        self.assertEqual(
            answers["fused"],
            ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"],
        )
        self.assertEqual(answers["capturable"], ["cuda", "xpu", "hpu", "privateuseone", "xla"])
        self.assertEqual(answers["capturable_no_xla"], ["cuda", "xpu", "hpu", "privateuseone"])
        self.assertEqual(answers["gpu_types"], ["cuda", "mps", "xpu", "mtia"])
        # The eager lists need no device registry when PrivateUse1 is not renamed.
        self.assertFalse(answers["dynamo_imported"])


class ExtensionDeviceTestBase(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def register(self, interface):
        register_compile_backend(DEVICE, interface)


class PrivateUse1WithoutInterfaceTest(ExtensionDeviceTestBase):
    def test_keeps_the_2_13_answers(self):
        with self.assertRaises(NotImplementedError):
            get_interface_for_device(DEVICE)
        self.assertEqual(
            _device_lists(),
            {
                "FOREACH_KERNELS": True,
                "FUSED_OPTIMIZER": True,
                "CAPTURABLE_OPTIMIZER": True,
                "HALF_PRECISION_FFT": False,
            },
        )

    def test_no_interface_in_a_fresh_process(self):
        # Nothing registers an interface nor imports torch._dynamo first.
        proc = run_python(
            """
            import sys
            import torch
            from extension_backends.extension_device import register
            register("extension_device")
            from torch.utils._foreach_utils import (
                _get_foreach_kernels_supported_devices as foreach,
                _get_fused_kernels_supported_devices as fused,
            )
            from torch.optim.optimizer import _get_capturable_supported_devices
            print(foreach()[-1], fused()[-1], _get_capturable_supported_devices()[-2])
            """
        )
        self.assertEqual(proc.stdout.split(), [DEVICE] * 3)


class DeclaringFeaturesTest(ExtensionDeviceTestBase):
    def test_each_feature_turns_on_its_list_only(self):
        for feature in _device_lists():
            with self.subTest(feature):
                self.register(_features_interface(BF[feature]))
                expected = dict.fromkeys(_device_lists(), False)
                expected[feature] = True
                self.assertEqual(_device_lists(), expected)

    def test_an_override_declaring_nothing_turns_every_list_off(self):
        self.register(_features_interface(name="Declining"))
        self.assertEqual(_device_lists(), dict.fromkeys(_device_lists(), False))
        self.assertFalse(_device_has_foreach_support(torch.device(DEVICE)))

    def test_an_interface_without_override_keeps_the_default_answers(self):
        # A backend written before backend_features() existed (torch_npu,
        # torch_mlu and OpenReg register such interfaces) keeps what the
        # lists answer for a PrivateUse1 backend without an interface.
        for interface in (
            ExtensionDeviceInterface,
            type("GpuClass", (ExtensionDeviceInterface,), {"is_gpu": staticmethod(lambda: True)}),
        ):
            with self.subTest(interface.__name__):
                self.register(interface)
                self.assertEqual(
                    _device_lists(),
                    {
                        "FOREACH_KERNELS": True,
                        "FUSED_OPTIMIZER": True,
                        "CAPTURABLE_OPTIMIZER": True,
                        "HALF_PRECISION_FFT": False,
                    },
                )
                self.assertTrue(_device_has_foreach_support(torch.device(DEVICE)))

    def test_late_registration_and_reregistration(self):
        # Cached without an interface, then each registration is seen.
        self.assertTrue(_device_lists()["FUSED_OPTIMIZER"])
        self.register(_features_interface(name="Declining"))
        self.assertFalse(_device_lists()["FUSED_OPTIMIZER"])
        self.register(_features_interface(BF.FUSED_OPTIMIZER))
        self.assertTrue(_device_lists()["FUSED_OPTIMIZER"])
        self.register(ExtensionDeviceInterface)
        self.assertTrue(_device_lists()["FOREACH_KERNELS"])

    def test_answer_is_cached_per_registry_change(self):
        calls = []

        class Counting(ExtensionDeviceInterface):
            @classmethod
            def backend_features(cls, device=None):
                calls.append(device)
                return super().backend_features(device) | {BF.FOREACH_KERNELS}

        self.register(Counting)
        for _ in range(5):
            self.assertIn(DEVICE, _get_foreach_kernels_supported_devices())
            _get_fused_kernels_supported_devices()
            _get_capturable_supported_devices()
        count = len(calls)
        # GPU_TYPES' refresh after each of the two registry changes (the
        # interface, then the backend), the device lists.
        self.assertLessEqual(count, 3)
        for _ in range(5):
            _get_foreach_kernels_supported_devices()
        self.assertEqual(len(calls), count)
        self.register(Counting)  # a registry change
        _get_foreach_kernels_supported_devices()
        self.assertGreater(len(calls), count)

    def test_broken_declarations_declare_nothing_and_warn_once(self):
        class Raising(ExtensionDeviceInterface):
            @classmethod
            def backend_features(cls, device=None):
                raise RuntimeError("no features today")

        class WrongType(ExtensionDeviceInterface):
            @classmethod
            def backend_features(cls, device=None):
                return ["FOREACH_KERNELS"]

        for interface, message in (
            (Raising, r"Raising\.backend_features\(\) raised RuntimeError: no features"),
            (WrongType, r"WrongType\.backend_features\(\) returned \['FOREACH_KERNELS'\]"),
        ):
            with self.subTest(interface.__name__):
                with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
                    self.register(interface)
                    self.assertEqual(
                        _device_lists(), dict.fromkeys(_device_lists(), False)
                    )
                    self.register(interface)
                    _device_lists()
                self.assertEqual(len(logs.records), 1, logs.output)
                self.assertRegex(logs.output[0], message)


def _adam_step(device, **kwargs):
    torch.manual_seed(0)
    param = torch.nn.Parameter(torch.randn(8, device=device))
    optimizer = torch.optim.Adam([param], lr=0.1, **kwargs)
    for _ in range(2):
        param.grad = torch.ones_like(param)
        optimizer.step()
    return param.detach().cpu()


class OptimizerOnExtensionDeviceTest(ExtensionDeviceTestBase):
    def test_declared_optimizer_features_are_accepted(self):
        # The example of docs/backend_author_guide.md.
        class Interface(ExtensionDeviceInterface):
            @classmethod
            def backend_features(cls, device=None):
                return super().backend_features(device) | {
                    BackendFeature.FOREACH_KERNELS,
                    BackendFeature.FUSED_OPTIMIZER,
                    BackendFeature.CAPTURABLE_OPTIMIZER,
                }

        self.register(Interface)
        param = torch.zeros(2, device=DEVICE)
        self.assertEqual(_default_to_fused_or_foreach([param], False), (False, True))
        self.assertEqual(
            _default_to_fused_or_foreach([param], False, use_fused=True), (True, False)
        )
        expected = _adam_step("cpu")
        for kwargs in (
            {},
            {"foreach": True},
            {"fused": True},
            {"capturable": True},
            {"fused": True, "capturable": True},
        ):
            with self.subTest(**kwargs):
                self.assertEqual(_adam_step(DEVICE, **kwargs), expected)
        grads = [torch.full((4,), 3.0, device=DEVICE)]
        params = [torch.nn.Parameter(torch.zeros(4, device=DEVICE))]
        params[0].grad = grads[0]
        norm = torch.nn.utils.clip_grad_norm_(params, 1.0, foreach=True)
        self.assertEqual(norm.cpu(), torch.tensor(6.0))

    def test_default_optimizer_features_of_an_interface_without_override(self):
        self.register(ExtensionDeviceInterface)
        param = torch.zeros(2, device=DEVICE)
        self.assertEqual(_default_to_fused_or_foreach([param], False), (False, True))
        expected = _adam_step("cpu")
        for kwargs in ({}, {"fused": True}, {"capturable": True}):
            with self.subTest(**kwargs):
                self.assertEqual(_adam_step(DEVICE, **kwargs), expected)

    def test_undeclared_optimizer_features_keep_the_slow_path_or_fail_clearly(self):
        self.register(_features_interface(name="Declining"))
        param = torch.zeros(2, device=DEVICE)
        # foreach=None: the single-tensor implementation, as on any device
        # without foreach kernels.
        self.assertEqual(_default_to_fused_or_foreach([param], False), (False, False))
        self.assertEqual(_adam_step(DEVICE), _adam_step("cpu"))
        with self.assertRaisesRegex(
            RuntimeError,
            rf"`fused=True` requires all the params to be floating point Tensors "
            rf"of supported devices: .* but torch.float32 and {DEVICE}\. The "
            rf"PrivateUse1 device '{DEVICE}' supports it once the "
            r"backend_features\(\) of its DeviceInterface include "
            r"BackendFeature.FUSED_OPTIMIZER",
        ):
            _adam_step(DEVICE, fused=True)
        with self.assertRaisesRegex(
            AssertionError,
            r"If capturable=True, params and state_steps must be on supported "
            r"devices: \['cuda', 'xpu', 'hpu', 'xla'\]",
        ):
            _adam_step(DEVICE, capturable=True)
        params = [torch.nn.Parameter(torch.zeros(4, device=DEVICE))]
        params[0].grad = torch.ones(4, device=DEVICE)
        with self.assertRaisesRegex(
            RuntimeError,
            f"foreach=True was passed, but can't use the foreach API on {DEVICE} tensors",
        ):
            torch.nn.utils.clip_grad_norm_(params, 1.0, foreach=True)

    def test_compiled_step_does_not_trace_the_registry(self):
        from torch._dynamo.utils import counters

        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        for interface in (
            _features_interface(name="Declining"),
            _features_interface(BF.FOREACH_KERNELS),
        ):
            with self.subTest(interface.__name__):
                torch._dynamo.reset()
                counters.clear()
                # A registration: the cached answer is stale, so the lookup
                # runs for the first time while Dynamo traces the step.
                self.register(interface)
                torch.manual_seed(0)
                param = torch.nn.Parameter(torch.randn(8, device=DEVICE))
                optimizer = torch.optim.Adam([param], lr=0.1)
                param.grad = torch.ones_like(param)
                torch.compile(optimizer.step, backend="eager")()
                breaks = [
                    reason
                    for reason in counters["graph_break"]
                    if "User-inserted graph break" not in reason
                ]
                self.assertEqual(breaks, [])
                torch.manual_seed(0)
                expected = torch.nn.Parameter(torch.randn(8))
                reference = torch.optim.Adam([expected], lr=0.1)
                expected.grad = torch.ones_like(expected)
                reference.step()
                self.assertEqual(param.detach().cpu(), expected.detach())

    def test_fft_half_precision(self):
        device = torch.device(DEVICE)
        for interface in (ExtensionDeviceInterface, _features_interface(name="Declining")):
            with self.subTest(interface.__name__):
                self.register(interface)
                with self.assertRaisesRegex(RuntimeError, "Unsupported dtype torch.float16"):
                    _promote_type_fft(torch.float16, True, device)
        self.register(_features_interface(BF.HALF_PRECISION_FFT))
        self.assertIs(_promote_type_fft(torch.float16, True, device), torch.complex32)
        self.assertIs(_promote_type_fft(torch.float16, False, device), torch.float16)


class GpuTypesInvariantTest(ExtensionDeviceTestBase):
    def assert_invariant(self):
        gpu_types = []
        for name, interface in get_registered_device_interfaces():
            if ":" in name:
                continue
            self.assertEqual(
                interface.is_gpu(), BF.GPU in interface.backend_features(None), name
            )
            features = di._backend_features(name)
            if BF.GPU in (features if features is not None else ()) or (
                features is None and interface.is_gpu()
            ):
                gpu_types.append(name)
            self.assertEqual(inductor_utils.is_gpu(name), name in gpu_types, name)
        self.assertEqual(set(inductor_utils.GPU_TYPES), set(gpu_types))
        return gpu_types

    def test_invariant_over_every_registered_interface(self):
        self.assertNotIn(DEVICE, self.assert_invariant())

        class GpuClass(ExtensionDeviceInterface):
            @staticmethod
            def is_gpu():
                return True

        self.register(GpuClass)
        self.assertIn(DEVICE, self.assert_invariant())
        self.assertEqual(inductor_utils.GPU_TYPES[-1], DEVICE)
        self.register(ExtensionDeviceInterface)
        self.assertNotIn(DEVICE, self.assert_invariant())

    def test_is_gpu_alone_decides_gpu_class(self):
        # One source of truth: a set that disagrees with is_gpu() is corrected.
        class ForgotSuper(ExtensionDeviceInterface):
            @staticmethod
            def is_gpu():
                return True

            @classmethod
            def backend_features(cls, device=None):
                return OrderedSet([BF.FOREACH_KERNELS])

        class ForgotIsGpu(ExtensionDeviceInterface):
            @classmethod
            def backend_features(cls, device=None):
                return OrderedSet([BF.GPU])

        for interface, gpu in ((ForgotSuper, True), (ForgotIsGpu, False)):
            with self.subTest(interface.__name__):
                self.register(interface)
                self.assertEqual(DEVICE in inductor_utils.GPU_TYPES, gpu)
                self.assertEqual(inductor_utils.is_gpu(DEVICE), gpu)
                self.assertEqual(BF.GPU in di._backend_features(DEVICE), gpu)


class _StopCompile(Exception):
    pass


class _CapturePostGradGraph(CustomGraphPass):
    """Records the post-grad graph; stops the compile if ``stop``."""

    def __init__(self, stop: bool) -> None:
        self.stop = stop
        self.graphs: list[str] = []

    def __call__(self, graph: torch.fx.Graph) -> None:
        self.graphs.append(str(graph))
        if self.stop:
            raise _StopCompile("post-grad graph captured")

    def uuid(self):
        return None


def _triton_scheduled(name):
    # A Triton-generating device: what the online-softmax kernels need.  No
    # Triton is installed here, so the compile stops after the post-grad passes.
    from torch._inductor.codegen.triton import TritonScheduling
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen

    register_backend_for_device(name, TritonScheduling, PythonWrapperCodegen)


class OnlineSoftmaxTest(ExtensionDeviceTestBase):
    def setUp(self):
        super().setUp()
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)

    def post_grad_graph(self, *, triton: bool) -> str:
        x = torch.randn(4, 64, device=DEVICE)

        def fn(x):
            return torch.softmax(x, dim=-1)

        capture = _CapturePostGradGraph(stop=triton)
        with inductor_config.patch(
            post_grad_custom_post_pass=capture, fx_graph_cache=False
        ):
            if triton:
                with self.assertRaisesRegex(Exception, "post-grad graph captured"):
                    torch.compile(fn)(x)
            else:
                self.assertEqual(torch.compile(fn)(x).cpu(), fn(x.cpu()))
        self.assertEqual(len(capture.graphs), 1)
        return capture.graphs[0]

    def test_extra_check_on_extension_device(self):
        match = _softmax_match(torch.device(DEVICE, 1))
        # No <device>_backend config key: the check answers, never raises.
        self.register(ExtensionDeviceInterface)
        self.assertFalse(prepare_softmax_extra_check(match))
        self.register(_features_interface(BF.ONLINE_SOFTMAX))
        # Declared, but the C++ backend has no online-softmax kernels.
        self.assertEqual(inductor_utils.get_current_backend(DEVICE), "cpp")
        self.assertFalse(prepare_softmax_extra_check(match))
        _triton_scheduled(DEVICE)
        self.assertTrue(prepare_softmax_extra_check(match))
        with inductor_config.patch(online_softmax=False):
            self.assertFalse(prepare_softmax_extra_check(match))
        self.register(ExtensionDeviceInterface)
        _triton_scheduled(DEVICE)
        self.assertFalse(prepare_softmax_extra_check(match))

    def test_pattern_applied_when_declared_on_a_triton_device(self):
        self.register(_features_interface(BF.ONLINE_SOFTMAX))
        _triton_scheduled(DEVICE)
        graph = self.post_grad_graph(triton=True)
        FileCheck().check("torch.ops.prims.prepare_softmax_online.default").check(
            "torch.ops.aten.exp.default"
        ).check("torch.ops.aten.div.Tensor").run(graph)
        self.assertNotIn("torch.ops.aten.amax", graph)

    def test_pattern_not_applied_when_undeclared(self):
        self.register(ExtensionDeviceInterface)
        _triton_scheduled(DEVICE)
        graph = self.post_grad_graph(triton=True)
        FileCheck().check("torch.ops.aten.amax.default").check(
            "torch.ops.aten.sum.dim_IntList"
        ).run(graph)
        self.assertNotIn("prepare_softmax_online", graph)

    def test_pattern_not_applied_on_a_cpp_scheduled_device(self):
        # Declaring it on a C++-scheduled device changes nothing: it compiles
        # and runs as before.
        self.register(_features_interface(BF.ONLINE_SOFTMAX))
        graph = self.post_grad_graph(triton=False)
        FileCheck().check("torch.ops.aten.amax.default").run(graph)
        self.assertNotIn("prepare_softmax_online", graph)


if __name__ == "__main__":
    run_tests()

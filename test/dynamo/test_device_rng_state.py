# Owner(s): ["module: dynamo"]
"""Random-number state of an out-of-tree (PrivateUse1) device across
compilation, and a device module without ``is_available()`` (SPEC §11).

Dynamo saves and restores the generator of every registered device that has
one (its device module's ``get_rng_state()`` / ``set_rng_state()``) wherever
it saves cuda's: ``preserve_rng_state()``, ``preserve_global_state`` and
``checkpoint_params``. The device is the fake PrivateUse1 backend, registered
as ``extension_device`` for the whole process; the registries are restored
after each test. A partial device module needs its own process (PrivateUse1 is
renamed once per process).
"""

import functools
import json

import torch
import torch._dynamo
from extension_backends.extension_device import register
from extension_backends.testing import RegistrySnapshot, run_python
from torch._dynamo.convert_frame import preserve_global_state
from torch._dynamo.device_interface import (
    DeviceInterface,
    register_interface_for_device,
)
from torch._dynamo.utils import (
    _rng_device_modules,
    accelerator_is_available,
    checkpoint_params,
    preserve_rng_state,
)
from torch.testing._internal.common_utils import run_tests, TestCase


DEVICE = "extension_device"
device_module = register(DEVICE)

from extension_backends.cpp.extension_codegen_backend import (  # noqa: E402
    register_compile_backend,
)


def draw():
    """Advances the generator of the current device."""
    return torch.rand(4, device=DEVICE)


class DeviceRngStateTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_compile_backend(DEVICE)
        self.assertEqual(device_module.current_device(), 0)
        saved = device_module.get_rng_state_all()
        self.addCleanup(device_module.set_rng_state_all, saved)
        device_module.manual_seed_all(0)

    def assertStateUnchanged(self, before):
        self.assertEqual(device_module.get_rng_state(), before)

    def test_preserve_rng_state(self):
        before = device_module.get_rng_state()
        with preserve_rng_state():
            draw()
        self.assertStateUnchanged(before)

    def test_preserve_global_state(self):
        before = device_module.get_rng_state()
        preserve_global_state(draw)()
        self.assertStateUnchanged(before)

    def test_checkpoint_params(self):
        gm = torch.fx.symbolic_trace(torch.nn.Linear(2, 2))
        before = device_module.get_rng_state()
        restore = checkpoint_params(gm)
        draw()
        restore()
        self.assertStateUnchanged(before)

    def test_compile_leaves_the_random_stream_as_eager(self):
        # A backend that draws on the device while compiling, as autotuning
        # with random example inputs does; each graph of the graph break
        # compiles once.
        compiles = []

        def drawing_backend(gm, example_inputs):
            compiles.append(draw())
            return gm.forward

        def fn(x):
            y = x + torch.rand(3, device=DEVICE)
            torch._dynamo.graph_break()
            return y * torch.rand(3, device=DEVICE)

        x = torch.ones(3, device=DEVICE)
        expected = fn(x)
        expected_state = device_module.get_rng_state()
        device_module.manual_seed_all(0)
        actual = torch.compile(fn, backend=drawing_backend)(x)
        self.assertEqual(len(compiles), 2)
        self.assertEqual(actual.cpu(), expected.cpu())
        self.assertEqual(device_module.get_rng_state(), expected_state)

    def test_only_devices_with_a_generator(self):
        # An out-of-tree interface without a device module has no generator.
        class NoModule(DeviceInterface):
            @staticmethod
            def is_available():
                return True

        register_interface_for_device("rngless_device", NoModule)
        self.assertEqual(_rng_device_modules(), (device_module,))

    def test_accelerator_is_available(self):
        self.assertTrue(accelerator_is_available())
        self.assertEqual(accelerator_is_available(), torch.accelerator.is_available())


class TritonDeviceRngStateTests(DeviceRngStateTests):
    """The same, on the device's Triton variant."""

    def setUp(self):
        super().setUp()
        from extension_backends.triton_codegen_backend import register_triton_backend

        register_triton_backend(DEVICE)


# A device module with neither is_available() nor a working get_rng_state().
PARTIAL_DEVICE = """
    import json, logging, types
    import torch
    from extension_backends import extension_device_module as full
    from extension_backends.extension_device import load_library

    load_library()
    torch.utils.rename_privateuse1_backend("acc")
    runtime = types.ModuleType("acc_runtime")
    for name in full.__all__:
        if name != "is_available":
            setattr(runtime, name, getattr(full, name))

    def get_rng_state(device=None):
        raise RuntimeError("no generator yet")

    runtime.get_rng_state = get_rng_state
    torch._register_device_module("acc", runtime)

    from extension_backends.cpp.extension_codegen_backend import (
        register_compile_backend,
    )
    from torch._dynamo.utils import preserve_rng_state

    register_compile_backend("acc")
    records = []

    class Collect(logging.Handler):
        def emit(self, record):
            records.append(record)

    logging.getLogger("torch._dynamo.device_interface").addHandler(Collect())
    x = torch.ones(3, device="acc")
    out = torch.compile(lambda t: t * 2 + 1, backend="eager")(x)
    # A graph without tensor inputs asks whether an accelerator is available.
    no_inputs = torch.compile(lambda: torch.ones(2, device="acc") * 3)()
    with preserve_rng_state():
        pass
    print("REPORT" + json.dumps({
        "result": out.cpu().tolist(),
        "device": str(out.device),
        "no_inputs": no_inputs.cpu().tolist(),
        "warnings": [r.getMessage() for r in records if "get_rng_state" in r.getMessage()],
    }))
"""


@functools.cache
def partial_device_report():
    proc = run_python(PARTIAL_DEVICE, timeout=300)
    line = next(l for l in proc.stdout.splitlines() if l.startswith("REPORT"))
    return json.loads(line[len("REPORT"):])


class PartialDeviceModuleTests(TestCase):
    def test_compile_without_is_available(self):
        report = partial_device_report()
        self.assertEqual(report["result"], [3.0, 3.0, 3.0])
        self.assertEqual(report["device"], "acc:0")
        self.assertEqual(report["no_inputs"], [3.0, 3.0])

    def test_broken_get_rng_state_warns_once(self):
        warnings = partial_device_report()["warnings"]
        self.assertEqual(len(warnings), 1, warnings)
        self.assertRegex(
            warnings[0],
            r"torch.acc.get_rng_state\(\) raised RuntimeError: no generator yet; "
            r"the random-number state of device 'acc' is not preserved",
        )


if __name__ == "__main__":
    run_tests()

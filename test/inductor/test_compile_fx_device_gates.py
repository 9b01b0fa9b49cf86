# Owner(s): ["module: inductor"]
"""compile_fx front-end gates that ask the device's record instead of its name.

Post-grad passes of a single-device graph on the out-of-tree device run under
that device's own context, and the async-compile pool wakes for a GPU-class
out-of-tree device as it does for cuda and xpu. A Triton device that leaves
``triton_backend_name()`` at its default on a host where Triton has no single
active driver fails naming that hook. AOTAutograd's synced deallocation of a
side-stream tensor works with a device module that has no ``is_available()``,
and its autocast-state check covers the device's state, as it covers cuda's.
"""

import sys
import unittest
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import triton.backends

import torch
from torch._dynamo.device_interface import DeviceInterface
from torch._inductor import compile_fx
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python
from extension_backends.triton_codegen_backend import (
    ExtensionTritonDeviceInterface,
    register_triton_backend,
)

register(DEVICE)

ACTIVE_TRITON_DRIVERS = [
    name for name, backend in triton.backends.backends.items() if backend.driver.is_active()
]


class GpuClassInterface(ExtensionDeviceInterface):
    """The device, declaring itself GPU-class."""

    is_gpu = staticmethod(lambda: True)


def _graph_on(device):
    gm = torch.fx.symbolic_trace(lambda x: x + 1)
    for node in gm.graph.nodes:
        if node.op != "output":
            node.meta["val"] = torch.empty(2, device=device)
    return gm


class CompileFxDeviceGateTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        register_compile_backend(DEVICE)

    def test_post_grad_context_is_the_device_context(self):
        runtime = getattr(torch, DEVICE)
        before = runtime.current_device()
        with compile_fx.get_device_context(_graph_on(f"{DEVICE}:1")):
            self.assertEqual(runtime.current_device(), 1)
        self.assertEqual(runtime.current_device(), before)

    def test_autocast_state_includes_the_device(self):
        # AOTAutograd compares these states before and after tracing, to refuse
        # a function that leaves autocast changed; cuda's and cpu's are in it.
        from torch._functorch._aot_autograd.utils import _get_autocast_states

        before = _get_autocast_states()
        self.addCleanup(torch.set_autocast_enabled, DEVICE, False)
        torch.set_autocast_enabled(DEVICE, True)
        self.assertNotEqual(_get_autocast_states(), before)
        torch.set_autocast_enabled(DEVICE, False)
        self.assertEqual(_get_autocast_states(), before)

    def test_context_receives_the_graphs_device(self):
        # Upstream passes the graph's torch.device, not its index.
        seen = []

        class Recording(ExtensionDeviceInterface):
            class device:
                def __init__(self, device):
                    seen.append(device)

                def __enter__(self):
                    pass

                def __exit__(self, *args):
                    pass

        register_compile_backend(DEVICE, Recording)
        with compile_fx.get_device_context(_graph_on(f"{DEVICE}:1")):
            pass
        self.assertEqual(seen, [torch.device(DEVICE, 1)])

    def test_device_that_is_no_context_manager_is_not_entered(self):
        # The shape of upstream's Triton example backend: `device` a plain class
        # (or torch.device itself). Such a device runs its passes unguarded.
        class Plain(ExtensionDeviceInterface):
            class device:
                def __init__(self, device):
                    self.device = device

        class TorchDevice(ExtensionDeviceInterface):
            device = torch.device

        for interface in (Plain, TorchDevice):
            with self.subTest(interface.__name__):
                self.assertFalse(interface.runs_passes_under_device())
                register_compile_backend(DEVICE, interface)
                ctx = compile_fx.get_device_context(_graph_on(f"{DEVICE}:1"))
                self.assertIsInstance(ctx, type(compile_fx.contextlib.nullcontext()))
                torch._dynamo.reset()
                x = torch.randn(4, device=DEVICE)
                compiled = torch.compile(lambda x: x.sin() + 1)
                self.assertEqual(compiled(x).cpu(), x.cpu().sin() + 1)

    def test_get_cuda_device_context_is_an_alias(self):
        self.assertIs(compile_fx.get_cuda_device_context, compile_fx.get_device_context)
        ctx = compile_fx.get_cuda_device_context(_graph_on("cpu"))
        self.assertIsInstance(ctx, type(compile_fx.contextlib.nullcontext()))

    def test_cpu_graph_gets_a_null_context(self):
        ctx = compile_fx.get_device_context(_graph_on("cpu"))
        self.assertIsInstance(ctx, type(compile_fx.contextlib.nullcontext()))

    def test_async_compile_wakes_for_a_gpu_class_device(self):
        self.assertFalse(
            compile_fx._should_wakeup_async_compile([torch.empty(1), 3])
        )
        self.assertFalse(
            compile_fx._should_wakeup_async_compile([torch.empty(1, device=DEVICE)])
        )
        register_compile_backend(DEVICE, GpuClassInterface)
        self.assertTrue(
            compile_fx._should_wakeup_async_compile([torch.empty(1, device=DEVICE)])
        )

    def test_triton_variant_context_and_async_compile(self):
        register_triton_backend(DEVICE)
        runtime = getattr(torch, DEVICE)
        with compile_fx.get_device_context(_graph_on(f"{DEVICE}:1")):
            self.assertEqual(runtime.current_device(), 1)
        self.assertTrue(
            compile_fx._should_wakeup_async_compile([torch.empty(1, device=DEVICE)])
        )

    @unittest.skipIf(len(ACTIVE_TRITON_DRIVERS) == 1, "Triton has an active driver")
    def test_default_triton_backend_without_an_active_driver(self):
        class DefaultBackendName(ExtensionTritonDeviceInterface):
            triton_backend_name = DeviceInterface.__dict__["triton_backend_name"]

        register_triton_backend(DEVICE, DefaultBackendName)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        with self.assertRaisesRegex(
            RuntimeError,
            f"Cannot compile Triton kernels for device '{DEVICE}': "
            r"DefaultBackendName.triton_backend_name\(\) is None, which selects "
            r"Triton's active driver, and Triton has no single active driver \(.*\)\. "
            r"Make DefaultBackendName.triton_backend_name\(\) return the name",
        ):
            torch.compile(lambda x: x.sin() + 1)(torch.randn(8, device=DEVICE))


# A device module without is_available(): torch.accelerator.is_available() raises.
PARTIAL_MODULE_STREAMS = """
    import types
    import torch
    from extension_backends import extension_device_module as full
    from extension_backends.extension_device import load_library
    from extension_backends.cpp.extension_codegen_backend import register_compile_backend

    load_library()
    torch.utils.rename_privateuse1_backend("acc")
    runtime = types.ModuleType("acc_runtime")
    for name in full.__all__:
        if name != "is_available":
            setattr(runtime, name, getattr(full, name))
    torch._register_device_module("acc", runtime)
    register_compile_backend("acc")
    from torch._functorch._aot_autograd.streams import handle_synced_deallocation

    graph = torch.fx.Graph()
    nodes = [graph.placeholder("x")]
    for stream, op in enumerate((torch.ops.aten.sin.default, torch.ops.aten.cos.default)):
        nodes.append(graph.call_function(op, (nodes[-1],)))
        nodes[-1].meta.update(partitioner_tag="is_backward", custom={"stream": stream})
    for node in nodes:
        node.meta["val"] = torch.empty(4, device="acc")
    graph.output((nodes[-1],))
    try:
        handle_synced_deallocation(graph, {}, nodes[1], nodes[2])
        print("inserted:", [str(n.target) for n in graph.nodes if n.op == "call_function"])
    except RuntimeError as err:
        # The stream timeline's roofline asks Triton's active driver.
        print("after the availability check:", "active drivers" in str(err))
"""


class PartialDeviceModuleTests(TestCase):
    def test_synced_deallocation_without_is_available(self):
        out = run_python(PARTIAL_MODULE_STREAMS, timeout=300).stdout
        self.assertRegex(
            out, "inserted: .*streams.sync_dealloc|after the availability check: True"
        )


if __name__ == "__main__":
    run_tests()

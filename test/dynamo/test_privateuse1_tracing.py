# Owner(s): ["module: dynamo"]
"""Dynamo tracing of an out-of-tree (PrivateUse1) device's runtime: streams,
events, device properties and runtime calls (SPEC §3, DYN-1..DYN-6).

The device is the fake PrivateUse1 backend, registered as ``extension_device``
for the whole process; its compile side is registered through public calls in
``setUp`` and every registry is restored after each test. Tests compile with
``fullgraph=True`` and the eager backend: zero graph breaks, no codegen.
"""

import logging

import torch
import torch._dynamo
from extension_backends.extension_device import register
from extension_backends.testing import RegistrySnapshot, run_python
from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._dynamo.exc import Unsupported
from torch._dynamo.testing import CompileCounterWithBackend, EagerAndRecordGraphs
from torch._dynamo.trace_rules import (
    lookup,
    register_device_trace_rules,
)
from torch._dynamo.utils import common_constant_types, counters
from torch._dynamo.variables import (
    ConstantVariable,
    SkipFunctionVariable,
    TorchInGraphFunctionVariable,
    UserFunctionVariable,
)
from torch._dynamo.variables.torch import TorchInGraphFunctionVariable as InGraphVT
from torch._dynamo.variables.user_defined import UserDefinedClassVariable
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase


DEVICE = "extension_device"
device_module = register(DEVICE)

from extension_backends.cpp.extension_codegen_backend import (  # noqa: E402
    ExtensionDeviceInterface,
    register_compile_backend,
)


def scale(x):
    """A function that a backend may want in the graph as a call."""
    return x * 2


class _Base(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        counters.clear()
        register_compile_backend(DEVICE)
        # Every test starts on device 0 with default streams and restores that.
        self.assertEqual(device_module.current_device(), 0)
        self.addCleanup(device_module.set_device, 0)
        for index in range(device_module.device_count()):
            self.addCleanup(
                device_module.set_stream, device_module.default_stream(index)
            )
        self.x = torch.arange(6.0, device=DEVICE).reshape(2, 3)

    def compile(self, fn, **kwargs):
        """`fn` compiled with fullgraph=True and the eager backend, and its
        compile counter."""
        counter = CompileCounterWithBackend("eager")
        return torch.compile(fn, backend=counter, fullgraph=True, **kwargs), counter

    def check(self, fn, *args):
        """Compiles `fn` in one graph, checks it matches eager (results and the
        current device afterwards) and returns (eager result, compiled result,
        compile counter)."""
        expected = fn(*args)
        expected_device = device_module.current_device()
        device_module.set_device(0)
        compiled, counter = self.compile(fn)
        actual = compiled(*args)
        self.assertEqual(device_module.current_device(), expected_device)
        device_module.set_device(0)
        self.assertEqual(counter.frame_count, 1)
        self.assertEqual(dict(counters["graph_break"]), {})
        return expected, actual, counter

    def assertSameTensors(self, actual, expected):
        self.assertEqual(actual.device, expected.device)
        self.assertEqual(actual.cpu(), expected.cpu())


class RuntimeCallTests(_Base):
    """Runtime queries and calls of the device module (DYN-3, DYN-4, DYN-6)."""

    def test_is_available_current_device_device_count(self):
        def fn(x):
            if torch.extension_device.is_available():
                x = x + torch.extension_device.device_count()
            return x + torch.extension_device.current_device()

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual, expected)

    def test_get_device_properties(self):
        def fn(x):
            props = torch.extension_device.get_device_properties()
            return x * props.multi_processor_count, props

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual[0], expected[0])
        self.assertEqual(actual[1], expected[1])
        # DYN-5: the properties of the available device are a constant, without
        # an edit of Dynamo's table of constant types.
        self.assertTrue(ConstantVariable.is_literal(expected[1]))
        self.assertNotIn(type(expected[1]), common_constant_types)

    def test_device_properties_input(self):
        # Properties passed in are a constant guarded on their value.
        def fn(x, props):
            return x * props.multi_processor_count, props

        props = device_module.get_device_properties()
        expected, actual, _ = self.check(fn, self.x, props)
        self.assertSameTensors(actual[0], expected[0])
        self.assertIs(actual[1], props)

    def test_recompiles_when_current_device_changes(self):
        def fn(x):
            return x + torch.extension_device.current_device()

        compiled, counter = self.compile(fn)
        self.assertSameTensors(compiled(self.x), self.x + 0)
        self.assertSameTensors(compiled(self.x), self.x + 0)
        self.assertEqual(counter.frame_count, 1)
        device_module.set_device(1)
        self.assertSameTensors(compiled(self.x), self.x + 1)
        self.assertEqual(counter.frame_count, 2)
        device_module.set_device(0)
        self.assertSameTensors(compiled(self.x), self.x + 0)
        self.assertEqual(counter.frame_count, 2)

    def test_synchronize(self):
        def fn(x):
            torch.extension_device.synchronize()
            torch.extension_device.synchronize(1)
            return x + 1

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual, expected)

        # Without an argument, the current device, guarded.
        backend = EagerAndRecordGraphs()
        compiled = torch.compile(fn, backend=backend, fullgraph=True)
        compiled(self.x)
        device_module.set_device(1)
        compiled(self.x)
        self.assertEqual(len(backend.graphs), 2)
        for index, graph in enumerate(backend.graphs):
            FileCheck().check(
                f"torch.ops.streams.synchronize_device('{DEVICE}', {index})"
            ).check(f"torch.ops.streams.synchronize_device('{DEVICE}', 1)").run(
                graph.code
            )

    def test_set_device(self):
        def fn(x):
            torch.extension_device.set_device(1)
            y = x + torch.extension_device.current_device()
            return y, torch.ones(2, device=DEVICE)

        expected, actual, counter = self.check(fn, self.x)
        self.assertSameTensors(actual[0], expected[0])
        self.assertSameTensors(actual[1], expected[1])
        self.assertEqual(actual[1].device.index, 1)

        # Guarded on the current device at entry: recompiled when it changes.
        compiled, counter = self.compile(fn)
        compiled(self.x)
        self.assertEqual(device_module.current_device(), 1)
        compiled(self.x)
        self.assertEqual(counter.frame_count, 2)

        backend = EagerAndRecordGraphs()
        torch._dynamo.reset()
        device_module.set_device(0)
        torch.compile(fn, backend=backend, fullgraph=True)(self.x)
        FileCheck().check(f"torch.ops.streams.set_device('{DEVICE}', 1)").run(
            backend.graphs[0].code
        )

    def test_set_device_under_inductor(self):
        # The set_device op survives AOT tracing and runs in the compiled code.
        def fn(x):
            torch.extension_device.set_device(1)
            return x + torch.extension_device.current_device()

        expected = fn(self.x)
        device_module.set_device(0)
        actual = torch.compile(fn, fullgraph=True)(self.x)
        self.assertEqual(device_module.current_device(), 1)
        self.assertSameTensors(actual, expected)

    def test_factories_after_set_device_under_inductor(self):
        # A device without index means the current one when the call runs:
        # before the set_device() device 0, after it device 1, as eagerly.
        def fn(x, y):
            a = torch.zeros(2, device=DEVICE)
            torch.extension_device.set_device(1)
            b = torch.ones(2, device=torch.device(DEVICE)) + y
            return a + x, b, torch.ones(2, device=DEVICE), x.to(DEVICE)

        x = torch.ones(2, device=DEVICE)
        y = torch.ones(2, device=f"{DEVICE}:1")
        expected = fn(x, y)
        device_module.set_device(0)
        actual = torch.compile(fn, fullgraph=True)(x, y)
        self.assertEqual(device_module.current_device(), 1)
        self.assertEqual([t.device.index for t in expected], [0, 1, 1, 1])
        for a, e in zip(actual, expected):
            self.assertSameTensors(a, e)

    def test_device_context(self):
        def fn(x):
            with torch.extension_device.device(1):
                a = torch.ones(2, device=DEVICE)
                with torch.extension_device.device(f"{DEVICE}:0"):
                    b = x + torch.extension_device.current_device()
                c = torch.extension_device.current_device()
            with torch.extension_device.device(None):
                d = torch.zeros(2, device=DEVICE)
            return a, b, x + c, d

        expected, actual, _ = self.check(fn, self.x)
        self.assertEqual([t.device.index for t in expected], [1, 0, 0, 0])
        for a, e in zip(actual, expected):
            self.assertSameTensors(a, e)

        backend = EagerAndRecordGraphs()
        torch.compile(fn, backend=backend, fullgraph=True)(self.x)
        FileCheck().check(f"torch.ops.streams.set_device('{DEVICE}', 1)").check(
            f"torch.ops.streams.set_device('{DEVICE}', 0)"
        ).check(f"torch.ops.streams.set_device('{DEVICE}', 1)").check(
            f"torch.ops.streams.set_device('{DEVICE}', 0)"
        ).run(backend.graphs[0].code)

        # A graph break in the body resumes inside the context.
        def broken(x):
            with torch.extension_device.device(1):
                a = torch.ones(2, device=DEVICE)
                torch._dynamo.graph_break()
                b = x + torch.extension_device.current_device()
            return a, b, x + torch.extension_device.current_device()

        counter = CompileCounterWithBackend("eager")
        for a, e in zip(torch.compile(broken, backend=counter)(self.x), broken(self.x)):
            self.assertSameTensors(a, e)
        self.assertEqual(counter.frame_count, 2)
        self.assertEqual(device_module.current_device(), 0)

        # Under Inductor, the body's factories are on the entered device too.
        torch._dynamo.reset()
        actual = torch.compile(fn, fullgraph=True)(self.x)
        self.assertEqual(device_module.current_device(), 0)
        for a, e in zip(actual, expected):
            self.assertSameTensors(a, e)

    def test_exchange_device(self):
        def fn(x):
            prev = ExtensionDeviceInterface.exchange_device(1)
            y = x + torch.extension_device.current_device()
            ExtensionDeviceInterface.maybe_exchange_device(prev)
            return y

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual, expected)

    def test_get_device_module(self):
        def fn(x):
            return x * torch.get_device_module(x.device).device_count()

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual, expected)

        def no_arg(x):
            # The current accelerator is the PrivateUse1 device.
            return x + torch.get_device_module().current_device()

        expected, actual, _ = self.check(no_arg, self.x)
        self.assertSameTensors(actual, expected)

    def test_rng_functions_are_skipped(self):
        def fn(x):
            torch.extension_device.manual_seed(0)
            return x + 1

        with self.assertRaisesRegex(Unsupported, "marked as skipped"):
            self.compile(fn)[0](self.x)
        torch._dynamo.reset()
        counter = CompileCounterWithBackend("eager")
        self.assertSameTensors(torch.compile(fn, backend=counter)(self.x), self.x + 1)
        self.assertEqual(counter.frame_count, 1)
        self.assertEqual(
            lookup(torch.extension_device.get_rng_state), SkipFunctionVariable
        )

    def test_skipped_function_frame_is_not_traced(self):
        # After the graph break a skipped function runs eagerly, and Dynamo
        # leaves its own frame alone too, as it leaves torch.cuda's: torch's
        # freeze_rng_state calls set_rng_state inside no_dispatch(), where
        # Dynamo could not make the state a fake tensor.
        from torch.testing._internal.common_utils import freeze_rng_state

        def fn(x):
            with freeze_rng_state():
                torch.manual_seed(0)
                return x + torch.rand_like(x)

        expected = fn(self.x)
        self.assertSameTensors(torch.compile(fn, backend="eager")(self.x), expected)

    def test_autocast(self):
        def fn(x):
            with torch.extension_device.amp.autocast(dtype=torch.bfloat16):
                y = x @ x.t()
            return y

        expected, actual, _ = self.check(fn, self.x)
        self.assertEqual(actual.dtype, torch.bfloat16)
        self.assertSameTensors(actual, expected)


class StreamEventTests(_Base):
    """Streams and events of the device (DYN-1, DYN-2, DYN-6)."""

    def test_current_stream(self):
        def fn(x):
            s = torch.extension_device.current_stream()
            return x + s.stream_id, isinstance(s, torch.extension_device.Stream)

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual[0], expected[0])
        self.assertEqual(actual[1], True)

    def test_current_stream_id_is_guarded(self):
        def fn(x):
            return x + torch.extension_device.current_stream().stream_id

        compiled, counter = self.compile(fn)
        self.assertSameTensors(compiled(self.x), fn(self.x))
        stream = device_module.Stream()
        device_module.set_stream(stream)
        self.assertSameTensors(compiled(self.x), self.x + stream.stream_id)
        self.assertEqual(counter.frame_count, 2)

    def test_stream_input_attributes(self):
        def fn(x, s):
            return x + s.stream_id + s.device_index, s.device, s.device_type

        stream = device_module.Stream(1)
        expected, actual, _ = self.check(fn, self.x, stream)
        self.assertSameTensors(actual[0], expected[0])
        self.assertEqual(actual[1:], expected[1:])

        # Guarded on the stream: another one recompiles.
        compiled, counter = self.compile(fn)
        compiled(self.x, stream)
        other = device_module.Stream(0)
        self.assertSameTensors(compiled(self.x, other)[0], fn(self.x, other)[0])
        self.assertEqual(counter.frame_count, 2)

    def test_plain_stream_input(self):
        # A torch.Stream of the device, as device modules that hand out plain
        # torch.Stream objects return.
        def fn(x, s):
            return x + s.stream_id + s.device_index, s.device, s.device_type

        stream = torch.Stream(device=f"{DEVICE}:1")
        self.assertIs(type(stream), torch.Stream)
        expected, actual, _ = self.check(fn, self.x, stream)
        self.assertSameTensors(actual[0], expected[0])
        self.assertEqual(actual[1:], expected[1:])

        compiled, counter = self.compile(fn)
        compiled(self.x, stream)
        other = torch.Stream(device=DEVICE)
        self.assertSameTensors(compiled(self.x, other)[0], fn(self.x, other)[0])
        self.assertEqual(counter.frame_count, 2)

    def test_accelerator_current_stream(self):
        def fn(x):
            s = torch.accelerator.current_stream()
            return x + s.stream_id, s.device

        device_module.set_stream(device_module.Stream())
        expected, actual, _ = self.check(fn, self.x)
        self.assertNotEqual(expected[0].cpu().tolist(), self.x.cpu().tolist())
        self.assertSameTensors(actual[0], expected[0])
        self.assertEqual(actual[1], expected[1])

        # Guarded on the current stream.
        compiled, counter = self.compile(fn)
        compiled(self.x)
        device_module.set_stream(device_module.default_stream())
        self.assertSameTensors(compiled(self.x)[0], self.x + 0)
        self.assertEqual(counter.frame_count, 2)

    def test_stream_attributes_that_do_not_trace(self):
        def created(x):
            s = torch.Stream(device=DEVICE)
            return x + 1, s.device, s.device_index

        expected, actual, _ = self.check(created, self.x)
        self.assertEqual(actual[1:], expected[1:])

        def created_id(x):
            return x + torch.Stream(device=DEVICE).stream_id

        with self.assertRaisesRegex(
            Unsupported,
            r"(?s)extension_device' was created in the compiled function.*"
            r"Create the stream outside the compiled function and pass it in",
        ):
            self.compile(created_id)[0](self.x)

        class LabelledStream(device_module.Stream):
            label = 3

        def labelled(x, s):
            return x + s.label

        with self.assertRaisesRegex(
            Unsupported,
            r"(?s)stream of the out-of-tree device 'extension_device'.*"
            r"Read `label` outside the compiled function",
        ):
            self.compile(labelled)[0](self.x, LabelledStream())

    def test_stream_constructors(self):
        def fn(x):
            a = torch.Stream(device=f"{DEVICE}:1")
            b = torch.extension_device.Stream()
            c = torch.extension_device.Stream(1)
            return x + 1, a, b, c

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual[0], expected[0])
        for a, e in zip(actual[1:], expected[1:]):
            self.assertIs(type(a), type(e))
            self.assertEqual(a.device, e.device)

    def test_events(self):
        def fn(x):
            s = torch.extension_device.Stream()
            e = torch.extension_device.Event()
            f = torch.Event(device=DEVICE)
            e.record(s)
            f.record()
            e.wait()
            f.synchronize()
            e.synchronize()
            return x + 1, e, f

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual[0], expected[0])
        self.assertIs(type(actual[1]), device_module.Event)
        # The events were really recorded when the graph ran.
        self.assertIsNotNone(device_module.recorded_stream(actual[1]))
        self.assertEqual(
            device_module.recorded_stream(actual[2]), device_module.current_stream()
        )

    def test_stream_context(self):
        def fn(x):
            s = torch.extension_device.Stream()
            with torch.extension_device.stream(s):
                y = x + 1
            return y * 2

        expected, actual, _ = self.check(fn, self.x)
        self.assertSameTensors(actual, expected)

        # A StreamContext object created outside the compiled function.
        ctx = device_module.stream(device_module.Stream())

        def outer(x):
            with ctx:
                y = x + 1
            return y

        expected, actual, _ = self.check(outer, self.x)
        self.assertSameTensors(actual, expected)

    def test_sync_dealloc_across_streams(self):
        # A tensor freed on another stream than the one it was allocated on
        # gets an event (as for cuda).
        def fn(x):
            s = torch.extension_device.Stream()
            y = x + 1
            with torch.extension_device.stream(s):
                z = y * 2
            del y
            return z + 1

        backend = EagerAndRecordGraphs()
        actual = torch.compile(fn, backend=backend, fullgraph=True)(self.x)
        self.assertSameTensors(actual, fn(self.x))
        FileCheck().check("torch.ops.streams.record_event").check(
            "torch.ops.streams.sync_dealloc"
        ).run(backend.graphs[0].code)


class TraceRulesTests(_Base):
    """register_device_trace_rules(), the one door for trace rules (DYN-3, DYN-4)."""

    def test_defaults(self):
        module = torch.extension_device
        for fn, rule in [
            (module.current_stream, TorchInGraphFunctionVariable),
            (module.synchronize, TorchInGraphFunctionVariable),
            (module.stream, TorchInGraphFunctionVariable),
            (module.set_device, TorchInGraphFunctionVariable),
            (module.is_available, TorchInGraphFunctionVariable),
            (module.current_device, TorchInGraphFunctionVariable),
            (module.manual_seed, SkipFunctionVariable),
            (module.seed_all, SkipFunctionVariable),
            (module.set_rng_state, SkipFunctionVariable),
            # Not classified: inlined (Python).
            (module.get_device_capability, UserFunctionVariable),
        ]:
            self.assertIs(lookup(fn), rule, fn)

    def test_register_rules(self):
        c_device_count = torch.extension_device._C.device_count

        def folded(x):
            return x * c_device_count()

        def skipped(x):
            return x + torch.extension_device.get_device_capability()[0]

        def in_graph(x):
            return scale(x) + 1

        # By default, the C-bound function is skipped and the Python one inlined.
        with self.assertRaisesRegex(Unsupported, "marked as skipped"):
            self.compile(folded)[0](self.x)
        self.check(skipped, self.x)

        torch._dynamo.reset()
        register_device_trace_rules(
            DEVICE,
            constant_fold=[c_device_count],
            skip=[torch.extension_device.get_device_capability],
        )
        register_device_trace_rules(torch.device(DEVICE, 1), in_graph=[scale])
        expected, actual, _ = self.check(folded, self.x)
        self.assertSameTensors(actual, expected)
        with self.assertRaisesRegex(Unsupported, "marked as skipped"):
            self.compile(skipped)[0](self.x)
        backend = EagerAndRecordGraphs()
        torch.compile(in_graph, backend=backend, fullgraph=True)(self.x)
        FileCheck().check("scale(").run(backend.graphs[0].code)

        # A later call gives a function a new rule; explicit rules win over
        # the defaults.
        register_device_trace_rules(DEVICE, constant_fold=[scale])
        self.assertIs(lookup(scale), TorchInGraphFunctionVariable)
        register_device_trace_rules(
            DEVICE, in_graph=[torch.extension_device.manual_seed]
        )
        self.assertIs(
            lookup(torch.extension_device.manual_seed), TorchInGraphFunctionVariable
        )
        self.assertIs(
            lookup(torch.extension_device.get_device_capability),
            SkipFunctionVariable,
        )

    def test_register_rules_is_restored(self):
        snapshot = RegistrySnapshot()
        register_device_trace_rules(DEVICE, skip=[scale])
        self.assertIs(lookup(scale), SkipFunctionVariable)
        snapshot.restore()
        self.assertIs(lookup(scale), UserFunctionVariable)

    def test_builtin_functions_keep_their_rules(self):
        register_device_trace_rules(DEVICE, skip=[torch.cuda.is_available, torch.sin])

        def fn(x):
            return torch.sin(x) + torch.cuda.is_available()

        # Reported when the next compile builds the tables.
        with self.assertLogs("torch._dynamo.trace_rules", logging.WARNING) as logs:
            self.check(fn, self.x)
        self.assertIs(lookup(torch.cuda.is_available), TorchInGraphFunctionVariable)
        self.assertIs(lookup(torch.sin), TorchInGraphFunctionVariable)
        self.assertEqual(len(logs.output), 2)
        self.assertIn(
            "Ignoring the skip rule of <function is_available", logs.output[0]
        )
        self.assertIn(
            "keeps its built-in rule (TorchInGraphFunctionVariable)", logs.output[0]
        )

    def test_register_rules_errors(self):
        with self.assertRaisesRegex(ValueError, "'cuda' is a built-in device type"):
            register_device_trace_rules("cuda:0", skip=[scale])
        with self.assertRaisesRegex(TypeError, "must be a str or a torch.device"):
            register_device_trace_rules(3, skip=[scale])
        with self.assertRaisesRegex(
            TypeError,
            r"register_device_trace_rules\('extension_device'\): skip entry 5 is "
            "not a hashable callable",
        ):
            register_device_trace_rules(DEVICE, in_graph=[scale], skip=[5])
        with self.assertRaisesRegex(
            ValueError, "is given both as in_graph and as constant_fold"
        ):
            register_device_trace_rules(
                DEVICE, in_graph=[scale], constant_fold=[scale]
            )
        # Nothing was registered.
        self.assertIs(lookup(scale), UserFunctionVariable)

    def test_constant_fold_rules(self):
        # A device's runtime functions outside its module's defaults (here its
        # C extension's) get their rules from register_device_trace_rules.
        c = torch.extension_device._C
        register_device_trace_rules(
            DEVICE, constant_fold=(c.device_count,), constant_fold_need_guards=(c.current_device,)
        )

        def fn(x):
            return x * c.device_count() + c.current_device()

        compiled, counter = self.compile(fn)
        self.assertSameTensors(compiled(self.x), fn(self.x))
        device_module.set_device(1)
        self.assertSameTensors(compiled(self.x), fn(self.x))
        self.assertEqual(counter.frame_count, 2)


class RegistryChangeTests(_Base):
    """Every table is rebuilt on a registry change."""

    def test_tables_follow_the_registry(self):
        class Stream(device_module.Stream):
            pass

        class Event(device_module.Event):
            pass

        class Interface(ExtensionDeviceInterface):
            pass

        Interface.Stream = Stream
        Interface.Event = Event

        def fn(x):
            s = torch.extension_device.current_stream()
            return x + 1, isinstance(s, Stream)

        self.compile(fn)[0](self.x)
        from torch._dynamo.variables.torch import _handlers

        self.assertIn(ExtensionDeviceInterface.exchange_device, _handlers())
        self.assertNotIn(Stream, UserDefinedClassVariable._in_graph_classes())

        snapshot = RegistrySnapshot()
        register_interface_for_device_PrivateUse1(Interface)
        classes = UserDefinedClassVariable._in_graph_classes()
        self.assertIn(Stream, classes)
        self.assertIn(Event, classes)
        self.assertNotIn(device_module.Stream, classes)
        torch._dynamo.reset()
        self.assertEqual(self.compile(fn)[0](self.x)[1], True)

        snapshot.restore()
        self.assertNotIn(Stream, UserDefinedClassVariable._in_graph_classes())
        self.assertIn(
            device_module.Stream, UserDefinedClassVariable._in_graph_classes()
        )

    def test_properties_type_follows_availability(self):
        class Unavailable(ExtensionDeviceInterface):
            is_available = staticmethod(lambda: False)

        props = device_module.get_device_properties()
        self.compile(lambda x: x + 1)[0](self.x)
        self.assertTrue(ConstantVariable.is_literal(props))
        register_interface_for_device_PrivateUse1(Unavailable)
        self.assertFalse(ConstantVariable.is_literal(props))

    def test_late_registration_in_fresh_process(self):
        # The interface is registered after a first compile, as a backend
        # imported late would.
        run_python(
            """
            import torch
            from extension_backends.extension_device import register
            register("extension_device")

            def fn(x):
                s = torch.extension_device.current_stream()
                return x + torch.extension_device.current_device() + s.stream_id

            x = torch.ones(2, device="extension_device")
            torch.compile(lambda t: t + 1, backend="eager")(torch.ones(2))
            try:
                torch.compile(fn, backend="eager", fullgraph=True)(x)
            except torch._dynamo.exc.Unsupported:
                pass
            else:
                raise AssertionError("compiled before the interface was registered")

            from extension_backends.cpp.extension_codegen_backend import (
                register_compile_backend,
            )
            register_compile_backend("extension_device")
            torch._dynamo.reset()
            out = torch.compile(fn, backend="eager", fullgraph=True)(x)
            assert torch.equal(out.cpu(), fn(x).cpu())
            """
        )

    def test_compile_without_devices_does_not_initialize_the_registry(self):
        # As in torch 2.13, a compile that calls no torch function leaves the
        # device registry alone. With triton installed, has_triton() (which
        # Dynamo asks when it wraps a tensor) walks the registry, in 2.13 too,
        # so Triton's device detection is off here.
        run_python(
            """
            import torch
            import torch._dynamo.device_interface as di

            torch.compile(lambda x: x + 1, backend="eager")(torch.ones(2))
            assert not di._device_initialized
            """,
            TORCHINDUCTOR_TRITON_DISABLE_DEVICE_DETECTION="1",
        )


class InTreeTablesTests(TestCase):
    """The in-tree devices keep the tables of torch 2.13 (the differential
    harness compares them with stock; these pin the interface slots)."""

    def test_builtin_rules(self):
        self.assertIs(lookup(torch.cuda.set_device), SkipFunctionVariable)
        self.assertIs(lookup(torch.cuda.manual_seed), SkipFunctionVariable)
        self.assertIs(lookup(torch.cuda.current_stream), TorchInGraphFunctionVariable)
        self.assertNotIn(torch.cuda.set_device, InGraphVT._get_handlers())


if __name__ == "__main__":
    run_tests()

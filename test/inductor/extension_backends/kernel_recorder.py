"""Checks ``kernel_graph`` against the kernels Inductor generates on the fake
device: for each C++ kernel the Python wrapper calls, the FX graph of each
kernel (``kernel_graph``, one per ``codegen_node``: a C++ kernel can hold
several) and the values of the kernel's arguments before and after the call.

:func:`register_recording_backend` registers :class:`RecordingScheduling` and
:class:`RecordingWrapper` for the device (take a ``RegistrySnapshot`` first);
compile without the FX graph and AOTAutograd caches, so that code is generated
and calls the recorder. :func:`check_recorded_calls` then runs each graph on
the arguments of its kernel.  Generated code imports this module by name, so
it must be imported as ``extension_backends.kernel_recorder``.
"""

from __future__ import annotations

import dataclasses
import itertools

import torch
from torch._inductor.codegen.common import register_backend_for_device
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.kernel_graph import kernel_graph
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.scheduler import OutputNode
from torch._inductor.virtualized import V

from .cpp import extension_device_config
from .cpp.extension_codegen_backend import (
    CppWrapperCpu,
    ExtensionPythonWrapperCodegen,
    register_compile_backend,
)


def snapshot(args: dict[str, object]) -> dict[str, object]:
    """A copy of ``args`` whose tensors share storage where those of ``args``
    do (a buffer and its views: the inputs of a ``cat``)."""
    storages: dict[int, torch.UntypedStorage] = {}
    copy: dict[str, object] = {}
    for name, value in args.items():
        if isinstance(value, torch.Tensor):
            storage = value.untyped_storage()
            clone = storages.setdefault(storage.data_ptr(), storage.clone())
            value = torch.empty(0, dtype=value.dtype, device=value.device).set_(
                clone, value.storage_offset(), value.size(), value.stride()
            )
        copy[name] = value
    return copy


@dataclasses.dataclass
class KernelGraph:
    """The graph of one ``codegen_node``, the buffers its nodes write (those
    read by the compiled function's caller apart), and the storage each buffer
    name stands for (``mutation_real_name``)."""

    gm: torch.fx.GraphModule
    writes: set[str]
    results: set[str]
    storage: dict[str, str]


@dataclasses.dataclass
class KernelCall:
    """One call of a generated kernel: the compile it belongs to, its graphs,
    and its arguments by name before and after the call (tensors cloned)."""

    compile_id: int
    kernel_name: str
    graphs: list[KernelGraph]
    before: dict[str, object] | None = None
    after: dict[str, object] | None = None


class Recorder:
    """The kernel calls of the compiles since the last ``clear()``."""

    def __init__(self) -> None:
        self.calls: list[KernelCall] = []
        self.pending: list[KernelGraph] = []

    def clear(self) -> None:
        self.calls.clear()
        self.pending.clear()

    def new_call(self, compile_id: int, kernel_name: str) -> int:
        """At code generation: the kernel called next holds the pending graphs."""
        self.calls.append(KernelCall(compile_id, kernel_name, self.pending))
        self.pending = []
        return len(self.calls) - 1

    def before(self, call_id: int, args: dict[str, object]) -> None:
        self.calls[call_id].before = snapshot(args)

    def after(self, call_id: int, args: dict[str, object]) -> None:
        self.calls[call_id].after = snapshot(args)


#: What the generated wrappers report to.
RECORDER = Recorder()


class RecordingScheduling(CppScheduling):
    """The device's C++ scheduling, recording the graph of each kernel."""

    def codegen_node(self, node):
        snodes = node.get_nodes()
        bufs = [buf for n in snodes for buf in n.get_outputs()]
        RECORDER.pending.append(
            KernelGraph(
                kernel_graph(snodes),
                writes={buf.get_name() for buf in bufs},
                results={
                    buf.get_name()
                    for buf in bufs
                    if any(isinstance(user.node, OutputNode) for user in buf.users)
                },
                storage=dict(V.graph.scheduler.mutation_real_name),
            )
        )
        return super().codegen_node(node)


class RecordingWrapper(ExtensionPythonWrapperCodegen):
    """The device's Python wrapper, with each kernel call between two calls of
    the recorder that snapshot the kernel's arguments."""

    compiles = itertools.count()

    def __init__(self) -> None:
        super().__init__()
        self.compile_id = next(RecordingWrapper.compiles)

    @staticmethod
    def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
        if is_subgraph:
            return PythonWrapperCodegen.create(
                is_subgraph, subgraph_name, parent_wrapper, partition_signatures
            )
        return RecordingWrapper()

    def write_header(self) -> None:
        super().write_header()
        self.imports.writeline(f"from {__name__} import RECORDER as kernel_recorder")

    def generate_kernel_call(self, kernel_name, call_args, **kwargs):
        call_id = RECORDER.new_call(self.compile_id, kernel_name)
        names = [str(arg) for arg in call_args if str(arg).isidentifier()]
        args = "{" + ", ".join(f"{name!r}: {name}" for name in names) + "}"
        self.writeline(f"kernel_recorder.before({call_id}, {args})")
        super().generate_kernel_call(kernel_name, call_args, **kwargs)
        self.writeline(f"kernel_recorder.after({call_id}, {args})")


def register_recording_backend(name: str) -> None:
    """Register the device ``name`` with the recording scheduling and wrapper."""
    register_compile_backend(name)
    register_backend_for_device(
        name,
        RecordingScheduling,
        RecordingWrapper,
        CppWrapperCpu,
        device_custom_config=extension_device_config,
    )
    RECORDER.clear()


def _names(gm: torch.fx.GraphModule) -> tuple[list[str], list[str]]:
    inputs = [n.name for n in gm.graph.find_nodes(op="placeholder")]
    return inputs, [n.name for n in gm.graph.output_node().args[0]]


def _check_call(testcase, call: KernelCall, state: dict, **tolerances) -> None:
    """Run the graphs of ``call``; ``state`` holds the buffers that the kernels
    of the compile wrote so far (``kernel``) and that graphs wrote (``graph``)."""
    testcase.assertIsNotNone(call.after, f"{call.kernel_name} was never called")
    memory = snapshot(call.before)  # the arguments as the graphs leave them
    written: set[int] = set()
    state["kernel"] |= set().union(*(graph.writes for graph in call.graphs))
    for graph in call.graphs:
        inputs, outputs = _names(graph.gm)
        context = f"{call.kernel_name}, graph:\n{graph.gm.code}"
        testcase.assertTrue(graph.gm.meta["exact"], f"not exact; {context}")
        args = []
        for name in inputs:
            storage = graph.storage.get(name, name)
            if name in state["kernel"] - state["graph"] or storage not in memory:
                testcase.fail(f"placeholder {name} is no kernel input; {context}")
            args.append(memory[storage])
        for name, value in zip(outputs, graph.gm(*args), strict=True):
            storage = graph.storage.get(name, name)
            if storage not in memory:
                testcase.fail(f"output {name} is no argument of its kernel; {context}")
            testcase.assertEqual(value.shape, memory[storage].shape, msg=context)
            memory[storage].copy_(value)
            written.add(memory[storage].untyped_storage().data_ptr())
            state["graph"].add(name)
        missing = graph.results - state["graph"]
        testcase.assertFalse(missing, f"no output for the results {missing}; {context}")
    for name, value in memory.items():
        if isinstance(value, torch.Tensor):
            if value.untyped_storage().data_ptr() in written:
                message = f"{name} of {call.kernel_name}"
                testcase.assertEqual(value, call.after[name], msg=message, **tolerances)


def check_recorded_calls(testcase, **tolerances) -> int:
    """Run the graphs of each recorded kernel call in order, on the arguments
    the kernel read, and compare what they write with what the kernel wrote;
    return the number of graphs checked.

    Each graph must be exact (``meta["exact"]``); a placeholder must be an
    argument of its kernel and never a buffer that a kernel wrote unless a graph
    wrote it too (the graph's own intermediates in particular); every buffer of
    the compiled function's result that a kernel writes must be an output of its
    graph. Compile with ``inplace_buffers`` and ``allow_buffer_reuse`` off, so
    that a kernel's arguments are named after its buffers.
    """
    states: dict[int, dict] = {}
    for call in RECORDER.calls:
        state = states.setdefault(call.compile_id, {"kernel": set(), "graph": set()})
        _check_call(testcase, call, state, **tolerances)
    return sum(len(call.graphs) for call in RECORDER.calls)

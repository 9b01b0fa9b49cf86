"""The FX graph of a kernel, rebuilt from the ``origins`` of its IR nodes, for a
``Scheduling`` whose code generation works on graphs rather than loop bodies."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch.fx
from torch.utils._ordered_set import OrderedSet

from ..virtualized import V


if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..scheduler import BaseSchedulerNode


__all__ = ["kernel_graph"]


def kernel_graph(nodes: Sequence[BaseSchedulerNode]) -> torch.fx.GraphModule:
    """The FX graph of the kernel that computes ``nodes`` (as ``codegen_node``
    receives them): their ``call_function`` origins in graph order, with ``meta``.
    Values read from outside are placeholders and the buffers written (except those
    only this kernel reads) are outputs, each named after its buffer. Best effort:
    a node inlined into or split over several kernels is in each of their graphs.
    """
    snodes = [n for node in nodes for n in node.get_nodes() if n.node is not None]
    origins = OrderedSet(
        o for n in snodes for o in n.node.get_origins() if o.op == "call_function"
    )
    graphs = OrderedSet(o.graph for o in origins)
    ordered = [o for g in graphs for o in g.nodes if o in origins]
    scheduler = V.graph.scheduler
    kernel_names = OrderedSet(n.get_name() for n in snodes)
    names: dict[torch.fx.Node, str] = {}
    for n in snodes:
        for dep in n.read_writes.reads:
            buf = V.graph.try_get_buffer(dep.name)
            origin = None if buf is None else buf.get_origin_node()
            if origin is not None and origin not in origins:
                names.setdefault(origin, dep.name)
    outputs: dict[str, torch.fx.Node] = {}
    for n in snodes:
        own = [o for o in ordered if o in n.node.get_origins()]
        for buf in n.get_outputs():
            name = buf.get_name()
            if name in V.graph.removed_buffers or (
                scheduler.can_buffer_be_removed_through_fusion(name, kernel_names)
            ):
                continue
            origin = buf.node.get_origin_node()
            if origin in origins or own:
                outputs[name] = origin if origin in origins else own[-1]
                names.setdefault(outputs[name], name)

    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for node in ordered:
        for arg in node.all_input_nodes:
            if arg not in origins and arg not in env:
                env[arg] = graph.placeholder(names.get(arg, arg.name))
                env[arg].meta = dict(arg.meta)
    for node in ordered:
        args, kwargs = torch.fx.map_arg((node.args, node.kwargs), env.__getitem__)
        env[node] = graph.create_node(
            node.op, node.target, args, kwargs, names.get(node, node.name), node.type
        )
        env[node].meta = dict(node.meta)
    graph.output(tuple(env[node] for node in outputs.values()))
    return torch.fx.GraphModule(torch.nn.Module(), graph)

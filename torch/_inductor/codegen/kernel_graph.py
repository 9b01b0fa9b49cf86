"""The FX graph of a kernel, rebuilt from the ``origins`` of its IR nodes, for a
``Scheduling`` whose code generation works on graphs rather than loop bodies."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import torch.fx
from torch.utils._ordered_set import OrderedSet

from .. import ir
from ..virtualized import V


if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Sequence

    from ..scheduler import BaseSchedulerNode


__all__ = ["kernel_graph"]


def _value_node(
    buf: ir.Buffer, order: dict[torch.fx.Node, int]
) -> torch.fx.Node | None:
    """The FX node whose value ``buf`` holds once written, if the graph has one."""
    if buf.get_name() in V.graph.scheduler.mutation_renames:
        # Updated in place later: its origin node holds the updated value.
        return None
    origin = buf.get_origin_node()
    if origin is None and isinstance(buf.layout, ir.MutationLayoutSHOULDREMOVE):
        # An in-place update (copy_ into an input, index_put): the last node
        # of its lowering.
        own = [o for o in buf.get_origins() if o in order]
        origin = max(own, key=order.__getitem__, default=None)
    return origin if origin is not None and origin.op == "call_function" else None


def _add_items_and_views(
    computed: OrderedSet[torch.fx.Node], inputs: Container[torch.fx.Node]
) -> None:
    """Add what ``computed`` reads that the kernel computes for free: the items
    of its multi-output nodes, and views (a broadcast input) but of ``inputs``."""
    pending = list(computed)
    while pending:
        for arg in pending.pop().all_input_nodes:
            if arg in computed or arg in inputs:
                continue
            if (arg.target is operator.getitem and arg.args[0] in computed) or (
                isinstance(arg.target, torch._ops.OpOverload) and arg.target.is_view
            ):
                computed.add(arg)
                pending.append(arg)


def _live(
    computed: OrderedSet[torch.fx.Node], outputs: Iterable[torch.fx.Node]
) -> OrderedSet[torch.fx.Node]:
    """The nodes of ``computed`` that an output or an in-place update needs."""
    live: OrderedSet[torch.fx.Node] = OrderedSet()
    pending = [*outputs, *(n for n in computed if n.is_impure(impure_random=False))]
    while pending:
        node = pending.pop()
        if node not in live:
            live.add(node)
            pending.extend(a for a in node.all_input_nodes if a in computed)
    return live


def kernel_graph(nodes: Sequence[BaseSchedulerNode]) -> torch.fx.GraphModule:
    """The FX graph of the kernel that computes ``nodes`` (as ``codegen_node``
    receives them): the ``call_function`` nodes of their origins that it needs,
    in graph order and with ``meta``, with the items of multi-output nodes and
    the views it reads. The buffers it reads are placeholders and the buffers
    it writes (except those only this kernel reads) are outputs, each named
    after its buffer. ``meta["exact"]`` is False when a buffer it reads or
    writes for others has no node of its own: then a placeholder is no buffer
    the kernel reads (the graph computes that buffer again), or a buffer is no
    output.
    """
    snodes = [n for node in nodes for n in node.get_nodes() if n.node is not None]
    computed = OrderedSet(
        o for n in snodes for o in n.node.get_origins() if o.op == "call_function"
    )
    graphs = OrderedSet(o.graph for o in computed)
    order = {o: i for i, o in enumerate(o for g in graphs for o in g.nodes)}
    scheduler = V.graph.scheduler
    kernel_names = OrderedSet(n.get_name() for n in snodes)
    written = OrderedSet(buf.get_name() for n in snodes for buf in n.get_outputs())
    outputs: dict[str, torch.fx.Node] = {}
    exact = True
    for n in snodes:
        for buf in n.get_outputs():
            name = buf.get_name()
            if name in V.graph.removed_buffers:
                continue
            value = _value_node(buf.node, order)
            needed = not scheduler.can_buffer_be_removed_through_fusion(
                name, kernel_names
            )
            if value is not None:
                computed.add(value)
                if needed:
                    outputs[name] = value
            exact = exact and (value is not None or not needed)
    # A buffer read from outside is an input, though origins may hold its node.
    reads = OrderedSet(dep.name for n in snodes for dep in n.read_writes.reads)
    names = {node: name for name, node in outputs.items()}
    for name in reads - written:
        buf = V.graph.try_get_buffer(name)
        value = None if buf is None else _value_node(buf, order)
        if value is not None and value not in names:
            names[value] = name
            computed.discard(value)
    _add_items_and_views(computed, names)
    computed = _live(computed, outputs.values())

    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    ordered = sorted(computed, key=lambda o: order.get(o, len(order)))
    for node in ordered:
        for arg in node.all_input_nodes:
            if arg not in computed and arg not in env:
                env[arg] = graph.placeholder(names.get(arg, arg.name))
                env[arg].meta = dict(arg.meta)
                is_tensor = isinstance(arg.meta.get("val"), torch.Tensor)
                exact = exact and (env[arg].name in reads or not is_tensor)
    for node in ordered:
        args, kwargs = torch.fx.map_arg((node.args, node.kwargs), env.__getitem__)
        env[node] = graph.create_node(
            node.op, node.target, args, kwargs, names.get(node, node.name), node.type
        )
        env[node].meta = dict(node.meta)
    graph.output(tuple(env[node] for node in outputs.values()))
    gm = torch.fx.GraphModule(torch.nn.Module(), graph)
    gm.meta["exact"] = exact
    return gm

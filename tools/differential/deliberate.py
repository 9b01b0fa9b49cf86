"""Deliberate differences from stock torch 2.13.0 for in-tree devices.

Each entry pins both sides, so the harness still fails if either value moves,
and names the reason; the README lists the same changes. Where stock's value
depends on the build (a list of qualified names), the patched value is pinned
as a function of stock's instead.  An entry that no
longer matches an actual difference fails the run too, so the list stays true.
"""

from __future__ import annotations

#: (section, entry name) -> (stock value, patched value or a function of
#: stock's, reason)
DELIBERATE: dict[tuple[str, str], tuple[object, object, str]] = {
    (
        "answers",
        "codegen.common.get_device_op_overrides('tpu')",
    ): (
        "torch._inductor.codegen.cpu_device_op_overrides.CpuDeviceOpOverrides",
        "torch._inductor.codegen.common.NoOpDeviceOpOverrides",
        "TPU keeps CPU's no-op overrides but no longer inherits its ATen device "
        "type (SPEC IND-4, PR #193904; defined in codegen.common, as upstream); "
        "generated code is the same",
    ),
    (
        "answers",
        "dynamo.constant_fold_functions",
    ): (
        "stock's list",
        lambda stock: sorted([*stock, "torch.utils._foreach_utils._privateuse1_backend_features"]),
        "Dynamo folds the series' eager lookup of the features a PrivateUse1 "
        "device declares (for the optimizers' device lists), a function 2.13 does "
        "not have; no in-tree function is folded differently",
    ),
}

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
    **{
        ("answers", f"torch._inductor.decomposition.{table} digest"): (
            {"len": size, "sha256": stock},
            {"len": size, "sha256": patched},
            "aten.native_group_norm.default decomposes through Inductor's own function "
            "(as native_layer_norm does), which gives every C++-scheduled device cpu's "
            "per-channel form by calling the same reference: the table names another "
            "function, and every in-tree device gets the same graph (IND-9)",
        )
        for table, size, stock, patched in (
            ("select_decomp_table()", 1101,
             "e914b38fea01c64c4bd9ee75e1a660c0cd758fc1cf5a1be95c2c0ae6d3166656",
             "9a7cfbb7ba550c407583c301d28ceb0bbd9c53ecde051c095dfd2ea3a3f981c6"),
            ("decompositions", 1062,
             "1e6e3ca8b356b16b9b450dc55eedba372a9640edc37b89f8155c3cf001a8dd04",
             "e44c2ca36f1452d6bbf517f61a8158424ab3aebff5313e83c92611cd2e43d412"),
        )
    },
}

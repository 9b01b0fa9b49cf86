"""Which requirements of the contract (docs/contract.md) the series implements today.

One place for the answer: the README's status table, the demo's report and the
tests read it (test/tools/test_workbench.py keeps the README in step).  When a
requirement lands, move its ID from ``IN_PROGRESS`` into ``DONE``.
"""

from __future__ import annotations

#: Areas in the order of docs/contract.md (whose sections the backend author
#: guide's share): (title, requirement IDs).
AREAS: list[tuple[str, list[str]]] = [
    ("§0 Ground rules and workbench", [*(f"G-{i}" for i in range(1, 9)), "WB"]),
    ("§1 Eager mode prerequisites", ["EAG"]),
    ("§2 Registration and lazy discovery", [f"REG-{i}" for i in range(1, 6)]),
    ("§3 Identity and capability, BackendFeature", [*(f"ID-{i}" for i in range(1, 6)), "BF"]),
    ("§4 Inductor codegen registration", [f"IND-{i}" for i in range(1, 10)]),
    ("§5 Dynamo tracing tables", [f"DYN-{i}" for i in range(1, 7)]),
    ("§6 Device-scoped operator policy", ["POL"]),
    ("§7 Triton backends", ["TRI-1", "TRI-2"]),
    ("§8 Plain tables, one counter, one discovery", [f"REC-{i}" for i in range(1, 5)]),
    ("§9 The remaining gates", [f"GATE-{i}" for i in range(1, 4)]),
    ("§10 Vendor extension points", [f"VEND-{i}" for i in range(1, 7)]),
]

#: Requirement IDs that are implemented and tested.
DONE: frozenset[str] = frozenset(
    {
        *(f"G-{i}" for i in range(1, 9)),
        "WB",
        "EAG",
        *(f"REG-{i}" for i in range(1, 6)),
        *(f"ID-{i}" for i in range(1, 6)),
        "BF",
        *(f"IND-{i}" for i in range(1, 10)),
        *(f"DYN-{i}" for i in range(1, 7)),
        "POL",
        "TRI-1",
        "TRI-2",
        *(f"REC-{i}" for i in range(1, 5)),
        "GATE-2",
        "GATE-3",
        *(f"VEND-{i}" for i in range(1, 7)),
    }
)

#: Requirement IDs being worked on now (not complete).
IN_PROGRESS: frozenset[str] = frozenset(
    {"GATE-1"}
)


def area_status(ids: list[str]) -> str:
    done = [i for i in ids if i in DONE]
    if len(done) == len(ids):
        return "done"
    if not done:
        return "in progress" if any(i in IN_PROGRESS for i in ids) else "not yet"
    return "partly: " + ", ".join(done)


def is_done(*ids: str) -> bool:
    return all(i in DONE for i in ids)

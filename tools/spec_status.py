"""Which SPEC requirements the series implements today.

One place for the answer: the README's status table, the demo's report and the
tests read it (test/tools/test_workbench.py keeps the README in step).  When an
issue lands, move its IDs into ``DONE``.
"""

from __future__ import annotations

#: SPEC areas in the order of shared/SPEC.md: (title, requirement IDs).
AREAS: list[tuple[str, list[str]]] = [
    ("§0 Workbench: series tooling, fake device, harnesses", ["WB"]),
    ("§1 Registration and lazy discovery", [f"REG-{i}" for i in range(1, 6)]),
    ("§2 Device identity and capability", [f"ID-{i}" for i in range(1, 6)]),
    ("§3 Dynamo tracing tables", [f"DYN-{i}" for i in range(1, 7)]),
    ("§4 Inductor codegen registration", [f"IND-{i}" for i in range(1, 10)]),
    ("§5 Device-scoped operator policy", ["POL"]),
    ("§6 BackendFeature as a framework capability", ["BF"]),
]

#: Requirement IDs that are implemented and tested.
DONE: frozenset[str] = frozenset(
    {
        "WB",
        *(f"REG-{i}" for i in range(1, 6)),
        *(f"ID-{i}" for i in range(1, 6)),
        *(f"DYN-{i}" for i in range(1, 7)),
        "BF",
        "IND-1",
        "IND-2",
        "IND-3",
        "IND-4",
        "IND-5",
        "IND-6",
        "IND-7",
        "IND-8",
        "IND-9",
        "POL",
    }
)


def area_status(ids: list[str]) -> str:
    done = [i for i in ids if i in DONE]
    if len(done) == len(ids):
        return "done"
    if not done:
        return "not yet"
    return "partly: " + ", ".join(done)


def is_done(*ids: str) -> bool:
    return all(i in DONE for i in ids)

"""The series cut into an ordered stack of pull requests, one per concern.

The series is reviewed upstream as a stack: each pull request carries the code
of one concern, its tests and its documentation, applies on top of the
previous ones and imports on its own.  The cut is declared in
``tools/stack_plan.py``; this module computes it from the final tree, so that
the stack and the single-diff export (:func:`tools.series.export_patch`) can
never disagree:

* every stacked file (the series files under ``torch/``, the tests under
  ``test/`` except the tooling's own, and ``docs/``) is diffed against its base
  (the pristine 2.13.0 file, or nothing for a new file);
* the added text of each change is split into *units* at boundaries the
  language allows without breaking anything: for Python, a blank line followed
  by a statement that is not inside a bracket or a string; for Markdown, a
  heading outside a code fence; any other file is one unit;
* each unit goes to a patch: the first rule of the plan for its file whose
  pattern matches the unit's head (its first code line, or its heading);
  otherwise the patch of the unit that encloses it (the nearest preceding unit
  of the same change with a smaller indentation or heading level); otherwise
  the file's default.  A unit never lands before the unit that encloses it;
  lines a change deletes go with its first unit;
* state *k* of the stack is the base with the units of patches ``1..k``
  applied; patch *k* is the difference between states *k-1* and *k*, written
  by ``git format-patch`` with the plan's pull-request description as its
  message.  The last state is the final tree, byte for byte.

:func:`check_stack` applies the written patches in order to the pristine
files with ``git am`` and, after each one, imports ``torch``,
``torch._dynamo`` and ``torch._inductor.compile_fx`` from that state, then
runs that patch's tests (``pytest`` on the test files it touches) against it.
A state is installed as a *shadow* of the project environment's torch: a
directory whose ``torch`` package holds the state's series files and links to
everything else, put first on ``PYTHONPATH``; the environment itself is not
touched.

Standard library only.
"""

from __future__ import annotations

import ast
import builtins
import concurrent.futures
import difflib
import fnmatch
import io
import json
import os
import queue
import re
import shutil
import subprocess
import symtable
import sys
import tempfile
import threading
import time
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python3 tools/stack.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import series  # noqa: E402
from tools.series import REPO, SeriesError  # noqa: E402

#: Directories whose tracked files travel in the stack (the tooling's own
#: tests stay out: they test this repository, not torch).
STACKED_ROOTS = ("torch", "test", "docs")
UNSTACKED = ("test/tools/*",)
AUTHOR = "PrivateUse1 compile series <privateuse1-compile@users.noreply.github.com>"


@dataclass
class Unit:
    """A contiguous run of added lines (and, for the first unit of a change,
    the base lines the change deletes) that moves as one."""

    lines: list[str]
    head: str
    level: int
    parent: "Unit | None" = None
    continues: "Unit | None" = None  # the unit an isolated statement interrupted
    patch: int = -1
    why: str = ""


@dataclass
class Change:
    """One hunk of the base-to-final diff of a file, in base coordinates."""

    start: int  # first base line replaced (0-based); insertion point if delete == 0
    delete: int
    units: list[Unit] = field(default_factory=list)
    owner: int = 0  # the unit that replaces the deleted lines (goes with them)


@dataclass
class StackedFile:
    rel: str
    base: list[str] | None  # None: the file is new
    changes: list[Change]

    def state(self, upto: int) -> list[str] | None:
        """The file with the units of patches ``0..upto`` applied (None: absent)."""
        applied = [u for c in self.changes for u in c.units if u.patch <= upto]
        if self.base is None and not applied:
            return None
        out: list[str] = []
        pos = 0
        base = self.base or []
        for change in self.changes:
            out.extend(base[pos:change.start])
            pos = change.start + change.delete
            for i, unit in enumerate(change.units):
                if i == change.owner and unit.patch > upto:
                    out.extend(base[change.start:pos])
                if unit.patch <= upto:
                    out.extend(unit.lines)
        out.extend(base[pos:])
        return out


# --------------------------------------------------------------------------
# Splitting the diff into units
# --------------------------------------------------------------------------


def _hunks(base: list[str], final: list[str]) -> list[tuple[int, int, int, int]]:
    """``(base_start, base_len, final_start, final_len)`` of each hunk, 0-based,
    as ``git diff --histogram -U0`` cuts them."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp, "a"), Path(tmp, "b")
        a.write_text("".join(base))
        b.write_text("".join(final))
        out = subprocess.run(
            ["git", "diff", "--no-index", "--no-color", "--histogram", "-U0", "--", str(a), str(b)],
            capture_output=True, text=True,
        ).stdout
    hunks = []
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", out, re.M):
        a0, al, b0, bl = int(m[1]), int(m[2] or 1), int(m[3]), int(m[4] or 1)
        hunks.extend(_slide(final, a0 - 1 if al else a0, al, b0 - 1 if bl else b0, bl))
    return hunks


def _slide(final: list[str], a0: int, al: int, b0: int, bl: int) -> list[tuple[int, int, int, int]]:
    """Re-align a hunk whose added lines repeat the unchanged lines after it.

    ``git diff`` may align ``-old / +new, copy-of-next-lines, new block`` so
    that the unchanged lines close the *new block*; each block then cannot
    move alone.  When the added lines from offset ``m`` on can slide down over
    the unchanged lines to start at a blank line, split the hunk: the first
    ``m`` lines replace the deleted ones, the rest is an insertion of its own
    after the unchanged lines it slid over.
    """
    after = b0 + bl
    for m in range(1, bl):
        s = 0
        while after + s < len(final) and final[b0 + m + s] == final[after + s]:
            s += 1
            if b0 + m + s < after + s and not final[b0 + m + s].strip():
                return [(a0, al, b0, m), (a0 + al + s, 0, b0 + m + s, bl - m)]
    return [(a0, al, b0, bl)]


def _python_statement_starts(lines: list[str]) -> set[int] | None:
    """0-based indexes of the lines that begin a statement outside any bracket
    or string (comment lines count); None if the text does not tokenize."""
    inside: set[int] = set()
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            (srow, _), (erow, _) = tok.start, tok.end
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            if erow > srow:  # a string spanning lines: the lines after its first
                inside.update(range(srow, erow))  # (0-based indexes of 1-based rows)
            if tok.type in (tokenize.NL, tokenize.NEWLINE) and depth > 0:
                inside.add(erow)  # the next line continues a bracket
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return {i for i in range(len(lines)) if i not in inside}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _split_python(lines: list[str], offset: int, starts: set[int] | None,
                  isolate: list[re.Pattern]) -> list[Unit]:
    """Units of an added block of Python.  A statement matching one of
    ``isolate`` (with the block it opens) is a unit of its own, and what
    follows it continues the unit before it."""
    chunks: list[list[str]] = [[]]
    continues: list[int | None] = [None]
    isolated_at: int | None = None  # indentation of the open isolated statement
    before_isolated: int | None = None

    def start(cont: int | None = None) -> None:
        if any(s.strip() for s in chunks[-1]):
            chunks.append([])
            continues.append(cont)

    single = False  # the open isolated unit is one line inside brackets
    for i, line in enumerate(lines):
        statement = line.strip() and (starts is None or offset + i in starts)
        if isolated_at is not None and (single or statement and _indent(line) <= isolated_at):
            isolated_at, single = None, False
            # After a blank line a statement starts afresh; otherwise it
            # resumes what the isolated statement interrupted.
            start(cont=before_isolated if i == 0 or lines[i - 1].strip() else None)
        if starts is not None and line.strip() and any(rx.search(line) for rx in isolate):
            before_isolated = len(chunks) - 1 if any(s.strip() for s in chunks[-1]) else (
                continues[-1])
            # Comments right above the statement are about it: they move with it.
            leading: list[str] = []
            while (chunks[-1] and chunks[-1][-1].lstrip().startswith("#")
                   and _indent(chunks[-1][-1]) == _indent(line)):
                leading.insert(0, chunks[-1].pop())
            start()
            chunks[-1].extend(leading)
            isolated_at, single = _indent(line), not statement
        elif statement and starts is not None and i > 0 and not lines[i - 1].strip():
            start()
        chunks[-1].append(line)
    out = []
    for chunk in chunks:
        code = [s for s in chunk if s.strip() and not s.lstrip().startswith("#")]
        text = [s for s in chunk if s.strip()]
        first = (code or text or [""])[0]
        # The head names the unit: a decorated definition by its ``def``/``class``.
        head = next((s for s in code if not s.lstrip().startswith("@")
                     and s.strip() not in ('"""', 'r"""')), first)
        out.append(Unit(chunk, head.strip(), _indent(first) if first.strip() else 10**6))
    for unit, cont in zip(out, continues):
        if cont is not None:
            unit.continues = out[cont]
    return out


def _split_markdown(lines: list[str]) -> list[Unit]:
    units: list[list[str]] = [[]]
    fence = False
    for line in lines:
        if line.startswith("```"):
            fence = not fence
        if not fence and re.match(r"#{1,6} ", line) and any(s.strip() for s in units[-1]):
            units.append([])
        units[-1].append(line)
    out = []
    for chunk in units:
        heading = next((s for s in chunk if re.match(r"#{1,6} ", s)), None)
        level = len(heading.split(" ", 1)[0]) if heading else 0
        out.append(Unit(chunk, (heading or chunk[0]).strip(), level))
    return out


def _nest(units: list[Unit]) -> None:
    for i, unit in enumerate(units):
        for prev in reversed(units[:i]):
            if prev.level < unit.level:
                unit.parent = prev
                break


def _owner(units: list[Unit], deleted: list[str]) -> int:
    """The unit that replaces ``deleted``: the most similar one (the first on
    a tie, and for a pure deletion)."""
    if not deleted or len(units) == 1:
        return 0
    text = "".join(deleted)
    scores = [difflib.SequenceMatcher(None, text, "".join(u.lines)).ratio() for u in units]
    return scores.index(max(scores))


def split_file(rel: str, base: list[str] | None, final: list[str],
               isolate: list[re.Pattern] = ()) -> StackedFile:
    if base is None and not final:  # a new empty file (a package's __init__.py)
        return StackedFile(rel, None, [Change(0, 0, [Unit([], "(empty file)", 0)])])
    changes = []
    starts = _python_statement_starts(final) if rel.endswith(".py") else None
    for a0, al, b0, bl in _hunks(base or [], final):
        added = final[b0:b0 + bl]
        if not added:
            deleted = (base or [])[a0:a0 + al]
            units = [Unit([], "-" + (deleted[0].strip() if deleted else ""), 10**6)]
        elif rel.endswith(".py"):
            units = _split_python(added, b0, starts, list(isolate))
        elif rel.endswith(".md"):
            units = _split_markdown(added)
        else:
            units = [Unit(added, added[0].strip(), 0)]
        _nest(units)
        changes.append(Change(a0, al, units, _owner(units, (base or [])[a0:a0 + al])))
    return StackedFile(rel, base, changes)


# --------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """One pull request of the stack (see ``tools/stack_plan.py``)."""

    name: str
    subject: str
    summary: str
    motivation: str
    rfc: str


def load_plan():
    from tools import stack_plan

    return stack_plan


def stacked_files(repo: Path = REPO) -> list[str]:
    tracked = subprocess.run(
        ["git", "ls-files", "--", *STACKED_ROOTS], cwd=repo, check=True,
        capture_output=True, text=True,
    ).stdout.split()
    rels = set(tracked) | set(series.series_files(repo))
    return sorted(r for r in rels if (repo / r).is_file()
                  and not any(fnmatch.fnmatch(r, pat) for pat in UNSTACKED))


def _read_lines(data: bytes, rel: str) -> list[str]:
    try:
        return data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError as err:
        raise SeriesError(f"{rel} is not UTF-8 text; the stack carries text only") from err


def _file_rules(plan, rel: str) -> tuple[str, list[tuple[str, str]]]:
    for pattern, spec in plan.FILES.items():
        if fnmatch.fnmatch(rel, pattern):
            default, rules = (spec, []) if isinstance(spec, str) else spec
            return default, list(rules)
    raise SeriesError(f"{rel}: no entry in tools/stack_plan.py FILES assigns it to a patch")


def assign(plan, files: list[StackedFile]) -> None:
    index = {p.name: i for i, p in enumerate(plan.PATCHES)}

    def number(name: str, where: str) -> int:
        if name not in index:
            raise SeriesError(f"{where}: unknown patch {name!r} (tools/stack_plan.py)")
        return index[name]

    unmatched = []
    for f in files:
        default, rules = _file_rules(plan, f.rel)
        compiled = [(re.compile(pat), name) for pat, name in rules]
        used = set()
        for change in f.changes:
            for unit in change.units:
                text = "".join(unit.lines)
                rule = next(((rx, name) for rx, name in compiled
                             if rx.search(unit.head) or rx.pattern.startswith("(?s)")
                             and rx.search(text)), None)
                if rule is not None:
                    used.add(rule[0].pattern)
                    unit.patch, unit.why = number(rule[1], f.rel), f"rule {rule[0].pattern!r}"
                elif unit.parent is not None:
                    unit.patch, unit.why = unit.parent.patch, "enclosing unit"
                elif unit.continues is not None:
                    unit.patch, unit.why = unit.continues.patch, "continues a unit"
                else:
                    unit.patch, unit.why = number(default, f.rel), "file default"
                if unit.parent is not None and unit.parent.patch > unit.patch:
                    unit.patch, unit.why = unit.parent.patch, "enclosing unit (later)"
        unused = [pat for pat, _ in rules if pat not in used]
        if unused:
            unmatched.append(f"{f.rel}: rules of tools/stack_plan.py match nothing: {unused}")
    if unmatched:
        raise SeriesError("\n".join(unmatched))


def compute(pristine: series.TorchInstall, repo: Path = REPO) -> tuple[object, list[StackedFile]]:
    plan = load_plan()
    manifest = series.read_manifest()
    files = []
    for rel in stacked_files(repo):
        base = (_read_lines(series.pristine_bytes(pristine, rel, manifest[rel]), rel)
                if rel in manifest else None)
        final = _read_lines((repo / rel).read_bytes(), rel)
        if base == final:
            continue
        isolate = [re.compile(rx) for pattern, rxs in getattr(plan, "ISOLATE", {}).items()
                   if fnmatch.fnmatch(rel, pattern) for rx in rxs]
        files.append(split_file(rel, base, final, isolate))
    assign(plan, files)
    return plan, files


# --------------------------------------------------------------------------
# Writing the stack
# --------------------------------------------------------------------------


def _git(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_AUTHOR_DATE="2026-12-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-12-01T00:00:00Z")
    name, email = AUTHOR.rsplit(" <", 1)
    env.update(GIT_AUTHOR_NAME=name, GIT_COMMITTER_NAME=name,
               GIT_AUTHOR_EMAIL=email[:-1], GIT_COMMITTER_EMAIL=email[:-1])
    return subprocess.run(["git", "-c", "core.autocrlf=false", *args], cwd=cwd, check=True,
                          capture_output=True, text=True, env=env, **kw)


def test_ids_of(files: list[StackedFile], k: int) -> list[str]:
    """The pytest node ids of the tests patch ``k`` adds: ``file::Class::test``
    for each ``def test_*`` in its units of a test module."""
    ids = []
    for f in files:
        if not re.fullmatch(r"test/.*/test_[^/]*\.py", f.rel):
            continue
        for change in f.changes:
            for unit in change.units:
                if unit.patch != k:
                    continue
                cls = None  # a class opened in this unit
                for line in unit.lines:
                    if c := re.match(r"class (\w+)", line):
                        cls = c[1]
                    m = re.match(r"(\s*)def (test_\w*)\(", line)
                    if m is None:
                        continue
                    if not m[1]:
                        ids.append(f"{f.rel}::{m[2]}")
                        continue
                    owner, name = unit.parent, cls
                    while name is None and owner is not None:
                        if c := re.match(r"class (\w+)", owner.head):
                            name = c[1]
                        owner = owner.parent
                    if name is None:
                        raise SeriesError(f"{f.rel}: cannot tell the class of {m[2]}")
                    ids.append(f"{f.rel}::{name}::{m[2]}")
    return ids


def count_tests(files: list[StackedFile], k: int) -> int:
    return len(test_ids_of(files, k))


def added_lines(files: list[StackedFile], k: int, kind: str) -> int:
    """The non-blank lines patch ``k`` adds to files of ``kind``."""
    def of_kind(rel: str) -> bool:
        return {"code": rel.startswith("torch/"), "test": rel.startswith("test/"),
                "docs": rel.startswith("docs/")}[kind]

    return sum(1 for f in files if of_kind(f.rel) for c in f.changes for u in c.units
               if u.patch == k for line in u.lines if line.strip())


def _collapsed_test_ids(files: list[StackedFile], k: int) -> list[str]:
    """The tests patch ``k`` adds, as few pytest arguments as name exactly
    them: a module or a class when the patch adds all of its tests."""
    ours = test_ids_of(files, k)
    every = [i for n in range(len(files) and max(u.patch for f in files for c in f.changes
                                                 for u in c.units) + 1)
             for i in test_ids_of(files, n)]
    out: list[str] = []
    for test_id in ours:
        module, *rest = test_id.split("::")
        if all(i in ours for i in every if i.split("::")[0] == module):
            candidate = module
        elif len(rest) == 2 and all(i in ours for i in every
                                    if i.startswith(f"{module}::{rest[0]}::")):
            candidate = f"{module}::{rest[0]}"
        else:
            candidate = test_id
        if candidate not in out:
            out.append(candidate)
    return out


def description(plan, files: list[StackedFile], k: int) -> str:
    patch = plan.PATCHES[k]
    tests = _collapsed_test_ids(files, k)
    plan_lines = (
        "    python -m pytest \\\n" + " \\\n".join(f"        {t}" for t in tests)
        if tests else "    (no test of its own)"
    )
    earlier = ", ".join(f"#{i + 1}" for i in range(k)) or "none"
    return (
        f"{patch.subject}\n\n"
        f"## Summary\n\n{patch.summary.strip()}\n\n"
        f"## Motivation\n\n{patch.motivation.strip()}\n\n"
        f"Part of {patch.rfc.strip()}\n\n"
        f"Stack position {k + 1} of {len(plan.PATCHES)}; applies on top of: {earlier}.\n\n"
        f"## Test plan\n\n{plan_lines}\n\n"
        f"The {count_tests(files, k)} tests this patch adds, run with the stack applied up to"
        f" this patch, after `import torch, torch._dynamo, torch._inductor.compile_fx`"
        f" (`python3 tools/dev.py check --stack`).\n"
    )


def _write_state(root: Path, files: list[StackedFile], k: int,
                 unchanged_kept: bool = False) -> None:
    for f in files:
        text = f.state(k)
        path = root / f.rel
        if text is None:
            if path.exists():
                path.unlink()
            continue
        data = "".join(text)
        if unchanged_kept and path.is_file() and path.read_text() == data:
            continue  # its byte code stays valid
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data)


def export_stack(dest: Path, pristine: series.TorchInstall, repo: Path = REPO,
                 computed: tuple[object, list[StackedFile]] | None = None) -> list[Path]:
    """Write the stack as ``git format-patch`` files into ``dest``; return them.
    ``computed`` is what :func:`compute` returned, if the caller has it."""
    plan, files = computed or compute(pristine, repo)
    for k, _ in enumerate(plan.PATCHES):
        if not any(u.patch == k for f in files for c in f.changes for u in c.units):
            raise SeriesError(f"patch {plan.PATCHES[k].name!r} of tools/stack_plan.py is empty")
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.patch"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _git(["init", "-q"], work)
        _write_state(work, files, -1)
        _git(["add", "-A"], work)
        _git(["commit", "-q", "--allow-empty", "-m",
              f"Pristine torch {series.TORCH_VERSION} files the stack edits"], work)
        for k, _ in enumerate(plan.PATCHES):
            _write_state(work, files, k)
            _git(["add", "-A"], work)
            _git(["commit", "-q", "-F", "-"], work, input=description(plan, files, k))
        _git(["format-patch", "-q", "--no-renames", "--no-signature", "--zero-commit",
              "--numbered", "-o", str(dest.resolve()), "HEAD~" + str(len(plan.PATCHES))], work)
    written = sorted(dest.glob("*.patch"))
    (dest / "series").write_text("".join(p.name + "\n" for p in written))
    return written


def summary_rows(plan, files: list[StackedFile]) -> list[tuple[int, str, int, int, int, int]]:
    return [(k + 1, p.name, added_lines(files, k, "code"), added_lines(files, k, "test"),
             added_lines(files, k, "docs"), count_tests(files, k))
            for k, p in enumerate(plan.PATCHES)]


def over_budget(plan, files: list[StackedFile]) -> list[str]:
    """The patches that add more lines of code than the plan's
    ``MAX_CODE_LINES``, and the series over their budget in ``SERIES``
    (none without them), as problems."""
    rows = summary_rows(plan, files)
    problems = []
    if (budget := getattr(plan, "MAX_CODE_LINES", None)) is not None:
        problems += [f"{name}: {code} added lines of code, over the budget of {budget} "
                     f"(MAX_CODE_LINES in tools/stack_plan.py); split the patch"
                     for _, name, code, *_ in rows if code > budget]
    code_of = {name: code for _, name, code, *_ in rows}
    for title, names, budget in getattr(plan, "SERIES", ()):
        total = sum(code_of.get(name, 0) for name in names)
        if budget is not None and total > budget:
            problems.append(f"series {title!r}: {total} added lines of code, over its "
                            f"budget of {budget} (SERIES in tools/stack_plan.py)")
    return problems


_MODULE_NAMES = set(dir(builtins)) | {
    "__annotations__", "__builtins__", "__doc__", "__file__", "__loader__", "__name__",
    "__package__", "__path__", "__spec__"}


def unbound_globals(source: str) -> set[str]:
    """The global names a module reads somewhere (at module level, in a class
    body or a function) but never binds: a NameError once that code runs.
    Nothing for a module with a star import, whose names cannot be known."""
    if re.search(r"^\s*from\s+\S+\s+import\s+\*", source, re.M):
        return set()
    bound, read = _global_names(source)
    return read - bound


def _global_names(source: str) -> tuple[set[str], set[str]]:
    """(bound, read): the global names a module binds and those it reads."""
    bound, read = set(_MODULE_NAMES), set()
    tables = [symtable.symtable(source, "<state>", "exec")]
    while tables:
        table = tables.pop()
        module = table.get_type() == "module"
        for sym in table.get_symbols():
            if (module or sym.is_declared_global()) and (sym.is_assigned() or sym.is_imported()):
                bound.add(sym.get_name())
            if sym.is_referenced() and (module or sym.is_global()):
                read.add(sym.get_name())
        tables += table.get_children()
    return bound, read


def _module_of(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _imported_from(tree: ast.AST, rel: str) -> Iterator[tuple[str, str, int]]:
    """(module, name, line) of each `from module import name` anywhere in `tree`."""
    package = _module_of(rel).split(".")
    if not rel.endswith("__init__.py"):
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                yield module, alias.name, node.lineno


def unimported_in_states(plan, files: list[StackedFile]) -> list[str]:
    """`from <series module> import name` in a state where that module does not
    bind `name` yet, though the final tree does: an ImportError once the import
    runs (in a function: only when it is called).  As problems."""
    last = len(plan.PATCHES) - 1
    modules = {_module_of(f.rel): f for f in files if f.rel.endswith(".py")}
    bound: dict[tuple[str, int], set[str]] = {}

    def bound_in(f: StackedFile, k: int) -> set[str]:
        if (f.rel, k) not in bound:
            text = f.state(k)
            bound[(f.rel, k)] = _global_names("".join(text))[0] if text else set()
        return bound[(f.rel, k)]

    problems: list[str] = []
    for f in modules.values():
        previous = None
        for k, patch in enumerate(plan.PATCHES):
            text = f.state(k)
            if text is None or text == previous:
                continue  # an unchanged importer: reported where it last changed
            previous = text
            try:
                tree = ast.parse("".join(text))
            except SyntaxError:
                continue  # reported by unbound_in_states
            for module, name, line in _imported_from(tree, f.rel):
                source = modules.get(module)
                if source is None or name in bound_in(source, k):
                    continue
                if name in bound_in(source, last):
                    problems.append(
                        f"{patch.name}: {f.rel}:{line} imports {name!r} from {module}, "
                        "which that state does not define (tools/stack_plan.py: move "
                        "the unit that imports it, or the one that defines it)")
    return problems


def unbound_in_states(plan, files: list[StackedFile]) -> list[str]:
    """Names a state of the stack reads but does not define, though the
    final tree does (a unit that landed before the one defining its name):
    each state imports, but the code that reads the name fails when it runs,
    so only a test that reaches it would notice.  As problems."""
    problems: list[str] = []
    for f in files:
        if not f.rel.endswith(".py"):
            continue
        final = f.state(len(plan.PATCHES) - 1)
        known = unbound_globals("".join(final)) if final is not None else set()
        previous = f.base
        for k, patch in enumerate(plan.PATCHES):
            text = f.state(k)
            if text is None or text == previous:
                continue
            previous = text
            try:
                unbound = unbound_globals("".join(text))
            except SyntaxError as err:
                problems.append(f"{patch.name}: {f.rel} does not parse: {err}")
                continue
            for name in sorted(unbound - known):
                problems.append(f"{patch.name}: {f.rel} reads {name!r}, which that state "
                                "does not define (tools/stack_plan.py: move the unit "
                                "that reads it, or the one that defines it)")
    return problems


def print_summary(plan, files: list[StackedFile], out=sys.stdout) -> None:
    """Each patch's added non-blank lines (code: under torch/), then each series'."""
    print(f"stack: {len(plan.PATCHES)} patches", file=out)
    print(f"  {'#':>2}  {'patch':28} {'+code':>6} {'+test':>6} {'+docs':>6} {'tests':>6}",
          file=out)
    rows = summary_rows(plan, files)
    for n, name, code, test, docs, tests in rows:
        print(f"  {n:2}  {name:28} {code:6} {test:6} {docs:6} {tests:6}", file=out)
    code_of = {name: code for _, name, code, *_ in rows}
    for title, names, budget in getattr(plan, "SERIES", ()):
        total = sum(code_of.get(name, 0) for name in names)
        limit = "" if budget is None else f" (budget {budget})"
        print(f"  series {title}: {len(names)} patches, +code {total}{limit}", file=out)
    print(f"  all: +code {sum(code_of.values())}", file=out)


# --------------------------------------------------------------------------
# Checking the stack
# --------------------------------------------------------------------------


def shadow_torch(site: Path, state_root: Path, installed: Path, stacked: set[str]) -> None:
    """Make ``site/torch`` the installed torch with the state's versions of the
    ``stacked`` files (absent where the state has none).  Directories on the
    way to a stacked file are real, everything else links to the installed
    package, whose own copies of the stacked files are never used.

    The shadow is built once and then kept in step with each state, so that
    byte code compiled by one state's processes serves the next; the cached
    byte code of a file the state changes is dropped with it."""
    if not (site / "torch").is_dir():
        dirs = {str(p) for rel in stacked for p in Path(rel).parents if str(p) != "."}

        def fill(rel_dir: str) -> None:
            (site / rel_dir).mkdir(parents=True, exist_ok=True)
            for entry in os.scandir(installed.parent / rel_dir):
                rel = f"{rel_dir}/{entry.name}"
                if rel in stacked:
                    continue
                if entry.name == "__pycache__":
                    # Byte code of the unchanged modules, linked (a process
                    # that recompiles one replaces the link, not the file).
                    owned = {Path(r).stem for r in stacked if str(Path(r).parent) == rel_dir}
                    (site / rel).mkdir()
                    for pyc in os.scandir(entry.path):
                        if pyc.name.split(".")[0] not in owned:
                            try:
                                os.link(pyc.path, site / rel / pyc.name)
                            except OSError:
                                shutil.copyfile(pyc.path, site / rel / pyc.name)
                elif rel in dirs:
                    fill(rel)
                else:
                    os.symlink(entry.path, site / rel)

        fill("torch")
    for rel in sorted(stacked):
        source, target = state_root / rel, site / rel
        if source.is_file():
            data = source.read_bytes()
            if target.is_file() and target.read_bytes() == data:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        elif target.exists():
            target.unlink()
        else:
            continue
        for pyc in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            pyc.unlink()


IMPORT_CHECK = (
    "import sys, torch, torch._dynamo, torch._inductor.compile_fx\n"
    "assert torch.__file__.startswith(sys.argv[1]), torch.__file__\n"
)
#: Exit status of :data:`STATE_CHECK` when the imports failed.
IMPORT_FAILED = 97
#: The import check, then (with more arguments) pytest on them in the same
#: interpreter: one interpreter per state instead of two.
STATE_CHECK = (
    "import sys, traceback\n"
    "try:\n"
    + "".join(f"    {line}\n" for line in IMPORT_CHECK.splitlines())
    + "except BaseException:\n"
    f"    traceback.print_exc()\n"
    f"    sys.exit({IMPORT_FAILED})\n"
    "if len(sys.argv) > 2:\n"
    "    import pytest\n"
    "    sys.exit(pytest.main(sys.argv[2:]))\n"
)


def _recorded_durations(repo: Path) -> dict[str, float]:
    """Seconds per test node id, as the latest suite run recorded them
    (build/test-durations.json, written by test/conftest.py); {} if none."""
    try:
        return json.loads((repo / "build" / "test-durations.json").read_text())
    except (OSError, ValueError):
        return {}


def sample_tests(tests: list[str], sample: int | None,
                 durations: dict[str, float]) -> list[str]:
    """``sample`` of a patch's ``tests`` (all of them for None): the quickest
    ones the latest suite run measured, in their file order; a test never
    measured counts as slow, so that without a record the choice is evenly
    spread over the patch's tests, the same ones every run.  A test costs
    the longest setup of its class too ("setup::<class>", test/conftest.py),
    which it pays when it runs alone."""
    if sample is None or len(tests) <= sample:
        return tests
    spread = [tests[i * len(tests) // sample] for i in range(sample)]
    if not any(test in durations for test in tests):
        return spread

    def cost(test: str) -> float:
        setup = durations.get("setup::" + test.rsplit("::", 1)[0], 0.0)
        return durations.get(test, float("inf")) + setup

    chosen = set(sorted(tests, key=lambda t: (cost(t), t not in spread))[:sample])
    return [test for test in tests if test in chosen]


def check_stack(python: Path, env: dict[str, str], pristine: series.TorchInstall,
                run_tests: bool = True, repo: Path = REPO,
                pytest_args: list[str] | None = None,
                only: set[str] | None = None, sample: int | None = None,
                parallel: int = 1) -> list[str]:
    """Apply the exported stack to the pristine files patch by patch; after each,
    import torch from that state and run the patch's tests, ``parallel`` states
    at a time.  Return problems."""
    problems: list[str] = []
    plan, files = compute(pristine, repo)
    installed = series.locate_torch(str(python)).site / "torch"
    work_root = repo / "build" / "stack"
    shutil.rmtree(work_root, ignore_errors=True)
    patches = export_stack(work_root / "patches", pristine, repo, computed=(plan, files))
    tree = work_root / "tree"
    tree.mkdir(parents=True)
    _git(["init", "-q"], tree)
    _write_state(tree, files, -1)
    _git(["add", "-A"], tree)
    _git(["commit", "-q", "--allow-empty", "-m", "pristine"], tree)
    (tree / "pytest.ini").write_text((repo / "pytest.ini").read_text())
    # What tests find at the repository root besides the stacked files: the
    # stock twin environment (differential tests) and the shared builds.
    for name in (".venv-stock", "build"):
        if (repo / name).exists():
            os.symlink(repo / name, tree / name)
    # Each slot's torch lives at a path of its own, so the C++ builds of the
    # test devices (whose command lines name torch's include directory) get
    # directories of their own per slot, kept between runs: sharing the
    # environment's, or another slot's, would rebuild them at every turn.
    # The states' test durations stay out of the suite's record as well.
    def builds(slot: Path) -> dict[str, str]:
        root = repo / "build" / "stack-builds" / slot.name
        return {
            "EXTENSION_DEVICE_BUILD_DIR": str(root / "extension_device"),
            **{f"{name.upper()}_BUILD_DIR": str(root / name)
               for name in ("toyacc", "protacc", "tritonacc")},
            "WORKBENCH_TEST_DURATIONS": str(slot / "test-durations.json"),
        }
    durations = _recorded_durations(repo)
    print_summary(plan, files)
    problems += over_budget(plan, files)
    problems += unbound_in_states(plan, files) + unimported_in_states(plan, files)
    stacked_torch = {f.rel for f in files if f.rel.startswith("torch/")}
    # The states are checked in parallel, one per slot: a copy of the state's
    # tree and a torch shadowed with it, kept between the slot's states.
    slots: queue.Queue[Path] = queue.Queue()
    for i in range(max(1, min(parallel, len(patches)))):
        slot = work_root / f"slot{i}"
        (slot / "tree").mkdir(parents=True)
        for name in ("pytest.ini", ".venv-stock", "build"):
            if (tree / name).exists():
                os.symlink((tree / name).resolve(), slot / "tree" / name)
        slots.put(slot)
    print_lock = threading.Lock()

    def check_state(k: int, slot: Path, pytest_argv: list[str], selected: bool) -> list[str]:
        t0 = time.monotonic()
        site = slot / "site"
        state_env = dict(env, PYTHONPATH=os.pathsep.join(
            [str(site)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]),
            **builds(slot))
        try:
            res = subprocess.run([str(python), "-c", STATE_CHECK, str(site), *pytest_argv],
                                 cwd=slot / "tree", env=state_env, capture_output=True,
                                 text=True)
        finally:
            slots.put(slot)
        found, status, name = [], "imports", patches[k].name
        if res.returncode == IMPORT_FAILED:
            found.append(f"{name}: import failed:\n{res.stderr[-2000:]}")
            status = "IMPORT FAILED"
        elif not selected:
            status += "; tests not selected"
        elif pytest_argv:
            last = (res.stdout.strip().splitlines() or ["(no output)"])[-1]
            status += f"; tests: {last}"
            if res.returncode:
                failed = [line for line in res.stdout.splitlines()
                          if line.startswith(("FAILED", "ERROR"))]
                found.append(f"{name}: tests failed ({last}):\n"
                             + "\n".join(failed[:60] or [res.stderr[-2000:]]))
        elif res.returncode:
            found.append(f"{name}: import check exited {res.returncode}:\n"
                         f"{res.stderr[-2000:]}")
        with print_lock:
            print(f"  [{k + 1}/{len(patches)}] {plan.PATCHES[k].name}: {status} "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
        return found

    with concurrent.futures.ThreadPoolExecutor(slots.qsize()) as pool:
        checks = []
        for k, patch_file in enumerate(patches):
            name = plan.PATCHES[k].name
            try:
                _git(["am", "-q", "--keep-cr", str(patch_file)], tree)
            except subprocess.CalledProcessError as err:
                problems.append(f"{patch_file.name}: git am failed: {err.stderr.strip()}")
                break
            expected = Path(tempfile.mkdtemp(prefix="stack-state-"))
            _write_state(expected, files, k)
            diff = subprocess.run(["diff", "-r", "-q", "-x", ".git", "-x", "pytest.ini",
                                   "-x", "__pycache__", "-x", ".pytest_cache", "-x", ".hypothesis",
                                   "-x", ".venv-stock", "-x", "build",
                                   str(expected), str(tree)], capture_output=True, text=True)
            shutil.rmtree(expected)
            if diff.returncode:
                problems.append(f"{patch_file.name}: applied tree differs from state {k + 1}: "
                                f"{diff.stdout.strip()[:500]}")
            tests = sample_tests(test_ids_of(files, k), sample, durations)
            selected = only is None or name in only
            pytest_argv = (["-q", "-rfE", "-p", "no:cacheprovider", *(pytest_args or []), *tests]
                           if run_tests and tests and selected else [])
            slot = slots.get()
            _write_state(slot / "tree", files, k, unchanged_kept=True)
            shadow_torch(slot / "site", slot / "tree", installed, stacked_torch)
            checks.append(pool.submit(check_state, k, slot, pytest_argv, selected))
        for check in checks:
            problems += check.result()
    # The last state is the final tree, byte for byte.
    if not problems:
        for f in files:
            if (tree / f.rel).read_bytes() != (repo / f.rel).read_bytes():
                problems.append(f"{f.rel}: the last state differs from the repository")
    return problems


def _print_units(rels: list[str]) -> None:
    """Debugging aid for writing the plan: every unit of the named files with
    its line count, its patch and why (``python3 tools/stack.py FILE...``)."""
    import glob

    pristine = series.torch_install_at(
        Path(glob.glob(str(REPO / ".venv-stock/lib/python3*/site-packages"))[0]))
    plan, files = compute(pristine)
    for f in files:
        if rels and not any(fnmatch.fnmatch(f.rel, r) for r in rels):
            continue
        print(f"== {f.rel}")
        for c in f.changes:
            print(f"  @{c.start + 1} -{c.delete}")
            for u in c.units:
                name = plan.PATCHES[u.patch].name if u.patch >= 0 else "?"
                print(f"    {len(u.lines):4} {name:18} {' ' * min(u.level, 12)}{u.head[:90]}"
                      f"   [{u.why}]")


if __name__ == "__main__":
    _print_units(sys.argv[1:])

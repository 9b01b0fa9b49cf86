# Owner(s): ["module: docs"]
"""What the backend author guide and the README cite exists and says what the
code does: every test, path, command and public torch name they cite, the
vendor figures they quote, and that every Python sample is a program one can
paste (it compiles and binds every name it uses). A failure names the file
and line of the stale reference.

Static and quick: it parses the Markdown, imports torch modules and reads
attributes, and runs no sample (``test/inductor/test_example_guide.py`` runs
the samples that are complete programs).
"""

import ast
import builtins
import importlib
import importlib.util
import re
import shlex
import symtable
from pathlib import Path

import torch
from torch.testing._internal.common_utils import run_tests, TestCase

from tools import dev
from tools import vendor_patches as vp

REPO = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/backend_author_guide.md", "docs/examples/toyacc/README.md")
EXAMPLES = REPO / "docs" / "examples"
TORCH_DIR = Path(torch.__file__).parent
#: Where a relative path the documents cite may live: the repository, an
#: example, the torch install (its C++ headers under include/, Inductor's files).
PATH_ROOTS = (REPO, *sorted(p for p in EXAMPLES.iterdir() if p.is_dir()),
              TORCH_DIR.parent, TORCH_DIR, TORCH_DIR / "include", TORCH_DIR / "_inductor")
PATH_LIKE = re.compile(r"^[\w.~/-]*\w[\w.-]*(/|\.(py|md|h|cpp|toml|json|txt|sha256))$")
#: Paths that exist only once something ran (builds, caches) or are made up.
NOT_IN_TREE = ("build/", ".venv", "/tmp/", "~/", "a/", "b/", "/path/", "stack/", "my_")
#: The examples' device types: ``torch.<name>`` is the example's device module.
DEVICE_MODULES = {name: EXAMPLES / name / f"torch_{name}" / "runtime.py"
                  for name in dev.EXAMPLES}
#: The device types the documents make up for their examples (`torch.acc.<fn>()`).
MADE_UP_DEVICES = {"acc", "npu"}
#: Classes whose members the documents cite as ``Class.member``.
CLASSES = {
    "DeviceInterface": "torch._dynamo.device_interface",
    "BackendFeature": "torch._dynamo.device_interface",
    "DeviceOpOverrides": "torch._inductor.codegen.common",
    "TritonKernel": "torch._inductor.codegen.triton",
    "TritonScheduling": "torch._inductor.codegen.triton",
    "SIMDScheduling": "torch._inductor.codegen.simd",
    "CppScheduling": "torch._inductor.codegen.cpp",
    "CppWrapperCpu": "torch._inductor.codegen.cpp_wrapper_cpu",
    "CppWrapperGpu": "torch._inductor.codegen.cpp_wrapper_gpu",
    "PythonWrapperCodegen": "torch._inductor.codegen.wrapper",
    "DeviceOperatorPolicy": "torch._inductor.device_operator_policy",
    "InductorChoices": "torch._inductor.choices",
    "GraphLowering": "torch._inductor.graph",
    "CudaInterface": "torch._dynamo.device_interface",
    "XpuInterface": "torch._dynamo.device_interface",
}


class Doc:
    """A Markdown file: its inline code spans and fenced blocks, by line."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.spans: list[tuple[int, str]] = []
        self.blocks: list[tuple[int, str, str]] = []  # (line, language, text)
        self.paragraphs: list[tuple[int, str]] = []
        self.lines = lines = (REPO / rel).read_text().splitlines()
        fence, para, start = None, [], 0
        for number, line in enumerate(lines, 1):
            if fence is not None:
                if line.strip() == "```":
                    self.blocks.append((fence[0], fence[1], "\n".join(fence[2]) + "\n"))
                    fence = None
                else:
                    fence[2].append(line)
                continue
            if m := re.match(r"^\s*```(\w*)$", line):
                fence = (number + 1, m.group(1), [])
                continue
            self.spans += [(number, m.group(1)) for m in re.finditer(r"`([^`]+)`", line)]
            if line.strip():
                para, start = para + [line], start or number
            elif para:
                self.paragraphs.append((start, " ".join(para)))
                para, start = [], 0
        if para:
            self.paragraphs.append((start, " ".join(para)))

    def where(self, line: int, text: str | None = None) -> str:
        """``file:line``; with ``text``, of its first line from ``line`` on."""
        if text is not None:
            line = next((n for n, s in enumerate(self.lines[line - 1:], line) if text in s), line)
        return f"{self.rel}:{line}"


DOC_FILES = [Doc(rel) for rel in DOCS]


def _test_files() -> list[Path]:
    return sorted((REPO / "test").rglob("test_*.py"))


def _defines_test(path: Path, name: str) -> bool:
    return re.search(rf"^\s+def {name}\(", path.read_text(), re.M) is not None


def _resolve_dotted(name: str) -> str | None:
    """None if the dotted ``torch.`` name exists, else what is missing."""
    parts = name.split(".")
    if parts[1] in MADE_UP_DEVICES:
        return None
    if parts[1] in DEVICE_MODULES:
        defined = _module_names(DEVICE_MODULES[parts[1]])
        return None if len(parts) == 2 or parts[2] in defined else (
            f"{DEVICE_MODULES[parts[1]].relative_to(REPO)} defines no {parts[2]}")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for j, attr in enumerate(parts[i:], i):
            if not hasattr(obj, attr):
                return f"{'.'.join(parts[:j])} has no attribute {attr}"
            obj = getattr(obj, attr)
        return None
    return "no such module"


def _module_names(path: Path) -> set[str]:
    """The names a module's source binds at its top level."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _unbound_names(source: str) -> set[str]:
    """Global names that ``source`` reads without binding them."""
    top = symtable.symtable(source, "<sample>", "exec")
    bound = {s.get_name() for s in top.get_symbols()
             if s.is_assigned() or s.is_imported() or s.is_namespace()}
    read: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        read.update(s.get_name() for s in table.get_symbols() if s.is_referenced() and (
            s.is_global() or (table is top and not s.is_assigned() and not s.is_imported())))
        tables += table.get_children()
    return read - bound - set(dir(builtins)) - {"__file__", "__name__"}


def _commands(doc: Doc) -> list[tuple[int, str]]:
    """The shell command lines of ``doc``: its ``sh`` blocks and inline spans
    that run python or pip."""
    found = [(line + i, text.split(" #")[0].strip())
             for line, lang, block in doc.blocks if lang == "sh"
             for i, text in enumerate(block.splitlines()) if text.strip()]
    found += [(line, span) for line, span in doc.spans
              if re.match(r"^(\w+=\S+ )*(python3?|pip) ", span)]
    return found


def _dev_commands() -> dict[str, set[str]]:
    """``tools/dev.py``'s commands and the options each takes."""
    parser = dev.parser()
    sub = next(a for a in parser._actions if a.dest == "cmd")
    return {name: {opt for action in p._actions for opt in action.option_strings}
            for name, p in sub.choices.items()}


class TestGuideReferences(TestCase):
    def check(self, problems: list[str], checked: int, at_least: int) -> None:
        self.assertEqual(problems, [], "stale references:\n" + "\n".join(problems))
        # The documents cite more than that: fewer means the parsing broke.
        self.assertGreaterEqual(checked, at_least)

    def test_cited_tests_exist(self):
        files = _test_files()
        problems, checked = [], 0
        for doc in DOC_FILES:
            for line, span in doc.spans:
                m = re.fullmatch(r"(?:(?P<file>[\w/*]*test_[\w*]+\.py)(?:::(?P<test>test_\w+))?"
                                 r"|(?P<bare>test_\w+))", span)
                if not m:
                    continue
                checked += 1
                in_files = files
                if m["file"]:
                    pattern = m["file"] if "/" in m["file"] else f"**/{m['file']}"
                    in_files = [f for f in files if f.relative_to(REPO).match(pattern)]
                    if not in_files:
                        problems.append(f"{doc.where(line)}: no test file {m['file']}")
                        continue
                name = m["test"] or m["bare"]
                if name and not any(_defines_test(f, name) for f in in_files):
                    problems.append(f"{doc.where(line)}: no test {name} in "
                                    f"{m['file'] or 'test/'}")
        self.check(problems, checked, 35)

    def test_cited_paths_exist(self):
        problems, checked = [], 0
        for doc in DOC_FILES:
            for line, span in doc.spans:
                path = span.strip("<>").removeprefix("./")
                if (not PATH_LIKE.match(path) or path.startswith(NOT_IN_TREE)
                        or re.search(r"[<>*]|\.\.\.", path) or "/" not in path.rstrip("/")
                        and not path.endswith("/")):
                    continue
                checked += 1
                if not any((root / path).exists() for root in PATH_ROOTS):
                    problems.append(f"{doc.where(line)}: no file or directory {path}")
        self.check(problems, checked, 70)

    def test_cited_commands_run_what_exists(self):
        commands = _dev_commands()
        problems, checked = [], 0
        for doc in DOC_FILES:
            for line, command in _commands(doc):
                checked += 1
                words = [w for w in shlex.split(command.replace("&&", ";"))
                         if not re.match(r"^\w+=", w)]
                where = f"{doc.where(line)}: {command}"
                for word in words:
                    # docs/examples/<name>: each example.
                    paths = {word.replace("<name>", name) for name in dev.EXAMPLES}
                    problems += [f"{where}: no {path}" for path in sorted(paths)
                                 if path.startswith(("tools/", "docs/", "test/", "benchmarks/"))
                                 and "<" not in path and not (REPO / path).exists()]
                if words[:2] in (["python3", "tools/dev.py"], ["python", "tools/dev.py"]):
                    options = commands.get(words[2])
                    if options is None:
                        problems.append(f"{where}: tools/dev.py has no command {words[2]}")
                    elif words[2] not in ("test", "diff", "bench"):  # these pass them on
                        problems += [f"{where}: tools/dev.py {words[2]} has no option {w}"
                                     for w in words[3:] if w.startswith("--")
                                     and w not in options]
                elif words[0].startswith("python") and words[1] == "-m":
                    spec = importlib.util.find_spec(words[2])
                    if spec is None:
                        problems.append(f"{where}: no module {words[2]}")
                    else:
                        source = Path(spec.origin).read_text()
                        problems += [f"{where}: {words[2]} has no option {w}"
                                     for w in words[3:] if w.startswith("--")
                                     and f'"{w}"' not in source]
                elif words[0].startswith("python") and words[1].endswith(".py"):
                    script = REPO / words[1]
                    if script.exists():
                        problems += [f"{where}: {words[1]} has no option {w}"
                                     for w in words[2:] if w.startswith("--")
                                     and f'"{w}"' not in script.read_text()]
        self.check(problems, checked, 25)

    def test_cited_torch_names_exist(self):
        problems, checked = [], 0
        for doc in DOC_FILES:
            for line, span in doc.spans:
                if m := re.match(r"^torch(\.\w+)+", span):
                    checked += 1
                    if missing := _resolve_dotted(m.group(0)):
                        problems.append(f"{doc.where(line)}: {span}: {missing}")
                elif (m := re.match(r"^(\w+)\.(\w+)\b", span)) and m[1] in CLASSES:
                    checked += 1
                    klass = getattr(importlib.import_module(CLASSES[m[1]]), m[1])
                    if not hasattr(klass, m[2]):
                        problems.append(f"{doc.where(line)}: {span}: {m[1]} has no {m[2]}")
            # "`a`, `b` and `c` in `torch.module`": names of that module.
            for line, text in doc.paragraphs:
                listed = r"`\w+(?:\([^`]*\))?`"
                for m in re.finditer(rf"((?:{listed}(?:,? and |, ))*{listed}) in `(torch[\w.]*)`",
                                     text):
                    module = importlib.import_module(m[2])
                    for name in re.findall(r"`(\w+)", m[1]):
                        checked += 1
                        if not hasattr(module, name):
                            problems.append(f"{doc.where(line, f'`{name}')}: {name} is not "
                                            f"in {m[2]}")
        self.check(problems, checked, 150)

    def test_python_samples_can_be_pasted(self):
        problems, checked = [], 0
        for doc in DOC_FILES:
            for line, lang, block in doc.blocks:
                if lang != "python":
                    continue
                checked += 1
                try:
                    compile(block, doc.where(line), "exec")
                except SyntaxError as err:
                    problems.append(f"{doc.where(line + (err.lineno or 1) - 1)}: {err.msg}")
                    continue
                if unbound := _unbound_names(block):
                    problems.append(f"{doc.where(line)}: the sample uses {sorted(unbound)} "
                                    "without importing or defining them")
        self.check(problems, checked, 20)

    def test_vendor_figures_are_the_tools(self):
        """The figures the guide quotes are what ``tools/vendor_patches.py``
        prints for the inventory."""
        guide = next(d for d in DOC_FILES if d.rel == "docs/backend_author_guide.md")
        reports = {v.package: vp.build_report(v.sites) for v in vp.load_inventory()}
        versions = {v.package: v.version for v in vp.load_inventory()}
        quoted = [(line, m) for line, text in guide.paragraphs for m in re.finditer(
            r"(?:On|on) ([\w-]+) ([\d.]+),? (?:it finds )?(\d+) sites(?: in (\d+) concerns)?, "
            r"(\d+)(?: of them)?(?: \((\d+)%\))?", text)]
        self.assertEqual({m[1].replace("-", "_") for _, m in quoted}, set(reports),
                         "the figures of each vendor")
        for line, m in quoted:
            report = reports[m[1].replace("-", "_")]
            n, r = len(report.sites), len(report.replaced)
            with self.subTest(where=guide.where(line), vendor=m[1]):
                self.assertEqual(m[2], versions[m[1].replace("-", "_")])
                self.assertEqual((int(m[3]), int(m[5])), (n, r))
                if m[4]:
                    self.assertEqual(int(m[4]), len(report.rows()))
                if m[6]:
                    self.assertEqual(m[6] + "%", vp._percent(r, n))


class TestGuideSemantics(TestCase):
    """Sentences a new user relies on, held against the code's tests."""

    def test_loader_that_registers_nothing_runs_again_next_compile(self):
        # test_backend_discovery.py's *_runs_again_next_compile tests pin the
        # rule: the next compile that needs the device runs it again.
        for doc in DOC_FILES[:2]:
            said = [(line, " ".join(m[1].split()).split("raises")[0])
                    for line, text in doc.paragraphs
                    for m in re.finditer(r"registers nothing(.{0,400})", text)]
            with self.subTest(doc.rel):
                self.assertTrue(said, "the documents state the rule")
                for line, words in said:
                    self.assertRegex(words, r"(next|each) compile", doc.where(line))
                    self.assertNotIn("again only after", words, doc.where(line))

if __name__ == "__main__":
    run_tests()

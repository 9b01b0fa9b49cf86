"""Inventory of a vendor package's writes to torch's compile stack.

Given the unzipped Python tree of an out-of-tree backend (torch_npu, ...),
list every place it changes torch's compile stack instead of calling a
public registration API:

* assignments to attributes of torch modules and classes (``module.attr =``,
  ``Class.method =``, ``setattr(torch..., ...)``), which includes method
  replacement;
* mutations of torch tables: item writes and deletes (``table[k] = v``,
  ``del table[k]``), mutating methods (``.update``, ``.append``, ``.pop``,
  ``.cache_clear`` ...);
* calls and decorators that register into torch tables
  (``register_decomposition``, ``register_lowering``, ``make_fallback``,
  ``add_needs_realized_inputs``, ``py_impl`` ...).

Names are resolved through the file's imports; a function's own local
variables (``config = Config(...)``) are not torch names.

Each site is reported as ``file:line target`` (with its enclosing function) and grouped by concern; the
concern names the series' public entry point that replaces it, or none.
The summary prints the share of sites replaced.

Standard library only.  Usage::

    python3 tools/vendor_patches.py PATH [--package torch_npu] [--json] [--sites]

PATH is a directory (an unzipped wheel) or a ``.whl`` file.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import os
import re
import sys
import tempfile
import warnings
import zipfile
from collections.abc import Iterable, Iterator

# Modules whose state is torch's compile stack.  Writes elsewhere in torch
# (eager Tensor methods, torch.cuda aliases, distributed) are not counted.
COMPILE_STACK = (
    "torch._dynamo",
    "torch._inductor",
    "torch._functorch",
    "torch._decomp",
    "torch._prims",
    "torch._prims_common",
    "torch._refs",
    "torch._subclasses",
    "torch._higher_order_ops",
    "torch._export",
    "torch._logging",
    "torch.export",
    "torch.fx",
    "torch.utils._triton",
    "torch.compile",
    "torch.nn.attention",
    "torch._ops",
    "torchgen.aoti",
)

MUTATING_METHODS = frozenset(
    {
        "append", "extend", "insert", "add", "update", "pop", "popitem",
        "remove", "discard", "clear", "setdefault", "cache_clear",
        "__setitem__", "__delitem__",
    }
)

# Functions that write into a torch table when called or used as a
# decorator: qualified torch name -> (the table written, or where the call
# names it: (positional index, keyword)).  A table argument that is not a
# torch name (the vendor's own pass or registry) is no write to torch.
_FIXED = "fixed"
REGISTERING_CALLS: dict[str, tuple[str, str | tuple[int, str]]] = {
    "torch._decomp.register_decomposition": (
        "torch._decomp.global_decomposition_table", (1, "registry")),
    "torch._decomp.remove_decompositions": ("", (0, "decompositions")),
    "torch._inductor.decomposition.register_decomposition": (
        "torch._inductor.decomposition.decompositions", _FIXED),
    "torch._inductor.lowering.register_lowering": (
        "torch._inductor.lowering.lowerings", _FIXED),
    "torch._inductor.lowering.make_fallback": (
        "torch._inductor.lowering.lowerings", _FIXED),
    "torch._inductor.lowering.add_needs_realized_inputs": (
        "torch._inductor.lowering.needs_realized_inputs", _FIXED),
    "torch._inductor.lowering.register_op_dtype_propagation_rules": (
        "torch._inductor.lowering.op_dtype_propagation_rules", _FIXED),
    "torch._inductor.lowering.add_layout_constraint": (
        "torch._inductor.lowering.layout_constraints", _FIXED),
    "torch._inductor.lowering.register_foreach_pointwise": (
        "torch._inductor.lowering.lowerings", _FIXED),
    "torch._inductor.pattern_matcher.register_replacement": ("", (4, "pass_dicts")),
    "torch._inductor.pattern_matcher.gen_register_replacement": ("", (4, "pass_dicts")),
    "torch._inductor.pattern_matcher.register_graph_pattern": ("", (2, "pass_dict")),
    "torch._inductor.pattern_matcher.register_lowering_pattern": ("", (2, "pass_dict")),
}


@dataclasses.dataclass(frozen=True)
class Site:
    path: str
    line: int
    kind: str  # "assign", "mutate", "register"
    target: str  # qualified torch name written
    function: str = "<module>"  # enclosing vendor def/class, dotted


@dataclasses.dataclass(frozen=True)
class Concern:
    name: str
    pattern: re.Pattern[str]
    entry_point: str | None
    kinds: frozenset[str] = frozenset({"assign", "mutate", "register"})


def _c(
    name: str, pattern: str, entry_point: str | None, kinds: Iterable[str] | None = None
) -> Concern:
    if kinds is None:
        return Concern(name, re.compile(pattern), entry_point)
    return Concern(name, re.compile(pattern), entry_point, frozenset(kinds))


# Ordered: the first matching concern takes a site.  ``entry_point`` is the
# series' public replacement (None: not replaced yet).
CONCERNS: tuple[Concern, ...] = (
    _c("GPU device list and is_gpu",
       r"^torch\._inductor\.utils\.(GPU_TYPES|is_gpu|get_gpu_type|_gpu_types|device_need_guard)\b"
       r"|\.get_gpu_type$",
       "DeviceInterface.is_gpu / backend_features (register_interface_for_device)"),
    _c("Triton availability",
       r"\.has_triton$|^torch\.utils\._triton\.has_triton",
       "DeviceInterface.is_triton_capable / raise_if_triton_unavailable"),
    _c("device properties and SM count",
       r"DeviceProperties|\.is_big_gpu$|_use_template_for_cuda|get_max_num_sms",
       "DeviceInterface.get_multi_processor_count"),
    _c("ATen device type",
       r"DEVICE_TO_ATEN|device_to_aten",
       "DeviceOpOverrides.aten_device_type"),
    _c("C++ build options",
       r"cpp_builder\.(get_cpp_torch_device_options|CppTorchDeviceOptions|_get_torch_related_args)"
       r"|AotCodeCompiler",
       "cpp_builder.register_cpp_device_options / DeviceInterface.get_cpp_device_options"),
    _c("C++ optimization flags",
       r"cpp_builder\._get_optimization_cflags$",
       "DeviceInterface.get_cpp_optimization_flags"),
    _c("cpp wrapper device paths",
       r"codegen_with_cpp_wrapper|_get_cpp_wrapper_header",
       "DeviceOpOverrides.uses_gpu_cpp_wrapper / cpp_stream_type"),
    _c("autotune visible devices",
       r"autotune_process\.CUDA_VISIBLE_DEVICES|get_visible_devices_env_var",
       "DeviceInterface.visible_devices_env"),
    _c("cache system info",
       r"CacheBase\.get_system",
       "DeviceInterface.get_cache_system_info"),
    _c("backend registration plumbing",
       r"init_backend_registration|get_device_op_overrides|device_op_overrides_dict"
       r"|device_codegens|_inductor_backend_init",
       "torch_inductor_backends entry point / register_backend_for_device"),
    _c("per-device compile options",
       r"apply_options|get_config_copy|_TorchCompileInductorWrapper",
       "register_backend_for_device(device_custom_config=) + options={'<device>.<key>': ...}"),
    _c("Dynamo trace rules",
       r"^torch\._dynamo\.trace_rules\.|_load_obj_from_str|lookup_inner|SKIP_DIRS|_recompile_re"
       r"|_allowed_callable_ids|_disallowed_callable_ids|BUILTIN_SKIPLIST|SkipFunctionVariable",
       "torch._dynamo.trace_rules.register_device_trace_rules"),
    _c("Dynamo id() of events",
       r"BuiltinVariable\.call_id$",
       "DeviceInterface.Event (id() of events needs no patch)"),
    _c("Dynamo streams, events and in-graph classes",
       r"_in_graph_classes|StreamVariable|EventVariable|_get_handlers|StreamContext"
       r"|stream_and_event|constant_fold_functions|common_constant_types",
       "DeviceInterface Stream/Event/dynamo_tensor_classes/dynamo_constant_fold_fns"),
    _c("device interface registry",
       r"^torch\._dynamo\.device_interface\.",
       "register_interface_for_device"),
    _c("Inductor decomposition table",
       r"^torch\._inductor\.decomposition\.",
       "register_device_operator_policy (decomposition_overrides)"),
    _c("Inductor lowering table and fallbacks",
       r"^torch\._inductor\.lowering\.(lowerings|make_fallback|fallbacks|FALLBACK_ALLOW_LIST"
       r"|fallback_handler|make_reduction|_maybe_layout_constraints)",
       "register_device_operator_policy (lowering_overrides)"),
    _c("extra cache-key fields",
       r"(FxGraphHashDetails|AOTAutogradCacheDetails)\.__init__$",
       "DeviceOperatorPolicy(cache_key_fields=...)"),
    _c("needs_realized_inputs",
       r"^torch\._inductor\.lowering\.needs_realized_inputs",
       "DeviceOperatorPolicy(realized_input_ops=...)"),
    _c("core Inductor config",
       r"^torch\._inductor\.config\.(?!pre_grad_custom_pass|post_grad_custom_p|joint_custom_p"
       r"|_pre_fusion_custom_pass|_post_fusion_custom_pass)",
       "DeviceOperatorPolicy(config_defaults=...)"),
    _c("custom graph passes",
       r"^torch\._inductor\.config\.(pre_grad_custom_pass|post_grad_custom_p|joint_custom_p"
       r"|_pre_fusion_custom_pass|_post_fusion_custom_pass)",
       "DeviceOperatorPolicy(custom_passes=...)"),
    _c("Dynamo config",
       r"^torch\._dynamo\.config\.|^torch\._functorch\.config\.",
       None),
    _c("core decomposition tables",
       r"^torch\._decomp\b|fake_tensor\.torch_decomp_decompositions|decompositions_for_jvp",
       "DeviceOperatorPolicy(fake_overrides=..., decomposition_overrides=...)"),
    _c("pattern registrations into Inductor's pass dicts",
       r"^torch\._inductor\.fx_passes\.(\w+\.)?(patterns|pass_patterns)\b",
       "DeviceOperatorPolicy(custom_passes=...) applying your own PatternMatcherPass",
       kinds=("register",)),
    _c("pattern-matcher passes",
       r"^torch\._inductor\.fx_passes\.|^torch\._inductor\.pattern_matcher",
       None),
    _c("GPU benchmark device list",
       r"GPU_BENCHMARK_DEVICE_TYPES",
       "DeviceInterface.is_gpu (benchmarking.GPU_BENCHMARK_DEVICE_TYPES follows the registry)"),
    _c("benchmarker",
       r"benchmarking\.benchmarker|do_bench_using_profiling",
       None),
    _c("TMA support", r"_device_supports_tma", "DeviceInterface.supports_tma"),
    _c("RNG functionalization",
       r"^torch\._prims\.rng_prims|preserve_rng_state|functionalize_rng_ops|philox",
       None),
    _c("cudagraph plumbing",
       r"cudagraph|graph_tree",
       None),
    _c("Triton autotuner and heuristics",
       r"triton_heuristics|autotune_cache|CachingAutotuner",
       None),
    _c("AOTInductor loader and C shim",
       r"aot_load|package\.load_package|^torchgen\.aoti|aoti",
       None),
    _c("flex attention", r"flex_attention", None),
    _c("autotune benchmark requests",
       r"autotune_process\.|select_algorithm",
       None),
    _c("scheduler, IR and codegen internals",
       r"^torch\._inductor\.(scheduler|ir|codegen|graph|kernel|codecache|async_compile"
       r"|runtime|sizevars|utils|wrapper_benchmark|choices|virtualized|dependencies|compile_fx"
       r"|select_algorithm|metrics|bounds|loop_body|output_code|freezing|debug)\b",
       None),
    _c("fake tensors and meta kernels",
       r"^torch\._subclasses|^torch\._prims_common|^torch\._meta_registrations|^torch\._refs"
       r"|py_kernels|^torch\._ops",
       None),
    _c("other compile stack", r"", None),
)


def concern_of(site: Site) -> Concern:
    for concern in CONCERNS:
        if site.kind in concern.kinds and concern.pattern.search(site.target):
            return concern
    return CONCERNS[-1]


# -- scanning --------------------------------------------------------------------


def _dotted(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


# Names that stand for the compile in progress (``V.graph``, ``V.kernel``,
# ``ops``) or for counters: writes through them change that compile's
# objects, not torch.
_LIVE_STATE = re.compile(r"^torch\._inductor\.virtualized\b|^torch\._dynamo\.utils\.counters\b")


def _is_live_state(name: str) -> bool:
    return _LIVE_STATE.match(name) is not None


def _in_compile_stack(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in COMPILE_STACK)


class _FileScanner(ast.NodeVisitor):
    def __init__(self, path: str, module: str) -> None:
        self.path = path
        self.module = module
        # Local name -> qualified torch name (scope-insensitive: vendor code
        # imports torch modules under stable names).
        self.aliases: dict[str, str] = {}
        self.sites: list[Site] = []
        self.scope: list[str] = []
        # Per enclosing function: its local names that are no torch alias
        # (``config = Config(...)`` in a module that imported Inductor's config).
        self.shadowed: list[set[str]] = []

    # Aliases --------------------------------------------------------------

    def collect_aliases(self, tree: ast.AST) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "torch" or a.name.startswith("torch.") or a.name.startswith("torchgen"):
                        if a.asname:
                            self.aliases[a.asname] = a.name
                        else:
                            root = a.name.split(".")[0]
                            self.aliases[root] = root
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "torch" or node.module.startswith(("torch.", "torchgen")):
                    for a in node.names:
                        self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        # name = torch.x.y (module-level or local), resolved to a fixpoint.
        for _ in range(2):
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    t = node.targets[0]
                    if isinstance(t, ast.Name) and t.id not in self.aliases:
                        q = self.resolve(node.value)
                        if q is not None and not isinstance(node.value, ast.Call):
                            self.aliases[t.id] = q

    def resolve(self, node: ast.AST) -> str | None:
        parts = _dotted(node)
        if not parts or parts[0] not in self.aliases:
            return None
        if any(parts[0] in shadowed for shadowed in self.shadowed):
            return None
        return ".".join([self.aliases[parts[0]], *parts[1:]])

    # Sites ----------------------------------------------------------------

    def add(self, node: ast.AST, kind: str, target: str | None) -> None:
        if target is not None and _in_compile_stack(target) and not _is_live_state(target):
            self.sites.append(
                Site(self.path, node.lineno, kind, target, ".".join(self.scope) or "<module>")
            )

    def _local_names(self, node: ast.AST) -> set[str]:
        """Names ``node`` (a function) binds to something that is no torch name."""
        names: set[str] = set()
        declared: set[str] = set()
        args = getattr(node, "args", None)
        if isinstance(args, ast.arguments):
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if a is not None:
                    names.add(a.arg)
        todo = list(getattr(node, "body", []))
        while todo:
            n = todo.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                declared.update(n.names)
            if isinstance(n, (ast.Import, ast.ImportFrom)):  # torch imports are aliases
                declared.update((a.asname or a.name).split(".")[0] for a in n.names)
            value = getattr(n, "value", None)
            targets: list[ast.AST] = []
            if isinstance(n, ast.Assign):
                targets = list(n.targets)
            elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
                targets = [n.target]
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                targets, value = [n.target], None
            elif isinstance(n, ast.withitem) and n.optional_vars is not None:
                targets, value = [n.optional_vars], None
            while targets:
                t = targets.pop()
                if isinstance(t, (ast.Tuple, ast.List)):
                    targets.extend(t.elts)
                elif isinstance(t, ast.Starred):
                    targets.append(t.value)
                elif isinstance(t, ast.Name) and (
                    value is None or isinstance(value, ast.Call) or self.resolve(value) is None
                ):
                    names.add(t.id)
            todo.extend(ast.iter_child_nodes(n))
        return {n for n in names - declared if n in self.aliases}

    def _scoped(self, node: ast.AST) -> None:
        self.scope.append(node.name)  # type: ignore[attr-defined]
        is_function = not isinstance(node, ast.ClassDef)
        if is_function:
            self.shadowed.append(self._local_names(node))
        self.generic_visit(node)
        if is_function:
            self.shadowed.pop()
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _target(self, node: ast.AST) -> None:
        if isinstance(node, ast.Attribute):
            self.add(node, "assign", self.resolve(node))
        elif isinstance(node, ast.Subscript):
            self.add(node, "mutate", self.resolve(node.value))
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                self._target(elt)

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._target(t)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for t in node.targets:
            self._target(t)
        self.generic_visit(node)

    def _registered_table(
        self, node: ast.Call, default: str, where: str | tuple[int, str]
    ) -> str | None:
        if where == _FIXED:
            return default
        index, keyword = where
        arg: ast.AST | None = None
        if len(node.args) > index:
            arg = node.args[index]
        for kw in node.keywords:
            if kw.arg == keyword:
                arg = kw.value
        if arg is None or (isinstance(arg, ast.Constant) and arg.value is None):
            return default or None
        if isinstance(arg, (ast.List, ast.Tuple)) and arg.elts:
            arg = arg.elts[0]
        if isinstance(arg, ast.Subscript):
            arg = arg.value
        return self.resolve(arg)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = _dotted(func)
        if (
            isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2
        ):
            obj = self.resolve(node.args[0])
            attr = node.args[1]
            if obj is not None:
                suffix = attr.value if isinstance(attr, ast.Constant) else "<dynamic>"
                self.add(node, "assign", f"{obj}.{suffix}")
        elif isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS:
            self.add(node, "mutate", self.resolve(func.value))
        elif isinstance(func, ast.Attribute) and func.attr in ("py_impl", "register_kernel"):
            self.add(node, "register", self.resolve(func.value))
        if name is not None:
            q = self.resolve(func)
            if q is not None and q in REGISTERING_CALLS:
                self.add(node, "register", self._registered_table(node, *REGISTERING_CALLS[q]))
        self.generic_visit(node)


def iter_python_files(root: str, package: str | None) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        if package and rel != "." and rel.split(os.sep)[0] != package:
            continue
        for f in sorted(filenames):
            if f.endswith(".py"):
                yield os.path.join(dirpath, f)


def scan(root: str, package: str | None = None) -> list[Site]:
    sites: list[Site] = []
    for path in iter_python_files(root, package):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        # Cheap filter: a file that names no compile-stack module writes none.
        if not any(m.rpartition(".")[2] in text for m in COMPILE_STACK):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text, filename=path)
        except SyntaxError:
            continue
        module = rel[:-3].replace(os.sep, ".")
        scanner = _FileScanner(rel, module)
        scanner.collect_aliases(tree)
        scanner.visit(tree)
        sites.extend(scanner.sites)
    return sites


# -- report ----------------------------------------------------------------------


@dataclasses.dataclass
class Report:
    sites: list[Site]
    by_concern: dict[str, list[Site]]

    @property
    def replaced(self) -> list[Site]:
        entry = {c.name: c.entry_point for c in CONCERNS}
        return [s for name, ss in self.by_concern.items() if entry[name] for s in ss]

    @property
    def share(self) -> float:
        return len(self.replaced) / len(self.sites) if self.sites else 0.0


def build_report(sites: Iterable[Site]) -> Report:
    sites = sorted(set(sites), key=lambda s: (s.path, s.line, s.target))
    by_concern: dict[str, list[Site]] = {c.name: [] for c in CONCERNS}
    for s in sites:
        by_concern[concern_of(s).name].append(s)
    return Report(sites, {k: v for k, v in by_concern.items() if v})


def format_report(report: Report, show_sites: bool = False) -> str:
    entry = {c.name: c.entry_point for c in CONCERNS}
    lines = []
    order = sorted(report.by_concern.items(), key=lambda kv: -len(kv[1]))
    for name, sites in order:
        lines.append(f"{len(sites):4d}  {name}  ->  {entry[name] or '(none)'}")
        if show_sites:
            for s in sites:
                lines.append(f"        {s.path}:{s.line}  {s.kind:8s} {s.target}")
    n, r = len(report.sites), len(report.replaced)
    lines.append(
        f"{n} sites in {len(report.by_concern)} concerns; "
        f"{r} replaced by a public entry point ({100 * report.share:.0f}%)"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="unzipped vendor package directory or .whl file")
    parser.add_argument("--package", help="top-level package to scan (default: all)")
    parser.add_argument("--sites", action="store_true", help="list every site")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        root = args.path
        if os.path.isfile(root):
            with zipfile.ZipFile(root) as z:
                z.extractall(tmp, [n for n in z.namelist() if n.endswith(".py")])
            root = tmp
        report = build_report(scan(root, args.package))
    if args.json:
        entry = {c.name: c.entry_point for c in CONCERNS}
        json.dump(
            {
                "sites": len(report.sites),
                "replaced": len(report.replaced),
                "share": report.share,
                "concerns": {
                    name: {
                        "entry_point": entry[name],
                        "sites": [dataclasses.asdict(s) for s in ss],
                    }
                    for name, ss in report.by_concern.items()
                },
            },
            sys.stdout,
            indent=1,
        )
        print()
    else:
        print(format_report(report, args.sites))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The branches on a literal device name left in the compile stack, each with its verdict.

    python3 tools/device_gates.py [-v] [--tree DIR] [--stock DIR]

Scope (``SCOPE``): the modules whose code decides what a compiled program
computes, Dynamo, AOTAutograd and Inductor and what they run and trace
(decompositions, references, fake tensors, meta kernels, attention front
ends, optimizers, ...), of the series' torch: a file from ``torch/`` of this
repository where the series has it, else the pristine 2.13.0 file of the stock
twin (``.venv-stock``, as ``tools/series.py`` locates it).  A branch that a
compile runs outside it must be in a module ``OUTSIDE_SCOPE`` gives a reason
for (``unscoped_branches``; the tests profile a compile to check it).

A *branch on a literal device name* is one of two kinds:

* ``compare``: an ``ast.Compare`` one of whose operands is a str literal naming
  a device type (``"cuda"``, ``"cuda:0"``, ...; see ``DEVICE_NAMES``) or a
  tuple/list/set of str literals one of which does: ``device.type == "cuda"``,
  ``x not in ("cpu", "meta")``; and ``s.startswith("cuda")``;
* ``attr``: a ``.is_<device>`` attribute test (``t.is_cuda``, ``is_xpu``, ...)
  and ``getattr``/``hasattr`` with a literal device name (``hasattr(torch, "hpu")``).

Not listed: calls into a device module (``torch.cuda.get_device_capability()``)
and dict lookups keyed on names; the 2.13 site map (``SEVERITY``,
``NOT_REPLACED``) covers those where they decide a device class.

Each branch gets the first verdict of ``VERDICTS`` that matches it.  A verdict
is keyed on the file (a glob under ``torch/``), the enclosing function's
qualified name (a glob), the device names the branch names (sorted, or ``*``)
and optionally a substring of the branch's normalised source, never on line
numbers, so it survives edits around it.  Its kind is one of

* ``record``: the branch keeps in-tree names only to give in-tree devices
  stock's exact answers; every other device asks its record;
* ``design``: vendor-specific by design (CUTLASS, CUDA graphs, ROCm, the MPS
  wrapper, oneDNN, Triton's cpu backend, AOTI packaging, ...), with the reason;
* ``neutral``: not a device-class gate: cpu as the host every device copies
  to and from, meta tensors, PrivateUse1 not yet renamed;
* ``left``: a gate still to replace by a question to the device's record, with
  the reason and the 2.13 site (``S..``) where the map has it.

*Asks the record* counts sites of the 2.13 map: the sites whose audit verdict
(``shared/research/sites_status.md``) is R, replaced.  That verdict is the
audit's, copied here, not measured; the tool measures that no ``left`` branch
names an R site, and lists (``-v``) the literal branches of stock that are
gone from the series.

The exit status is 1 when a branch has no verdict, when an H or M site of
the map is neither replaced nor given a reason, or when a verdict contradicts
the site table.  Standard library
only.
"""

from __future__ import annotations

import argparse
import ast
import collections
import fnmatch
import glob
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Directories (ending in "/") and files under the repository root that are
#: scanned: the modules whose code decides what a compiled program computes.
#: Dynamo, AOTAutograd and Inductor; what they run while tracing and lowering
#: (decompositions, references and prims, fake tensors and meta kernels,
#: higher-order ops, FX, the C++ build's toolkit paths); and the Python Dynamo
#: traces into the graph (attention front ends, ``nn.functional``, optimizers
#: and their foreach grouping).  ``OUTSIDE_SCOPE`` names the modules a compile
#: also runs whose branches decide nothing about the program.
SCOPE = (
    "torch/_dynamo/", "torch/_inductor/", "torch/_functorch/", "torch/utils/_triton.py",
    "torch/__init__.py", "torch/_decomp/", "torch/_refs/", "torch/_prims/",
    "torch/_prims_common/", "torch/_subclasses/", "torch/_meta_registrations.py",
    "torch/_higher_order_ops/", "torch/fx/", "torch/utils/cpp_extension.py",
    "torch/nn/attention/", "torch/nn/functional.py", "torch/optim/",
    "torch/utils/_foreach_utils.py",
)

#: Modules outside ``SCOPE`` that a compile runs, with the reason their
#: branches on device names are not compile decisions (globs under ``torch/``).
OUTSIDE_SCOPE: dict[str, str] = {
    "overrides.py": "get_testing_overrides() lists the Tensor.is_<device> properties, "
                    "as the __torch_function__ test table",
    "storage.py": "TypedStorage's legacy per-device storage classes (eager API)",
    "utils/_pallas.py": "the Pallas backend's TPU availability, vendor-specific by design",
}

#: Device types whose literal names make a branch (a ":index" suffix is allowed).
DEVICE_NAMES = frozenset({
    "cpu", "cuda", "hip", "hpu", "ipu", "lazy", "maia", "meta", "mps", "mtia",
    "privateuseone", "rocm", "tpu", "ve", "vulkan", "xla", "xpu",
})


# --------------------------------------------------------------------------
# Scanning
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Branch:
    rel: str  # "torch/_inductor/utils.py"
    line: int
    qualname: str  # "Scheduler._codegen", "<module>"
    kind: str  # "compare" | "attr"
    names: tuple[str, ...]  # sorted device names it names
    snippet: str  # ast.unparse of the node, one line
    code_line: int = 0  # first line of the enclosing function's code object; 0 at module level

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.rel, self.qualname, self.names)


def _device(value: object) -> str | None:
    if isinstance(value, str) and value.split(":")[0] in DEVICE_NAMES:
        return value.split(":")[0]
    return None


def _literal_devices(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant):
        dev = _device(node.value)
        return [dev] if dev else []
    if (isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)):
        return [d for d in (_device(e.value) for e in node.elts) if d]
    return []


def _attr_devices(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Attribute) and node.attr.startswith("is_"):
        dev = _device(node.attr[3:])
        return [dev] if dev else []
    # getattr/hasattr on torch or a torch submodule only: ``hasattr(node, "meta")``
    # is FX's node.meta, not a device.
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
            and ast.unparse(node.args[0]).split(".")[0] == "torch"
            and isinstance(node.args[1], ast.Constant)):
        dev = _device(node.args[1].value)
        return [dev] if dev else []
    return []


class _Scanner(ast.NodeVisitor):
    def __init__(self, rel: str):
        self.rel = rel
        self.stack: list[str] = []
        self.code_lines: list[int] = [0]
        self.found: list[Branch] = []

    def _scoped(self, node):
        self.stack.append(node.name)
        if isinstance(node, ast.ClassDef):
            self.code_lines.append(self.code_lines[-1])
        else:  # a function's code object starts at its first decorator
            self.code_lines.append(min([node.lineno] + [d.lineno for d in node.decorator_list]))
        self.generic_visit(node)
        self.code_lines.pop()
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _add(self, node, kind, names):
        snippet = " ".join(ast.unparse(node).split())
        self.found.append(Branch(self.rel, node.lineno, ".".join(self.stack) or "<module>",
                                 kind, tuple(sorted(set(names))), snippet,
                                 self.code_lines[-1]))

    def visit_Compare(self, node):
        names = [d for op in (node.left, *node.comparators) for d in _literal_devices(op)]
        if names:
            self._add(node, "compare", names)
        self.generic_visit(node)

    def visit_Attribute(self, node):
        names = _attr_devices(node)
        if names:
            self._add(node, "attr", names)
        self.generic_visit(node)

    def visit_Call(self, node):
        names = _attr_devices(node)
        if names:
            self._add(node, "attr", names)
        elif (isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
              and node.args and _literal_devices(node.args[0])):
            self._add(node, "compare", _literal_devices(node.args[0]))
        self.generic_visit(node)


def scan_source(rel: str, source: str) -> list[Branch]:
    scanner = _Scanner(rel)
    scanner.visit(ast.parse(source, filename=rel))
    return scanner.found


def stock_torch_root(repo: Path = REPO) -> Path | None:
    """The directory that holds the stock twin's ``torch`` package (tools/series.py's
    ``torch_install_at`` site), or None without a stock twin."""
    sites = sorted(glob.glob(str(repo / ".venv-stock/lib/python3*/site-packages")))
    return Path(sites[0]) if sites else None


def parse_tree_and_stock(
    parser: argparse.ArgumentParser, argv: list[str] | None
) -> tuple[argparse.Namespace, Path | None]:
    """Parse ``argv`` with ``--tree`` (the series' repository) and ``--stock`` (the
    pristine torch's site) added; the site is None, said on stderr, without a stock twin."""
    parser.add_argument("--tree", type=Path, default=REPO,
                        help="repository root whose torch/ holds the series (default: this one)")
    parser.add_argument("--stock", type=Path, default=None,
                        help="site directory of the pristine torch (default: .venv-stock)")
    ns = parser.parse_args(argv)
    stock = ns.stock if ns.stock is not None else stock_torch_root(REPO)
    if stock is None:
        print("error: no stock twin (.venv-stock); run `python3 tools/dev.py setup`",
              file=sys.stderr)
    return ns, stock


def _in_scope(rel: str) -> bool:
    return rel.endswith(".py") and any(
        rel.startswith(s) if s.endswith("/") else rel == s for s in SCOPE)


def _outside_scope(rel: str) -> str | None:
    """The reason ``OUTSIDE_SCOPE`` gives for ``rel`` (a path under the site), or None."""
    return next((reason for pattern, reason in OUTSIDE_SCOPE.items()
                 if fnmatch.fnmatchcase(rel, "torch/" + pattern)), None)


def unscoped_branches(ran: Iterable[tuple[str, int]], site: Path) -> list[Branch]:
    """The branches a compile ran that are outside ``SCOPE`` and ``OUTSIDE_SCOPE``.

    ``ran`` holds ``(rel, first line)`` of every code object the compile ran
    (``rel`` relative to ``site``, the directory holding the ``torch`` that ran,
    as a profile of the compile gives them); a branch ran when the function
    enclosing it did."""
    lines: dict[str, set[int]] = collections.defaultdict(set)
    for rel, line in ran:
        lines[rel].add(line)
    out: list[Branch] = []
    for rel in sorted(lines):
        path = site / rel
        if (not rel.startswith("torch/") or not rel.endswith(".py") or _in_scope(rel)
                or _outside_scope(rel) or not path.is_file()):
            continue
        out += [b for b in scan({rel: path}, []) if b.code_line in lines[rel]]
    return out


def _py_files(root: Path) -> dict[str, Path]:
    out = {}
    for s in SCOPE:
        base = root / s
        paths = base.rglob("*.py") if s.endswith("/") else [base]
        for p in paths:
            if p.is_file() and "__pycache__" not in p.parts:
                out[p.relative_to(root).as_posix()] = p
    return out


def tree_files(tree: Path, stock: Path | None) -> dict[str, Path]:
    """``{rel: path}``: the series file where ``tree`` has it, else the stock one."""
    files = _py_files(stock) if stock is not None else {}
    files.update(_py_files(tree))
    return {rel: files[rel] for rel in sorted(files) if _in_scope(rel)}


def scan(files: dict[str, Path], errors: list[str] | None = None) -> list[Branch]:
    """The branches of ``files``; a file that does not parse is added to ``errors``
    (raised when ``errors`` is None)."""
    out: list[Branch] = []
    for rel, path in files.items():
        try:
            out += scan_source(rel, path.read_text())
        except SyntaxError as err:
            if errors is None:
                raise
            errors.append(f"{rel}:{err.lineno}: cannot be parsed: {err.msg}")
    return out


# --------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    path: str  # glob under torch/, e.g. "_inductor/codegen/cutlass/*"
    func: str  # glob on the qualified name; "*" for a whole file or area
    names: str  # the branch's device names joined by ",", sorted; "*" for any
    kind: str  # "record" | "design" | "neutral" | "left"
    reason: str
    site: str = ""  # 2.13 map id, "S70"
    text: str = ""  # a substring the normalised snippet must contain

    @property
    def area(self) -> bool:
        """A rule for a whole file or area, kept even while nothing there matches."""
        return self.func == "*" and self.names == "*"

    def matches(self, b: Branch) -> bool:
        return (fnmatch.fnmatchcase(b.rel, "torch/" + self.path)
                and fnmatch.fnmatchcase(b.qualname, self.func)
                and (self.names == "*" or self.names == ",".join(b.names))
                and self.text in b.snippet)


KINDS = {
    "record": "asks the record (in-tree names kept for stock's answers only)",
    "design": "vendor-specific by design",
    "neutral": "not a device-class gate",
    "left": "left",
}


def R(path, func, names, reason, site="", text=""):
    return Verdict(path, func, names, "record", reason, site, text)


def D(path, func, names, reason, site="", text=""):
    return Verdict(path, func, names, "design", reason, site, text)


def N(path, func, names, reason, site="", text=""):
    return Verdict(path, func, names, "neutral", reason, site, text)


def L(path, func, names, reason, site="", text=""):
    return Verdict(path, func, names, "left", reason, site, text)


# Reasons shared by several verdicts.
CUTLASS = "CUTLASS: NVIDIA's GEMM template library and Intel's SYCL port of it"
CUTEDSL = "CuTe DSL: NVIDIA-only kernels"
CUDAGRAPHS = "CUDA graphs: torch.cuda.CUDAGraph and its memory pool (S53)"
ROCM = "ROCm: AMD's HIP Triton target, its toolchain and CK"
NVIDIA = "an NVIDIA-only feature (PTX, PDL, libdevice, cuda fp8 storage, sm archs)"
MPS = "the MPS backend: Metal shaders and its C++ wrapper"
PALLAS = "the Pallas backend's own targets (TPU; CUDA through Mosaic GPU)"
ONEDNN = "oneDNN (mkldnn) kernels exist for cpu and xpu only (S15)"
X86 = "x86 CPU kernels (int8/int4 weight-only, quantized oneDNN) that no accelerator has"
INTREE = "the in-tree interfaces and their registration (SPEC section 10)"
TRITON_CPU = "Triton's own cpu backend (its driver, launcher and benchmark)"
AOTI = ("AOTI packaging, constants and runner: out of scope in the audit (S36, S50, S52;"
        " SPEC section 8 excludes the AOTI C-shim ABI)")
TVM = "the TVM backend's own targets (llvm, cuda)"
XLA = "torch_xla tensors, which have no strides to clone"
TESTS = "test and repro tooling, not on the compile path"
HOST = "cpu as the host: host memory, host scalars and copies, the same for every device"
META = "meta tensors have no storage or device: the same for every device"
PU1 = "PrivateUse1 not renamed: no out-of-tree backend can be loaded yet"
CPU_ITSELF = "the cpu device's own (stock) answer; every other device asks its record"
TRITON_NAMES = "in-tree GPU names where a Triton-scheduled device would take the same path"
INTREE_KEYS = "in-tree devices keep stock's answer; other devices ask their record"
EAGER = ("the eager kernel's own convention (output layout, dtype, shape or buffer, supported"
         " inputs), which a decomposition or meta kernel reproduces for that device")
HPU = "HPU's own kernels and runtime (contiguous inputs only, its RNG ops)"
FEATURES = ("in-tree devices keep stock's answer; an out-of-tree device declares the"
            " BackendFeature")

VERDICTS: list[Verdict] = [
    N("*", "*", "privateuseone", PU1),
    # ---- Dynamo ---------------------------------------------------------
    D("_dynamo/backends/cudagraphs.py", "*", "*", CUDAGRAPHS, "S53"),
    D("_dynamo/backends/tvm.py", "*", "*", TVM),
    D("_dynamo/compiled_autograd.py", "*move_graph_nodes_to_cuda", "*",
      "compiled autograd moves cpu graph nodes to cuda for CUDA graphs"),
    N("_dynamo/debug_utils.py", "*", "cpu", HOST),
    N("_dynamo/debug_utils.py", "*", "meta", META),
    D("_dynamo/device_interface.py", "CudaInterface.*", "*", INTREE),
    D("_dynamo/device_interface.py", "MtiaInterface.*", "*", INTREE),
    D("_dynamo/device_interface.py", "XpuInterface.*", "*", INTREE),
    D("_dynamo/device_interface.py", "CpuInterface.*", "*", INTREE),
    N("_dynamo/guards.py", "*", "meta", META),
    N("_dynamo/repro/*", "*", "cpu", HOST),
    D("_dynamo/repro/*", "*", "cuda", TESTS + ": the repro script records CUDA"),
    D("_dynamo/test_case.py", "*", "*", TESTS),
    D("_dynamo/test_minifier_common.py", "*", "*", TESTS),
    R("_dynamo/symbolic_convert.py", "*_maybe_emit_sync_dealloc", "cuda,xpu", INTREE_KEYS, "S30"),
    N("_dynamo/utils.py", "get_inputs_devices", "meta", META),
    D("_dynamo/utils.py", "clone_input", "xla", XLA),
    D("_dynamo/utils.py", "check_is_cuda", "cuda",
      CUDAGRAPHS + ": backends/cudagraphs' input check"),
    R("_dynamo/utils.py", "is_compile_supported", "*", INTREE_KEYS, "S13"),
    N("_dynamo/variables/builder.py", "*", "meta", META),
    D("_dynamo/variables/optimizer.py", "_is_static_for_cudagraphs", "cuda", CUDAGRAPHS),
    L("_dynamo/variables/optimizer.py", "*safe_to_set_capturable", "*",
      "compiled optimizer's capturable: is_cuda or is_xpu (outside the map)"),
    N("_dynamo/variables/optimizer.py", "*move_step_if_cpu", "cpu", HOST),
    D("_dynamo/variables/tensor.py", "*method_attr_is_cuda", "cuda",
      "Tensor.is_cuda's own meaning"),
    D("_dynamo/variables/tensor.py", "*method_type", "cpu",
      "Tensor.type()'s legacy names (torch.FloatTensor vs torch.cuda.FloatTensor)"),
    N("_dynamo/variables/tensor.py", "*method_get_device", "cpu",
      "Tensor.get_device() is -1 on cpu"),
    N("_dynamo/variables/torch.py", "*handle_synchronize", "cpu",
      "synchronizing the host is a no-op"),
    R("_dynamo/variables/user_defined.py", "*_in_graph_classes", "hpu",
      "stock's HPU entry; other devices' Stream/Event classes come from their record", "S27"),
    # ---- AOTAutograd ----------------------------------------------------
    N("_functorch/_aot_autograd/streams.py", "*", "cpu", HOST),
    N("_functorch/benchmark_utils.py", "*", "cpu", HOST + " (profiler trace of a cpu-only run)"),
    # ---- Inductor: vendor areas -----------------------------------------
    D("_inductor/codegen/cutlass/*", "*", "*", CUTLASS),
    D("_inductor/autotune_process.py", "CUTLASSBenchmarkRequest*", "*", CUTLASS),
    D("_inductor/codegen/cutedsl/*", "*", "*", CUTEDSL),
    D("_inductor/runtime/cutedsl_cache.py", "*", "*", CUTEDSL),
    D("_inductor/cudagraph_trees.py", "*", "*", CUDAGRAPHS),
    D("_inductor/cudagraph_utils.py", "*", "*", CUDAGRAPHS),
    D("_inductor/output_code.py", "cudagraph_post_compile", "cuda", CUDAGRAPHS),
    D("_inductor/output_code.py", "CompiledFxGraph.*", "cuda", CUDAGRAPHS),
    D("_inductor/output_code.py", "CompiledAOTI.*", "*", AOTI, "S52"),
    D("_inductor/codegen/cpp_wrapper_mps.py", "*", "*", MPS),
    D("_inductor/codegen/mps*.py", "*", "*", MPS),
    D("_inductor/codegen/pallas.py", "*", "*", PALLAS),
    D("_inductor/aoti_eager.py", "*", "*", AOTI),
    D("_inductor/codecache.py", "AotCodeCompiler.*", "*", AOTI, "S50"),
    D("_inductor/cpp_builder.py", "CppBuilder.save_compile_cmd_to_cmake", "*", AOTI, "S36"),
    D("_inductor/fx_passes/mkldnn_fusion.py", "*", "*", ONEDNN),
    D("_inductor/mkldnn_ir.py", "*", "*", ONEDNN),
    D("_inductor/utils.py", "is_mkldnn_*_supported", "*", ONEDNN, "S15"),
    D("_inductor/fx_passes/freezing_patterns.py", "*", "cpu", X86),
    D("_inductor/fx_passes/quantization.py", "_is_valid_dequant_conv_pattern*", "*", ONEDNN),
    D("_inductor/fx_passes/quantization.py", "concat_linear_woq_int4", "cpu", X86),
    D("_inductor/kernel/flex_gemm/*", "*", "cuda", NVIDIA + ": FlexGEMM"),
    D("_inductor/utils.py", "use_nv_universal_gemm_template", "cuda", NVIDIA),
    D("_inductor/utils.py", "use_ck_template", "cuda", ROCM),
    D("_inductor/utils.py", "is_triton_fp8_dtype_supported", "hip", ROCM),
    D("_inductor/runtime/hints.py", "DeviceProperties.create", "cuda",
      ROCM + ": cuda on ROCm is hip"),
    D("_inductor/runtime/triton_heuristics.py", "*", "hip", ROCM),
    D("_inductor/runtime/triton_heuristics.py", "CachingAutotuner._create_compile_options", "cuda",
      NVIDIA + ": ptxas options"),
    D("_inductor/runtime/triton_heuristics.py", "CachingAutotuner._create_compile_options", "xpu",
      "Intel's zebin kernel format"),
    D("_inductor/runtime/triton_heuristics.py", "CachingAutotuner._precompile_config", "mtia",
      "MTIA's own runtime flags"),
    D("_inductor/runtime/triton_heuristics.py", "*", "cpu", TRITON_CPU),
    D("_inductor/runtime/triton_helpers.py", "*", "cpu", TRITON_CPU),
    D("_inductor/codegen/triton.py", "TritonKernel.codegen_kernel", "cpu", TRITON_CPU),
    D("_inductor/codegen/triton.py", "TritonOverrides.atan", "cuda", NVIDIA + ": libdevice atan"),
    D("_inductor/codegen/triton.py", "TritonOverrides._can_use_4x_random", "cuda",
      NVIDIA + ": Philox 4x random matching CUDA eager"),
    D("_inductor/codegen/triton.py", "TritonKernel._enable_pdl_codegen", "cuda", NVIDIA),
    D("_inductor/codegen/triton_utils.py", "use_uint8_triton_storage_for_cuda_*", "cuda",
      NVIDIA),
    D("_inductor/select_algorithm.py", "TritonTemplate.generate", "cpu", TRITON_CPU),
    D("_inductor/autotune_process.py", "TritonBenchmarkRequest.make_run_fn", "cpu", TRITON_CPU),
    D("_inductor/graph.py", "GraphLowering.codegen_with_cpp_wrapper", "cpu",
      TRITON_CPU + " under AOTI"),
    D("_inductor/kernel_inputs.py", "KernelInputs.device_name", "cuda", ROCM + ": gcnArchName"),
    D("_inductor/compile_fx.py", "is_tf32_warning_applicable", "cuda",
      "the warning is about torch.backends.cuda.matmul.allow_tf32"),
    D("_inductor/inductor_prims.py", "_reserve_rng_state", "cuda",
      NVIDIA + ": CUDA's Philox generator"),
    D("_inductor/fx_passes/post_grad.py", "unfuse_bias_add_to_pointwise", "xpu",
      "an XPU-only precision rule (regresses ROCm accuracy)"),
    D("_inductor/decomposition.py", "_embedding_dense_backward", "xpu",
      "an XPU-only fallback", "S74"),
    D("_inductor/decomposition.py", "_native_layer_norm", "mtia", "an MTIA-only fallback", "S74"),
    D("_inductor/decomposition.py", "repeat_interleave_Tensor", "mps", MPS),
    D("_inductor/choices.py", "InductorChoices._need_to_fix_layout", "mps", MPS),
    D("_inductor/kernel/flex/flex_attention.py", "*", "mps", MPS, "S85"),
    D("_inductor/scheduler.py", "Scheduler.create_backend", "cuda",
      NVIDIA + ": Triton needs sm70+"),
    D("_inductor/codegen/cpp_wrapper_cpu_array_ref.py", "*", "cpu",
      "the array-ref (stack-allocating) C++ wrapper is cpu-only"),
    D("_inductor/cpp_builder.py", "get_cpp_torch_device_options", "*",
      "in-tree devices' build options; other devices give theirs through the record", "S35"),
    D("_inductor/cpp_builder.py", "_add_build_config_options", "*",
      "in-tree devices' fbcode build options, of get_cpp_torch_device_options", "S35"),
    # ---- Inductor: cpu as host, meta, PrivateUse1 -----------------------
    N("_inductor/*", "*", "meta", META),
    N("_inductor/codegen/cpp_wrapper_cpu.py", "CppWrapperCpu.codegen_model_constructor", "cpu",
      HOST),
    N("_inductor/codegen/cpp_wrapper_gpu.py", "CppWrapperGpu._generate_kernel_call_helper", "cpu",
      "a cpu kernel inside a GPU graph is called as in CppWrapperCpu"),
    N("_inductor/codegen/triton_utils.py", "should_unwrap_unspec_arg", "cpu", HOST),
    N("_inductor/codegen/wrapper.py", "AllocateLine.plan", "cpu", HOST + " (static host buffers)"),
    N("_inductor/codegen/subgraph.py", "*", "cpu", HOST + " (cpu benchmark request)"),
    N("_inductor/select_algorithm.py", "ExternKernelCaller.__init__", "cpu",
      HOST + " (cpu benchmark request)"),
    N("_inductor/fx_passes/memory_estimator.py", "*", "cpu", HOST),
    N("_inductor/fx_passes/post_grad.py", "is_index_put_and_requires_h2d_sync_for_gpu_value", "cpu",
      HOST),
    N("_inductor/fx_passes/post_grad.py", "ConstructorMoverPass.*", "cpu", HOST),
    N("_inductor/graph.py", "_is_cpu_strided_tensor_pinned", "cpu", HOST),
    N("_inductor/graph.py", "GraphLowering.is_unspec_arg", "cpu", HOST),
    N("_inductor/ir.py", "Layout.__init__", "cpu", "pinned memory is host memory"),
    N("_inductor/ir.py", "DeviceCopy.create", "cpu", HOST),
    N("_inductor/lowering.py", "maybe_copy_cpu_scalar", "cpu", HOST),
    N("_inductor/lowering.py", "_first_non_cpu_device", "cpu",
      "a 0-d cpu operand is a host scalar: the other operands' device runs the op"),
    N("_inductor/scheduler.py", "Scheduler.update_zero_dim_cpu_tensor", "cpu", HOST),
    N("_inductor/utils.py", "decode_device", "cpu,meta", HOST),
    N("_inductor/utils.py", "synchronize", "cpu", "synchronizing the host is a no-op"),
    N("_inductor/ir.py", "is_cpu", "cpu", CPU_ITSELF),
    N("_inductor/scheduler.py", "BaseSchedulerNode.is_cpu", "cpu", CPU_ITSELF),
    N("_inductor/utils.py", "is_cpp_scheduled", "cpu", CPU_ITSELF),
    N("_inductor/codegen/cpp.py", "CppScheduling.define_kernel", "cpu", CPU_ITSELF),
    N("_inductor/device_operator_policy.py", "*", "cpu,meta",
      "operator policies are refused for the host and meta"),
    N("_inductor/runtime/hints.py", "DeviceProperties.create", "cpu", "the host has no warps"),
    D("utils/_triton.py", "*", "cpu", TRITON_CPU),
    # ---- Inductor: asks the record, in-tree keys kept ---------------------
    R("_inductor/utils.py", "get_gpu_type", "cuda",
      "stock's tie-break: cuda when several are available", "S2"),
    R("_inductor/utils.py", "get_current_backend", "*",
      "in-tree devices' config keys (cpu/xpu/tpu_backend); others ask their Scheduling", "S4"),
    R("_inductor/ir.py", "is_triton", "cpu,cuda,xpu",
      "in-tree config keys (cpu/cuda/xpu_backend); others ask their Scheduling", "S34"),
    R("_inductor/codecache.py", "_get_cpp_wrapper_header", "cpu", INTREE_KEYS, "S41"),
    R("_inductor/codecache.py", "_get_cpp_prefix_header", "cpu",
      INTREE_KEYS + " (is_cpp_scheduled)", "S41"),
    R("_inductor/codecache.py", "CppCodeCache.load_async", "cpu",
      INTREE_KEYS + " (is_cpp_scheduled)", "S41"),
    R("_inductor/codecache.py", "_is_glue", "cpu", INTREE_KEYS + " (is_cpp_scheduled)", "S41"),
    R("_inductor/kernel/mm_common.py", "supports_out_dtype", "cuda,xpu",
      FEATURES + " (MM_OUT_DTYPE)", "S77"),
    R("_inductor/kernel/mm_common.py", "use_native_matmul", "cuda,xpu",
      FEATURES + " (NATIVE_MATMUL)", "S78"),
    R("_inductor/kernel/bmm.py", "tuned_bmm", "cuda,xpu", FEATURES + " (NATIVE_MATMUL)", "S78"),
    R("_inductor/scheduler.py", "_is_gpu_triton_backend", "cuda,xpu",
      FEATURES + " (MIX_ORDER_REDUCTION)"),
    R("_inductor/kernel/flex/flex_attention.py", "flex_attention", "cpu",
      FEATURES + " (CPP_TEMPLATES)"),
    R("_inductor/utils.py", "_use_template_for_cpu", "cpu", FEATURES + " (CPP_TEMPLATES)"),
    D("_inductor/codegen/common.py", "_initialize_device_op_overrides", "tpu", INTREE),
    # ---- Inductor: left, with the 2.13 site -----------------------------
    D("_inductor/utils.py", "can_use_tma*", "xpu",
      "Intel's own tensor-descriptor layout rules; other devices take CUDA's", "S6"),
    R("_inductor/codegen/triton.py", "TMACompatibilityChecker.can_use_tma", "*",
      "in-tree names keep stock's answer; the PrivateUse1 device asks "
      "supports_tensor_descriptors", "S6"),
    L("_inductor/utils.py", "is_triton_fp8_dtype_supported", "cuda",
      "only cuda's fp8 support asked", "S12"),
    L("_inductor/utils.py", "device_supports_fp64", "xpu", "only xpu asked about fp64", "S11"),
    L("_inductor/utils.py", "use_triton_template", "cpu",
      "Triton GEMM templates on cpu (Triton's cpu backend)"),
    L("_inductor/codecache.py", "get_kernel_bin_format", "*",
      "kernel binary format by name", "S46"),
    L("_inductor/codecache.py", "HalideCodeCache.*", "*",
      "Halide targets cpu and cuda only", "S51"),
    L("_inductor/codegen/halide.py", "*", "*", "Halide targets cpu and cuda only", "S51"),
    L("_inductor/codegen/common.py", "OpOverrides._initialize_pointwise_overrides", "mps",
      "backend-name list (mps is a backend name here)", "S33"),
    L("_inductor/codegen/common.py", "CSEProxy._default", "mps",
      "backend-name list (mps is a backend name here)", "S33"),
    L("_inductor/codegen/common.py", "_is_runtime_triton_assert_target", "cpu",
      "Triton asserts for every non-cpu device, with S4's backend name", "S33"),
    L("_inductor/codegen/cpp_wrapper_gpu.py", "DeferredTritonCallWrapper.generate_load_kernel",
      "xpu",
      "loadKernel arguments follow xpu", "S39"),
    D("_inductor/codegen/cpp_wrapper_cpu.py", "CppWrapperCpu.codegen_model_constructor", "cuda",
      AOTI + ": all_cuda places the constant blob"),
    L("_inductor/codegen/wrapper.py", "PythonWrapperCodegen.make_allocation", "*",
      "fast empty_strided_<device> for in-tree names", "S43"),
    R("_inductor/compile_fx.py", "get_cuda_device_context", "cuda",
      "stock's cuda context, kept for cuda graphs; get_device_context asks the record",
      "S65"),
    R("_inductor/compile_fx.py", "get_device_context", "cuda",
      "cuda graphs keep stock's context; other devices use DeviceInterface.device",
      "S65"),
    R("_inductor/compile_fx.py", "_should_wakeup_async_compile", "cuda,xpu",
      "in-tree names keep stock's answer; other devices ask is_gpu"),
    L("_inductor/choices.py", "InductorChoices.get_config_heuristics", "*",
      "config heuristics if-chain", "S67"),
    D("_inductor/decomposition.py", "_cpp_or_mps", "mps",
      MPS + ": its reductions are too slow for the GPU mm decompositions", "S75"),
    L("_inductor/fx_passes/fuse_attention.py", "*", "*",
      "SDPA pattern numerics keyed on cuda/xpu", "S83"),
    L("_inductor/fx_passes/misc_patterns.py", "*", "cuda", "e8m0 pattern keyed on cuda", "S83"),
    L("_inductor/fx_passes/quantization.py", "*", "*", "weight-only quant patterns by name", "S84"),
    L("_inductor/fx_passes/replace_random.py", "*", "cuda",
      "align_random_eager only on cuda", "S72"),
    L("_inductor/ir.py", "ExternKernel.process_kernel", "cuda",
      "graphsafe RNG asserts cuda", "S69"),
    L("_inductor/jagged_lowerings.py", "*", "cuda", "jagged lowerings cuda only (outside the map)"),
    L("_inductor/kernel/conv.py", "convolution", "xpu", "conv1d to conv2d only on xpu", "S86"),
    D("_inductor/kernel/conv.py", "convolution", "cpu",
      "cpu's eager conv kernels (oneDNN) take the bias; other devices' have it peeled off"
      " as cuDNN's (a property of the eager kernel, not of the C++ backend)"),
    N("_inductor/kernel/flex/flex_flash_attention.py", "*", "cpu",
      HOST + " (flash flex refuses captured 0-d cpu scalars)"),
    L("_inductor/lookup_table/*", "*", "cuda",
      "lookup-table tuning keyed on cuda (outside the map)"),
    D("_inductor/lowering.py", "quantized_decomposed_quantize_per_tensor_tensor.inner_fn", "cpu",
      X86 + ": quantize's fma and saturating round, unlike the eager reference's round and"
      " clamp, which other devices keep"),
    L("_inductor/lowering.py", "get_threads_per_round", "cuda",
      "align_random_eager only on cuda", "S72"),
    L("_inductor/lowering.py", "inductor_random", "cuda", "align_random_eager only on cuda", "S72"),
    L("_inductor/lowering.py", "use_two_step_variance", "cuda",
      "Triton's fp16/bf16 two-step variance thresholds for cuda only (the C++ backend's"
      " threshold asks is_cpp_scheduled)", "S73"),
    L("_inductor/lowering.py", "sdpa_constraint.*", "*",
      "SDPA attention-bias alignment is_cuda/is_xpu (outside the map)"),
    L("_inductor/runtime/static_triton_launcher.py", "*", "*",
      "static launcher for cuda/hip/xpu", "S60"),
    L("_inductor/runtime/triton_heuristics.py", "CachingAutotuner._could_rblock_scale", "*",
      "dynamic rblock scaling for cuda/hip", "S63"),
    L("_inductor/runtime/triton_heuristics.py", "CachingAutotuner.copy_args_to_cpu_if_needed.*",
      "*",
      "autotune argument offload only for cuda/xpu", "S62"),
    L("_inductor/runtime/triton_heuristics.py", "CachingAutotuner._build_fast_launcher", "*",
      "fast launcher for cuda/hip", "S60"),
    L("_inductor/runtime/triton_heuristics.py", "StaticTritonCompileResult.*", "*",
      "static launcher for cuda/hip/xpu", "S60"),
    R("_inductor/scheduler.py", "ForeachKernelSchedulerNode.*", "mps",
      "combo kernels are Triton's: mps keeps stock's answer; other devices ask"
      " is_cpp_scheduled"),
    # ---- What Dynamo traces and AOTAutograd runs ------------------------
    D("__init__.py", "_TorchCompileInductorWrapper.__init__", "cuda",
      CUDAGRAPHS + ": the CUDA version they need"),
    N("_decomp/__init__.py", "*", "meta", "'meta' names a decomposition table, not a device"),
    N("_decomp/decompositions.py", "tensor_split_tensor_indices_or_sections_py_impl", "cpu",
      HOST),
    N("_decomp/decompositions.py", "_to_copy", "cpu", HOST),
    D("_decomp/decompositions.py", "_addmm_activation", "cuda",
      EAGER + ": cuBLASLt's GELU epilogue is the tanh one"),
    D("_decomp/decompositions.py", "native_batch_norm_helper", "cpu",
      EAGER + ": cpu's kernel saves its statistics in the input dtype, empty in eval"),
    D("_decomp/decompositions*.py", "log_sigmoid_forward", "*", EAGER + ": the buffer output"),
    D("_decomp/decompositions.py", "_upsample_*", "cuda", EAGER + ": the output memory format"),
    D("_decomp/decompositions.py", "_reflection_or_replication_pad", "*",
      EAGER + ": the output memory format"),
    D("_decomp/decompositions.py", "max_pool2d_with_indices_backward", "*",
      "XPU's and MPS's native kernels are kept (speed, macOS scatter_add)"),
    L("_decomp/decompositions.py", "_grid_sampler_2d", "cuda,xpu",
      "int32 grid-sampler indices for GPU codegen on cuda/xpu; a C++-scheduled device"
      " takes cpu's int64 path"),
    D("_decomp/decompositions_for_rng.py", "*", "cuda",
      NVIDIA + ": CUDA's Philox generator (functionalize_rng_ops)", "S90"),
    L("_higher_order_ops/associative_scan.py", "*", "cuda,xpu",
      "pointwise scans compile to one Triton kernel: " + TRITON_NAMES),
    D("_higher_order_ops/cudagraph_conditional_nodes.py", "*", "cuda", CUDAGRAPHS),
    D("_higher_order_ops/inline_asm_elementwise.py", "*", "cuda", NVIDIA + ": inline PTX"),
    D("_higher_order_ops/out_dtype.py", "is_int_mm", "*",
      EAGER + ": torch._int_mm's kernels (cuda, xpu)"),
    N("_meta_registrations.py", "device_hint", "meta", META),
    D("_meta_registrations.py", "*", "*", EAGER),
    N("_prims/__init__.py", "_make_prim._backend_select_impl", "meta", META),
    D("_prims/__init__.py", "_svd_meta", "cuda", EAGER),
    D("_prims/rng_prims.py", "register_philox_rand.*", "*",
      NVIDIA + ": CUDA's Philox generator (functionalize_rng_ops)", "S90"),
    D("_prims/rng_prims.py", "register_run_dtensor_rng_op.*", "cuda",
      NVIDIA + ": CUDA's Philox generator (distributed tensors)"),
    D("_prims/rng_prims.py", "*.impl_hpu", "hpu", HPU),
    D("_prims_common/__init__.py", "compare_tensor_meta", "cuda",
      TESTS + ": reference checks equate cuda and cuda:0"),
    D("_prims_common/__init__.py", "_check_strides_helper", "cuda",
      TESTS + ": reference checks skip stride checks on cuda"),
    N("_prims_common/__init__.py", "is_cpu_scalar_tensor", "cpu", HOST),
    D("_prims_common/__init__.py", "get_acc_type", "cpu",
      EAGER + ": cpu's kernels accumulate in double (at::toAccumulateType)"),
    N("_prims_common/wrappers.py", "is_cpu_scalar", "cpu", HOST),
    D("_refs/__init__.py", "is_noncontiguous_supported", "hpu", HPU),
    R("_refs/__init__.py", "native_group_norm", "cpu",
      "the reference keeps stock's per-channel form for cpu; Inductor's decomposition asks"
      " is_cpp_scheduled"),
    D("_refs/__init__.py", "native_layer_norm", "cpu,mtia",
      EAGER + ": mean and rstd in the input dtype"),
    N("_refs/__init__.py", "tensor_split", "cpu", HOST),
    N("_refs/__init__.py", "masked_fill", "cpu", HOST),
    N("_refs/__init__.py", "_internal_new_from_data", "cpu", HOST),
    N("_refs/__init__.py", "_internal_new_from_data", "meta", META),
    R("_refs/fft.py", "_promote_type_fft", "cuda,meta,xpu",
      "in-tree names keep stock's answer; the PrivateUse1 device asks"
      " BackendFeature.HALF_PRECISION_FFT"),
    D("_refs/nn/functional/__init__.py", "channel_shuffle", "cuda", EAGER),
    D("_subclasses/fake_impls.py", "is_noncontiguous_supported", "hpu", HPU),
    N("_subclasses/fake_impls.py", "_spdiags*", "cpu", HOST),
    N("_subclasses/fake_impls.py", "embedding", "meta", META),
    D("_subclasses/fake_impls.py", "conv", "xpu", EAGER + ": XPU's 1-d convolution"),
    N("_subclasses/fake_impls.py", "make_fast_binary_impl.*", "cpu", HOST),
    N("_subclasses/fake_tensor.py", "*", "cpu", HOST),
    N("_subclasses/fake_tensor.py", "*", "meta", META),
    D("_subclasses/fake_tensor.py", "FakeTensor._normalize_fake_device", "cuda,xpu",
      "a real CUDA/XPU context before fake tensors, which CUDA's autograd engine needs"),
    D("_subclasses/fake_tensor.py", "FakeTensor._normalize_fake_device", "mps",
      MPS + ": no is_initialized()"),
    D("_subclasses/fake_tensor.py", "FakeTensorMode.avoid_device_init", "hpu", HPU),
    D("_subclasses/meta_utils.py", "*", "*", XLA + " or storage (XLA, lazy tensors)"),
    D("fx/passes/backends/cudagraphs.py", "*", "cuda", CUDAGRAPHS),
    D("nn/attention/_fa[34].py", "*", "cuda", NVIDIA + ": FlashAttention 3/4"),
    D("nn/attention/varlen.py", "*", "cuda", NVIDIA + ": variable-length flash attention"),
    D("nn/attention/experimental/*", "*", "cuda", NVIDIA + ": fp8 attention"),
    D("nn/attention/bias.py", "CausalBias._dispatch", "xpu",
      EAGER + ": XPU's flash attention head-size alignment"),
    R("nn/attention/flex_attention.py", "*", "cpu",
      "cpu keeps stock's answer; other devices ask _flex_lowering (their record)"),
    D("nn/attention/flex_attention.py", "*", "mps", MPS),
    R("nn/attention/flex_attention.py", "_flex_lowering", "*", INTREE_KEYS),
    D("nn/functional.py", "max_pool3d_with_indices", "cuda",
      EAGER + ": CUDA's backward is not deterministic"),
    D("nn/functional.py", "interpolate", "cpu", EAGER + ": cpu's backward is deterministic"),
    D("nn/functional.py", "pad", "*", EAGER + ": CUDA's and XPU's backward is not deterministic"),
    N("optim/*", "_multi_tensor_*", "cpu", HOST + " (step counters, scalar hyperparameters)"),
    N("optim/*", "_fused_*", "cpu", HOST + " (a learning rate on the host)"),
    D("optim/optimizer.py", "_disable_dynamo_if_unsupported.*", "cuda,xpu",
      EAGER + ": cuda's and xpu's foreach kernels take no device tensor as a scalar"),
    D("optim/optimizer.py", "Optimizer._accelerator_graph_capture_health_check", "cuda,xpu",
      CUDAGRAPHS),
    D("utils/cpp_extension.py", "_find_rocm_home", "hip", ROCM),
    D("utils/cpp_extension.py", "*_paths", "*",
      "CUDA's and SYCL's toolkit paths; other devices give their C++ build options through"
      " their record"),
]


def classify(branches: list[Branch], verdicts: list[Verdict] = VERDICTS):
    """``[(branch, first matching verdict or None)]`` and the verdicts, area rules
    aside, that matched nothing (stale: the branch they listed is gone)."""
    used: set[int] = set()
    out = []
    for b in branches:
        i = next((i for i, v in enumerate(verdicts) if v.matches(b)), None)
        if i is not None:
            used.add(i)
        out.append((b, verdicts[i] if i is not None else None))
    return out, [v for i, v in enumerate(verdicts) if i not in used and not v.area]


# --------------------------------------------------------------------------
# The 2.13 site map (shared/research/sites_2.13.md) and its audit
# (shared/research/sites_status.md): severity, verdict, what is still keyed on names.
# --------------------------------------------------------------------------

SEVERITY: dict[str, str] = dict(item.split(":") for item in """
S1:H S2:H S3:H S4:M S5:H S6:M S7:M S8:M S9:M S10:M S11:L/M S12:L S13:L S14:L S15:L S16:M
S17:H S18:M S19:H S20:M S21:M S22:L/M S23:H S24:M S25:M S26:M S27:H S28:M S29:L S30:M S31:M
S32:L/M S33:L/M S34:M S35:H S36:L/M S37:H S38:H S39:M S40:M/H S41:M S42:M S43:L S44:L S45:H
S46:M S47:M/H S48:H S49:M S50:M S51:L S52:H S53:M S54:H S55:H S56:M S57:L S58:H S59:M S60:L
S61:L S62:L/M S63:L S64:M S65:M S66:L/M S67:L S68:M S69:M S70:H S71:M S72:L S73:L S74:M
S75:L/M S76:M S77:M S78:L S79:L/M S80:M S81:L/M S82:L S83:L S84:L S85:L S86:L S87:H S88:M
S89:L S90:M S91:L/M S92:L
""".split())

#: The audit's R verdicts: the site asks the registry.  S6: host-side TMA
#: (``has_triton_tma()``) stays process-wide: it says which descriptor API the
#: installed Triton has, asked by Dynamo before a kernel's device is known.
#: S65, S81 and S91 came after the audit: ``get_device_context``, mm padding
#: (``DeviceInterface.pads_matmuls``) and AOTAutograd's autocast check (the
#: PrivateUse1 device's autocast state) ask the record.
REPLACED = frozenset(
    [f"S{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 34, 35, 38, 41, 42, 45, 48, 49,
                       55, 56, 59, 65, 66, 70, 71, 74, 75, 77, 78, 79, 80, 81, 87, 89, 91)]
    + [f"S{i}" for i in range(19, 33)])

#: Every other site: (audit verdict P/X/NA, what is still keyed on names).
NOT_REPLACED: dict[str, tuple[str, str]] = {
    "S10": ("P", "get_max_numwarps, flex-decoding SM count, _is_sm7x_or_older_gpu: torch.cuda/xpu"),
    "S18": ("P", "MOD_SKIPLIST unchanged: the python-backend dummy module is skipped"),
    "S33": ("P", "backend-name lists: right only if the Scheduling subclasses Triton/Cpp"),
    "S37": ("P", "DEVICE_TO_INT still {cpu, cuda}: AOTI input check skipped"),
    "S40": ("P", "no flag to force proxy-executor dispatch (C shim per device)"),
    "S54": ("P", "_init_autotune_subprocess initialises CUDA only"),
    "S58": ("P", "benchmark() drops the inferred device before benchmark_gpu"),
    "S64": ("P", "inductor_meta_from_config hashes the active driver"),
    "S76": ("P", "atomic-add fallback: bf16 rule on global cuda/xpu availability"),
    "S82": ("P", "decompose_mem_bound_mm keyed on cuda/xpu"),
    "S83": ("P", "fuse_attention / misc_patterns keyed on cuda/xpu"),
    "S11": ("X", "device_supports_fp64 asks xpu only"),
    "S12": ("X", "fp8 support asked of cuda only"),
    "S14": ("X", "roofline and datasheet numbers from torch.cuda/torch.xpu"),
    "S15": ("NA", "oneDNN's device list (cpu, xpu): vendor-specific by design"),
    "S36": ("X", "AOTI CMake packaging: out of scope (SPEC section 8)"),
    "S39": ("X", "cpp-wrapper loadKernel arguments follow torch.xpu / device_type xpu"),
    "S43": ("X", "fast empty_strided_<device> for in-tree names only"),
    "S44": ("X", "nvtx ranges in generated code"),
    "S46": ("X", "kernel binary format known for cuda/xpu only"),
    "S47": ("X", "save_gpu_kernel / reload_cubin_path: asm keys for hip/cuda/xpu"),
    "S50": ("X", "AOTI compile step: out of scope (SPEC section 8)"),
    "S51": ("X", "Halide targets cpu and cuda"),
    "S52": ("X", "AOTI runner in Python: out of scope (SPEC section 8)"),
    "S53": ("NA", "CUDA graphs: vendor-specific by design"),
    "S57": ("X", "collective benchmark and the TF32 hack use torch.cuda"),
    "S60": ("X", "static launcher for cuda/hip/xpu"),
    "S61": ("X", "pointwise/reduction configs follow torch.cuda/xpu availability"),
    "S62": ("X", "autotune argument offload for cuda/xpu only"),
    "S63": ("X", "dynamic rblock scaling for cuda/hip"),
    "S67": ("X", "config-heuristics if-chain cuda/xpu/cpu/mtia"),
    "S68": ("X", "SystemInfo.CHECK_GPUS and _graph_device_type: cuda/xpu"),
    "S69": ("X", "graphsafe RNG asserts cuda in ExternKernel.process_kernel"),
    "S72": ("X", "align_random_eager on cuda only"),
    "S73": ("X", "two-step variance: Triton's thresholds for cuda only"),
    "S84": ("X", "quantization patterns keyed on cpu/cuda/xpu"),
    "S85": ("X", "flex defaults: USE_TMA from torch.xpu; mps branches"),
    "S86": ("X", "conv1d to conv2d on xpu only"),
    "S88": ("P", "preserve_global_state restores the cuda matmul fp32 precision only"),
    "S90": ("X", "metadata collection patches torch.cuda.set_rng_state;"
                   " functionalize_rng_ops cuda only"),
    "S92": ("X", "torch.cuda.device_count / mem_get_info heuristics"),
}


def is_high_or_medium(site: str) -> bool:
    return "H" in SEVERITY[site] or "M" in SEVERITY[site]


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


@dataclass
class Report:
    classified: list  # [(Branch, Verdict | None)]
    stale: list[Verdict]
    gone: list[tuple[tuple[str, str, tuple[str, ...]], int]]  # stock keys with fewer branches now
    problems: list[str]

    @property
    def unlisted(self) -> list[Branch]:
        return [b for b, v in self.classified if v is None]


def site_problems(classified) -> list[str]:
    """Contradictions between the verdicts and the site table (empty = consistent)."""
    problems = []
    if set(SEVERITY) != REPLACED | set(NOT_REPLACED):
        problems.append("the site table does not cover S1..S92 exactly once")
    for site in sorted(SEVERITY, key=lambda s: int(s[1:])):
        if site not in REPLACED and is_high_or_medium(site):
            if not NOT_REPLACED.get(site, ("", ""))[1].strip():
                problems.append(f"{site} ({SEVERITY[site]}) is not replaced and has no reason")
    for b, v in classified:
        if v is None or not v.site:
            continue
        if v.site not in SEVERITY:
            problems.append(f"{b.rel}:{b.line}: verdict names unknown site {v.site}")
        elif v.kind == "left" and v.site in REPLACED:
            problems.append(f"{b.rel}:{b.line}: left branch of {v.site}, which the audit "
                            "counts as replaced")
    return problems


def build_report(tree: Path = REPO, stock: Path | None = None,
                 verdicts: list[Verdict] = VERDICTS) -> Report:
    stock = stock if stock is not None else stock_torch_root(tree)
    errors: list[str] = []
    files = tree_files(tree, stock)
    branches = scan(files, errors)
    classified, stale = classify(branches, verdicts)
    gone = []
    if stock is not None:
        stock_files = {r: p for r, p in _py_files(stock).items() if _in_scope(r)}
        # A file the series does not have was scanned above as the stock one.
        shared = {r for r, p in stock_files.items() if files.get(r) == p}
        before = collections.Counter(b.key for b in branches if b.rel in shared)
        before.update(b.key for b in scan({r: p for r, p in stock_files.items()
                                           if r not in shared}))
        after = collections.Counter(b.key for b in branches)
        gone = [(k, n - after[k]) for k, n in before.items() if after[k] < n]
    return Report(classified, stale, gone, errors + site_problems(classified))


def print_report(report: Report, verbose: bool = False, out=None) -> None:
    def p(line=""):
        print(line, file=out or sys.stdout)

    classified = report.classified
    files = {b.rel for b, _ in classified}
    p(f"device gates: {len(classified)} branches on a literal device name in {len(files)} files")
    groups: dict[str, collections.Counter] = {k: collections.Counter() for k in KINDS}
    for b, v in classified:
        if v is not None:
            groups[v.kind][(v.reason, v.site)] += 1
    totals = {k: sum(c.values()) for k, c in groups.items()}
    p(f"  asks the record: {len(REPLACED)} sites of the 2.13 map (the audit's R verdicts, "
      f"sites_status.md); {totals['record']} branches keep in-tree names for stock's answers")
    for kind in ("record", "design", "neutral", "left"):
        if kind != "record":
            p(f"  {KINDS[kind]}: {totals[kind]}")
        for (reason, site), n in sorted(groups[kind].items(), key=lambda x: (-x[1], x[0])):
            p(f"    {n:3}  {reason}" + (f" [{site}]" if site else ""))
    p(f"  unlisted: {len(report.unlisted)}")
    for b in report.unlisted:
        p(f"    {b.rel}:{b.line}: {b.qualname}: {b.snippet}")
    left_sites = [s for s in sorted(NOT_REPLACED, key=lambda s: int(s[1:])) if is_high_or_medium(s)]
    p(f"  H/M sites of the 2.13 map not replaced: {len(left_sites)}")
    for s in left_sites:
        status, reason = NOT_REPLACED[s]
        p(f"    {s:4} {SEVERITY[s]:4} {status:2}  {reason}")
    no_reason = [s for s in left_sites if not NOT_REPLACED[s][1].strip()]
    p(f"check: H/M sites left without a stated reason: {len(no_reason)}"
      f" {'OK' if not no_reason else 'FAIL'}")
    p(f"check: unlisted branches: {len(report.unlisted)} {'OK' if not report.unlisted else 'FAIL'}")
    for problem in report.problems:
        p(f"FAIL {problem}")
    gone = sum(n for _, n in report.gone)
    p(f"since stock 2.13.0: {gone} literal branches gone in {len(report.gone)} functions;"
      f" {len(report.stale)} verdicts match nothing")
    if verbose:
        for (rel, qualname, names), n in report.gone:
            p(f"  gone {n}  {rel}: {qualname} {','.join(names)}")
        for v in report.stale:
            p(f"  stale verdict  {v.path} {v.func} {v.names}: {v.reason}")
        for b, v in classified:
            verdict = f"{v.kind}: {v.reason}" if v else "UNLISTED"
            p(f"  {b.rel}:{b.line} {b.qualname} [{b.kind} {','.join(b.names)}] {b.snippet[:80]}"
              f"  -> {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list every branch, the gone ones and stale verdicts")
    ns, stock = parse_tree_and_stock(parser, argv)
    if stock is None:
        return 2
    report = build_report(ns.tree, stock)
    print_report(report, ns.verbose)
    return 1 if report.unlisted or report.problems else 0


if __name__ == "__main__":
    sys.exit(main())

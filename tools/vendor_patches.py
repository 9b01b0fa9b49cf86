"""Inventory of a vendor package's writes to torch's compile stack, and which
of them the series replaces.

Scanning.  In the unzipped Python tree of an out-of-tree backend, a *site* is
one statement that changes torch's compile stack instead of calling a public
registration API: an assignment to an attribute of a torch module or class
(``module.attr =``, ``Class.method =``, ``setattr(torch..., ...)``), a
mutation of a torch table (item write or delete, ``.update``, ``.append``,
``.pop``, ``.cache_clear`` ...), or a call or decorator that registers into a
torch table (``register_decomposition``, ``register_lowering``,
``make_fallback``, ``py_impl`` ...).  Names are resolved through the file's
imports; a function's own local variables (``config = Config(...)``) are not
torch names.  Restores of a patch count as sites too.

Counting.  Each site has a *concern* (CONCERNS: what it changes), a *route*
(ROUTES: the code path it is on, from the vendor file: Inductor through
``compile_fx``, a custom Dynamo backend that runs AOTAutograd with Inductor's
passes but not ``compile_fx``, the Dynamo front end, ...) and a verdict.  A
site counts as *replaced* only if a documented entry point of the series (or
an existing, documented mechanism of stock torch) does what the patch does,
for that device only, with no write to a torch module attribute, list or
dict, and reaches the site's route (REPLACEMENTS: target -> entry point and
the routes it reaches; OVERRIDES: per vendor function, where the target alone
misleads, with the reason).  Inductor options read when the compile worker
pool starts or at run time are never replaced by a per-compile default.

The inventory of the vendors audited so far (file, line, enclosing function,
kind, torch target; no vendor code) is checked in next to this tool as
``vendor_patches_inventory.json``, so the report needs no network::

    python3 tools/vendor_patches.py                 # report the inventory
    python3 tools/vendor_patches.py PATH [--package torch_npu] [--sites] [--json]
    python3 tools/vendor_patches.py PATH --package torch_npu --version 2.13.0 --update-inventory

PATH is a directory (an unzipped wheel) or a ``.whl`` file
(``pip download --no-deps torch-npu==2.13.0``).  Standard library only.
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


# -- classification ----------------------------------------------------------------
#
# A site's *concern* says what part of the compile stack it changes; its
# *verdict* says whether the series replaces it.  A site is replaced only when
# all of these hold (the rule of issue 23):
#
# 1. an entry point of the series (or an existing public mechanism of stock
#    torch) does what the patch does, for that device only, with no write to a
#    torch module attribute, list or dict;
# 2. the entry point is documented;
# 3. it reaches the code path the patch is on: the site's *route* (below) is one
#    the entry point reaches.  The operator policy, for instance, is resolved by
#    ``compile_fx``; a custom Dynamo backend that runs AOTAutograd with
#    Inductor's joint/post-grad passes but never calls ``compile_fx`` (torchair,
#    npugraph_ex) is not reached by it.
#
# Sites that fail 1-3 although a rule names an entry point for their target are
# listed in OVERRIDES with the reason.

ANY = "any"
INDUCTOR = "compile_fx"  # Inductor compiling a graph on the device
CUSTOM_BACKEND = "custom Dynamo backend"  # aot_autograd + Inductor passes, no compile_fx
DYNAMO = "Dynamo front end"
TRANSFER = "CUDA-impersonation mode"
IMPORT = "package import"

# Vendor path prefix -> the route its sites are on (first match).
ROUTES: tuple[tuple[str, str], ...] = (
    ("torch_npu/dynamo/torchair/", CUSTOM_BACKEND),
    ("torch_npu/dynamo/npugraph_ex/", CUSTOM_BACKEND),
    ("torch_npu/dynamo/", DYNAMO),
    ("torch_npu/utils/_dynamo", DYNAMO),
    ("torch_npu/_compat/dynamo.py", DYNAMO),
    ("torch_npu/contrib/transfer_to_npu.py", TRANSFER),
    ("torch_npu/", INDUCTOR),
    ("torch_rbln/", DYNAMO),  # its compile path is the custom Dynamo backend "rbln"
)


def route_of(path: str) -> str:
    for prefix, route in ROUTES:
        if path.startswith(prefix):
            return route
    return IMPORT


@dataclasses.dataclass(frozen=True)
class EntryPoint:
    """A documented replacement: ``ref`` is the dotted name in the series'
    torch that implements it (the test resolves it), ``reaches`` the routes on
    which it applies."""

    name: str
    ref: str
    reaches: frozenset[str] = frozenset({ANY})

    def reaches_route(self, route: str) -> bool:
        return ANY in self.reaches or route in self.reaches


def _ep(name: str, ref: str, *reaches: str) -> EntryPoint:
    return EntryPoint(name, ref, frozenset(reaches or (ANY,)))


_DI = "torch._dynamo.device_interface.DeviceInterface."
_POLICY = "torch._inductor.device_operator_policy.DeviceOperatorPolicy."
IS_GPU = _ep("DeviceInterface.is_gpu", _DI + "is_gpu")
TRITON = _ep("DeviceInterface.is_triton_capable", _DI + "is_triton_capable")
SM_COUNT = _ep("DeviceInterface.get_multi_processor_count", _DI + "get_multi_processor_count")
TMA = _ep("DeviceInterface.supports_tma", _DI + "supports_tma")
WORKER = _ep("DeviceInterface.Worker (its own cache)", _DI + "Worker")
ATEN = _ep("DeviceOpOverrides.aten_device_type",
           "torch._inductor.codegen.common.DeviceOpOverrides.aten_device_type")
CPP_OPTIONS = _ep("DeviceInterface.get_cpp_device_options", _DI + "get_cpp_device_options")
CPP_CFLAGS = _ep("DeviceInterface.get_cpp_optimization_flags", _DI + "get_cpp_optimization_flags")
CPP_TWO_PASS = _ep("DeviceOpOverrides.uses_gpu_cpp_wrapper",
                   "torch._inductor.codegen.common.DeviceOpOverrides.uses_gpu_cpp_wrapper")
CPP_HEADER = _ep("C++ wrapper class get_device_include_path_jit/aot",
                 "torch._inductor.codegen.cpp_wrapper_cpu.CppWrapperCpu.get_device_include_path_jit")
VISIBLE = _ep("DeviceInterface.visible_devices_env", _DI + "visible_devices_env")
SYSTEM = _ep("DeviceInterface.get_cache_system_info", _DI + "get_cache_system_info")
TRACE_RULES = _ep("register_device_trace_rules",
                  "torch._dynamo.trace_rules.register_device_trace_rules")
FOLD = _ep("register_device_trace_rules(constant_fold=..., constant_fold_need_guards=...)",
          "torch._dynamo.trace_rules.register_device_trace_rules")
PROPS_TYPE = _ep("DeviceInterface.get_device_properties (its type is a constant)",
                 _DI + "get_device_properties")
STREAM_EVENT = _ep("DeviceInterface.Stream / Event", _DI + "Event")
TENSOR_CLASSES = _ep("the device module's typed tensor classes (found by name) + amp.autocast",
                     "torch._dynamo.variables.user_defined.UserDefinedClassVariable."
                     "_is_privateuse1_tensor_class")
DYNAMO_CONFIG = _ep("DeviceInterface.dynamo_config_defaults", _DI + "dynamo_config_defaults")
DYNAMO_RESET = _ep("DeviceInterface.on_dynamo_reset", _DI + "on_dynamo_reset")
BACKEND_INIT = _ep("the backend's _dynamo_backend_init",
                   "torch._dynamo.eval_frame.get_compiler_fn")
BACKEND_EP = _ep("torch_dynamo_backends entry point",
                 "torch._dynamo.backends.registry._discover_entrypoint_backends")
DECOMP = _ep("DeviceOperatorPolicy.decomposition_overrides", _POLICY + "decomposition_overrides",
             INDUCTOR)
FAKE = _ep("DeviceOperatorPolicy.fake_overrides", _POLICY + "fake_overrides")
LOWERING = _ep("DeviceOperatorPolicy.lowering_overrides", _POLICY + "lowering_overrides", INDUCTOR)
REALIZED = _ep("DeviceOperatorPolicy.realized_input_ops", _POLICY + "realized_input_ops", INDUCTOR)
CONFIG = _ep("DeviceOperatorPolicy.config_defaults", _POLICY + "config_defaults", INDUCTOR)
PASSES = _ep("DeviceOperatorPolicy.custom_passes", _POLICY + "custom_passes", INDUCTOR)
# Joint-graph and post-grad passes run under the device's policy outside compile_fx too.
GRAPH_PASSES = _ep("DeviceOperatorPolicy.custom_passes (joint-graph / post-grad)",
                   _POLICY + "custom_passes", INDUCTOR, CUSTOM_BACKEND)
CHOICES = _ep("DeviceInterface.get_inductor_choices", _DI + "get_inductor_choices")
SPEEDUP = _ep("InductorChoices.speedup_by_fusion (get_inductor_choices)",
              "torch._inductor.choices.InductorChoices.speedup_by_fusion", INDUCTOR)
KERNEL_GRAPH = _ep("kernel_graph(nodes) from the device's Scheduling",
                   "torch._inductor.codegen.kernel_graph.kernel_graph", INDUCTOR)
_TK = "torch._inductor.codegen.triton.TritonKernel."
TRITON_TYPES = _ep("TritonKernel.triton_compute_type / triton_store_type",
                   _TK + "triton_compute_type", INDUCTOR)
TILE_SIZES = _ep("SIMDScheduling.is_good_size",
                 "torch._inductor.codegen.simd.SIMDScheduling.is_good_size", INDUCTOR)
CACHE_KEY = _ep("DeviceOperatorPolicy.cache_key_fields", _POLICY + "cache_key_fields", INDUCTOR)

_CUSTOM_PASS_OPTIONS = (r"(pre_grad_custom_pass|joint_custom_p\w+|post_grad_custom_p\w+"
                        r"|_pre_fusion_custom_pass|_post_fusion_custom_pass)")

# Inductor options a per-compile default cannot serve: read when the compile
# worker pool starts (once per process), or at run time by compiled code.
CONFIG_READ_OUTSIDE_COMPILE: dict[str, str] = {
    "compile_threads": "read when the compile worker pool starts, not per compile",
    "worker_suppress_logging": "read when the compile worker pool starts, not per compile",
    "torchinductor_worker_logpath": "read when the compile worker pool starts, not per compile",
    "triton.slow_path_cudagraph_asserts": "read by the device-graph trees at run time",
}
# Dynamo options a frame-compile default cannot serve: read outside the frame's compile.
DYNAMO_CONFIG_READ_OUTSIDE_COMPILE: dict[str, str] = {
    "suppress_errors": "read by the frame converter after a compile failed, outside "
                       "the frame's compile",
}


@dataclasses.dataclass(frozen=True)
class Concern:
    name: str
    pattern: re.Pattern[str]


# Ordered: the first concern whose pattern matches a site's target takes it.
CONCERNS: tuple[Concern, ...] = tuple(
    Concern(name, re.compile(pattern))
    for name, pattern in (
        ("device identity",
         r"^torch\._inductor\.utils\.(GPU_TYPES|is_gpu|get_gpu_type|_gpu_types|device_need_guard)\b"
         r"|\.get_gpu_type$|\.is_gpu$|_original_is_gpu$|\.has_triton$|DeviceProperties|\.is_big_gpu$"
         r"|_use_template_for_cuda|get_max_num_sms|_device_supports_tma|GPU_BENCHMARK_DEVICE_TYPES"
         r"|^torch\._dynamo\.device_interface\."),
        ("C++ build and wrapper",
         r"DEVICE_TO_ATEN|^torch\._inductor\.cpp_builder\.|AotCodeCompiler|codegen_with_cpp_wrapper"
         r"|_get_cpp_wrapper_header"),
        ("cache keys", r"CacheBase\.get_system|FxGraphHashDetails|AOTAutogradCacheDetails"),
        ("Dynamo tracing",
         r"^torch\._dynamo\.(trace_rules|variables|symbolic_convert)\.|common_constant_types"),
        ("compile front-end wrappers",
         r"^torch\.compile$|^torch\._dynamo\.(optimize|reset|eval_frame|backends|utils\.run_node"
         r"|utils\.get_debug_dir)\b"),
        ("Dynamo config", r"^torch\._dynamo\.config\.|^torch\._functorch\.config\."),
        ("FX passes",
         r"^torch\._inductor\.config\." + _CUSTOM_PASS_OPTIONS
         + r"|^torch\._inductor\.(fx_passes|pattern_matcher)\b"),
        ("Inductor config", r"^torch\._inductor\.config\."),
        ("decompositions",
         r"^torch\._inductor\.decomposition\.|^torch\._decomp\b|torch_decomp_decompositions"),
        ("lowerings", r"^torch\._inductor\.lowering\.|fallback_node_due_to_unsupported_type"),
        ("fake tensors and meta kernels",
         r"^torch\._subclasses|^torch\._prims_common|^torch\._meta_registrations|^torch\._refs"
         r"|^torch\._ops"),
        ("IR / loop-body method replacement",
         r"^torch\._inductor\.(ir|loop_body|sizevars|ops_handler|dtype_propagation"
         r"|shape_propagation|dependencies)\."),
        ("scheduler & fusion heuristics", r"^torch\._inductor\.(scheduler|choices)\."),
        ("Triton codegen helpers",
         r"^torch\._inductor\.codegen\.(triton|simd)\.|^torch\._inductor\.runtime\.triton_helpers\."
         r"|^torch\._inductor\.utils\._triton_type_mapping"),
        ("Triton autotuner", r"^torch\._inductor\.runtime\.(triton_heuristics|autotune_cache)\."),
        ("wrapper codegen", r"^torch\._inductor\.(codegen\.wrapper|graph)\."),
        ("autotuning and benchmarking",
         r"^torch\._inductor\.(autotune_process|select_algorithm|runtime\.benchmarking)\."),
        ("async compile", r"^torch\._inductor\.async_compile\."),
        ("RNG functionalization", r"^torch\._prims\.rng_prims"),
        ("device graphs", r"cudagraph"),
        ("flex attention", r"flex_attention"),
        ("AOTInductor", r"^torch\._export\.aot_load|^torchgen\.aoti"),
        ("logging", r"^torch\._logging"),
        ("other compile stack", r""),
    )
)

# Ordered: target pattern -> the entry point that replaces such a write where
# it reaches the site's route.  No match: nothing replaces it.
REPLACEMENTS: tuple[tuple[re.Pattern[str], EntryPoint], ...] = tuple(
    (re.compile(pattern), entry)
    for pattern, entry in (
        (r"^torch\._inductor\.utils\.(GPU_TYPES|get_gpu_type)$|\.get_gpu_type$"
         r"|GPU_BENCHMARK_DEVICE_TYPES", IS_GPU),
        (r"\.has_triton$", TRITON),
        (r"DeviceProperties\.(create|multi_processor_count)$", SM_COUNT),
        (r"_device_supports_tma$", TMA),
        (r"^torch\._dynamo\.device_interface\.caching_worker_", WORKER),
        (r"DEVICE_TO_ATEN$", ATEN),
        (r"cpp_builder\.get_cpp_torch_device_options$", CPP_OPTIONS),
        (r"cpp_builder\._get_optimization_cflags$", CPP_CFLAGS),
        (r"GraphLowering\.codegen_with_cpp_wrapper$", CPP_TWO_PASS),
        (r"codecache\._get_cpp_wrapper_header$", CPP_HEADER),
        (r"autotune_process\.CUDA_VISIBLE_DEVICES$", VISIBLE),
        (r"CacheBase\.get_system$", SYSTEM),
        (r"trace_rules\.torch_name_rule_map$", TRACE_RULES),
        (r"variables\.torch\.constant_fold_functions(_need_guards)?$", FOLD),
        (r"utils\.common_constant_types$", PROPS_TYPE),
        (r"UserDefinedClassVariable\._in_graph_classes$|(StreamVariable|EventVariable)\.python_type$"
         r"|BuiltinVariable\.call_id$", STREAM_EVENT),
        (r"UserDefinedClassVariable\.__new__(raw)?$", TENSOR_CLASSES),
        (r"^torch\._dynamo\.optimize$|^torch\._dynamo\.backends\.registry\._BACKENDS$", BACKEND_EP),
        (r"^torch\._dynamo\.reset$", DYNAMO_RESET),
        (r"^torch\._dynamo\.config\.", DYNAMO_CONFIG),
        (r"^torch\._inductor\.decomposition\.(decompositions|fast_random_decomps)$"
         r"|^torch\._decomp\.decompositions_for_rng\.extra_random_decomps$"
         r"|^torch\._decomp\.global_decomposition_table$", DECOMP),
        (r"^torch\._decomp\.(decomposition_table|meta_table)$"
         r"|fake_tensor\.torch_decomp_decompositions$", FAKE),
        (r"^torch\._inductor\.lowering\.lowerings$", LOWERING),
        (r"^torch\._inductor\.lowering\.needs_realized_inputs$", REALIZED),
        (r"^torch\._inductor\.config\.(joint_custom_p\w+|post_grad_custom_p\w+)$", GRAPH_PASSES),
        (r"^torch\._inductor\.config\." + _CUSTOM_PASS_OPTIONS + r"$", PASSES),
        (r"^torch\._inductor\.fx_passes\.(joint_graph|post_grad)\.(patterns|pass_patterns)$",
         GRAPH_PASSES),
        (r"^torch\._inductor\.fx_passes\.(\w+\.)?(patterns|pass_patterns|POST_GRAD_PATTERNS)$",
         PASSES),
        (r"^torch\._inductor\.choices\.InductorChoices\.can_fuse(_horizontal|_vertical)?$"
         r"|^torch\._inductor\.choices\.InductorChoices\.score_fusion$", CHOICES),
        (r"^torch\._inductor\.scheduler\.Scheduler\.speedup_by_fusion$", SPEEDUP),
        (r"^torch\._inductor\.config\.", CONFIG),
        (r"(FxGraphHashDetails|AOTAutogradCacheDetails)\.__init__$", CACHE_KEY),
    )
)


@dataclasses.dataclass(frozen=True)
class Override:
    """A verdict for the sites of one vendor function, ahead of REPLACEMENTS."""

    path: str  # vendor file
    function: str  # regex on the enclosing function (dotted)
    target: str  # regex on the target
    entry: EntryPoint | None
    reason: str


OVERRIDES: tuple[Override, ...] = (
    Override("torch_npu/_inductor/ascendc/npu.py", r"_npu_as_gpu$", r"GPU_TYPES$", None,
             "adds the device to GPU_TYPES around one scheduler call; is_gpu() is one answer "
             "for the whole process, and this device is not GPU-class elsewhere"),
    Override("torch_npu/_inductor/ascendc/__init__.py", r"_patch_inductor_lowering_device_selection",
             r"lowering\.", None,
             "a GPU answer for lowering's device selection only; is_gpu() is process-wide"),
    Override("torch_npu/_inductor/ascendc/cpp_wrapper.py", r"", r"codegen_with_cpp_wrapper$", None,
             "a two-pass C++ wrapper with the backend's own autotune bookkeeping, "
             "not only the device list"),
    Override("torch_npu/_inductor/ascendc/decomposition.py", r"_finetune_decompose$",
             r"^torch\._decomp\.decomposition_table$", None,
             "drops the op's global decomposition with its CompositeImplicit kernel so that "
             "tracing keeps the op whole; no entry point keeps an op whole at trace time"),
    Override("torch_npu/_inductor/fx_passes/fav3_partition_pass.py", r"", r"", PASSES,
             "a post-grad pass enabled through Inductor's fusion-option table; it can run "
             "from custom_passes instead"),
    Override("torch_npu/_inductor/deterministic_cache.py", r"", r"FxGraphHashDetails\._", CACHE_KEY,
             "marker attribute of the cache-key patch above"),
    # Graph threading through IR creation, so that a graph codegen gets each kernel's
    # FX graph (not get_reads: a realize policy, not the graph).
    *(Override(path, r"", r"^torch\._inductor\.ir\.(?!BaseView\.get_reads$)", KERNEL_GRAPH,
               "threads the kernel's FX graph through IR creation; the Scheduling asks "
               "kernel_graph() for it")
      for path in ("torch_npu/_inductor/codegen/ir_fx.py",
                   "torch_npu/_inductor/ascend_npu_ir/ascend_npu_ir/npu/inductor_patch/ir.py")),
    Override("torch_npu/_inductor/triton_experimental/codegen/triton.py", r"",
             r"\.triton_(compute|store)_type$", TRITON_TYPES, "the device kernel's types"),
    # Stock mechanisms the series does not change are documented in the guide's
    # migration table, and not counted as replaced by the series.
    Override("torch_npu/_inductor/triton_experimental/codegen/triton.py", r"",
             r"\.TritonPrinter\._print_\w+$", None,
             "stock: the device kernel class's printer (TritonKernel.kexpr)"),
    Override("torch_npu/_inductor/triton_experimental/codegen/triton.py", r"",
             r"\.BlockPtrOptions\.\w+$", None,
             "stock: the device kernel class's block pointers (TritonKernel.block_ptr_options_cls)"),
    Override("torch_npu/_inductor/triton_experimental/codegen/triton.py", r"",
             r"\.CandidateTiling\.is_good_size$", TILE_SIZES, "the device Scheduling's tile sizes"),
    Override("torch_npu/_inductor/triton_experimental/npu_triton_helpers.py", r"",
             r"^torch\._inductor\.runtime\.triton_helpers\.(max2|min2)$", None,
             "stock: the device kernel class imports its own helpers "
             "(TritonKernel.gen_common_triton_imports)"),
    Override("torch_npu/_compat/dynamo.py", r"compat_patch_dynamo_optimize$",
             r"^torch\._dynamo\.optimize$", BACKEND_INIT,
             "starts the backend when torch.compile names it (the package's own path on "
             "torch 2.15)"),
    Override("torch_npu/_inductor/scheduler.py", r"", r"Scheduler\.fuse_nodes_once$", SPEEDUP,
             "consumes the answer of its speedup_by_fusion"),
    Override("torch_npu/_inductor/scheduler.py", r"", r"Scheduler\.are_long_distant_nodes$",
             CHOICES, "its one caller is InductorChoices.can_fuse_horizontal"),
    Override("torch_npu/_inductor/choices.py", r"", r"InductorChoices\._torch_npu", CHOICES,
             "marker attribute of the choices patch above"),
    *(Override(path, r"", r"(OpsHandler|CaptureIndexing|SimplifyIndexing)\.(index_select"
               r"|gather_template|indexput_template|scatter_template)$", None,
               "stock: the device kernel class sees its gathers and scatters "
               "(TritonKernel.indirect_load, store(mode=...))")
      for path in ("torch_npu/_inductor/__init__.py", "torch_npu/_inductor/codegen/ir.py",
                   "torch_npu/_inductor/triton_experimental/codegen/__init__.py",
                   "torch_npu/_inductor/triton_experimental/ir.py")),
    *(Override(path, r"", r"^torch\._inductor\.runtime\.(triton_heuristics|autotune_cache)\.",
               None, "stock: the device kernel class imports its own triton_heuristics "
               "(TritonKernel.gen_common_triton_imports), whose decorators pass "
               "caching_autotuner_cls to cached_autotune")
      for path in ("torch_npu/_inductor/runtime/autotune_cache.py",
                   "torch_npu/_inductor/runtime/triton_heuristics.py",
                   "torch_npu/_inductor/triton_experimental/codegen/triton.py")),
    Override("torch_npu/_inductor/kernel/flexattention_template.py", r"",
             r"TritonTemplate\.all_templates$", None,
             "stock: the device's lowering uses its own template object; the table only "
             "checks that names are unique"),
    # The vendor declares the entry point already, and patches all the same.
    Override("torch_npu/dynamo/__init__.py", r"",
             r"^torch\._dynamo\.backends\.registry\._BACKENDS$", None,
             "the package declares its torch_dynamo_backends entry points and still patches "
             "the front end"),
    Override("torch_rbln/_internal/monkey_patches.py", r"", r"^torch\.compile$", None,
             "lazy registration: the torch_dynamo_backends entry point serves; cpu fallback and "
             "failover: a backend returning a falling-back callable serves; the retry after "
             "FailOnRecompileLimitHit (raised by Dynamo, outside the backend) has none"),
)


@dataclasses.dataclass(frozen=True)
class Verdict:
    concern: str
    route: str
    entry: EntryPoint | None  # set only when replaced
    reason: str

    @property
    def replaced(self) -> bool:
        return self.entry is not None


def concern_of(site: Site) -> str:
    for concern in CONCERNS:
        if concern.pattern.search(site.target):
            return concern.name
    return CONCERNS[-1].name


def classify(site: Site) -> Verdict:
    concern, route = concern_of(site), route_of(site.path)
    for o in OVERRIDES:
        if (site.path == o.path and re.search(o.function, site.function)
                and re.search(o.target, site.target)):
            return Verdict(concern, route, o.entry, o.reason)
    option = site.target.removeprefix("torch._inductor.config.")
    if option in CONFIG_READ_OUTSIDE_COMPILE and site.target.startswith("torch._inductor.config."):
        return Verdict(concern, route, None, CONFIG_READ_OUTSIDE_COMPILE[option])
    option = site.target.removeprefix("torch._dynamo.config.")
    if option in DYNAMO_CONFIG_READ_OUTSIDE_COMPILE and site.target.startswith("torch._dynamo."):
        return Verdict(concern, route, None, DYNAMO_CONFIG_READ_OUTSIDE_COMPILE[option])
    for pattern, entry in REPLACEMENTS:
        if pattern.search(site.target):
            if entry.reaches_route(route):
                return Verdict(concern, route, entry, "")
            return Verdict(concern, route, None,
                           f"{entry.name} applies on {', '.join(sorted(entry.reaches))} only, "
                           f"not on this {route} path")
    return Verdict(concern, route, None, "")

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
        with open(path, encoding="utf-8-sig", errors="replace") as f:
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


# -- inventory and report ----------------------------------------------------------

INVENTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor_patches_inventory.json")


@dataclasses.dataclass(frozen=True)
class Vendor:
    package: str
    version: str
    sites: tuple[Site, ...]


def load_inventory(path: str = INVENTORY) -> list[Vendor]:
    """The checked-in inventory: per vendor package, the sites found in its
    wheel (vendor file, line, enclosing function, kind, torch target)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return [
        Vendor(v["package"], v["version"],
               tuple(Site(p, line, kind, target, function)
                     for p, line, function, kind, target in v["sites"]))
        for v in data["vendors"]
    ]


def write_inventory(vendors: Iterable[Vendor], path: str = INVENTORY) -> None:
    data = {
        "about": "Writes to torch's compile stack found by tools/vendor_patches.py in each "
                 "vendor wheel: [vendor file, line, enclosing function, kind, torch target]. "
                 "No vendor code. Regenerate with --update-inventory.",
        "vendors": [
            {"package": v.package, "version": v.version,
             "sites": [[s.path, s.line, s.function, s.kind, s.target] for s in v.sites]}
            for v in vendors
        ],
    }
    # One site per line, so that a re-audit diffs site by site.
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[\n\s+(\"[^\n]*\",)\n\s+(\d+,)\n\s+(\"[^\n]*\",)\n\s+(\"[^\n]*\",)"
                  r"\n\s+(\"[^\n]*\")\n\s+\]", r"[\1 \2 \3 \4 \5]", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


@dataclasses.dataclass
class Row:
    concern: str
    sites: list[Site]
    verdicts: list[Verdict]

    @property
    def replaced(self) -> int:
        return sum(v.replaced for v in self.verdicts)

    @property
    def entry_points(self) -> list[str]:
        return sorted({v.entry.name for v in self.verdicts if v.entry is not None})


@dataclasses.dataclass
class Report:
    package: str
    sites: list[Site]
    verdicts: dict[Site, Verdict]

    @property
    def replaced(self) -> list[Site]:
        return [s for s in self.sites if self.verdicts[s].replaced]

    @property
    def share(self) -> float:
        return len(self.replaced) / len(self.sites) if self.sites else 0.0

    def rows(self) -> list[Row]:
        by: dict[str, Row] = {}
        for s in self.sites:
            v = self.verdicts[s]
            row = by.setdefault(v.concern, Row(v.concern, [], []))
            row.sites.append(s)
            row.verdicts.append(v)
        return sorted(by.values(), key=lambda r: (-len(r.sites), r.concern))


def build_report(sites: Iterable[Site], package: str = "") -> Report:
    ordered = sorted(set(sites), key=lambda s: (s.path, s.line, s.target))
    return Report(package, ordered, {s: classify(s) for s in ordered})


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def format_report(report: Report, show_sites: bool = False) -> str:
    lines = [f"{report.package or 'package'}: sites / replaced / entry point, per concern"]
    width = max([len(r.concern) for r in report.rows()] + [5])
    for row in report.rows():
        lines.append(f"  {row.concern:<{width}}  {len(row.sites):4d}  {row.replaced:4d}  "
                     f"{'; '.join(row.entry_points) or '-'}")
        if show_sites:
            for s, v in zip(row.sites, row.verdicts):
                mark = "R" if v.replaced else "-"
                how = v.entry.name if v.entry else v.reason
                lines.append(f"      {mark} {s.path}:{s.line} {s.function}  {s.kind} {s.target}"
                             + (f"  [{how}]" if how else ""))
    n, r = len(report.sites), len(report.replaced)
    lines.append(f"  {'total':<{width}}  {n:4d}  {r:4d}  ({_percent(r, n)} replaced)")
    unreached = [report.verdicts[s] for s in report.sites
                 if not report.verdicts[s].replaced and report.verdicts[s].reason]
    if unreached:
        lines.append(f"  not replaced although a mechanism exists or an entry point matches "
                     f"the target: {len(unreached)}")
        counts: dict[str, int] = {}
        for v in unreached:
            counts[v.reason] = counts.get(v.reason, 0) + 1
        for reason, count in sorted(counts.items(), key=lambda kv: -kv[1]):
            lines.append(f"    {count:4d}  {reason}")
    return "\n".join(lines)


def _scan_path(path: str, package: str | None) -> list[Site]:
    """Scan a wheel, an unzipped wheel (its root) or a package directory itself
    (``<root>/torch_npu``): the last is scanned as its root restricted to it, so
    that paths start with the package's name, as the routes expect."""
    path = path.rstrip(os.sep) or os.sep
    if os.path.isfile(os.path.join(path, "__init__.py")):
        parent, name = os.path.split(os.path.abspath(path))
        if package not in (None, name):
            raise SystemExit(f"vendor_patches: {path} is the package {name!r}, not {package!r}")
        path, package = parent, name
    with tempfile.TemporaryDirectory() as tmp:
        root = path
        if os.path.isfile(path):
            with zipfile.ZipFile(path) as z:
                z.extractall(tmp, [n for n in z.namelist() if n.endswith(".py")])
            root = tmp
        return scan(root, package)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?",
                        help="unzipped vendor package directory or .whl file "
                             "(default: report the checked-in inventory)")
    parser.add_argument("--package", help="top-level package to scan (default: all)")
    parser.add_argument("--version", default="", help="version recorded with --update-inventory")
    parser.add_argument("--sites", action="store_true", help="list every site with its verdict")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--update-inventory", action="store_true",
                        help="record the scan of PATH as the inventory of --package")
    args = parser.parse_args(argv)

    if args.path is None:
        reports = [build_report(v.sites, f"{v.package} {v.version}") for v in load_inventory()]
    else:
        sites = _scan_path(args.path, args.package)
        name = args.package or os.path.basename(args.path.rstrip(os.sep))
        if args.update_inventory:
            if not args.package or not args.version:
                parser.error("--update-inventory needs --package and --version")
            known = load_inventory() if os.path.exists(INVENTORY) else []
            vendors = [v for v in known if v.package != args.package]
            vendors.append(Vendor(args.package, args.version,
                                  tuple(build_report(sites).sites)))
            write_inventory(sorted(vendors, key=lambda v: v.package))
        reports = [build_report(sites, f"{name} {args.version}".strip())]
    if args.json:
        json.dump(
            [
                {
                    "package": r.package,
                    "sites": len(r.sites),
                    "replaced": len(r.replaced),
                    "share": r.share,
                    "concerns": {
                        row.concern: {
                            "sites": len(row.sites),
                            "replaced": row.replaced,
                            "entry_points": row.entry_points,
                        }
                        for row in r.rows()
                    },
                    "site_verdicts": [
                        {**dataclasses.asdict(s), "concern": v.concern, "route": v.route,
                         "entry_point": v.entry.name if v.entry else None, "reason": v.reason}
                        for s, v in r.verdicts.items()
                    ],
                }
                for r in reports
            ],
            sys.stdout,
            indent=1,
        )
        print()
    else:
        print("\n\n".join(format_report(r, args.sites) for r in reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())

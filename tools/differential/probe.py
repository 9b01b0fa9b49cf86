"""Probe for the differential harness: runs *inside* one environment.

    python tools/differential/probe.py --out result.json [--only answers|code]
                                       [--corpus NAME[,NAME...]]

Writes one JSON document::

    {"meta": {...}, "answers": {name: value}, "code": {name: text}}

* ``answers`` -- the device-classification table (``answer_table()`` below),
  every row computed defensively: an exception becomes the string
  ``"raises <Type>: <msg>"`` so the probe itself never crashes on a row.
* ``code`` -- normalised Inductor output code for the corpus in ``corpus.py``,
  one entry per artefact: ``"<item>[<mode>]#<n>"``.  A corpus item that fails
  to compile yields ``"<item>[<mode>]!error"`` holding the traceback.

Both sides of the comparison run this same file, so every row must be
computed the same way on both sides; where a later patch adds an API, the row
feature-detects it and falls back to the torch 2.13 spelling of the *same*
semantic value.

Environment-specific text (env prefix, site-packages, torch dir, the Inductor
cache dir, temp dirs, memory addresses, hash-named files, timestamps) is
replaced by placeholders; nothing else is touched.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import json
import os
import re
import site
import sys
import sysconfig
import time
import traceback
from typing import Any, Callable


# Torch must never be imported from the directory holding this file's repo
# checkout (the project keeps partial torch/ copies at the repo root).  As a
# script, sys.path[0] is this directory, which is what we want.

# --------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------

# Hash-named things Inductor produces: code_hash() is "c" + 51 base32 chars,
# sha256 hex digests are 64 chars.  No real identifier in generated code is a
# 50+ character run of [a-z0-9] (identifiers carry underscores).
_HASH_RE = re.compile(r"(?<![A-Za-z0-9_])[a-z0-9]{50,}(?![A-Za-z0-9_])")
_HASH_DIR_RE = re.compile(r"<CACHE_DIR>/[a-z0-9]{2}/<HASH>")
# Only object-repr addresses ("<... at 0x7f...>"): hex literals in generated
# code (masks, limits) are real codegen and must stay.
_ADDR_RE = re.compile(r"\bat 0x[0-9a-fA-F]+")
_KERNEL_PATH_RE = re.compile(r"(#\s*kernel path:).*")
_TIMESTAMP_RE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[ T_]\d{2}[:_]\d{2}[:_]\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b"
)
_TMPDIR_RE = re.compile(r"/tmp/tmp[A-Za-z0-9_]{6,}")


class Normaliser:
    """Replaces environment-specific text with placeholders.

    ``paths``: literal prefixes (and their realpaths) -> placeholder, longest
    first so the most specific wins.  ``text()`` is for answers (paths,
    addresses, temp dirs); ``code()`` additionally folds hash-named files,
    kernel-path comments and timestamps.
    """

    def __init__(self) -> None:
        import torch

        pairs: list[tuple[str, str]] = []

        def add(path: str | None, placeholder: str) -> None:
            if not path:
                return
            for p in {path, os.path.realpath(path), os.path.abspath(path)}:
                p = p.rstrip(os.sep)
                if len(p) > 1:
                    pairs.append((p, placeholder))

        from torch._inductor.runtime.cache_dir_utils import cache_dir

        add(cache_dir(), "<CACHE_DIR>")
        add(os.path.dirname(os.path.abspath(torch.__file__)), "<TORCH_DIR>")
        site_dirs: list[str] = []
        try:
            site_dirs += site.getsitepackages()
        except Exception:
            pass
        for key in ("purelib", "platlib"):
            site_dirs.append(sysconfig.get_paths().get(key, ""))
        for d in site_dirs:
            add(d, "<SITE_PACKAGES>")
        for key in ("include", "platinclude"):
            add(sysconfig.get_paths().get(key), "<PY_INCLUDE>")
        add(sysconfig.get_config_var("INCLUDEPY"), "<PY_INCLUDE>")
        add(sys.prefix, "<PREFIX>")
        add(sys.exec_prefix, "<PREFIX>")
        add(sys.base_prefix, "<BASE_PREFIX>")
        add(os.getcwd(), "<WORKDIR>")
        # Deduplicate, keep the first placeholder for a path, longest first.
        seen: dict[str, str] = {}
        for p, ph in pairs:
            seen.setdefault(p, ph)
        self.pairs = sorted(seen.items(), key=lambda kv: -len(kv[0]))

    def paths(self, s: str) -> str:
        for p, ph in self.pairs:
            if p in s:
                s = s.replace(p, ph)
        return s

    def text(self, s: str) -> str:
        s = self.paths(s)
        s = _TMPDIR_RE.sub("<TMPDIR>", s)
        s = _ADDR_RE.sub("at 0x<ADDR>", s)
        return s

    def code(self, s: str) -> str:
        s = _KERNEL_PATH_RE.sub(r"\1 <PATH>", s)
        s = self.text(s)
        s = _HASH_RE.sub("<HASH>", s)
        s = _HASH_DIR_RE.sub("<CACHE_DIR>/<HH>/<HASH>", s)
        s = _TIMESTAMP_RE.sub("<TIMESTAMP>", s)
        return s


# --------------------------------------------------------------------------
# JSON conversion of answer values
# --------------------------------------------------------------------------


def qualname(obj: Any) -> str:
    """module.qualname of a class/function (stable across environments)."""
    mod = getattr(obj, "__module__", None) or "?"
    qn = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qn is None:
        return f"<instance of {qualname(type(obj))}>"
    return f"{mod}.{qn}"


def jsonable(v: Any, norm: Normaliser) -> Any:
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        return norm.text(v)
    if isinstance(v, list):
        return [jsonable(x, norm) for x in v]
    if isinstance(v, tuple):
        return {"<tuple>": [jsonable(x, norm) for x in v]}
    if isinstance(v, (set, frozenset)):
        return {"<set>": sorted((jsonable(x, norm) for x in v), key=repr)}
    if isinstance(v, dict):
        return {str(jsonable(k, norm)): jsonable(x, norm) for k, x in v.items()}
    if isinstance(v, type) or inspect.isfunction(v) or inspect.isbuiltin(v):
        return f"<{type(v).__name__} {qualname(v)}>"
    return norm.text(f"<{qualname(type(v))}: {v!r}>")


def describe_exception(e: BaseException) -> str:
    msg = str(e).strip().splitlines()
    first = msg[0] if msg else ""
    return f"raises {type(e).__name__}: {first}"


# --------------------------------------------------------------------------
# The answers table.  ONE place; later issues add rows here.
# --------------------------------------------------------------------------

# Every in-tree device type we classify, plus indexed spellings.
DEVICES = ("cpu", "cuda", "xpu", "mps", "mtia", "meta", "tpu")
INDEXED_DEVICES = ("cpu:0", "cuda:0", "xpu:0", "mps:0", "mtia:0")
ATEN_DEVICES = ("cpu", "cuda", "xpu", "mps", "meta", "tpu", "mtia")
CPP_OPTION_DEVICES = ("cpu", "cuda", "xpu", "mps")

AnswerRow = tuple[str, Callable[[], Any]]


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _accepts(fn: Callable[..., Any], param: str) -> bool:
    try:
        return param in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _has_triton_without_cpu() -> bool:
    """has_triton(include_cpu=False), or its torch 2.13 equivalent.

    2.13's has_triton() considers cuda/xpu/cpu/mtia; "without cpu" is the same
    loop without the cpu entry.
    """
    t = _m("torch.utils._triton")
    if _accepts(t.has_triton, "include_cpu"):
        return t.has_triton(include_cpu=False)
    if not t.has_triton_package():
        return False
    from torch._inductor.config import triton_disable_device_detection

    if triton_disable_device_detection:
        return False
    from torch._dynamo.device_interface import get_interface_for_device

    checks: dict[str, Callable[[Any], bool]] = {
        "cuda": lambda i: i.Worker.get_device_properties().major >= 7,
        "xpu": lambda i: True,
        "mtia": lambda i: True,
    }
    for dev, extra in checks.items():
        iface = get_interface_for_device(dev)
        if iface.is_available() and extra(iface):
            return True
    return False


def _triton_backend_name(device_type: str) -> str | None:
    """The Triton backend a device's interface names; torch 2.13 has none
    (every device uses Triton's process-wide active driver)."""
    t = _m("torch.utils._triton")
    if hasattr(t, "get_triton_backend_name"):
        return t.get_triton_backend_name(device_type)
    return None


def _triton_hash_for(device_type: str) -> str:
    """The backend hash in the kernels of a device; torch 2.13's is the same
    for every device."""
    t = _m("torch.utils._triton")
    if hasattr(t, "triton_hash_for_device"):
        return t.triton_hash_for_device(device_type)
    return t.triton_hash_with_backend()


def _aten_device(device_type: str) -> str | None:
    """ATen device enum spelling; None where the device has no mapping.

    2.13: cpp_utils.DEVICE_TO_ATEN dict; later: cpp_utils.device_to_aten().
    A raising lookup and a missing key both mean "no mapping".
    """
    cu = _m("torch._inductor.codegen.cpp_utils")
    fn = getattr(cu, "device_to_aten", None)
    if fn is not None:
        try:
            return fn(device_type)
        except Exception:
            return None
    return cu.DEVICE_TO_ATEN.get(device_type)


def _two_pass_cpp_wrapper(device_type: str) -> bool:
    """Whether GraphLowering.codegen_with_cpp_wrapper takes the two-pass GPU
    path for a graph with this device.

    2.13: the ["cuda", "xpu"] literal; later: codegen.common._uses_gpu_cpp_wrapper().
    """
    fn = getattr(_m("torch._inductor.codegen.common"), "_uses_gpu_cpp_wrapper", None)
    if fn is not None:
        return fn(device_type)
    return device_type in ["cuda", "xpu"]


_CPP_OPTION_FIELDS = (
    "definitions",
    "include_dirs",
    "cflags",
    "ldflags",
    "libraries_dirs",
    "libraries",
    "passthrough_args",
)


def _cpp_device_options(device_type: str, aot_mode: bool, compile_only: bool) -> Any:
    cb = _m("torch._inductor.cpp_builder")
    res = cb.get_cpp_torch_device_options(
        device_type=device_type, aot_mode=aot_mode, compile_only=compile_only
    )
    if isinstance(res, tuple) and len(res) == len(_CPP_OPTION_FIELDS):
        return dict(zip(_CPP_OPTION_FIELDS, (list(x) for x in res)))
    return res


def _visible_devices_env_var(gpu_type: str | None) -> str:
    """Name of the env var autotune subprocesses use to pin a device.

    2.13 hardcodes autotune_process.CUDA_VISIBLE_DEVICES for every gpu type;
    a later patch adds autotune_process.get_visible_devices_env_var().
    """
    ap = _m("torch._inductor.autotune_process")
    fn = getattr(ap, "get_visible_devices_env_var", None)
    if fn is not None:
        return fn() if gpu_type is None else fn(gpu_type=gpu_type)
    return ap.CUDA_VISIBLE_DEVICES


def _scheduling(device: str) -> Any:
    common = _m("torch._inductor.codegen.common")
    common.init_backend_registration()
    ctor = common.get_scheduling_for_device(device)
    if ctor is None:
        return None
    # The registered constructor may be a class or a factory (2.13 uses a
    # lambda for cpu/cuda); what matters is whether it is a class (ir.is_triton
    # relies on that) and what it builds.
    try:
        resolved = qualname(type(ctor(None)))
    except Exception as e:
        resolved = describe_exception(e)
    return {"is_class": isinstance(ctor, type), "resolved": resolved}


def _wrapper_codegen(device: str, **kw: bool) -> Any:
    common = _m("torch._inductor.codegen.common")
    common.init_backend_registration()
    cls = common.get_wrapper_codegen_for_device(device, **kw)
    return None if cls is None else qualname(cls)


def _device_op_overrides(device: str) -> Any:
    common = _m("torch._inductor.codegen.common")
    return qualname(type(common.get_device_op_overrides(device)))


def _interface(device: Any) -> str:
    di = _m("torch._dynamo.device_interface")
    return qualname(di.get_interface_for_device(device))


def _registered_interfaces() -> list[list[str]]:
    di = _m("torch._dynamo.device_interface")
    return [[name, qualname(cls)] for name, cls in di.get_registered_device_interfaces()]


def _default_to_fused_or_foreach(device_type: str, use_fused: bool) -> Any:
    import torch

    params = [torch.zeros(2, device=device_type), torch.zeros(2, device=device_type)]
    return _m("torch.optim.optimizer")._default_to_fused_or_foreach(
        params, False, use_fused
    )


def _online_softmax_check(device_type: str, backend: str) -> Any:
    """prepare_softmax_extra_check on a stand-in match whose input is on
    ``device_type``, with ``backend`` as the cuda and xpu codegen backend."""
    import types

    import torch

    config = _m("torch._inductor.config")
    post_grad = _m("torch._inductor.fx_passes.post_grad")
    val = types.SimpleNamespace(device=torch.device(device_type))
    match = types.SimpleNamespace(kwargs={"x": types.SimpleNamespace(meta={"val": val})})
    with config.patch(cuda_backend=backend, xpu_backend=backend):
        return post_grad.prepare_softmax_extra_check(match)


def _system_info() -> Any:
    cc = _m("torch._inductor.codecache")
    return cc.CacheBase.get_system()


# -- Dynamo tracing tables (RFC 2) ------------------------------------------------

def _dynamo_device_tables() -> Any:
    """The device-derived tables of a later patch (trace_rules._device_tables),
    or None in torch 2.13, where the static lists are the whole tables."""
    fn = getattr(_m("torch._dynamo.trace_rules"), "_device_tables", None)
    return fn() if fn is not None else None


def _dynamo_constant_fold(need_guards: bool) -> list[str]:
    vt = _m("torch._dynamo.variables.torch")
    fns = set(vt.constant_fold_functions_need_guards if need_guards
              else vt.constant_fold_functions)
    tables = _dynamo_device_tables()
    if tables is not None:
        fns |= set(tables.constant_fold_need_guards if need_guards
                   else tables.constant_fold)
    return sorted(qualname(f) for f in fns)


def _dynamo_in_graph_classes() -> list[str]:
    ud = _m("torch._dynamo.variables.user_defined")
    return sorted(qualname(c) for c in ud.UserDefinedClassVariable._in_graph_classes())


def _dynamo_common_constant_types() -> list[str]:
    du = _m("torch._dynamo.utils")
    # Deriving the device tables publishes the device constant types.
    _dynamo_device_tables()
    return sorted(qualname(t) for t in du.common_constant_types)


def _dynamo_handlers() -> list[str]:
    vt = _m("torch._dynamo.variables.torch")
    return sorted(qualname(f) for f in vt.TorchInGraphFunctionVariable._get_handlers())


def _dynamo_rule(name: str) -> Any:
    tr = _m("torch._dynamo.trace_rules")
    obj = tr.load_object(name)
    if obj is None:
        return None
    rule = tr.lookup(obj)
    return None if rule is None else rule.__name__


# Device runtime functions whose trace rule the tables decide.
_DYNAMO_RULE_NAMES = tuple(
    f"torch.{dev}.{fn}"
    for dev in ("cuda", "xpu", "mps", "mtia", "cpu")
    for fn in (
        "current_stream", "synchronize", "stream", "set_device", "current_device",
        "device_count", "is_available", "is_initialized", "get_device_properties",
        "get_rng_state", "set_rng_state", "manual_seed", "manual_seed_all", "seed",
        "initial_seed", "Stream", "Event", "_exchange_device",
        "_maybe_exchange_device",
    )
)


def _dynamo_trace(fn: Callable[..., Any]) -> dict[str, Any]:
    """What Dynamo makes of ``fn(torch.ones(2, 2))``: its FX graphs, guards,
    graph breaks, and the result or the exception."""
    import warnings

    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    graphs: list[str] = []
    guards: list[str] = []

    def backend(gm: Any, example_inputs: Any) -> Any:
        graphs.append(gm.code.strip())
        return gm.forward

    def export(guard_set: Any) -> None:
        guards.extend(sorted(f"{g.name} {g.create_fn_name()}" for g in guard_set))

    torch._dynamo.reset()
    counters.clear()
    out: dict[str, Any] = {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled = torch._dynamo.optimize(backend, guard_export_fn=export)(fn)
            try:
                result = compiled(torch.ones(2, 2))
                out["result"] = repr(result)
            except Exception as e:  # noqa: BLE001 -- the exception is the answer
                out["raises"] = describe_exception(e)
    finally:
        torch._dynamo.reset()
    out["graphs"] = graphs
    out["guards"] = sorted(set(guards))
    out["graph_breaks"] = sorted(counters["graph_break"])
    return out


def _dynamo_trace_corpus() -> dict[str, Callable[..., Any]]:
    """The functions of RFC 2's acceptance, written for in-tree devices."""
    import torch

    def cuda_is_available(x):
        return x + 1 if torch.cuda.is_available() else x - 1

    def cuda_device_count(x):
        return x * torch.cuda.device_count()

    def cuda_current_device(x):
        return x + torch.cuda.current_device()

    def cuda_is_initialized(x):
        return x + torch.cuda.is_initialized()

    def cuda_current_stream(x):
        s = torch.cuda.current_stream()
        return x + 1, s

    def cuda_synchronize(x):
        torch.cuda.synchronize()
        return x + 1

    def cuda_stream(x):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            y = x + 1
        return y

    def torch_stream(x):
        s = torch.Stream(device="cuda")
        return x + 1, s

    def cuda_event(x):
        e = torch.cuda.Event()
        e.record()
        e.wait()
        e.synchronize()
        return x + 1

    def torch_event(x):
        e = torch.Event(device="cuda")
        e.record()
        return x + 1

    def cuda_device_properties(x):
        return x * torch.cuda.get_device_properties().multi_processor_count

    def cuda_set_device(x):
        torch.cuda.set_device(0)
        return x + 1

    def cuda_exchange_device(x):
        prev = torch.cuda._exchange_device(0)
        return x + prev

    def cuda_manual_seed(x):
        torch.cuda.manual_seed(0)
        return x + 1

    def cuda_get_rng_state(x):
        return x + torch.cuda.get_rng_state().sum()

    def get_device_module_cpu(x):
        return x * torch.get_device_module(x.device).device_count()

    def get_device_module_cuda(x):
        return x * torch.get_device_module("cuda").device_count()

    def get_device_module_default(x):
        return x * torch.get_device_module().device_count()

    def cuda_amp_autocast(x):
        with torch.cuda.amp.autocast():
            return x @ x

    def cpu_amp_autocast(x):
        with torch.cpu.amp.autocast():
            return x @ x

    def xpu_current_device(x):
        return x + torch.xpu.current_device()

    def xpu_synchronize(x):
        torch.xpu.synchronize()
        return x + 1

    def xpu_current_stream(x):
        return x + 1, torch.xpu.current_stream()

    def mps_synchronize(x):
        torch.mps.synchronize()
        return x + 1

    def cpu_synchronize(x):
        torch.cpu.synchronize()
        return x + 1

    def accelerator_current_stream(x):
        return x + 1, torch.accelerator.current_stream()

    def del_tensor(x):
        y = x + 1
        z = y * 2
        del y
        return z

    return {name: fn for name, fn in locals().items() if callable(fn)}


def _dynamo_rows(add: Callable[[str, Callable[[], Any]], None]) -> None:
    add("dynamo.constant_fold_functions", lambda: _dynamo_constant_fold(False))
    add("dynamo.constant_fold_functions_need_guards",
        lambda: _dynamo_constant_fold(True))
    add("dynamo.UserDefinedClassVariable._in_graph_classes()", _dynamo_in_graph_classes)
    add("dynamo.common_constant_types", _dynamo_common_constant_types)
    add("dynamo.TorchInGraphFunctionVariable._get_handlers()", _dynamo_handlers)
    for name in _DYNAMO_RULE_NAMES:
        add(f"dynamo.trace_rules.lookup({name})", lambda name=name: _dynamo_rule(name))
    for name in ("torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
                 "torch.amp.autocast", "torch.cuda.StreamContext",
                 "torch.cuda.device", "torch.xpu.device"):
        add(f"dynamo.TorchCtxManagerClassVariable.is_matching_cls({name})",
            lambda name=name: _m("torch._dynamo.variables.torch")
            .TorchCtxManagerClassVariable.is_matching_cls(
                _m("torch._dynamo.trace_rules").load_object(name)))
    for name, fn in _dynamo_trace_corpus().items():
        add(f"dynamo.trace({name})", lambda fn=fn: _dynamo_trace(fn))


# -- Operator policy and cache keys (SPEC §5) ------------------------------------

def _table_digest(table: Any) -> dict[str, Any]:
    """Size and sha256 of a table of op -> function, as sorted "op qualname" lines."""
    import hashlib

    lines = sorted(
        _ADDR_RE.sub("at 0x<ADDR>", f"{op} {qualname(fn)}") for op, fn in table.items()
    )
    return {
        "len": len(lines),
        "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
    }


def _operator_policies() -> Any:
    """The device operator policy registry of a later patch; torch 2.13 has
    none, which is the same as an empty one."""
    try:
        mod = _m("torch._inductor.device_operator_policy")
    except ImportError:
        return {}
    return {d: p.cache_key for d, p in mod.device_operator_policies.items()}


def _cache_key_setup() -> Any:
    """A cpu graph with fake inputs under a shape env, as compile_fx has it."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    gm = torch.fx.symbolic_trace(
        lambda a, b: torch.nn.functional.hardswish(a) + b.sigmoid()
    )
    mode = FakeTensorMode(shape_env=ShapeEnv())
    with mode:
        inputs = [torch.empty(4), torch.empty(4)]
    return gm, inputs, mode


def _key_components(lines: list[str]) -> list[str]:
    """"[hash] name" of each cache key debug line (the hash covers the value),
    without the torch source hash, which differs between any two builds."""
    out = []
    for line in lines:
        head = line.split(":", 1)[0]
        if not head.endswith(" torch_version"):
            out.append(head)
    return out


def _fx_graph_key_components() -> list[str]:
    cc = _m("torch._inductor.codecache")
    select_decomp_table = _m("torch._inductor.decomposition").select_decomp_table
    gm, inputs, _ = _cache_key_setup()
    fx_kwargs = {"get_decomp_fn": select_decomp_table, "is_inference": True}
    _, lines = cc.compiled_fx_graph_hash(gm, inputs, fx_kwargs, [])
    return _key_components(lines)


def _aot_autograd_key_components() -> list[str]:
    import torch

    ac = _m("torch._functorch._aot_autograd.autograd_cache")
    AOTConfig = _m("torch._functorch._aot_autograd.schemas").AOTConfig
    gm, inputs, mode = _cache_key_setup()
    aot_config = AOTConfig(
        fw_compiler=None,
        bw_compiler=None,
        partition_fn=None,
        decompositions={},
        num_params_buffers=0,
        aot_id=0,
        keep_inference_input_mutations=True,
    )
    with torch._guards.tracing(torch._guards.TracingContext(mode)):
        details = ac.AOTAutogradCacheDetails(
            gm, inputs, aot_config, ac.create_fx_config(None)
        )
    return _key_components(ac.AOTAutogradCachePickler(gm).debug_lines(details))


def _compile_get_decomp_fn() -> list[str]:
    """The get_decomp_fn compile_fx hands to each inner compile of a cpu graph
    (the FX graph cache key hashes it)."""
    import torch

    cfx = _m("torch._inductor.compile_fx")
    seen: list[str] = []

    def inner_compile(gm: Any, example_inputs: Any, **kwargs: Any) -> Any:
        seen.append(qualname(kwargs.get("get_decomp_fn")))
        return cfx.compile_fx_inner(gm, example_inputs, **kwargs)

    gm = torch.fx.symbolic_trace(lambda a, b: (torch.nn.functional.hardswish(a) + b,))
    cfx.compile_fx(gm, [torch.randn(4), torch.randn(4)], inner_compile=inner_compile)
    return seen


_LOWERING_LOOKUP_OPS = (
    "aten.hardswish.default",
    "aten.sigmoid.default",
    "aten.tanh.default",
    "aten.convolution.default",
    "aten.mm.default",
    "aten.sort.default",
)


def _operator_policy_rows(add: Callable[[str, Callable[[], Any]], None]) -> None:
    import torch

    dec = "torch._inductor.decomposition"
    low = "torch._inductor.lowering"
    add(f"{dec}.select_decomp_table() digest",
        lambda: _table_digest(_m(dec).select_decomp_table()))
    add(f"{dec}.decompositions digest", lambda: _table_digest(_m(dec).decompositions))
    add(f"{low}.lowerings digest", lambda: _table_digest(_m(low).lowerings))
    add(f"{low}.user_lowerings", lambda: sorted(str(op) for op in _m(low).user_lowerings))
    for name in _LOWERING_LOOKUP_OPS:
        op = eval(f"torch.ops.{name}")  # noqa: S307 -- fixed op names above
        add(f"{low}.lowerings[{name}]",
            lambda op=op: qualname(_m(low).lowerings[op]) if op in _m(low).lowerings
            else None)
    add("device operator policies", _operator_policies)
    add("compile_fx get_decomp_fn (cpu graph)", _compile_get_decomp_fn)
    add("FX graph cache key components (cpu graph)", _fx_graph_key_components)
    add("AOTAutograd cache key components (cpu graph)", _aot_autograd_key_components)


def answer_table() -> list[AnswerRow]:
    """Rows of (name, thunk).  Names are the entry names in the report."""
    import torch

    rows: list[AnswerRow] = []

    def add(name: str, fn: Callable[[], Any]) -> None:
        rows.append((name, fn))

    iu = "torch._inductor.utils"
    add("torch.__version__", lambda: torch.__version__)
    add("torch._C._get_privateuse1_backend_name()",
        lambda: torch._C._get_privateuse1_backend_name())

    # -- torch._inductor.utils ------------------------------------------------
    add(f"{iu}.GPU_TYPES", lambda: list(_m(iu).GPU_TYPES))
    add(f"{iu}.get_gpu_type()", lambda: _m(iu).get_gpu_type())
    for d in (*DEVICES, *INDEXED_DEVICES, None):
        add(f"{iu}.is_gpu({d!r})", lambda d=d: _m(iu).is_gpu(d))
    for d in (*DEVICES, *INDEXED_DEVICES):
        add(f"{iu}.device_need_guard({d!r})", lambda d=d: _m(iu).device_need_guard(d))
    for d in DEVICES:
        add(f"{iu}.get_current_backend({d!r})",
            lambda d=d: _m(iu).get_current_backend(d))

    # -- triton availability --------------------------------------------------
    add("torch.utils._triton.has_triton()", lambda: _m("torch.utils._triton").has_triton())
    add("torch.utils._triton.has_triton(include_cpu=False)", _has_triton_without_cpu)
    # The Triton backend and hash the kernels of each device get (stock: the
    # process-wide active driver for every device).
    add("torch.utils._triton.triton_hash_with_backend()",
        lambda: _m("torch.utils._triton").triton_hash_with_backend())
    for d in DEVICES:
        add(f"Triton backend of {d!r} kernels", lambda d=d: _triton_backend_name(d))
        add(f"Triton backend hash of {d!r} kernels", lambda d=d: _triton_hash_for(d))

    # -- ir / dynamo helpers --------------------------------------------------
    for d in DEVICES:
        add(f"torch._inductor.ir.is_triton({d!r})",
            lambda d=d: _m("torch._inductor.ir").is_triton(d))
    for d in DEVICES:
        add(f"torch._dynamo.utils.is_compile_supported({d!r})",
            lambda d=d: _m("torch._dynamo.utils").is_compile_supported(d))
    add("torch._dynamo.package.SystemInfo.CHECK_GPUS",
        lambda: _m("torch._dynamo.package").SystemInfo.CHECK_GPUS)
    add("torch.utils._foreach_utils._get_foreach_kernels_supported_devices()",
        lambda: _m("torch.utils._foreach_utils")._get_foreach_kernels_supported_devices())
    add("torch.utils._foreach_utils._get_fused_kernels_supported_devices()",
        lambda: _m("torch.utils._foreach_utils")._get_fused_kernels_supported_devices())
    # -- device lists migrated to BackendFeature (SPEC §6) ------------------------
    fu = "torch.utils._foreach_utils"
    op = "torch.optim.optimizer"
    # torch.device types (tpu is none) and the names the 2.13 lists carry.
    list_devices = (*(d for d in DEVICES if d != "tpu"), "hpu", "xla", "privateuseone")
    for d in list_devices:
        add(f"{fu}._device_has_foreach_support(torch.device({d!r}))",
            lambda d=d: _m(fu)._device_has_foreach_support(torch.device(d)))
    for xla in (True, False):
        add(f"{op}._get_capturable_supported_devices(supports_xla={xla})",
            lambda xla=xla: _m(op)._get_capturable_supported_devices(supports_xla=xla))
    for d in ("cpu", "meta"):
        for fused in (False, True):
            add(f"{op}._default_to_fused_or_foreach([{d} params], use_fused={fused})",
                lambda d=d, fused=fused: _default_to_fused_or_foreach(d, fused))
        add(f"{op}._device_dtype_check_for_fused({d} param)",
            lambda d=d: _m(op)._device_dtype_check_for_fused(torch.zeros(1, device=d)))
    for d in list_devices:
        for dtype in ("float16", "bfloat16", "float32"):
            for cplx in (False, True):
                add(f"torch._refs.fft._promote_type_fft({dtype}, {cplx}, {d!r})",
                    lambda d=d, dtype=dtype, cplx=cplx: _m("torch._refs.fft")._promote_type_fft(
                        getattr(torch, dtype), cplx, torch.device(d)))
    for d in list_devices:
        for backend in ("triton", "halide"):
            add(f"post_grad.prepare_softmax_extra_check({d!r}, backend={backend!r})",
                lambda d=d, backend=backend: _online_softmax_check(d, backend))
    bm = "torch._inductor.runtime.benchmarking"
    add(f"{bm}.GPU_BENCHMARK_DEVICE_TYPES", lambda: _m(bm).GPU_BENCHMARK_DEVICE_TYPES)
    add(f"{bm}._get_default_gpu_device_type()",
        lambda: _m(bm)._get_default_gpu_device_type())

    # -- ATen device mapping ---------------------------------------------------
    for d in ATEN_DEVICES:
        add(f"cpp_utils.device_to_aten({d!r})", lambda d=d: _aten_device(d))

    # -- C++ build options -------------------------------------------------------
    for d in CPP_OPTION_DEVICES:
        for aot in (False, True):
            for co in (False, True):
                add(
                    f"cpp_builder.get_cpp_torch_device_options({d!r}, aot_mode={aot}, compile_only={co})",
                    lambda d=d, aot=aot, co=co: _cpp_device_options(d, aot, co),
                )
    cc = "torch._inductor.codecache"
    for d in DEVICES:
        add(f"{cc}._get_cpp_prefix_header({d!r})",
            lambda d=d: _m(cc)._get_cpp_prefix_header(d))
        for aot in (False, True):
            add(f"{cc}._get_cpp_wrapper_header({d!r}, aot_mode={aot})",
                lambda d=d, aot=aot: _m(cc)._get_cpp_wrapper_header(d, aot_mode=aot))
        add(f"{cc}.get_kernel_bin_format({d!r})",
            lambda d=d: _m(cc).get_kernel_bin_format(d))
        for source in (None, "int x;", "at::vec::Vectorized<float> x;"):
            add(f"{cc}._resolve_needs_vec_isa({d!r}, {source!r}, None)",
                lambda d=d, source=source: _m(cc)._resolve_needs_vec_isa(d, source, None))
        add(f"graph.GraphLowering.codegen_with_cpp_wrapper two-pass gate({d!r})",
            lambda d=d: _two_pass_cpp_wrapper(d))

    # -- autotune subprocess device pinning ------------------------------------
    for gt in (None, "cuda", "xpu"):
        add(f"autotune_process.get_visible_devices_env_var({gt!r})",
            lambda gt=gt: _visible_devices_env_var(gt))
    add("autotune_process.TuningProcessPool.get_device_list()",
        lambda: list(_m("torch._inductor.autotune_process").TuningProcessPool.get_device_list()))

    # -- cache system info -------------------------------------------------------
    add(f"{cc}.CacheBase.get_system() keys", lambda: sorted(_system_info()))
    add(f"{cc}.CacheBase.get_system()", _system_info)

    # -- device interfaces -------------------------------------------------------
    add("torch._dynamo.device_interface.get_registered_device_interfaces()",
        _registered_interfaces)
    for d in (*DEVICES, "cuda:0"):
        add(f"torch._dynamo.device_interface.get_interface_for_device({d!r})",
            lambda d=d: _interface(d))
    add("torch._dynamo.device_interface.get_interface_for_device(torch.device('cpu'))",
        lambda: _interface(torch.device("cpu")))

    # -- codegen registrations -----------------------------------------------------
    for d in DEVICES:
        add(f"codegen.common.get_scheduling_for_device({d!r})", lambda d=d: _scheduling(d))
        add(f"codegen.common.get_wrapper_codegen_for_device({d!r})",
            lambda d=d: _wrapper_codegen(d))
        add(f"codegen.common.get_wrapper_codegen_for_device({d!r}, cpp_wrapper=True)",
            lambda d=d: _wrapper_codegen(d, cpp_wrapper=True))
        add(f"codegen.common.get_wrapper_codegen_for_device({d!r}, fx_wrapper=True)",
            lambda d=d: _wrapper_codegen(d, fx_wrapper=True))
        add(f"codegen.common.get_device_op_overrides({d!r})",
            lambda d=d: _device_op_overrides(d))

    # -- Dynamo tracing tables (RFC 2) ---------------------------------------------
    _dynamo_rows(add)

    # -- Operator policy, decomposition and lowering tables, cache keys (SPEC §5) --
    _operator_policy_rows(add)

    return rows


def _answers_setup() -> None:
    """Bring the process into the state every real compile sees: backend and
    device-interface registries initialised.  Rows are then independent of
    *where* a patch chooses to trigger that initialisation."""
    _m("torch._inductor.codegen.common").init_backend_registration()
    list(_m("torch._dynamo.device_interface").get_registered_device_interfaces())


def compute_answers(norm: Normaliser) -> dict[str, Any]:
    saved_env = dict(os.environ)
    out: dict[str, Any] = {}
    try:
        try:
            _answers_setup()
        except Exception as e:  # noqa: BLE001
            out["<setup>"] = norm.text(describe_exception(e))
        for name, fn in answer_table():
            if name in out:
                raise RuntimeError(f"duplicate answer row {name!r}")
            try:
                value = jsonable(fn(), norm)
            except Exception as e:  # noqa: BLE001 -- every failure is an answer
                value = norm.text(describe_exception(e))
            out[name] = value
    finally:
        # Some rows (cpp_builder) may export variables; keep the code phase clean.
        os.environ.clear()
        os.environ.update(saved_env)
    return out


# --------------------------------------------------------------------------
# Code corpus
# --------------------------------------------------------------------------


def compute_code(
    names: list[str], norm: Normaliser, timings: dict[str, float]
) -> dict[str, str]:
    import torch
    from torch._inductor import config as inductor_config
    from torch._inductor.utils import run_and_get_code

    corpus = _corpus()

    out: dict[str, str] = {}
    for name in names:
        builder = corpus.CORPUS[name]
        for mode, patch in corpus.MODES.items():
            key = f"{name}[{mode}]"
            t0 = time.perf_counter()
            try:
                with inductor_config.patch(patch):
                    run = builder()
                    _, codes = run_and_get_code(run)
                for i, code in enumerate(codes):
                    out[f"{key}#{i}"] = norm.code(code)
            except Exception:  # noqa: BLE001
                out[f"{key}!error"] = norm.text(traceback.format_exc(limit=-8))
            finally:
                torch._dynamo.reset()
                timings[key] = round(time.perf_counter() - t0, 3)
    return out


# --------------------------------------------------------------------------


def _corpus() -> Any:
    if __package__:
        from . import corpus
    else:  # run as a script (maybe under PYTHONSAFEPATH): import it by path
        spec = importlib.util.spec_from_file_location(
            "corpus", os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus.py")
        )
        corpus = importlib.util.module_from_spec(spec)
        sys.modules["corpus"] = corpus
        spec.loader.exec_module(corpus)
    return corpus


def _configure_caches() -> None:
    """FX graph cache and AOTAutograd cache off: output code always regenerated.
    The C++ kernel cache (TORCHINDUCTOR_CACHE_DIR) stays on and is shared."""
    os.environ["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    os.environ["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    os.environ["TORCHINDUCTOR_FX_GRAPH_REMOTE_CACHE"] = "0"
    os.environ["TORCHINDUCTOR_AUTOGRAD_REMOTE_CACHE"] = "0"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="JSON output file")
    ap.add_argument("--only", choices=("answers", "code"), default=None)
    ap.add_argument("--corpus", action="append", default=[],
                    help="restrict the code corpus (repeatable / comma-separated)")
    args = ap.parse_args(argv)

    _configure_caches()
    t_start = time.perf_counter()
    import torch
    import torch._functorch.config as functorch_config
    import torch._inductor.config as inductor_config

    inductor_config.fx_graph_cache = False
    inductor_config.fx_graph_remote_cache = False
    functorch_config.enable_autograd_cache = False
    functorch_config.enable_remote_autograd_cache = False
    t_import = time.perf_counter() - t_start

    corpus = _corpus()

    wanted = [n for spec in args.corpus for n in spec.split(",") if n]
    unknown = [n for n in wanted if n not in corpus.CORPUS]
    if unknown:
        print(f"unknown corpus item(s): {unknown}; known: {corpus.names()}", file=sys.stderr)
        return 2
    names = wanted or corpus.names()

    norm = Normaliser()
    result: dict[str, Any] = {"answers": {}, "code": {}}
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if args.only in (None, "answers"):
        result["answers"] = compute_answers(norm)
    t_answers = time.perf_counter() - t0
    t0 = time.perf_counter()
    if args.only in (None, "code"):
        result["code"] = compute_code(names, norm, timings)
    t_code = time.perf_counter() - t0

    result["meta"] = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "torch_version": torch.__version__,
        "torch_file": torch.__file__,
        "corpus": names if args.only in (None, "code") else [],
        "seconds": {
            "import_torch": round(t_import, 3),
            "answers": round(t_answers, 3),
            "code": round(t_code, 3),
            "code_items": timings,
        },
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

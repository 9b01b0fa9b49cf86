"""How the series is cut into pull requests (read by ``tools/stack.py``).

``PATCHES`` lists the stack in order, each with the description its pull
request carries.  ``FILES`` maps every stacked file (glob patterns, first match
wins) to its default patch, optionally with rules ``(regex, patch)`` matched
against the head of each unit of the file's changes (its first code line or
Markdown heading; a regex starting with ``(?s)`` searches the whole unit).
``ISOLATE`` names statements that form a unit of their own although no blank
line separates them from their neighbours (a call into a later patch's
function inside an earlier patch's code, one import in an import block).

A unit that matches no rule follows the unit that encloses it, then the unit
an isolated statement interrupted, then the file's default; see
``tools/stack.py``.
"""

from __future__ import annotations

from tools.stack import Patch

RFC_MAIN = "the umbrella RFC \"DeviceInterface: Registry Support for PrivateUse1 Backends in torch.compile\""
RFC1 = f"RFC #189135 (device identity and capability), {RFC_MAIN}."
RFC2 = f"RFC #189136 (Dynamo registry splicing), {RFC_MAIN}."
RFC3 = f"RFC #189137 (Inductor codegen registration interfaces), {RFC_MAIN}."
RFC_LAZY = f"RFC #191314 (convention-based lazy registration of the PrivateUse1 DeviceInterface), {RFC_MAIN}."
RFC_BF = f"RFC #191317 (BackendFeature as a framework-wide capability), {RFC_MAIN}."
RFC_POLICY = "the RFC draft \"Device-scoped Inductor operator policies\" (RFC-00xx)."

PATCHES = [
    Patch(
        "registry",
        "[dynamo] Register PrivateUse1 device interfaces; capability predicates on DeviceInterface",
        """
Adds `register_interface_for_device_PrivateUse1()` and lazy discovery of the
PrivateUse1 device's interface (the device module's `get_device_interface()`
hook, the convention module `torch_<name>._dynamo.device_interface`), run by
one function under one re-entrant lock with a per-device loading flag.
`device_interfaces` stays a plain dict written only by its registration
functions, which validate first, warn when they replace an entry and bump one
generation counter (`torch.utils.backend_registration`) that derived caches key
on; built-in names are reserved. `GPU_TYPES` is a real list kept current in
place. `DeviceInterface` gains documented capability predicates with
conservative defaults (`is_gpu()`, `exposes_streams()`,
`get_multi_processor_count()`, `backend_features()`), and `BackendFeature`
moves next to it. Brings the fake PrivateUse1 device the tests run on
(`test/inductor/extension_backends`).
""",
        """
`torch.compile` recognises devices by hardcoded lists (`GPU_TYPES`,
`!= "mps"`, `triton_supported_devices`), so an out-of-tree backend must patch
module globals to be treated as GPU-class. Deriving identity from the registry
removes those patches, while every in-tree answer stays what it was.
""",
        RFC1,
    ),
    Patch(
        "inductor-identity",
        "[inductor] Derive GPU_TYPES, is_gpu and device guards from the device registry",
        """
Inductor's `GPU_TYPES`, `is_gpu()`, `get_gpu_type()`, `device_need_guard()`,
`is_cpp_scheduled()` and `has_triton()` become views derived from the device
interface registry, refreshed on its change notification and answered by dict
lookups on hot paths. `GPU_TYPES` stays importable and in its order for the
built-in devices. The questions are asked through probes that never raise on a
partial out-of-tree interface (`_safe_probe`).
""",
        """
`GPU_TYPES = ["cuda", "mps", "xpu", "mtia"]`, `!= "mps"` in `device_need_guard`
and `triton_supported_devices` are the first things every vendor patches.
""",
        RFC1,
    ),
    Patch(
        "aten",
        "[inductor] Route the AOTI device type through DeviceOpOverrides; upstream DeviceOpOverrides names",
        """
`cpp_utils.device_to_aten()` asks the device's `DeviceOpOverrides.aten_device_type()`
(default `at::kPrivateUse1`) instead of the mutable `DEVICE_TO_ATEN` table, with
errors in upstream's words for a missing or malformed answer. Adds the
`DeviceOpOverrides` names upstream uses (`DeviceIdx`, `current_device_idx_expr`,
`NoOpDeviceOpOverrides`, `device_op_overrides_lock`,
`cpp_kernel_launch_supports_pdl`) and validates registrations.
""",
        """
An out-of-tree device has no entry in `DEVICE_TO_ATEN`, so the C++ wrapper fails
with a `KeyError` unless the table is patched (pytorch/pytorch#193904).
""",
        f"item 3 of {RFC3}",
    ),
    Patch(
        "cpp",
        "[inductor] C++ build options and C++ wrapper for out-of-tree devices",
        """
The C++ build options of an out-of-tree device come from its interface
(`DeviceInterface.get_cpp_device_options()`,
`get_cpp_optimization_flags()`) or a `register_cpp_device_options()` callback,
validated with errors naming the device; kernels and the C++ wrapper of the device
are built for its device type. The C++ wrapper header is resolved in one place
for codegen and precompiled headers. `DeviceOpOverrides.uses_gpu_cpp_wrapper()`
replaces the `["cuda", "xpu"]` two-pass gate.
""",
        """
`get_cpp_torch_device_options()` hardcodes three devices; vendors patch it (and
`cpp_builder` internals) to add include paths, libraries and macros
(pytorch/pytorch#190614). The C++ wrapper picks its header and its GPU path by
device name.
""",
        f"item 3 of {RFC3}",
    ),
    Patch(
        "loaders",
        "[inductor] Load the Inductor backend of an out-of-tree device on demand",
        """
The first compile that needs an out-of-tree device loads its Inductor backend:
from `register_device_backend_loader()`, a `torch_inductor_backends` entry
point, a `torch.<name>._inductor_backend_init()` hook, or the device module's
`Scheduling` and wrapper classes. One loader rule: success is cached, a loader
that registered nothing is retried by the next compile, and a loader that
raises fails that compile with an error naming the device and the loader. No
lock is held while backend code runs.
""",
        """
Vendors register their Inductor backend eagerly at import (slow, and it imports
Inductor into every eager user) or patch `init_backend_registration`. Loading
on demand keeps eager import light and makes `torch.compile` find the backend
by itself.
""",
        f"item 1 of {RFC3}",
    ),
    Patch(
        "discovery",
        "[dynamo] Test and document lazy discovery of the PrivateUse1 device interface",
        """
The registry's one discovery path (`_discover`, in the registry patch) finds a
PrivateUse1 backend's `DeviceInterface` on first lookup, from the device
module's `torch.<name>.get_device_interface()` hook or the convention module
`torch_<name>._dynamo.device_interface`, whose class need not inherit from
torch's. This patch adds the tests of those sources and the guide's section:
broken hooks warn once and are skipped, discovery is retried after a registry
change, not on every lookup, and racing first lookups run the hook once.
""",
        """
Registering the interface eagerly imports Dynamo into every eager user of the
backend's package; lazy discovery keeps eager import light.
""",
        RFC_LAZY,
    ),
    Patch(
        "dynamo",
        "[dynamo] Derive Dynamo's device tables from the registry",
        """
Dynamo's lookup tables (in-graph classes, trace rules, constant folding,
autocast classes, stream and event classes) now include the runtime of every
registered out-of-tree device, derived once per registry change from its
interface (`Stream`, `Event`) and its device module (its typed tensor classes
found by name), with defaults for the module's functions.
""",
        """
Dynamo's six lookup tables hardcode cuda and xpu: tracing `torch.acc.synchronize()`
or `torch.acc.Stream` graph-breaks or is wrongly specialised, and vendors patch
`trace_rules` to fix it.
""",
        RFC2,
    ),
    Patch(
        "dynamo-functions",
        "[dynamo] register_device_trace_rules and the runtime functions of out-of-tree devices",
        """
Adds `register_device_trace_rules()`, the public entry for the trace rules of
a device's runtime functions that cannot be derived from its interface, and
traces the runtime functions Dynamo handles for cuda on any registered device:
`current_stream`, `synchronize`, `exchange_device`, with a guard on the
device's `current_device()`. The device-properties objects of available devices
become constants, as `torch.cuda.get_device_properties()` results are. A call
into the runtime of a device that has no interface graph-breaks with a message
that names the registration to add.
""",
        """
Vendors patch `torch._dynamo.trace_rules` and `TorchInGraphFunctionVariable`
to trace `torch.<device>.synchronize()` and friends.
""",
        RFC2,
    ),
    Patch(
        "streams",
        "[dynamo] Trace device selection, device contexts and plain streams of out-of-tree devices",
        """
Completes what a backend author hits once tracing works: a traced
`torch.<name>.set_device(i)` switches the device for the code that follows and
records the switch in the graph, `with torch.<name>.device(i):` traces, a
plain `torch.Stream` argument and `torch.accelerator.current_stream()` trace,
the device's `Stream` and `Event` classes are rebuilt in generated bytecode, and
a tensor last used on another stream than the one that allocated it gets the
deallocation sync it gets on cuda.
""",
        """
Found by a backend author trial on the fake device: each of these failed with a
graph break on an out-of-tree device, while working on cuda.
""",
        RFC2,
    ),
    Patch(
        "inductor-streams",
        "[inductor] Side streams, kernel call guards and set_device() in out-of-tree device code",
        """
What Inductor generates for an out-of-tree device once Dynamo traces its
streams and device selection: a `set_device(i)` traced into the graph pins the
factories that follow to index `i`; side streams of a device that is not
GPU-class are bound before the first kernel, and `cpp_wrapper` refuses them
before codegen; and `DeviceOpOverrides.kernel_call_guard()` lets a device wrap
each kernel call in the generated Python.
""",
        """
Found by a backend author trial on the fake device: each of these failed with a
runtime error, or used the compile-time device, on an out-of-tree device.
""",
        RFC3,
    ),
    Patch(
        "options",
        "[inductor] Accept per-device compile options by their registered prefix",
        """
`torch.compile(options={"<device>.<option>": ...})` and
`torch._inductor.config.patch` accept the options of a device's config module
registered with `register_backend_for_device(..., device_custom_config=...)`.
`get_compile_option_owner()` keeps upstream's return type; a misspelt or
undeclared option fails naming the device and the registration that declares it.
""",
        """
A backend with its own config module has no way to let users set it through
`torch.compile(options=...)` without patching `config.patch`.
""",
        f"item 2 of {RFC3}",
    ),
    Patch(
        "identity",
        "[inductor] Visible-devices variable and cache identity from the device interface",
        """
`DeviceInterface.visible_devices_env()` names the variable autotune
subprocesses pin (instead of `CUDA_VISIBLE_DEVICES`), and
`DeviceInterface.get_cache_system_info()` enters the cache keys, so two machines
with different device runtimes never share an artifact.
""",
        """
Autotuning on an out-of-tree device pins the wrong variable, and its cache keys
ignore the device runtime and driver.
""",
        f"item 4 of {RFC3}",
    ),
    Patch(
        "subprocess",
        "[inductor] Load out-of-tree backends in compile and autotune subprocesses",
        """
`fx_compile_mode=subprocess` children and autotune subprocesses load the
graph's out-of-tree backends through the loader table before unpickling, and
receive the device option values; a backend that cannot be found fails naming
the device.
""",
        """
A subprocess starts with only the built-in backends registered, so it cannot
unpickle or compile a graph for an out-of-tree device.
""",
        RFC3,
    ),
    Patch(
        "features",
        "[inductor] BackendFeature as a framework-wide capability",
        """
Adds framework members to `BackendFeature` (`GPU`, `ONLINE_SOFTMAX`,
`FOREACH_KERNELS`, `FUSED_OPTIMIZER`, `CAPTURABLE_OPTIMIZER`,
`HALF_PRECISION_FFT`) and `DeviceInterface.backend_features()`. `GPU_TYPES`,
the optimizer device lists, the half-precision FFT list and the online-softmax
check consult it. An interface that does not override it keeps the answers these
lists gave the PrivateUse1 backend before.
""",
        """
Capabilities are bound to device names in scattered lists that vendors patch
one by one.
""",
        RFC_BF,
    ),
    Patch(
        "device-lists",
        "[inductor] Derive the remaining device lists from the registry",
        """
Replaces the remaining hardcoded device lists with registry questions:
`DeviceInterface.supports_tma()`, the GPU benchmark device types, the freezing
pass's GPU choice and the content store's generators.
""",
        """
Each of these lists is a monkeypatch site in real backends.
""",
        RFC1,
    ),
    Patch(
        "triton",
        "[inductor] Triton backends of out-of-tree GPU-class devices",
        """
`DeviceInterface.triton_backend_name()` chooses each kernel's Triton driver and
backend hash; `triton_helpers.set_driver_to_backend()` activates it. In-tree
devices keep their code paths.
Adds the note to `rename_privateuse1_backend()`'s docstring that lists the
compile hooks a backend may offer, now that the stack has added all of them.
""",
        """
An out-of-tree GPU-class device with a Triton backend compiles against the
active driver and shares hashes with cuda.
""",
        RFC3,
    ),
    Patch(
        "fake-device",
        "[test] End-to-end tests on the fake PrivateUse1 device, compatibility corpus and example backend",
        """
The end-to-end test file of the fake device (`test_extension_backend.py`), a
corpus of backends written for earlier and later PyTorch versions that must
work unchanged, the backend author guide's example backend, the concurrency
stress test and the signatures shared with upstream.
""",
        """
Pins the whole stack against what real backends do.
""",
        RFC_MAIN + ".",
    ),
    Patch(
        "flush-before-extern",
        "[inductor] Emit batched C++ kernels before a device-less extern op",
        """
The scheduler emits the C++ kernels it has batched before an extern node that
has no device (`record_event`, `wait_event`), and before it closes a device
guard, instead of after them.
""",
        """
A behaviour change for in-tree cpu graphs, on its own for review: stock 2.13
emitted the batch after the op had freed the kernels' inputs, so a cpu kernel
followed by an event read freed memory.
""",
        f"item 1 of {RFC3}",
    ),
    Patch(
        "first-non-cpu-device",
        "[inductor] A 0-d cpu operand does not decide a pointwise node's device",
        """
A pointwise lowering whose inputs are a 0-d cpu tensor and a device tensor
runs on the device, whatever the order of its operands (`_first_non_cpu_device`).
""",
        """
A behaviour change for every device, on its own for review: stock 2.13 put such
a node on cpu when the cpu scalar came first, which copies the device operand
and differs from eager.
""",
        RFC1,
    ),
    Patch(
        "traced-set-device",
        "[inductor] Factories after a traced set_device() use the selected index",
        """
A `torch.<device>.set_device(i)` that Dynamo traced into the graph pins the
factories and copies that follow it to index `i` (`_pin_devices_selected_in_graph`),
as they run in eager.
""",
        """
A graph rewrite that changes what user code computes, on its own for review:
without it the compiled factories used the device current at compile time.
""",
        RFC2,
    ),
    Patch(
        "policy",
        "[inductor] Device-scoped operator policies",
        """
Adds `DeviceOperatorPolicy`: an immutable, validated, per-device set of
decomposition, lowering and fallback decisions, registered with
`register_device_operator_policy()` and resolved once per compile. The
decomposition table is built per compile, lowering precedence is
user > policy > default, and the policy's identity enters both the AOTAutograd
and the FX graph cache keys; with no policy both keys are unchanged.
""",
        """
Vendors edit the global decomposition and lowering tables and `make_fallback`
at import, which leaks into every other device and into the cache.
""",
        RFC_POLICY,
    ),
    Patch(
        "policy-config",
        "[inductor] Per-device config defaults, graph passes and fake implementations in the operator policy",
        """
Extends `DeviceOperatorPolicy` with what vendors still patch: `config_defaults`
(applied per compile, the user wins, never written to `config`),
`custom_passes` for the five pass stages, `fake_overrides` for the device's
fake tensors, `realized_input_ops` and `cache_key_fields`.
""",
        """
An inventory of a real vendor's patches (torch_npu 2.13.0) shows config writes,
pass registration and fake-tensor patches as the largest remaining groups.
""",
        RFC_POLICY,
    ),
    Patch(
        "gates",
        "[dynamo][inductor] Ask the device interface at the remaining device-name gates",
        """
Random-number state: `preserve_rng_state`, `preserve_global_state` and
`checkpoint_params` save and restore every registered out-of-tree device's
generator wherever cuda's is. A PrivateUse1 device module without
`is_available()` no longer crashes Dynamo's stream state or the FX graph cache
key. The vendor hooks for the remaining gates are `DeviceInterface` members,
in-tree interfaces stating stock's answers: fused multiply-adds follow
`eager_uses_fma()`, mm padding `pads_matmuls()`, Triton GEMM templates
`max_autotune_gemm_min_sms()`, C++ builds `get_cpp_optimization_flags()`;
post-grad passes run under the graph's device (`get_device_context`,
`runs_passes_under_device()`), and the async-compile pool wakes for a device
that `wakes_async_compile()` (`_should_wakeup_async_compile`), upstream's names.
""",
        """
These gates keyed on cuda/xpu names: an out-of-tree device's random stream
moved during compilation, and compiled multiply-adds could differ bitwise
from eager; vendors patch each of them.
""",
        RFC1,
    ),
    Patch(
        "dynamo-hooks",
        "[dynamo] Dynamo config defaults, a reset hook and a backend's start-up hook",
        """
`DeviceInterface.dynamo_config_defaults()` names `torch._dynamo.config`
values applied while Dynamo compiles a frame whose tensors are on the device
(an option the user set wins), and `DeviceInterface.on_dynamo_reset()` is run
by `torch._dynamo.reset()`. A backend's `_dynamo_backend_init()` (upstream
2.15's name) is called each time Dynamo resolves the backend.
""",
        """
Vendors with a custom Dynamo backend write global Dynamo config at import,
wrap `torch._dynamo.reset` to flush their caches, and wrap
`torch._dynamo.optimize` to start their backend when `torch.compile` names it.
""",
        RFC2,
    ),
    Patch(
        "vendor-hooks",
        "[inductor] Per-device fusion choices, each kernel's FX graph and the Triton kernel's tables",
        """
`DeviceInterface.get_inductor_choices()` lets a device answer the scheduler's
fusion questions and the reduction-split questions of lowering for its own
nodes (default: `V.choices`). `kernel_graph(nodes)`
gives a device's Scheduling the FX graph each kernel was lowered from, rebuilt
from the IR nodes' origins: the buffers it reads are placeholders, the buffers
it writes outputs, and `meta["exact"]` marks the graphs a buffer without a node
of its own makes inexact. A Triton device's kernel class answers its compute
and store types (`TritonKernel.triton_compute_type` / `triton_store_type`) and
its Scheduling the tile sizes it favours (`SIMDScheduling.is_good_size`).
A compile that calls a `DeviceInterface` member the device's interface leaves
at its default (`Worker.get_device_properties`, say) fails with an
`InductorError` that names the interface and the member.
""",
        """
Vendors replace `InductorChoices.can_fuse`, thread FX graphs through
`ir.*.create` and patch `triton_compute_type` and `CandidateTiling.is_good_size`
process-wide to get these per-device answers. A newcomer's interface without a
`Worker` failed a training step with a bare `NotImplementedError:`.
""",
        RFC3,
    ),
    Patch(
        "c-shim",
        "[inductor] C++ wrapper: a device without a C shim for an op calls the dispatcher",
        """
`DeviceOpOverrides.c_shim_device(device, op)` says whose C shim function
(`aoti_torch_<name>_<op>`) the C++ wrapper calls for an ATen op: the device's
own by default, as before. None makes the JIT wrapper call the op through the
dispatcher, as it already does for ops with no shim at all (extern kernels
through a boxed `c10::Dispatcher` call, fallback kernels through the
runtime-lookup path); another device's name (cpu's, for a host-memory device)
is taken for `out=` kernels. Fixes the runtime-lookup paths for schemas with
integer returns and undefined tensor arguments, which only ops without a shim
reach.
""",
        """
`cpp_wrapper=True` on an out-of-tree device required a C shim function for
every matrix product and shimmed fallback in the graph, so a backend without
a C shim could not use the C++ wrapper at all.
""",
        RFC3,
    ),]

# The review budget of one pull request: added non-blank lines of code under
# torch/ (tests and docs not counted). `check --stack` reports a patch over it.
MAX_CODE_LINES = 600

# The series upstream reviews on their own, in stack order: (title, patches,
# budget of added non-blank lines of code under torch/, None for no budget).
SERIES = [
    ("core RFCs", ["registry", "inductor-identity", "aten", "cpp", "loaders", "discovery",
                   "dynamo", "dynamo-functions", "streams", "inductor-streams", "options",
                   "identity", "subprocess", "features", "device-lists", "triton",
                   "fake-device"], 2550),
    ("in-tree behaviour changes, one PR each",
     ["flush-before-extern", "first-non-cpu-device", "traced-set-device"], None),
    ("operator policy", ["policy", "policy-config"], None),
    ("vendor hooks", ["gates", "dynamo-hooks", "vendor-hooks", "c-shim"], None),
]

_FAKE = "registry"

FILES: dict[str, object] = {
    # ---------------------------------------------------------------- Dynamo
    "torch/_dynamo/device_interface.py": ("registry", [
        (r"TritonUnavailableError|^Raises a `torch._dynamo.exc|^The caller should ensure|"
         r"_require_triton_backend\(", "triton"),
        (r"triton_backend_name|triton_interpret|triton.backends.backends", "triton"),
        (r"def (visible_devices_env|get_cache_system_info)", "identity"),
        (r"^_CppDeviceOptions|def get_cpp_device_options", "cpp"),
        (r"def get_cpp_optimization_flags", "gates"),
        (r"def supports_tma", "device-lists"),
        (r"eager_uses_fma|pads_matmuls|def (max_autotune_gemm_min_sms|supports_tensor_descriptors)\(|"
         r"^(MM_OUT_DTYPE|NATIVE_MATMUL|MIX_ORDER_REDUCTION) = |"
         r"^(supports_tma = )?supports_tensor_descriptors = ", "gates"),
        (r"def get_inductor_choices\(", "vendor-hooks"),
        (r"def (wakes_async_compile|runs_passes_under_device)\(|"
         r"^(wakes_async_compile|runs_passes_under_device) = ", "gates"),
        (r"def (dynamo_config_defaults|on_dynamo_reset)\(", "dynamo-hooks"),
    ]),
    "torch/_dynamo/exc.py": "registry",
    "torch/_dynamo/device_discovery.py": "registry",
    "torch/_inductor/fx_passes/pad_mm.py": "gates",
    "torch/_functorch/_aot_autograd/utils.py": "gates",
    "torch/_dynamo/variables/streams.py": ("streams", [(r"accelerator_is_available", "gates")]),
    "torch/_dynamo/variables/ctx_manager.py": ("streams", [
        (r"def _device_module\(|^from \.\.source import \($", "dynamo-functions"),
        (r"device_autocast_classes|_device_tables|^from \.\. import graph_break_hints, trace_rules",
         "dynamo"),
    ]),
    "torch/_dynamo/trace_rules.py": ("dynamo", [
        (r'^"torch\.utils\._foreach_utils\._privateuse1_backend_features"', "features"),
        (r"def (register_device_trace_rules|_trace_rules_device_type|_trace_rules_by_function|"
         r"_rule_after_loading_interface|_device_without_interface)\(|"
         r"^_interfaceless_runtime|^global _interfaceless_runtime|"
         r"^if rule is None and obj in _interfaceless_runtime", "dynamo-functions"),
    ]),
    "torch/_dynamo/variables/functions.py": "dynamo-functions",
    "torch/_dynamo/variables/torch.py": ("dynamo-functions", [
        (r"_device_tables\(\)\.(constant_fold|autocast_classes)|^\):$|^if \($|"
         r"^from \.\. import config, graph_break_hints", "dynamo"),
        (r"^torch\.utils\._foreach_utils\._privateuse1_backend_features,$", "features"),
    ]),
    "torch/_dynamo/variables/user_defined.py": ("dynamo", [(r"^var_args, var_kwargs, self\.value$", "streams")]),
    "torch/_dynamo/utils.py": ("dynamo", [
        (r"def build_of_class", "streams"),
        (r"def (accelerator_is_available|_rng_device_modules)\(|^@_registry_cache$|"
         r"device_rng_states", "gates"),
    ]),
    "torch/_dynamo/convert_frame.py": ("gates", [
        (r"_devices_with_dynamo_config|_device_dynamo_config|_device_config_patch|"
         r"device_config = |device_ctx", "dynamo-hooks"),
    ]),
    "torch/_dynamo/__init__.py": "dynamo-hooks",
    "torch/_dynamo/eval_frame.py": "dynamo-hooks",
    "torch/_dynamo/backends/common.py": "dynamo-hooks",
    "torch/_dynamo/symbolic_convert.py": ("dynamo", [
        (r"def _is_out_of_tree_stream_device|^if device is None or \($", "streams"),
    ]),
    "torch/_dynamo/*": "dynamo",
    # ------------------------------------------------------------- Inductor
    "torch/_inductor/codegen/common.py": ("inductor-identity", [
        (r"def (c_shim_device|_c_shim_device|_no_own_c_shim)\(", "c-shim"),
        (r"def (kernel_call_guard_with_args|cpp_kernel_call_guard)\(", "inductor-streams"),
        (r"^import (textwrap|threading)$|^DeviceIdx|def (set_device|device_guard)\(self, device_idx: DeviceIdx|"
         r"def cpp_kernel_launch_supports_pdl|^class NoOpDeviceOpOverrides|"
         r"^device_op_overrides_lock|def aten_device_type|"
         r"^if not isinstance\(device_op_overrides, DeviceOpOverrides\)|^from \. import \(|"
         r"^with device_op_overrides_lock|^_device_op_overrides_initialized = True|"
         r"^overrides = _find_device_op_overrides|^from \. import cpu_device_op_overrides|"
         r"^-from \.cpu_device_op_overrides import CpuDeviceOpOverrides$", "aten"),
        (r"def (get_cpp_torch_device_options|uses_gpu_cpp_wrapper|_uses_gpu_cpp_wrapper)|"
         r"^The C\+\+ type of a raw stream", "cpp"),
        (r"def kernel_call_guard", "inductor-streams"),
        (r"def current_device_idx_expr", "aten"),
        (r"^init_backend_registration\(\(device,\)\)|def _init_builtin_backend_registration|"
         r"^-private_backend|^device_backend_loaders|^BACKEND_ENTRY_POINT_GROUP|"
         r"def (register_device_backend_loader|_backend_load_error|_run_loader|"
         r"_from_registered_loader|_from_entry_point|_from_inductor_backend_init|"
         r"_from_device_module_classes|_privateuse1_module|_load_backend|"
         r"missing_backend_message|init_backend_registration)|^_BACKEND_ROUTES = |"
         r"^-init_backend_registration\(\)$|^_init_builtin_backend_registration\(\)$|"
         r"^# Device type -> the loader that registers|^_load_backend\(device_type, strict",
         "loaders"),
        (r"def (get_compile_option_owner|_resolve_compile_option_owner|patch_compile_options)",
         "options"),
        (r"def load_backends_in_subprocess", "subprocess"),
    ]),
    "torch/_inductor/utils.py": ("inductor-identity", [
        (r"(?s)_has_triton_tma_for_device|max_autotune_gemm_min_sms", "gates"),
        (r"def graph_device_types|^common.init_backend_registration", "loaders"),
        (r"def (_declares|_uses_cpp_templates)\(|"
         r"^return \(config\.max_autotune or config\.max_autotune_gemm\) and \($", "features"),
        (r"def _(device_choices|choices_for)\(|^from \.choices import InductorChoices$", "vendor-hooks"),
    ]),
    "torch/_inductor/graph.py": ("policy", [
        (r"^_uses_gpu_cpp_wrapper,|^has_gpu = any\(_uses_gpu_cpp_wrapper", "cpp"),
        (r"^missing_backend_message,|^get_all_devices,|^init_backend_registration|"
         r"^if wrapper_code_gen_cls is None", "loaders"),
        (r"def _needs_realized_inputs\(|self._needs_realized_inputs\(", "policy-config"),
    ]),
    "torch/_inductor/scheduler.py": ("inductor-identity", [
        (r"^elif node\.is_extern\(\):|^# Batched kernels belong inside their guard",
         "flush-before-extern"),
        (r"_choices_for\(|^_choices_for,$|_speedup_by_fusion\(|"
         r"^(if not |return |and )?choices\.can_fuse", "vendor-hooks"),
        (r"(?s)_declares\(device_type, BackendFeature\.MIX_ORDER_REDUCTION\)|^_declares,$",
         "features"),
        (r"BackendFeature\.MIX_ORDER_REDUCTION|def _is_cpp_backend\(|"
         r"^if _is_cpp_backend\(", "gates"),
        (r"^if self._multi_stream_nodes|^name = torch\._C\._get_privateuse1_backend_name\(\)$|def _num_streams|"
         r"^self._num_streams\(\)|"
         r"^-# Compute num_streams|^self._codegen_stream_info_without_device_guard\(\)",
         "inductor-streams"),
        (r"(?s)self._has_multi_stream_nodes\(\)\n\s+and not is_gpu", "inductor-streams"),
        (r"^init_backend_registration\(\(device,\)\)|^from \.codegen\.common import \($",
         "loaders"),
    ]),
    "torch/_inductor/compile_fx.py": ("policy", [
        (r"(?s)operator_policy_scope\(operator_policy\),\n\s+_device_config_scope\(", "policy-config"),
        (r"def (get_device_context|_should_wakeup_async_compile)\(|get_device_context\(gm\)|"
         r"_should_wakeup_async_compile\(|^if len\(devices\) != 1:|"
         r"^# The name of get_device_context when|^get_cuda_device_context = ", "gates"),
        (r"^graph_device_types,|^init_backend_registration\(devices := get_all_devices|"
         r"^for device in devices$", "loaders"),
        (r"def _pin_devices_selected_in_graph|^if isinstance\(model_, GraphModule\):",
         "traced-set-device"),
        (r"^from \.codegen\.common import \($|^with patch_compile_options|"
         r"^inner_compile=patch_compile_options|^with \($|^_user_config_patches|"
         r"def _set_context_var|def _user_options_scope\(|^with _user_options_scope\(config_patches\):",
         "options"),
        (r"def (_device_config_scope|_with_device_config|"
         r"_device_config_patches)|^device_config = |^_device_config_scope\(device_config\)|"
         r"^# The Inductor options of the graph|^_device_config_(applied|scope),$|"
         r"^@_with_device_config$", "policy-config"),
    ]),
    "torch/_inductor/cpp_builder.py": ("cpp", [
        (r"def _device_cpp_optimization_flags\(|^if device_type is not None:$|"
         r"^device_type: str \| None = None,$|^device_type=device_type,$|"
         r"^\"\"\"``device_type`` \(None: no device\)", "gates")]),
    "torch/_inductor/lowering.py": ("gates", [
        (r"def _first_non_cpu_device\(|^device = _first_non_cpu_device", "first-non-cpu-device")]),
    "torch/_inductor/kernel/*": "gates",
    "torch/_inductor/decomposition.py": "gates",
    "torch/_inductor/choices.py": ("gates", [
        (r"def speedup_by_fusion\(|^from \.scheduler import .*FusionResult", "vendor-hooks")]),
    "torch/_refs/__init__.py": "gates",
    "torch/_inductor/select_algorithm.py": "gates",
    "torch/_inductor/template_heuristics/triton.py": "gates",
    "torch/nn/attention/flex_attention.py": "gates",
    "torch/_inductor/codegen/kernel_graph.py": "vendor-hooks",
    "torch/_inductor/codegen/simd.py": "vendor-hooks",
    "torch/_inductor/fx_passes/joint_graph.py": "policy-config",
    "torch/_functorch/_aot_autograd/streams.py": "gates",
    "torch/_inductor/codegen/cpp_utils.py": "aten",
    "torch/_inductor/codegen/cpp_wrapper_cpu.py": ("cpp", [
        (r"device_to_aten|DEVICE_TO_ATEN", "aten"),
        (r"(?s)_c_shim_device|_dispatch_without_c_shim|An integer return is known|"
         r"aoti_torch_call_dispatcher converts return|A Tensor argument given None", "c-shim")]),
    "torch/_inductor/codegen/cpp_wrapper_gpu.py": "cpp",
    "torch/_inductor/codegen/cpp.py": "cpp",
    "torch/_inductor/codegen/cpp_template_kernel.py": "gates",
    "torch/_inductor/codegen/cpu_device_op_overrides.py": "aten",
    "torch/_inductor/codegen/cuda/device_op_overrides.py": ("cpp", [
        (r"def aten_device_type", "aten"), (r"def current_device_idx_expr", "aten")]),
    "torch/_inductor/codegen/xpu/device_op_overrides.py": ("cpp", [
        (r"def aten_device_type", "aten"), (r"def current_device_idx_expr", "aten")]),
    "torch/_inductor/codegen/mps_device_op_overrides.py": "aten",
    "torch/_inductor/codegen/triton.py": ("triton", [
        (r"(?s)out_of_tree = device\.type ==|_has_triton_tma_for_device\(device\)", "gates"),
        (r"^or \(out_of_tree and|^_has_triton_tma_for_device,$", "gates"),
        (r"def triton_(compute|store)_type\(self|^\"\"\"Convert torch\.dtype to triton type|"
         r"^size_str = self\.kexpr", "vendor-hooks"),
    ]),
    "torch/_inductor/codegen/wrapper.py": ("inductor-streams", [
        (r"^_uses_gpu_cpp_wrapper,|^if not triton and not _uses_gpu_cpp_wrapper", "cpp")]),
    "torch/_inductor/async_compile.py": "cpp",
    "torch/_inductor/autotune_process.py": ("identity", [
        (r"^AUTOTUNE_DEVICE_BACKENDS_ENV|^if devices := os.environ.get|"
         r"^if gpu_type == torch\._C\._get_privateuse1_backend_name\(\):", "subprocess")]),
    # A compile's error names the DeviceInterface member that is missing.
    "torch/_inductor/exc.py": "vendor-hooks",
    "torch/_inductor/codecache.py": ("cpp", [
        (r"(?s)integer returns are known when compiling", "c-shim"),
        (r"def (_device_interfaces_system_info|_get_cuda_system)\(|"
         r"^device_interfaces: NotRequired|^@_device_interface\._registry_cache$|"
         r"^system = CacheBase\._get_cuda_system\(\)", "identity"),
        (r"^get_all_devices,|^init_backend_registration\(get_all_devices", "loaders"),
        (r"accelerator_is_available", "gates"),
    ]),
    "torch/_inductor/compile_fx_ext.py": "subprocess",
    "torch/_inductor/device_operator_policy.py": ("policy", [
        (r"^_device_config_applied: |def (_device_config_scope|_passes_with_device_config)\(|"
         r"^_T = TypeVar", "policy-config")]),
    "torch/_inductor/fx_passes/freezing_patterns.py": "device-lists",
    "torch/_inductor/fx_passes/post_grad.py": ("features", [
        (r"_passes_with_device_config", "policy-config")]),
    "torch/_inductor/ir.py": ("inductor-identity", [
        (r"(?s)_c_shim_device|_no_own_c_shim", "c-shim"),
        (r"(?s)_choices_for|(?<!V\.)choices\.(should_use_cooperative_reduction|"
         r"reduction_split_factor)", "vendor-hooks"),
    ]),
    "torch/_inductor/runtime/benchmarking.py": "device-lists",
    "torch/_inductor/runtime/hints.py": "inductor-identity",
    "torch/_inductor/runtime/triton_helpers.py": "triton",
    "torch/_inductor/runtime/triton_heuristics.py": "triton",
    "torch/_functorch/_aot_autograd/autograd_cache.py": ("policy", [
        (r"^if operator_policy\.cache_key_fields is not None:", "policy-config")]),
    "torch/_subclasses/fake_tensor.py": "policy-config",
    "torch/_refs/fft.py": "features",
    "torch/optim/optimizer.py": "features",
    "torch/utils/_foreach_utils.py": "features",
    "torch/utils/_content_store.py": "device-lists",
    "torch/utils/_triton.py": ("inductor-identity", [
        (r"def (triton_backend|triton_hash_with_backend|triton_interpret|triton_driver|"
         r"get_triton_backend_name|_triton_interpreter_hash|triton_hash_for_device)|"
         r"^active = driver\.active if backend_name|^backend = triton_backend\(backend_name\)", "triton"),
        (r"TMA|tma", "device-lists"),
    ]),
    # rename_privateuse1_backend's note lists the compile hooks of every patch,
    # so it lands with the last patch that adds one.
    "torch/utils/backend_registration.py": ("registry", [(r"^Note\(torch\.compile\)", "triton")]),
    "torch/__init__.py": ("options", [(r"def _dynamo_backend_init\(", "dynamo-hooks")]),
    # ----------------------------------------------------------------- tests
    "test/conftest.py": _FAKE,
    "test/inductor/extension_backends/operator_policy.py": "policy",
    "test/inductor/extension_backends/triton_gemm_cases.py": "gates",
    "test/inductor/extension_backends/kernel_parity.py": "gates",
    "test/inductor/extension_backends/triton_kernel_hook_cases.py": "vendor-hooks",
    "test/inductor/extension_backends/kernel_recorder.py": "vendor-hooks",
    "test/inductor/extension_backends/triton_device_helpers.py": "vendor-hooks",
    "test/inductor/extension_backends/triton_interpreter_cases.py": ("triton", [
        (r"def test_fused_multiply_add_follows_the_record\(", "gates"),
        (r"def test_cpu_scalar_operand_runs_on_the_device\(", "first-non-cpu-device")]),
    "test/inductor/extension_backends/triton*": "triton",
    "test/inductor/extension_backends/site-triton*": "triton",
    "test/inductor/extension_backends/site/*": "loaders",
    "test/inductor/extension_backends/testing.py": (_FAKE, [
        (r"^init_backend_registration\(\(\)\)", "loaders")]),
    "test/inductor/extension_backends/cpp/extension_codegen_backend.py": (_FAKE, [
        (r"^from torch\._inductor\.cpp_builder import register_cpp_device_options$|"
         r"def cpp_device_options\(|^register_cpp_device_options\(name, cpp_device_options\)$",
         "cpp"),
        (r"^#: The ATen ops whose C shim function|def c_shim_device\(", "c-shim")]),
    "test/inductor/extension_backends/*": _FAKE,
    "test/inductor/compat_backends/vendor215/compile.py": ("fake-device", [
        (r"^# A Dynamo backend with upstream|^starts = 0$|def (_start|vendor_b_backend)\(|"
         r"^vendor_b_backend\._dynamo_backend_init", "dynamo-hooks"),
    ]),
    "test/inductor/compat_backends/*": "fake-device",
    "test/dynamo/test_device_interface_registry.py": ("registry", [
        (r"def test_(visible_devices_env|cache_system_info_and_cpp_device_options_default_to_none|"
         r"present)\(|^class StockTwinTest", "identity"),
        (r"def test_backend_features\(", "features"),
        (r"def test_cuda_tables_are_stock_and_trace_rules_have_one_door\(", "dynamo-functions"),
        (r"def test_discovery_is_not_retried_on_every_lookup\(|^class LazyDiscoveryTest", "discovery"),
        (r"def test_registration_runs_no_hook_name_check\(", "registry"),
        (r"^_safe_probe,$|^class (SafeProbeTest|LayeringTest)", "inductor-identity"),
        (r"def test_compile_fx_gates\(", "gates"),
        (r"def test_(triton_unavailable_error|in_tree_triton_checks_raise_triton_unavailable_error)\(",
         "triton"),
        (r"def test_(first_compile_finds_the_convention_interface|convention_module_is_adopted)\(",
         "identity"),
    ]),
    "test/dynamo/test_privateuse1_tracing.py": ("dynamo", [
        (r"def test_(synchronize|exchange_device|get_device_module|current_stream|"
         r"current_stream_id_is_guarded|get_device_properties|"
         r"properties_type_follows_availability|autocast|recompiles_when_current_device_changes)\(|"
         r"^class TraceRulesTests|^register_device_trace_rules,$",
         "dynamo-functions"),
        (r"def test_(set_device|plain_stream_input|accelerator_current_stream|"
         r"tables_follow_the_registry|late_registration_in_fresh_process)\(|^class StreamEventTests",
         "streams"),
        (r"def test_(device_context|set_device_under_inductor|factories_after_set_device_under_inductor)\(",
         "traced-set-device"),
    ]),
    "test/inductor/test_privateuse1_identity.py": ("inductor-identity", [
        (r"^class (GpuClassDeviceTests|AcceleratorDeviceTests)", "inductor-streams"),
        (r"def test_batched_kernel_runs_before_a_device_less_op\(", "flush-before-extern")]),
    "test/inductor/test_registry_derived_answers.py": ("options", [
        (r"def test_in_tree_compile_fx_gates_match_2_13\(", "gates")]),
    "test/inductor/test_compile_option_errors.py": "options",
    "test/inductor/test_backend_discovery.py": ("loaders", [
        (r"^get_compile_option_owner,$|^class (CompileOptionTests|UnregisteredDeviceOptionTests)",
         "options"),
        (r"^class (CompileSubprocessTests|AutotuneSubprocessTests)", "subprocess"),
        (r"^class DynamoDiscoveryTests", "dynamo-functions"),
    ]),
    "test/inductor/test_cpp_device_options.py": "cpp",
    "test/inductor/test_cpp_wrapper_device.py": ("cpp", [
        (r"def test_side_stream_is_refused_before_codegen\(", "inductor-streams"),
        (r"def (products_and_fallbacks|test_device_without_a_c_shim_calls_the_dispatcher|"
         r"test_device_naming_cpus_c_shim)\(", "c-shim"),
        (r"def test_(identical_kernels_of_cpu_and_device_are_not_shared|"
         r"build_options_reach_the_compiler)\(", "loaders"),
    ]),
    "test/inductor/test_aten_device_type.py": "aten",
    "test/inductor/test_autotune_visible_devices.py": "identity",
    "test/inductor/test_cache_system_info.py": "identity",
    "test/inductor/test_backend_features.py": "features",
    "test/inductor/test_device_operator_policy.py": ("policy", [
        (r"^class (RecordingPass|AotAutogradBackendTests)|def aot_passes_backend\(|"
         r"def test_autograd_cache_key_helper_matches_policy\(", "policy-config")]),
    "test/inductor/test_device_compile_config.py": "policy-config",
    "test/inductor/test_remote_fx_graph_cache.py": "policy-config",
    "test/inductor/test_device_list_predicates.py": "device-lists",
    "test/inductor/test_triton_device.py": "triton",
    "test/inductor/test_kernel_call_guard.py": "inductor-streams",
    "test/inductor/test_extension_backend.py": "fake-device",
    "test/inductor/test_backend_compat.py": ("fake-device", [
        (r"def test_torch_2_15_backend_starts_at_torch_compile", "dynamo-hooks"),
    ]),
    # The example backend has an operator policy: it lands with the policy series.
    "test/inductor/test_example_backend.py": "policy-config",
    "test/inductor/test_registry_concurrency.py": "fake-device",
    "test/inductor/test_upstream_names.py": "gates",
    "test/inductor/test_opinfo_device_parity.py": "gates",
    "test/dynamo/test_device_rng_state.py": "gates",
    # The file comes with its first test, the 0-d cpu operand's.
    "test/inductor/test_lowering_device_gates.py": ("first-non-cpu-device", [
        (r"def test_(?!cpu_scalar_operand_runs_on_the_device)\w+\(", "gates")]),
    "test/inductor/test_compile_fx_device_gates.py": "gates",
    "test/dynamo/test_device_dynamo_hooks.py": "dynamo-hooks",
    "test/inductor/test_protected_memory.py": "inductor-streams",
    "test/inductor/test_example_protacc.py": "fake-device",
    "test/inductor/test_example_tritonacc.py": "triton",
    # The guide's member tables are whole only in the last state.
    "test/inductor/test_example_guide.py": ("vendor-hooks", [
        (r"(?s)def test_member_tables_list_every_member\(", "c-shim")]),
    "test/inductor/test_gemm_device_gates.py": "gates",
    "test/inductor/test_cpp_device_gates.py": "gates",
    "test/inductor/test_cpp_kernel_parity.py": "gates",
    "test/inductor/test_device_fused_attention.py": ("fake-device", [
        (r"def test_cpp_wrapper_calls_the_kernel_through_the_dispatcher\(", "c-shim")]),
    "test/inductor/test_kernel_codegen_hooks.py": "vendor-hooks",
    "test/inductor/test_device_fusion_choices.py": "vendor-hooks",
    "test/inductor/test_missing_interface_member.py": "vendor-hooks",
    # ------------------------------------------------------------------ docs
    "docs/examples/tritonacc/*": "triton",
    "docs/examples/toyacc/*": "policy-config",
    "docs/examples/*": "fake-device",
    # The requirements the guide's headings cite by ID, from the first patch on.
    "docs/contract.md": "registry",
    "docs/backend_author_guide.md": ("registry", [
        (r"^## The example backend", "fake-device"),
        (r"^### Streams and events", "dynamo"),
        (r"^### Framework capabilities", "features"),
        (r"^## 4\. Inductor codegen backend", "cpp"),
        (r"^### Code around each kernel call", "inductor-streams"),
        (r"^### C\+\+ build options|^### C\+\+ wrapper", "cpp"),
        (r"^### Other `DeviceOpOverrides` names", "aten"),
        (r"^### Autotuning and cache identity", "identity"),
        (r"^### Loading your backend on demand", "loaders"),
        (r"^### Lazy discovery", "discovery"),
        (r"^### Per-device compile options", "options"),
        (r"^### Compile subprocesses", "subprocess"),
        (r"^### Mistakes and what they tell you", "fake-device"),
        (r"^### A fused attention kernel of your own", "fake-device"),
        (r"^## 5\. Dynamo tracing", "dynamo"),
        (r"^### Your own runtime functions", "dynamo-functions"),
        (r"^### Device selection and streams", "streams"),
        (r"^## 6\. Device-scoped operator policy", "policy"),
        (r"^### Per-device Inductor options|^### Fake \(meta\)|^### Ops that need realized|"
         r"^### Device state in the cache keys", "policy-config"),
        (r"^## 7\. Triton backends", "triton"),
        (r"^## Known limits", "fake-device"),
        (r"^## The protected-memory example|^## Device report", "fake-device"),
        (r"^## The Triton example", "triton"),
        (r"^### (Fusion and reduction choices for your device|A graph-level codegen|"
         r"Your kernels' types)|"
         r"^## Reference: the members", "vendor-hooks"),
        (r"^### A custom Dynamo backend: Dynamo options", "dynamo-hooks"),
        (r"^### Custom Dynamo backends: your policy", "policy-config"),
    ]),
}

ISOLATE: dict[str, list[str]] = {
    "test/inductor/extension_backends/cpp/extension_codegen_backend.py": [
        r"^\s+register_cpp_device_options\(name, cpp_device_options\)$",
        r"^from torch\._inductor\.cpp_builder import register_cpp_device_options$"],
    "torch/_inductor/codecache.py": [r"^\s+is_cpp_scheduled,$"],
    "torch/_inductor/ir.py": [r"^\s+_c_shim_device,$", r"^\s+_no_own_c_shim,$",
                              r"^\s+_choices_for,$"],
    "torch/_inductor/codegen/triton.py": [r"^\s+_has_triton_tma_for_device,$"],
    "torch/_inductor/scheduler.py": [r"^\s+_declares,$", r"^\s+_choices_for,$"],
    "torch/_inductor/device_operator_policy.py": [
        r"^    (config_defaults|custom_passes|fake_overrides|realized_input_ops): ",
        r"^\s+self\._freeze_device_extensions\(where\)$",
        r"^\s+\+ self\._device_extension_cache_key_entries\(\)$",
        r"^\s+and dict\(self\.(config_defaults|custom_passes|fake_overrides)\) ==",
        r"^\s+and self\.realized_input_ops ==", r"^\s+\"CUSTOM_PASS_STAGES\",$",
        r"^    cache_key_fields: Callable", r"^\s+and self\.cache_key_fields ==",
        r"^\s+cache_key_fields: str \| None", r"^\s+self\.cache_key_fields( = \(|,)$",
        r"^\s+cache_key_fields,$",
        r"^_UNSAMPLED = ", r"^\s+from torch\._subclasses import fake_tensor$",
        r"^\s+for op, impl in policy\.fake_overrides\.items\(\):", r"^\s+if policy\.fake_overrides:",
    ],
    "test/dynamo/test_privateuse1_tracing.py": [r"^\s+register_device_trace_rules,$"],
    "test/dynamo/test_device_interface_registry.py": [r"^\s+_safe_probe,$"],
    "torch/_dynamo/variables/torch.py": [
        r"^\s+torch\.utils\._foreach_utils\._privateuse1_backend_features,$"],
    "torch/_dynamo/trace_rules.py": [
        r"^\s+global _interfaceless_runtime$", r"^\s+_interfaceless_runtime = ",
        r"^\s+if rule is None and obj in _interfaceless_runtime:",
        r"^\s+constant_types: frozenset\[type\]$", r"^\s+constant_types=_device_properties_types\(",
        r"^\s+_publish_device_constant_types(\(tables\.constant_types\)|,)$",
    ],
    "torch/_inductor/autotune_process.py": [
        r"^\s+if gpu_type == torch\._C\._get_privateuse1_backend_name\(\):$"],
    "torch/_functorch/_aot_autograd/autograd_cache.py": [
        r"^\s+if operator_policy\.cache_key_fields is not None:"],
    "torch/_inductor/codegen/wrapper.py": [r"^\s+_uses_gpu_cpp_wrapper,$"],
    "test/inductor/test_backend_discovery.py": [r"^\s+get_compile_option_owner,$"],
    "torch/_dynamo/device_interface.py": [
        r"^\s+_maybe_discover_privateuse1_interface\(\)",
        r"^\s+if device_type == torch._C._get_privateuse1_backend_name\(\):",
    ],
    "test/inductor/extension_backends/testing.py": [r"^\s+init_backend_registration\(\(\)\)"],
    "torch/_inductor/codegen/common.py": [
        r"^import (textwrap|threading|warnings)$",
        r"^    (ONLINE_SOFTMAX|FOREACH_KERNELS|FUSED_OPTIMIZER|CAPTURABLE_OPTIMIZER|"
        r"HALF_PRECISION_FFT) = auto",
    ],
    "torch/_inductor/utils.py": [r"^\s+common.init_backend_registration\(\(device_type,\)\)",
                                 r"^\s+from \.choices import InductorChoices$"],
    "torch/_inductor/fx_passes/post_grad.py": [
        r"^from \.\.device_operator_policy import _passes_with_device_config$"],
    "torch/_inductor/compile_fx.py": [
        r"^\s+_device_config_(applied|scope),$",
        r"^\s+if isinstance\(model_, GraphModule\):", r"^\s+device_config = \($",
        r"^\s+_device_config_scope\(device_config\),",
    ],
}

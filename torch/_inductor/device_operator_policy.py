"""Device-scoped operator policies for Inductor (internal API): one device type's
decomposition, lowering, fake-tensor and option choices, applied to that device's
compiles only and keyed into the caches by :attr:`DeviceOperatorPolicy.cache_key`."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import logging
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING, TypeVar

import torch
import torch.utils._pytree as pytree
from torch._dynamo.device_interface import _BUILTIN_DEVICE_INIT_LIST
from torch.utils.backend_registration import _register


if TYPE_CHECKING:
    from torch._ops import OpOverload
    from torch.types import Device


log = logging.getLogger(__name__)

_T = TypeVar("_T")

__all__ = [
    "CUSTOM_PASS_STAGES",
    "DeviceOperatorPolicy",
    "DeviceOperatorPolicyError",
    "Exclude",
    "Fallback",
    "get_device_operator_policy",
    "register_device_operator_policy",
]


class _Sentinel:
    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name


#: ``decomposition_overrides`` value: keep the op in the graph for the device;
#: ``lowering_overrides`` must then have a rule for it.
Exclude = _Sentinel("Exclude")

#: ``lowering_overrides`` value: run the op as an eager fallback on the device.
Fallback = _Sentinel("Fallback")

# A decomposition or lowering rule: a callable or one of the markers above.
_Rule = Callable[..., Any] | _Sentinel

# Markers: a realized_input_ops entry; PolicyDecompTable's "sample the fields now".
_REALIZE = _Sentinel("Realize")
_UNSAMPLED = _Sentinel("Unsampled")


#: The Inductor options that hold custom graph passes, in the order their
#: passes run; the keys of ``DeviceOperatorPolicy.custom_passes``.
CUSTOM_PASS_STAGES = (
    "pre_grad_custom_pass",
    "joint_custom_pre_pass",
    "joint_custom_post_pass",
    "post_grad_custom_pre_pass",
    "post_grad_custom_post_pass",
)

# Options holding callables that no cache key can identify.
_NOT_DEFAULTABLE_PREFIXES = (
    "_pre_fusion_custom_pass",
    "_post_fusion_custom_pass",
    "_fuse_ddp_communication_passes",
    "custom_partitioner_fn",
    "trace.upload_tar",
)


class DeviceOperatorPolicyError(RuntimeError):
    """An operator policy that is invalid, conflicts with another, or is missing where needed."""


def _check(ok: object, message: str) -> None:
    if not ok:
        raise DeviceOperatorPolicyError(message)


def _device_type(device: Device, what: str) -> str:
    _check(
        isinstance(device, (str, torch.device)),
        f"{what}: expected a device type "
        f"(str or torch.device), got {type(device).__name__}",
    )
    try:
        dev = torch.device(device)
    except RuntimeError as err:
        raise DeviceOperatorPolicyError(
            f"{what}: {device!r} is not a device type: {err}"
        ) from err
    _check(
        dev.index is None,
        f"{what}: operator policies are per device type; "
        f"pass {dev.type!r}, not {str(dev)!r}",
    )
    return dev.type


def _rule_name(rule: object) -> str:
    """A rule's cache-key identity: its qualified name (a partial's: its function's)."""
    if rule is Exclude or rule is Fallback:
        return repr(rule)
    while isinstance(rule, functools.partial):
        rule = rule.func
    module = getattr(rule, "__module__", None) or type(rule).__module__
    qualname = getattr(rule, "__qualname__", None) or type(rule).__qualname__
    return f"{module}.{qualname}"


def _mapping(where: str, attr: str, value: object, of: str) -> Mapping[Any, Any]:
    _check(
        isinstance(value, Mapping),
        f"{where}: {attr} must be a mapping of {of}, got {type(value).__name__}",
    )
    return value  # type: ignore[return-value]


def _check_rules(
    where: str, attr: str, rules: object, sentinel: _Sentinel | None
) -> Mapping[OpOverload, Any]:
    allowed = "a callable" + ("" if sentinel is None else f" or {sentinel!r}")
    for op, rule in _mapping(where, attr, rules, "OpOverload to rules").items():
        _check(
            not isinstance(op, torch._ops.OpOverloadPacket),
            f"{where}: {attr} "
            f"key {op} is an overload packet; name the overload, e.g. {op}.default",
        )
        _check(
            isinstance(op, torch._ops.OpOverload),
            f"{where}: {attr} keys must be OpOverloads, got {op!r}",
        )
        _check(
            (sentinel is not None and rule is sentinel)
            or (callable(rule) and not isinstance(rule, _Sentinel)),
            f"{where}: {attr}[{op}] must be {allowed}, got {rule!r}",
        )
    return types.MappingProxyType(dict(rules))  # type: ignore[call-overload]


def _check_config_defaults(where: str, defaults: object) -> Mapping[str, Any]:
    from . import config

    of = "Inductor option names to values"
    for name, value in _mapping(where, "config_defaults", defaults, of).items():
        key = f"{where}: config_defaults[{name!r}]"
        _check(
            isinstance(name, str) and name in config._config,
            f"{where}: config_defaults key {name!r} is not a torch._inductor.config "
            "option; a backend's own options go in its device_custom_config module",
        )
        _check(
            name not in CUSTOM_PASS_STAGES,
            f"{key} is a custom graph pass option; "
            f"pass custom_passes={{{name!r}: <CustomGraphPass>}}",
        )
        _check(
            not name.startswith(_NOT_DEFAULTABLE_PREFIXES),
            f"{key} holds a callable that no cache key can identify",
        )
        default = config._config[name].default
        expected = (int, float) if type(default) is float else (type(default),)
        _check(
            default is None
            or (
                isinstance(value, expected)
                and not (isinstance(value, bool) and type(default) is not bool)
            ),
            f"{key} must be a {type(default).__name__} like the option's default "
            f"{default!r}, got {value!r}",
        )
    return types.MappingProxyType(dict(defaults))  # type: ignore[call-overload]


def _check_custom_passes(where: str, passes: object) -> Mapping[str, tuple[Any, ...]]:
    from .custom_graph_pass import CustomGraphPass

    checked: dict[str, tuple[Any, ...]] = {}
    of = "stage to CustomGraphPass"
    for stage, value in _mapping(where, "custom_passes", passes, of).items():
        _check(
            stage in CUSTOM_PASS_STAGES,
            f"{where}: custom_passes key {stage!r} is "
            f"not a pass stage; expected one of {', '.join(CUSTOM_PASS_STAGES)}",
        )
        checked[stage] = tuple(value) if isinstance(value, (list, tuple)) else (value,)
        key = f"{where}: custom_passes[{stage!r}]"
        for p in checked[stage]:
            _check(
                isinstance(p, CustomGraphPass),
                f"{key} must hold torch._inductor"
                f".custom_graph_pass.CustomGraphPass instances, got {p!r}",
            )
            try:
                uuid = p.uuid()
            except Exception as err:
                raise DeviceOperatorPolicyError(
                    f"{key}: {type(p).__qualname__}.uuid() raised "
                    f"{type(err).__name__}: {err}"
                ) from err
            _check(
                uuid is not None,
                f"{key}: {type(p).__qualname__}.uuid() returned "
                "None; return a value that changes when the pass changes",
            )
    return types.MappingProxyType(checked)


def _check_realized_input_ops(where: str, ops: object) -> frozenset[OpOverload]:
    _check(
        isinstance(ops, Iterable) and not isinstance(ops, (str, Mapping)),
        f"{where}: realized_input_ops must be a collection of OpOverloads, got "
        f"{type(ops).__name__}",
    )
    rules = dict.fromkeys(ops, _REALIZE)
    return frozenset(_check_rules(where, "realized_input_ops", rules, _REALIZE))


@dataclass(frozen=True)
class DeviceOperatorPolicy:
    """The operator choices of one accelerator device type (not cpu or meta);
    bump ``version`` (a cache key input) when a rule's implementation changes."""

    device_type: str
    version: str
    #: ``OpOverload -> callable | Exclude``: the op's decomposition on the device.
    decomposition_overrides: Mapping[OpOverload, _Rule] = field(default_factory=dict)
    #: ``OpOverload -> lowering | Fallback`` on the device (None: the default).
    lowering_overrides: Mapping[OpOverload, _Rule] = field(default_factory=dict)
    #: ``option -> value``: the device's defaults of core options; the user's win.
    config_defaults: Mapping[str, Any] = field(default_factory=dict)
    #: ``stage -> CustomGraphPass(es)``, run before the user's passes of the stage.
    custom_passes: Mapping[str, Any] = field(default_factory=dict)
    #: ``OpOverload -> callable``: the op's fake implementation on the device.
    fake_overrides: Mapping[OpOverload, Callable[..., Any]] = field(
        default_factory=dict
    )
    #: Ops whose nodes on the device have their inputs realized.
    realized_input_ops: Iterable[OpOverload] = frozenset()
    #: ``() -> object`` or None: the ``repr`` of its result enters both cache keys.
    cache_key_fields: Callable[[], object] | None = None
    #: ``"<device>:<version>:<digest of the rules>"``, the same in every process.
    cache_key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        device_type = _device_type(self.device_type, "DeviceOperatorPolicy")
        where = f"DeviceOperatorPolicy for device type {device_type!r}"
        _check(
            device_type not in _BUILTIN_DEVICE_INIT_LIST,
            f"{where}: operator "
            f"policies are for out-of-tree accelerator device types; {device_type!r}"
            " compiles always use the default tables",
        )
        _check(
            isinstance(self.version, str) and self.version,
            f"{where}: version "
            f"must be a non-empty str (the backend's version of its rules), got "
            f"{self.version!r}",
        )
        decomps = _check_rules(
            where, "decomposition_overrides", self.decomposition_overrides, Exclude
        )
        lowerings = _check_rules(
            where, "lowering_overrides", self.lowering_overrides, Fallback
        )
        for op, rule in decomps.items():
            _check(
                rule is not Exclude or op in lowerings,
                f"{where}: "
                f"decomposition_overrides[{op}] is Exclude, but lowering_overrides "
                f"has no entry for {op}; set lowering_overrides[{op}] to a device "
                "lowering or Fallback",
            )
        _check(
            self.cache_key_fields is None or callable(self.cache_key_fields),
            f"{where}: cache_key_fields must be a callable taking no arguments or "
            f"None, got {self.cache_key_fields!r}",
        )
        fields = {
            "device_type": device_type,
            "decomposition_overrides": decomps,
            "lowering_overrides": lowerings,
            "config_defaults": _check_config_defaults(where, self.config_defaults),
            "custom_passes": _check_custom_passes(where, self.custom_passes),
            "fake_overrides": _check_rules(
                where, "fake_overrides", self.fake_overrides, None
            ),
            "realized_input_ops": _check_realized_input_ops(
                where, self.realized_input_ops
            ),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "cache_key", self._compute_cache_key())

    def _compute_cache_key(self) -> str:
        entries = sorted(
            [
                f"decomposition {op} {_rule_name(r)}"
                for op, r in self.decomposition_overrides.items()
            ]
            + [
                f"lowering {op} {_rule_name(r)}"
                for op, r in self.lowering_overrides.items()
            ]
            + [f"realize {op}" for op in self.realized_input_ops]
            + [f"fake {op} {_rule_name(r)}" for op, r in self.fake_overrides.items()]
            + [
                f"config {name} {value!r}"
                for name, value in self.config_defaults.items()
            ]
            + [
                f"pass {stage} {i} {p.uuid()!r}"
                for stage, ps in self.custom_passes.items()
                for i, p in enumerate(ps)
            ]
            + (
                [f"fields {_rule_name(self.cache_key_fields)}"]
                if self.cache_key_fields is not None
                else []
            )
        )
        digest = hashlib.sha256("\n".join(entries).encode()).hexdigest()[:32]
        return f"{self.device_type}:{self.version}:{digest}"

    def __hash__(self) -> int:
        return hash(self.cache_key)

    def __repr__(self) -> str:
        return f"DeviceOperatorPolicy({self.cache_key!r})"

    def decomposition_table(
        self, base: Mapping[Any, Callable[..., Any]]
    ) -> dict[Any, Callable[..., Any]]:
        """A new table: ``base`` without the excluded ops, with the overrides."""
        table = dict(base)
        for op, rule in self.decomposition_overrides.items():
            if rule is Exclude:
                table.pop(op, None)
            else:
                table[op] = rule
        return table

    def config_patches(
        self, user_options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The compile's options: each :attr:`config_defaults` entry the user has not
        set, and each stage's device passes before the user's."""
        from . import config
        from .custom_graph_pass import get_custom_graph_passes

        user_set = {name.replace("-", "_") for name in user_options or {}}
        patches = {
            name: value
            for name, value in self.config_defaults.items()
            if name not in user_set
            and getattr(config, name) == config._config[name].default
        }
        for stage, passes in self.custom_passes.items():
            patches[stage] = (*passes, *get_custom_graph_passes(getattr(config, stage)))
        return patches

    def sample_cache_key_fields(self) -> str | None:
        """``repr(cache_key_fields())``, or None without it; raises if it raises."""
        if self.cache_key_fields is None:
            return None
        try:
            return repr(self.cache_key_fields())
        except Exception as err:
            raise DeviceOperatorPolicyError(
                f"the cache_key_fields callable {_rule_name(self.cache_key_fields)} of "
                f"the operator policy of device type {self.device_type!r} raised "
                f"{type(err).__name__}: {err}; compiles on this device cannot be keyed"
            ) from err

    def realizes_inputs(self, node: torch.fx.Node) -> bool:
        """Whether ``node`` is on the device, its op in :attr:`realized_input_ops`."""
        return (
            node.target in self.realized_input_ops
            and _node_device_type(node) == self.device_type
        )

    def lowering_for_node(
        self, target: object, node: torch.fx.Node | None
    ) -> Callable[..., Any] | None:
        """The policy's lowering of ``node``, or None for the default path; on another
        device an op kept by :data:`Exclude` with no default lowering runs eagerly."""
        from .lowering import fallback_handler, lowerings

        rule = self.lowering_overrides.get(target)  # type: ignore[call-overload]
        if rule is None or node is None:
            return None
        if _node_device_type(node) != self.device_type:
            decomp = self.decomposition_overrides.get(target)  # type: ignore[call-overload]
            rule = Fallback if decomp is Exclude and target not in lowerings else None
        if rule is Fallback:
            return fallback_handler(target, add_to_fallback_set=False)
        return rule


def _node_device_type(node: torch.fx.Node) -> str | None:
    """The device of a node's first tensor output, else of its first tensor input."""
    for value in (
        node.meta.get("val"),
        *(a.meta.get("val") for a in node.all_input_nodes),
    ):
        for leaf in pytree.tree_leaves(value):
            if isinstance(leaf, torch.Tensor):
                return leaf.device.type
    return None


# Device type -> its policy; see register_device_operator_policy.
device_operator_policies: dict[str, DeviceOperatorPolicy] = {}


def register_device_operator_policy(policy: DeviceOperatorPolicy) -> None:
    """Registers ``policy`` for its device type, replacing an earlier one with a warning."""
    _check(
        isinstance(policy, DeviceOperatorPolicy),
        "register_device_operator_policy: "
        f"expected a DeviceOperatorPolicy, got {type(policy).__name__}",
    )
    _register(device_operator_policies, policy.device_type, policy, "Operator policy")
    log.debug("registered operator policy %s", policy.cache_key)


def get_device_operator_policy(device: Device) -> DeviceOperatorPolicy | None:
    """The policy registered for ``device``'s type (the index is ignored), or None."""
    device_type = torch._dynamo.device_interface._device_type(device)
    return device_operator_policies.get(device_type)


def resolve_operator_policy(device_types: Iterable[str]) -> DeviceOperatorPolicy | None:
    """The policy of the one accelerator among ``device_types`` (cpu, meta ignored),
    or None; several accelerators with a policy among them are refused."""
    accelerators = sorted(set(device_types) - {"cpu", "meta"})
    policies = {d: device_operator_policies.get(d) for d in accelerators}
    described = ", ".join(
        f"{d!r} ({'no policy' if p is None else repr(p.cache_key)})"
        for d, p in policies.items()
    )
    _check(
        len(accelerators) < 2 or all(p is None for p in policies.values()),
        f"this graph uses accelerator device types {described}, whose operator "
        "policies conflict. Only CPU plus one accelerator is supported with an "
        "operator policy; compile the parts on each device separately",
    )
    return policies[accelerators[0]] if accelerators else None


# The policy of the compile in progress, for the AOTAutograd cache key.
_active_policy: contextvars.ContextVar[DeviceOperatorPolicy | None] = (
    contextvars.ContextVar("inductor_device_operator_policy", default=None)
)


@contextlib.contextmanager
def operator_policy_scope(policy: DeviceOperatorPolicy | None) -> Iterator[None]:
    """Make ``policy`` the active one for the compile run inside."""
    token = _active_policy.set(policy)
    try:
        yield
    finally:
        _active_policy.reset(token)


def active_operator_policy() -> DeviceOperatorPolicy | None:
    """The policy of the compile in progress (None outside a policy compile)."""
    return _active_policy.get()


# Whether the compile in progress runs under its device's options.
_device_config_applied: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "inductor_device_config_applied", default=False
)


@contextlib.contextmanager
def _device_config_scope(patches: dict[str, Any]) -> Iterator[None]:
    """Applies a device's options; on exit each is restored as it was (unset too)."""
    from . import config

    token = _device_config_applied.set(True)
    revert = config._make_closure_patcher(**patches)()
    try:
        yield
    finally:
        revert()
        _device_config_applied.reset(token)


def _passes_with_device_config(passes: Callable[..., _T]) -> Callable[..., _T]:
    """Runs ``passes(gm, ...)`` under the options of the policy of ``gm``'s device
    where no compile_fx applies them already (a custom Dynamo backend's AOTAutograd)."""

    @functools.wraps(passes)
    def wrapper(gm: torch.fx.GraphModule, *args: Any, **kwargs: Any) -> _T:
        if _device_config_applied.get() or not device_operator_policies:
            return passes(gm, *args, **kwargs)
        from .utils import graph_device_types

        policy = resolve_operator_policy(graph_device_types(gm))
        with _device_config_scope({} if policy is None else policy.config_patches()):
            return passes(gm, *args, **kwargs)

    return wrapper


class PolicyDecompTable:
    """A compile's ``get_decomp_fn``: ``base`` adjusted by ``policy`` when it is the
    default table; pickles as the policy's cache key, resolved again on load."""

    def __init__(
        self,
        policy: DeviceOperatorPolicy,
        base: Callable[[], Mapping[Any, Any]],
        cache_key_fields: str | None | _Sentinel = _UNSAMPLED,
    ) -> None:
        if cache_key_fields is _UNSAMPLED:
            cache_key_fields = policy.sample_cache_key_fields()
        self.operator_policy, self.base = policy, base
        self.cache_key_fields = cache_key_fields

    def __call__(self) -> dict[Any, Callable[..., Any]]:
        from .decomposition import select_decomp_table

        if self.base is select_decomp_table:
            return self.operator_policy.decomposition_table(self.base())
        return self.base()  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"PolicyDecompTable({self.operator_policy.cache_key!r}, {_rule_name(self.base)})"

    def __reduce__(self) -> tuple[Any, ...]:
        policy = self.operator_policy
        return (
            _resolve_policy_decomp_table,
            (policy.device_type, policy.cache_key, self.base, self.cache_key_fields),
        )


def _resolve_policy_decomp_table(
    device_type: str,
    cache_key: str,
    base: Callable[[], Mapping[Any, Any]],
    cache_key_fields: str | None = None,
) -> PolicyDecompTable:
    """Unpickle a :class:`PolicyDecompTable`: find the same policy here."""
    policy = device_operator_policies.get(device_type)
    found = "none" if policy is None else repr(policy.cache_key)
    _check(
        policy is not None and policy.cache_key == cache_key,
        "this compile was set "
        f"up with operator policy {cache_key!r} for device type {device_type!r}, "
        f"but this process has {found}. Import the extension that registers the "
        f"{device_type!r} backend (its register_device_operator_policy call) first",
    )
    return PolicyDecompTable(policy, base, cache_key_fields)  # type: ignore[arg-type]


def operator_policy_of(get_decomp_fn: object) -> DeviceOperatorPolicy | None:
    """The policy a compile's ``get_decomp_fn`` carries, if any."""
    return (
        get_decomp_fn.operator_policy
        if isinstance(get_decomp_fn, PolicyDecompTable)
        else None
    )

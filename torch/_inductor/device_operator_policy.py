"""Device-scoped operator policies for Inductor (internal API).

A backend registers one immutable :class:`DeviceOperatorPolicy` for its device
type instead of writing to process-wide tables (``decompositions``,
``lowerings``, ``make_fallback``, ``torch._inductor.config``, the tables fake
tensors consult), which would change every device's compiles.

Each compile resolves the policy of the accelerator its graph uses once
(:func:`resolve_operator_policy`), before the AOTAutograd cache lookup.  The
policy then

1. builds the compile's decomposition table: the default table, minus the
   excluded entries, plus the overrides; the global table is never edited;
2. resolves the lowering of each node on its device, in this order: user
   lowering (``torch._inductor.lowering.user_lowerings``) > policy lowering or
   fallback > default lowering > the existing unsupported-op behaviour;
3. enters the AOTAutograd and FX graph cache keys through its
   :attr:`~DeviceOperatorPolicy.cache_key`.

Without a policy for a graph's accelerator none of this runs.  A compile in
another process (a compile subprocess, a package loaded later) carries the
device type and the cache key and resolves the policy again from this
registry: the extension that registers it must be imported there, or the
compile fails naming it.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import hashlib
import logging
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TYPE_CHECKING

import torch
import torch.utils._pytree as pytree


if TYPE_CHECKING:
    from torch._ops import OpOverload
    from torch.types import Device


log = logging.getLogger(__name__)

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


#: ``decomposition_overrides`` value: do not decompose this op for the device;
#: the op stays in the graph and the policy must lower it (a callable or
#: :data:`Fallback` in ``lowering_overrides``).
Exclude = _Sentinel("Exclude")

# Placeholder rule of realized_input_ops entries while they are validated.
_REALIZE = _Sentinel("Realize")
# PolicyDecompTable argument: sample the policy's cache_key_fields.
_UNSAMPLED = _Sentinel("Unsampled")

#: ``lowering_overrides`` value: run the op through Inductor's eager fallback
#: (``FallbackKernel``) on this device, whatever the default lowering is.
Fallback = _Sentinel("Fallback")


#: The Inductor options that hold custom graph passes, in the order their
#: passes run in a compile; the keys of ``DeviceOperatorPolicy.custom_passes``.
CUSTOM_PASS_STAGES = (
    "pre_grad_custom_pass",
    "joint_custom_pre_pass",
    "joint_custom_post_pass",
    "post_grad_custom_pre_pass",
    "post_grad_custom_post_pass",
)

# Options that hold callables: set through ``custom_passes`` (the graph passes)
# or not settable per device, since no cache key can identify them.
_NOT_DEFAULTABLE_PREFIXES = ("_pre_fusion_custom_pass", "_post_fusion_custom_pass",
                             "_fuse_ddp_communication_passes", "custom_partitioner_fn",
                             "trace.upload_tar")


class DeviceOperatorPolicyError(RuntimeError):
    """An operator policy that is invalid, conflicts with another one, or
    cannot be resolved where a compile needs it."""


def _device_type(device: Device, what: str) -> str:
    if isinstance(device, torch.device):
        dev = device
    elif isinstance(device, str):
        try:
            dev = torch.device(device)
        except RuntimeError as err:
            raise DeviceOperatorPolicyError(
                f"{what}: {device!r} is not a device type: {err}"
            ) from err
    else:
        raise DeviceOperatorPolicyError(
            f"{what}: expected a device type (str or torch.device), "
            f"got {type(device).__name__}"
        )
    if dev.index is not None:
        raise DeviceOperatorPolicyError(
            f"{what}: operator policies are per device type; "
            f"pass {dev.type!r}, not {str(dev)!r}"
        )
    return dev.type


def _rule_name(rule: object) -> str:
    """A rule's identity in the cache key: its qualified name (that of the
    wrapped function for a ``functools.partial``, whose arguments are not
    part of it).  Implementations are not hashed: the policy's version
    stands for them."""
    if rule is Exclude or rule is Fallback:
        return repr(rule)
    while isinstance(rule, functools.partial):
        rule = rule.func
    module = getattr(rule, "__module__", None) or type(rule).__module__
    qualname = getattr(rule, "__qualname__", None) or type(rule).__qualname__
    return f"{module}.{qualname}"


@dataclasses.dataclass(frozen=True, eq=False)
class DeviceOperatorPolicy:
    """The decomposition and lowering choices of one device type.

    Args:
        device_type: the device type the policy applies to (``"npu"``, the
            renamed PrivateUse1 name, ...); not ``cpu`` or ``meta``, whose
            compiles keep the default tables.
        version: the backend's version of these rules.  It enters the cache
            keys, so bump it whenever a rule's *implementation* changes.  The
            op names and each rule's qualified name are keyed automatically
            (a ``functools.partial`` by the function it wraps); function
            bodies, closures and partial arguments are not.
        decomposition_overrides: ``OpOverload -> callable | Exclude``.  A
            callable replaces the default decomposition for this device's
            compiles; :data:`Exclude` removes it, keeping the op.
        lowering_overrides: ``OpOverload -> callable | Fallback``.  A callable
            lowers the op's nodes on this device (same contract as a
            ``register_lowering`` function; returning ``None`` defers to the
            default lowering); :data:`Fallback` makes them eager fallbacks.

    The mappings are copied and frozen.  Validation happens here, before the
    policy can reach a registry: every :data:`Exclude` needs a lowering or
    :data:`Fallback` for the same op, since nothing else would handle it.
    """

    device_type: str
    version: str
    decomposition_overrides: Mapping[OpOverload, Callable[..., Any] | _Sentinel] = (
        dataclasses.field(default_factory=dict)
    )
    lowering_overrides: Mapping[OpOverload, Callable[..., Any] | _Sentinel] = (
        dataclasses.field(default_factory=dict)
    )
    #: ``option name -> value`` for core Inductor options (``"size_asserts"``,
    #: ``"triton.max_tiles"``): the value a compile on this device uses for an
    #: option the user has not set (by ``torch.compile(options=...)``,
    #: ``config.patch``, an assignment or an environment variable), which wins.
    #: The value must have the option's type; values enter the cache key by
    #: ``repr``.
    config_defaults: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: ``stage -> CustomGraphPass or sequence of them``, the stage one of
    #: :data:`CUSTOM_PASS_STAGES`.  The passes run on this device's graphs
    #: only, ahead of the user's passes for that stage.  Each must be a
    #: ``torch._inductor.custom_graph_pass.CustomGraphPass`` whose ``uuid()``
    #: is not None: the uuid is the pass's identity in the cache keys.
    custom_passes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: ``OpOverload -> callable``: the op's fake (meta) implementation for calls
    #: whose first fake tensor argument is on this device, in every
    #: ``FakeTensorMode`` (Dynamo, AOTAutograd and Inductor tracing), ahead of
    #: the ``torch._decomp`` decomposition and the meta kernel other devices
    #: use.  It is called with the op's arguments inside the fake mode and
    #: returns fake tensors, like a ``torch.library.register_fake`` function.
    #: Calls it serves are not memoized in the fake tensor dispatch cache.
    fake_overrides: Mapping[OpOverload, Callable[..., Any]] = dataclasses.field(
        default_factory=dict
    )
    #: ``OpOverload``s whose nodes on this device have their inputs realized,
    #: as ``add_needs_realized_inputs`` does for every device.
    realized_input_ops: Iterable[OpOverload] = frozenset()
    #: A callable taking no arguments, or None.  Called once per compile on
    #: this device, before the cache lookups; the ``repr`` of what it returns
    #: enters the AOTAutograd and FX graph cache keys of that compile.  For
    #: device state that changes what a compile produces (a determinism
    #: level, a runtime mode); the repr must be the same in every process for
    #: the same state.
    cache_key_fields: Callable[[], object] | None = None
    # Computed once in __post_init__; see cache_key.
    _cache_key: str = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        device_type = _device_type(self.device_type, "DeviceOperatorPolicy")
        where = f"DeviceOperatorPolicy for device type {device_type!r}"
        if device_type in ("cpu", "meta"):
            raise DeviceOperatorPolicyError(
                f"{where}: operator policies are for accelerator device types; "
                f"{device_type!r} compiles always use the default tables"
            )
        if not isinstance(self.version, str) or not self.version:
            raise DeviceOperatorPolicyError(
                f"{where}: version must be a non-empty str (the backend's "
                f"version of its rules), got {self.version!r}"
            )
        decomps, lowerings = self._check_decompositions_and_lowerings(where)
        object.__setattr__(self, "device_type", device_type)
        object.__setattr__(
            self, "decomposition_overrides", types.MappingProxyType(decomps)
        )
        object.__setattr__(self, "lowering_overrides", types.MappingProxyType(lowerings))
        self._freeze_device_extensions(where)
        object.__setattr__(self, "_cache_key", self._compute_cache_key())

    def _freeze_device_extensions(self, where: str) -> None:
        """Check and freeze the Inductor options, graph passes, fake
        implementations and realized-input ops of the policy, and check its
        cache key fields."""
        object.__setattr__(
            self,
            "config_defaults",
            types.MappingProxyType(self._check_config_defaults(where, self.config_defaults)),
        )
        object.__setattr__(
            self,
            "custom_passes",
            types.MappingProxyType(self._check_custom_passes(where, self.custom_passes)),
        )
        object.__setattr__(
            self,
            "fake_overrides",
            types.MappingProxyType(
                self._check_rules(where, "fake_overrides", self.fake_overrides, None)
            ),
        )
        object.__setattr__(
            self,
            "realized_input_ops",
            frozenset(
                self._check_rules(
                    where,
                    "realized_input_ops",
                    dict.fromkeys(self._as_iterable(where, self.realized_input_ops), _REALIZE),
                    _REALIZE,
                )
            ),
        )
        if self.cache_key_fields is not None and not callable(self.cache_key_fields):
            raise DeviceOperatorPolicyError(
                f"{where}: cache_key_fields must be a callable taking no "
                f"arguments or None, got {self.cache_key_fields!r}"
            )

    def _check_decompositions_and_lowerings(
        self, where: str
    ) -> tuple[dict[OpOverload, Any], dict[OpOverload, Any]]:
        """The checked decomposition and lowering overrides; every op whose
        decomposition is :data:`Exclude` must have a lowering rule."""
        decomps = self._check_rules(
            where, "decomposition_overrides", self.decomposition_overrides, Exclude
        )
        lowerings = self._check_rules(
            where, "lowering_overrides", self.lowering_overrides, Fallback
        )
        for op, rule in decomps.items():
            if rule is Exclude and op not in lowerings:
                raise DeviceOperatorPolicyError(
                    f"{where}: decomposition_overrides[{op}] is Exclude, so "
                    f"{op} stays in the graph, but lowering_overrides has no "
                    f"entry for {op}; add a device lowering "
                    f"(lowering_overrides[{op}] = <lowering>) or "
                    f"lowering_overrides[{op}] = Fallback"
                )
        return decomps, lowerings

    @staticmethod
    def _as_iterable(where: str, ops: object) -> Iterable[Any]:
        if isinstance(ops, (str, Mapping)) or not isinstance(ops, Iterable):
            raise DeviceOperatorPolicyError(
                f"{where}: realized_input_ops must be a collection of "
                f"OpOverloads, got {type(ops).__name__}"
            )
        return ops

    @staticmethod
    def _check_rules(
        where: str, field: str, rules: object, sentinel: _Sentinel | None
    ) -> dict[OpOverload, Any]:
        if not isinstance(rules, Mapping):
            raise DeviceOperatorPolicyError(
                f"{where}: {field} must be a mapping of OpOverload to rules, "
                f"got {type(rules).__name__}"
            )
        checked: dict[OpOverload, Any] = {}
        for op, rule in rules.items():
            if isinstance(op, torch._ops.OpOverloadPacket):
                raise DeviceOperatorPolicyError(
                    f"{where}: {field} key {op} is an overload packet; name "
                    f"the overload, e.g. {op}.default"
                )
            if not isinstance(op, torch._ops.OpOverload):
                raise DeviceOperatorPolicyError(
                    f"{where}: {field} keys must be OpOverloads, got {op!r}"
                )
            if (sentinel is None or rule is not sentinel) and (
                isinstance(rule, _Sentinel) or not callable(rule)
            ):
                allowed = "a callable" if sentinel is None else f"a callable or {sentinel!r}"
                raise DeviceOperatorPolicyError(
                    f"{where}: {field}[{op}] must be {allowed}, got {rule!r}"
                )
            checked[op] = rule
        return checked

    @staticmethod
    def _check_config_defaults(where: str, defaults: object) -> dict[str, Any]:
        from . import config

        if not isinstance(defaults, Mapping):
            raise DeviceOperatorPolicyError(
                f"{where}: config_defaults must be a mapping of Inductor option "
                f"names to values, got {type(defaults).__name__}"
            )
        checked: dict[str, Any] = {}
        for name, value in defaults.items():
            if not isinstance(name, str) or name not in config._config:
                raise DeviceOperatorPolicyError(
                    f"{where}: config_defaults key {name!r} is not a "
                    "torch._inductor.config option; a backend's own options "
                    "belong in its device_custom_config module"
                )
            if name in CUSTOM_PASS_STAGES:
                raise DeviceOperatorPolicyError(
                    f"{where}: config_defaults[{name!r}] is a custom graph pass "
                    f"option; pass custom_passes={{{name!r}: <CustomGraphPass>}}"
                )
            if name.startswith(_NOT_DEFAULTABLE_PREFIXES):
                raise DeviceOperatorPolicyError(
                    f"{where}: config_defaults[{name!r}] holds a callable that no "
                    "cache key can identify; it cannot have a per-device default"
                )
            default = config._config[name].default
            expected: tuple[type, ...] = (
                (int, float) if type(default) is float else (type(default),)
            )
            if default is not None and (
                not isinstance(value, expected)
                or (isinstance(value, bool) and type(default) is not bool)
            ):
                raise DeviceOperatorPolicyError(
                    f"{where}: config_defaults[{name!r}] must be a "
                    f"{type(default).__name__} like the option's default "
                    f"{default!r}, got {value!r}"
                )
            checked[name] = value
        return checked

    @staticmethod
    def _check_custom_passes(where: str, passes: object) -> dict[str, tuple[Any, ...]]:
        from .custom_graph_pass import CustomGraphPass

        if not isinstance(passes, Mapping):
            raise DeviceOperatorPolicyError(
                f"{where}: custom_passes must be a mapping of stage to "
                f"CustomGraphPass, got {type(passes).__name__}"
            )
        checked: dict[str, tuple[Any, ...]] = {}
        for stage, value in passes.items():
            if stage not in CUSTOM_PASS_STAGES:
                raise DeviceOperatorPolicyError(
                    f"{where}: custom_passes key {stage!r} is not a pass stage; "
                    f"expected one of {', '.join(CUSTOM_PASS_STAGES)}"
                )
            items = tuple(value) if isinstance(value, (list, tuple)) else (value,)
            for p in items:
                if not isinstance(p, CustomGraphPass):
                    raise DeviceOperatorPolicyError(
                        f"{where}: custom_passes[{stage!r}] must hold "
                        "torch._inductor.custom_graph_pass.CustomGraphPass "
                        f"instances (their uuid() keys the caches), got {p!r}"
                    )
                try:
                    uuid = p.uuid()
                except Exception as err:
                    raise DeviceOperatorPolicyError(
                        f"{where}: custom_passes[{stage!r}]: {type(p).__qualname__}"
                        f".uuid() raised {type(err).__name__}: {err}"
                    ) from err
                if uuid is None:
                    raise DeviceOperatorPolicyError(
                        f"{where}: custom_passes[{stage!r}]: {type(p).__qualname__}"
                        ".uuid() returned None; return a value that changes when "
                        "the pass changes, so that cached graphs are not reused "
                        "across versions of it"
                    )
            checked[stage] = items
        return checked

    def _compute_cache_key(self) -> str:
        entries = sorted(
            [f"decomposition {op} {_rule_name(r)}"
             for op, r in self.decomposition_overrides.items()]
            + [f"lowering {op} {_rule_name(r)}"
               for op, r in self.lowering_overrides.items()]
            + self._device_extension_cache_key_entries()
        )
        digest = hashlib.sha256("\n".join(entries).encode()).hexdigest()[:32]
        return f"{self.device_type}:{self.version}:{digest}"

    def _device_extension_cache_key_entries(self) -> list[str]:
        """The cache key entries of what :meth:`_freeze_device_extensions`
        checked; custom passes enter by their ``uuid()``, the cache key fields
        callable by its name."""
        return (
            [f"realize {op}" for op in self.realized_input_ops]
            + [f"fake {op} {_rule_name(r)}" for op, r in self.fake_overrides.items()]
            + [f"config {name} {value!r}" for name, value in self.config_defaults.items()]
            + [f"pass {stage} {i} {p.uuid()!r}"
               for stage, ps in self.custom_passes.items()
               for i, p in enumerate(ps)]
            + ([f"fields {_rule_name(self.cache_key_fields)}"]
               if self.cache_key_fields is not None else [])
        )

    @property
    def cache_key(self) -> str:
        """The policy's identity: device type, version and a digest of the
        overridden ops with the kind and name of each rule.  Deterministic
        across processes; it is what cache keys and compile subprocesses see."""
        return self._cache_key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeviceOperatorPolicy):
            return NotImplemented
        return (
            self.cache_key == other.cache_key
            and dict(self.decomposition_overrides) == dict(other.decomposition_overrides)
            and dict(self.lowering_overrides) == dict(other.lowering_overrides)
            and dict(self.config_defaults) == dict(other.config_defaults)
            and dict(self.custom_passes) == dict(other.custom_passes)
            and dict(self.fake_overrides) == dict(other.fake_overrides)
            and self.realized_input_ops == other.realized_input_ops
            and self.cache_key_fields == other.cache_key_fields
        )

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
        """The Inductor options a compile on this device runs with, given the
        current config and the ``user_options`` of the compile
        (``torch.compile(options=...)``):

        * each of :attr:`config_defaults` whose option the user has not set:
          not in ``user_options``, and at its default value (an option set
          to a different value by ``config.patch``, an assignment or an
          environment variable is the user's);
        * for each stage of :attr:`custom_passes`, the device's passes
          followed by the user's passes for that stage.

        Sampled once per compile, after the user's options are applied."""
        from . import config
        from .custom_graph_pass import get_custom_graph_passes

        user_options = {
            name.replace("-", "_"): value for name, value in (user_options or {}).items()
        }
        patches = {
            name: value
            for name, value in self.config_defaults.items()
            if name not in user_options
            and getattr(config, name) == config._config[name].default
        }
        for stage, passes in self.custom_passes.items():
            patches[stage] = (*passes, *get_custom_graph_passes(getattr(config, stage)))
        return patches

    def sample_cache_key_fields(self) -> str | None:
        """The ``repr`` of what :attr:`cache_key_fields` returns now, or None
        without it.  A compile on this device must not be keyed without its
        fields, so a callable that raises fails the compile."""
        if self.cache_key_fields is None:
            return None
        try:
            return repr(self.cache_key_fields())
        except Exception as err:
            raise DeviceOperatorPolicyError(
                f"the cache_key_fields callable "
                f"{_rule_name(self.cache_key_fields)} of the operator policy of "
                f"device type {self.device_type!r} raised "
                f"{type(err).__name__}: {err}; compiles on this device cannot "
                "be keyed without it"
            ) from err

    def realizes_inputs(self, node: torch.fx.Node) -> bool:
        """Whether ``node``'s inputs are realized by this policy: its target
        is in :attr:`realized_input_ops` and it runs on the policy's device."""
        return (
            node.target in self.realized_input_ops
            and _node_device_type(node) == self.device_type
        )

    def lowering_for_node(
        self, target: object, node: torch.fx.Node | None
    ) -> Callable[..., Any] | None:
        """The policy's lowering for ``node`` (calling ``target``), or None when
        the default path applies.

        On the policy's device that is the op's rule (:data:`Fallback` as an
        eager fallback).  On another device (CPU, in a CPU-plus-accelerator
        graph) the rules do not apply, but the compile's decomposition table
        is per compile: an op it keeps because of :data:`Exclude` reaches
        CPU nodes too.  Without a default lowering such an op is run as an
        eager fallback here, not through ``make_fallback``, which
        would add it to the global ``lowerings`` for every later compile.
        """
        from .lowering import fallback_handler, lowerings

        rule = self.lowering_overrides.get(target)  # type: ignore[call-overload]
        if rule is None or node is None:
            return None
        if _node_device_type(node) != self.device_type:
            if (
                self.decomposition_overrides.get(target) is Exclude  # type: ignore[call-overload]
                and target not in lowerings
            ):
                return fallback_handler(target, add_to_fallback_set=False)
            return None
        if rule is Fallback:
            return fallback_handler(target, add_to_fallback_set=False)
        return rule


def _node_device_type(node: torch.fx.Node) -> str | None:
    """The device a node computes on: that of its first tensor output, or of
    its first tensor input for nodes without tensor outputs."""
    for value in (node.meta.get("val"), *(a.meta.get("val") for a in node.all_input_nodes)):
        for leaf in pytree.tree_leaves(value):
            if isinstance(leaf, torch.Tensor):
                return leaf.device.type
    return None


# -- Registry ------------------------------------------------------------------

#: Device type -> its policy.  Entries are never replaced or removed.
_device_operator_policies: dict[str, DeviceOperatorPolicy] = {}
# Protects the check-then-insert of register_device_operator_policy.
_device_operator_policies_lock = threading.Lock()


def register_device_operator_policy(policy: DeviceOperatorPolicy) -> None:
    """Register ``policy`` for its device type, once per process.

    Registering an equal policy again (same version and rules) does nothing,
    so a backend may call this from code that can run more than once.  A
    different policy for a device type that already has one raises, naming
    both: policies are immutable for the life of the process, since compiled
    code and cache entries were keyed with the first.
    """
    if not isinstance(policy, DeviceOperatorPolicy):
        raise DeviceOperatorPolicyError(
            "register_device_operator_policy: expected a DeviceOperatorPolicy, "
            f"got {type(policy).__name__}"
        )
    from torch._subclasses import fake_tensor

    with _device_operator_policies_lock:
        existing = _device_operator_policies.get(policy.device_type)
        if existing is not None:
            if existing == policy:
                return
            raise DeviceOperatorPolicyError(
                f"device type {policy.device_type!r} already has operator policy "
                f"{existing.cache_key!r}; cannot register {policy.cache_key!r}. "
                "A device type has one policy per process: put every rule in "
                "one DeviceOperatorPolicy and bump its version when they change"
            )
        _device_operator_policies[policy.device_type] = policy
        # The fake tensor table is derived from the policies; its values are
        # replaced, never mutated.
        for op, impl in policy.fake_overrides.items():
            others = tuple(
                entry
                for entry in fake_tensor._device_fake_impls.get(op, ())
                if entry[0] != policy.device_type
            )
            fake_tensor._device_fake_impls[op] = (*others, (policy.device_type, impl))
    if policy.fake_overrides:
        # Entries cached for these ops before the policy existed.
        fake_tensor.FakeTensorMode.cache_clear()
    log.debug("registered operator policy %s", policy.cache_key)


def get_device_operator_policy(
    device: str | torch.device,
) -> DeviceOperatorPolicy | None:
    """The policy registered for ``device``'s type, or None (the default
    decompositions and lowerings apply).  Like the other ``get_*_for_device``
    lookups it ignores the index: ``"npu:1"`` finds the ``"npu"`` policy."""
    from torch._dynamo.device_interface import _device_type as device_type_of

    return _device_operator_policies.get(device_type_of(device))


# -- Compile-time resolution -------------------------------------------------------


def resolve_operator_policy(
    device_types: Iterable[str],
) -> DeviceOperatorPolicy | None:
    """The operator policy of the one accelerator among a graph's
    ``device_types`` (``torch._inductor.utils.graph_device_types``), or None.

    CPU (and meta) are ignored, so CPU-only graphs and graphs on an
    accelerator without a policy get None.  A graph on several accelerator
    types is refused when any of them has a policy, since a compile has one
    decomposition table.
    """
    if not _device_operator_policies:
        return None
    accelerators = sorted(set(device_types) - {"cpu", "meta"})
    policies = {d: _device_operator_policies.get(d) for d in accelerators}
    if len(accelerators) > 1 and any(p is not None for p in policies.values()):
        described = ", ".join(
            f"{d!r} ({p.cache_key!r})" if p is not None else f"{d!r} (no policy)"
            for d, p in policies.items()
        )
        raise DeviceOperatorPolicyError(
            f"this graph uses accelerator device types {described}, whose "
            "operator policies conflict: one compile applies one device's "
            "decompositions. Only CPU plus one accelerator is supported with "
            "an operator policy; compile the parts on each device separately"
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


class PolicyDecompTable:
    """A compile's ``get_decomp_fn``: ``base`` adjusted by a device policy.

    It carries the policy through the compile (inner compiles, GraphLowering,
    the FX graph cache key).  ``base`` is ``select_decomp_table``, or the table a
    caller passed to ``compile_fx(decompositions=...)``, which is explicit and
    wins: the policy's decompositions apply only on top of the default table.
    It pickles as the device type and the policy's cache key, which a compile
    in another process resolves again (:func:`_resolve_policy_decomp_table`).
    """

    def __init__(
        self,
        policy: DeviceOperatorPolicy,
        base: Callable[[], Mapping[Any, Any]],
        cache_key_fields: str | None | _Sentinel = _UNSAMPLED,
    ) -> None:
        self.operator_policy = policy
        self.base = base
        # Sampled once per compile (a compile in another process keeps the
        # parent's sample); part of the FX graph cache key through this
        # object's pickled form, in the forward and backward compiles.
        self.cache_key_fields = (
            policy.sample_cache_key_fields()
            if cache_key_fields is _UNSAMPLED
            else cache_key_fields
        )

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
            (
                policy.device_type,
                policy.cache_key,
                self.base,
                self.cache_key_fields,
            ),
        )


def _resolve_policy_decomp_table(
    device_type: str,
    cache_key: str,
    base: Callable[[], Mapping[Any, Any]],
    cache_key_fields: str | None = None,
) -> PolicyDecompTable:
    """Unpickle a :class:`PolicyDecompTable`: find the same policy here."""
    policy = _device_operator_policies.get(device_type)
    if policy is None or policy.cache_key != cache_key:
        found = "none" if policy is None else repr(policy.cache_key)
        raise DeviceOperatorPolicyError(
            f"this compile was set up with operator policy {cache_key!r} for "
            f"device type {device_type!r}, but this process has {found}. Import "
            f"the extension that registers the {device_type!r} backend (its "
            "register_device_operator_policy call) in this process before it "
            "compiles"
        )
    return PolicyDecompTable(
        policy,
        base,
        cache_key_fields,
    )


def operator_policy_of(get_decomp_fn: object) -> DeviceOperatorPolicy | None:
    """The policy a compile's ``get_decomp_fn`` carries, if any."""
    if isinstance(get_decomp_fn, PolicyDecompTable):
        return get_decomp_fn.operator_policy
    return None

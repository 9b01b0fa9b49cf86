from typing import Any, TypeAlias

import torch
from torch import Tensor
from torch.autograd.grad_mode import no_grad


# The PrivateUse1 answer of the device lists below, see
# _privateuse1_backend_has_feature(): (backend name, torch.<name>, generation
# of the device interface registry, names of the declared features or None).
_privateuse1_features_cache: tuple[str, Any, int, frozenset[str] | None] | None = None


def _privateuse1_backend_has_feature(name: str, feature: str) -> bool | None:
    r"""
    Whether the DeviceInterface of the renamed PrivateUse1 backend ``name``
    declares ``feature`` (the name of a framework-level ``BackendFeature``
    member) in its override of ``backend_features()``, read through a probe (a
    broken override declares nothing); None when the backend leaves the
    answer to the caller's default: it has no interface (none is registered
    for it and lazy discovery finds none), or its interface keeps
    ``DeviceInterface.backend_features`` as is.

    The declared set is computed once per registry change (and per
    ``torch.<name>`` module), so that the device lists below stay cheap on
    every ``optimizer.step()``. Dynamo does not trace it: it calls it while
    tracing and keeps the answer as a constant of the compiled code (see the
    marker below), as it does for ``torch._C._get_privateuse1_backend_name()``.
    """
    global _privateuse1_features_cache
    from torch._dynamo import device_interface

    module = getattr(torch, name, None)
    cached = _privateuse1_features_cache
    if not (
        cached is not None
        and cached[0] == name
        and cached[1] is module
        and cached[2] == device_interface._registry_generation
    ):
        from torch._inductor.utils import _backend_features_of_interface

        generation = device_interface._registry_generation
        features: frozenset[str] | None = None
        try:
            interface = device_interface.get_interface_for_device(name)
        except NotImplementedError:
            pass
        else:
            if not device_interface._is_base_default(interface, "backend_features"):
                features = frozenset(
                    f.name for f in _backend_features_of_interface(interface)
                )
        cached = (name, module, generation, features)
        _privateuse1_features_cache = cached
    return None if cached[3] is None else feature in cached[3]


# What torch._dynamo.assume_constant_result sets, without importing Dynamo.
_privateuse1_backend_has_feature._dynamo_marked_constant = True  # type: ignore[attr-defined]


def _privateuse1_devices_with(feature: str, default: bool) -> list[str]:
    r"""
    ``[name]`` of the PrivateUse1 backend if it supports ``feature`` (the name
    of a framework-level ``BackendFeature`` member), else ``[]``.

    A backend whose DeviceInterface (registered, or found by lazy discovery)
    overrides ``backend_features()`` decides through it: ``feature`` must be
    in the set it returns. A backend without an interface, or whose interface
    keeps the default ``backend_features()``, gets ``default``: the list
    names the PrivateUse1 backend unconditionally or not at all, whatever it
    registered. So does PrivateUse1 while it is not renamed, without looking
    at the device registry (``torch._dynamo`` is not imported for it).
    """
    name = torch._C._get_privateuse1_backend_name()
    if name != "privateuseone":
        supported = _privateuse1_backend_has_feature(name, feature)
        if supported is not None:
            return [name] if supported else []
    return [name] if default else []


def _get_foreach_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports foreach kernels.

    The in-tree device types are named literally and equal the in-tree
    interfaces that declare ``BackendFeature.FOREACH_KERNELS``; then the
    PrivateUse1 backend, unless its DeviceInterface overrides
    ``backend_features()`` without declaring that member.
    """
    return [
        "cuda",
        "xpu",
        "mtia",
        *_privateuse1_devices_with("FOREACH_KERNELS", default=True),
    ]


def _get_fused_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports fused kernels in optimizer.

    The in-tree device types are named literally and equal the in-tree
    interfaces that declare ``BackendFeature.FUSED_OPTIMIZER``, plus hpu
    (which registers no interface); then the PrivateUse1 backend, unless its
    DeviceInterface overrides ``backend_features()`` without declaring that
    member.
    """
    return [
        "mps",
        "cuda",
        "xpu",
        "hpu",
        "cpu",
        "mtia",
        *_privateuse1_devices_with("FUSED_OPTIMIZER", default=True),
    ]


TensorListList: TypeAlias = list[list[Tensor | None]]
Indices: TypeAlias = list[int]
_foreach_supported_types = [torch.Tensor]


# This util function splits tensors into groups by device and dtype, which is useful before sending
# tensors off to a foreach implementation, which requires tensors to be on one device and dtype.
# If tensorlistlist contains more than one tensorlist, the following assumptions are made BUT NOT verified:
#   - tensorlists CAN be None
#   - all tensors in the first specified list cannot be None
#   - given an index i, all specified tensorlist[i]s match in dtype and device
# with_indices (bool, optional): whether to track previous indices as the last list per dictionary entry.
#   It comes in handy if there are Nones or literals in the tensorlists that are getting scattered out.
#   Whereas mutating a tensor in the resulting split-up tensorlists WILL propagate changes back to the
#   original input tensorlists, changing up Nones/literals WILL NOT propagate, and manual propagation
#   may be necessary. Check out torch/optim/sgd.py for an example.
@no_grad()
def _group_tensors_by_device_and_dtype(
    tensorlistlist: TensorListList,
    with_indices: bool = False,
) -> dict[tuple[torch.device, torch.dtype], tuple[TensorListList, Indices]]:
    return torch._C._group_tensors_by_device_and_dtype(tensorlistlist, with_indices)


def _device_has_foreach_support(device: torch.device) -> bool:
    return (
        device.type in (_get_foreach_kernels_supported_devices() + ["cpu"])
        and not torch.jit.is_scripting()
    )


def _has_foreach_support(tensors: list[Tensor], device: torch.device) -> bool:
    return _device_has_foreach_support(device) and all(
        t is None or type(t) in _foreach_supported_types for t in tensors
    )

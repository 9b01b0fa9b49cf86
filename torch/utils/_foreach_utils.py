import sys
from typing import TypeAlias

import torch
from torch import Tensor
from torch.autograd.grad_mode import no_grad


def _privateuse1_backend_features(name: str) -> tuple[str, ...] | None:
    r"""The names of the ``BackendFeature`` members the interface of PrivateUse1
    backend ``name`` declares by overriding ``backend_features()``; None without."""
    registry = sys.modules.get("torch._dynamo.device_interface")
    if registry is None:  # nothing can have registered an interface yet
        return None
    declared = registry._backend_features(name)
    return None if declared is None else tuple(sorted(f.name for f in declared))


def _privateuse1_devices_with(feature: str, default: bool) -> list[str]:
    r"""``[name]`` of the PrivateUse1 backend if it supports ``feature`` (a name),
    else ``[]``; ``default`` unless its interface overrides ``backend_features()``."""
    name = torch._C._get_privateuse1_backend_name()
    declared = None if name == "privateuseone" else _privateuse1_backend_features(name)
    supported = default if declared is None else feature in declared
    return [name] if supported else []


def _get_foreach_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports foreach kernels."""
    return ["cuda", "xpu", "mtia", *_privateuse1_devices_with("FOREACH_KERNELS", True)]


def _get_fused_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports fused kernels in optimizer."""
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

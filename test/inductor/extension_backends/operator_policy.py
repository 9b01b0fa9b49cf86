"""Operator policies for ``extension_device`` tests (SPEC §5).

The rules are visibly different from the defaults on purpose, so that a test
can tell from the result and from the generated code which path an op took.
A fresh interpreter gets the same policies (same cache keys) by importing this
module, as a backend's worker process would by importing the backend.
"""

from __future__ import annotations

import torch
from torch._inductor.device_operator_policy import (
    DeviceOperatorPolicy,
    Exclude,
    Fallback,
)


aten = torch.ops.aten


def quarter(x: torch.Tensor) -> torch.Tensor:
    """Device decomposition of hardsigmoid: ``x * 0.25``."""
    return x * 0.25


def tanh_lowering(x):
    """Device lowering of sigmoid that lowers it as tanh."""
    from torch._inductor.lowering import lowerings

    return lowerings[aten.tanh.default](x)


def excluding_policy(device_type: str, version: str = "1") -> DeviceOperatorPolicy:
    """Keeps hardswish (no decomposition) and runs it as an eager fallback."""
    return DeviceOperatorPolicy(
        device_type,
        version,
        decomposition_overrides={aten.hardswish.default: Exclude},
        lowering_overrides={aten.hardswish.default: Fallback},
    )


def decomposing_policy(device_type: str, version: str = "1") -> DeviceOperatorPolicy:
    """Decomposes hardsigmoid as :func:`quarter`."""
    return DeviceOperatorPolicy(
        device_type, version, decomposition_overrides={aten.hardsigmoid.default: quarter}
    )


def lowering_policy(device_type: str, version: str = "1") -> DeviceOperatorPolicy:
    """Lowers sigmoid as tanh (:func:`tanh_lowering`)."""
    return DeviceOperatorPolicy(
        device_type, version, lowering_overrides={aten.sigmoid.default: tanh_lowering}
    )


def fallback_policy(device_type: str, version: str = "1") -> DeviceOperatorPolicy:
    """Runs sigmoid as an eager fallback."""
    return DeviceOperatorPolicy(
        device_type, version, lowering_overrides={aten.sigmoid.default: Fallback}
    )

"""toyacc's operator policy: which ops Inductor decomposes and how it lowers
them on this device, without touching the global tables.

Here ``hardswish`` stays one op and runs as an eager fallback (the device's
own kernel) instead of being decomposed into pointwise ops.  With the C++
wrapper, an op without a C shim function like this one is called through
``aoti_torch_call_dispatcher``.
"""

import torch
from torch._inductor.device_operator_policy import (
    DeviceOperatorPolicy,
    Exclude,
    Fallback,
)

aten = torch.ops.aten

POLICY = DeviceOperatorPolicy(
    "toyacc",
    "1",  # bump when a rule's implementation changes
    decomposition_overrides={aten.hardswish.default: Exclude},
    lowering_overrides={aten.hardswish.default: Fallback},
)

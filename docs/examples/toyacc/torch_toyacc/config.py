"""toyacc's compile options, set per compile with
``torch.compile(..., options={"toyacc.<key>": value})``.

Registered as the ``device_custom_config`` of the codegen backend
(:mod:`torch_toyacc.inductor`); the values are part of the FX graph cache key.
"""

import sys

from torch.utils._config_module import install_config_module

#: Compile the device's C++ kernels and C++ wrapper with -ffast-math.
fast_math: bool = False

install_config_module(sys.modules[__name__])

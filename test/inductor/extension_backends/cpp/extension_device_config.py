"""Compile options of ``extension_device``, the backend's own config module.

``register_compile_backend`` registers it as the device's
``device_custom_config``, so users set these per compile with
``torch.compile(options={"<device>.<key>": value})`` (SPEC IND-2), and their
values are part of the FX graph cache key.
"""

import sys

from torch.utils._config_module import install_config_module


#: A comment line the device's Python wrapper writes at the top of every module
#: it generates ("" writes none): an option whose effect tests can see in code.
wrapper_banner: str = ""

#: Unused by codegen; an option of another type, for the type checks.
kernel_batch: int = 1


install_config_module(sys.modules[__name__])

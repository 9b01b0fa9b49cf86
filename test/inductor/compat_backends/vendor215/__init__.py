"""A backend written for upstream torch 2.15: importing it renames PrivateUse1
to ``vendor_b`` and installs its device module ``torch.vendor_b``, without
importing ``torch._dynamo`` or ``torch._inductor``. The device module carries
the hooks upstream reads: ``get_device_interface()`` and
``_inductor_backend_init()``, and typed tensor classes found by their names.
"""

import torch

from extension_backends.extension_device import load_library

NAME = "vendor_b"
load_library()
torch.utils.rename_privateuse1_backend(NAME)

from . import runtime  # noqa: E402

torch._register_device_module(NAME, runtime)
torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)

"""``torch.vendor_b``: the fake device's runtime, plus upstream's hooks."""

import torch

from extension_backends.extension_device_module import *  # noqa: F403


def get_device_interface():
    from .compile import VendorBInterface

    return VendorBInterface


def _inductor_backend_init():
    from .compile import register_inductor_backend

    register_inductor_backend()


class FloatTensor:
    """A typed tensor class, like ``torch.cuda.FloatTensor``."""

    def __new__(cls, data):
        return torch.as_tensor(data, dtype=torch.float32, device="vendor_b")

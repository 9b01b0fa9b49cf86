"""The driver of tritonacc's Triton backend."""

import sys

from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase


class TritonaccDriver(DriverBase):
    @classmethod
    def is_active(cls) -> bool:
        # Active where the device is: in a process that imported its package.
        return "torch_tritonacc" in sys.modules

    def map_python_to_cpp_type(self, ty: str) -> str:
        return ty

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("tritonacc", 0, 32)

    def get_active_torch_device(self):
        import torch

        return torch.device("tritonacc", torch.accelerator.current_device_index())

    def get_benchmarker(self):
        raise NotImplementedError("tritonacc's Triton backend runs no kernels")

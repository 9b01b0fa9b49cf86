"""The classes both plugins derive their compiler and driver from."""

from __future__ import annotations

import torch
from triton.backends.compiler import BaseBackend, GPUTarget
from triton.backends.driver import DriverBase


class PluginBackend(BaseBackend):
    """A compiler backend for the targets named ``target_name``."""

    target_name = ""

    @classmethod
    def supports_target(cls, target: GPUTarget) -> bool:
        return target.backend == cls.target_name

    def hash(self) -> str:
        return f"{self.target_name}-compiler-1"

    def parse_options(self, options: dict) -> object:
        return options

    def add_stages(self, stages: dict, options: object, language=None) -> None:
        pass

    def load_dialects(self, context) -> None:
        pass

    def get_module_map(self) -> dict:
        return {}


class PluginDriver(DriverBase):
    """An always-active driver whose current target is ``target_name``."""

    target_name = ""

    @classmethod
    def is_active(cls) -> bool:
        return True

    def map_python_to_cpp_type(self, ty: str) -> str:
        return ty

    def get_current_target(self) -> GPUTarget:
        return GPUTarget(self.target_name, 0, 32)

    def get_active_torch_device(self) -> torch.device:
        return torch.device("cpu")

    def get_benchmarker(self):
        raise NotImplementedError(f"the {self.target_name} plugin runs nothing")

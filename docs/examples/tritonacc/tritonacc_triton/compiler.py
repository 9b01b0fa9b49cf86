"""The compiler of tritonacc's Triton backend."""

import hashlib

from triton.backends.compiler import BaseBackend, GPUTarget


class TritonaccOptions:
    """The options of one kernel's compile: what Triton passes, as attributes."""

    def __init__(self, options: dict) -> None:
        self.__dict__.update(options)

    def hash(self) -> str:  # enters the kernel's cache key
        return hashlib.sha256(repr(sorted(self.__dict__.items())).encode()).hexdigest()


class TritonaccBackend(BaseBackend):
    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        # Inductor compiles the device's kernels for
        # GPUTarget(<device type>, <compute capability>, <warp size>).
        return target.backend == "tritonacc"

    def hash(self) -> str:
        return "tritonacc-compiler-0.1.0"  # enters the kernels' cache keys

    def parse_options(self, options: dict) -> TritonaccOptions:
        return TritonaccOptions(options)

    def add_stages(self, stages: dict, options: object, language=None) -> None:
        # A real backend adds the stages that lower Triton's IR to its binaries.
        raise RuntimeError(
            "tritonacc's Triton backend generates no code: the tritonacc example runs "
            "its kernels in Triton's interpreter; set TRITON_INTERPRET=1 before "
            "importing torch"
        )

    def load_dialects(self, context) -> None:
        pass

    def get_module_map(self) -> dict:
        return {}

"""The compiler of tritonacc's Triton backend."""

from triton.backends.compiler import BaseBackend, GPUTarget


class TritonaccBackend(BaseBackend):
    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        # Inductor compiles the device's kernels for
        # GPUTarget(<device type>, <compute capability>, <warp size>).
        return target.backend == "tritonacc"

    def hash(self) -> str:
        return "tritonacc-compiler-0.1.0"  # enters the kernels' cache keys

    def parse_options(self, options: dict) -> object:
        return options

    def add_stages(self, stages: dict, options: object, language=None) -> None:
        pass  # no code generation: the example's kernels run in the interpreter

    def load_dialects(self, context) -> None:
        pass

    def get_module_map(self) -> dict:
        return {}

"""The Triton heuristics of the Triton variant's kernels in
``test_kernel_codegen_hooks.py``: Inductor's, except that pointwise kernels
are tuned and launched by the device's own autotuner class, so that a test can
tell whose autotuner ran a kernel. Generated kernels import it as
``triton_heuristics``.
"""

from torch._inductor.runtime import triton_heuristics as inductor_heuristics
from torch._inductor.runtime.triton_heuristics import *  # noqa: F403


class DeviceAutotuner(inductor_heuristics.CachingAutotuner):
    launched: list[str] = []

    def run(self, *args, **kwargs):
        DeviceAutotuner.launched.append(self.fn.__name__)
        return super().run(*args, **kwargs)


def pointwise(size_hints, triton_meta, filename=None, inductor_meta=None, **kwargs):
    configs = inductor_heuristics.pointwise(
        size_hints,
        triton_meta,
        filename=filename,
        inductor_meta=inductor_meta,
        return_configs=True,
        **kwargs,
    )
    return inductor_heuristics.cached_autotune(
        size_hints,
        configs,
        triton_meta=triton_meta,
        heuristic_type=inductor_heuristics.HeuristicType.POINTWISE,
        filename=filename,
        inductor_meta=inductor_meta,
        caching_autotuner_cls=DeviceAutotuner,
    )

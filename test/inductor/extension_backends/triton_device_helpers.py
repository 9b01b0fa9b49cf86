"""The Triton helpers of the Triton variant's kernels in
``test_kernel_codegen_hooks.py``: Inductor's, except ``max2``, which ignores
NaN (as some devices' max reductions do), so that a test can tell whose
helpers a kernel called. Generated kernels import it as ``triton_helpers``.
"""

import triton
import triton.language as tl

from torch._inductor.runtime.triton_helpers import *  # noqa: F403


@triton.jit
def max2(a, dim):
    return tl.max(tl.where(a != a, float("-inf"), a), dim)

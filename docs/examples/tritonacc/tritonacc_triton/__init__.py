"""The Triton backend of tritonacc, found by Triton through the
``triton.backends`` entry point ``tritonacc`` of this distribution: Triton
imports :mod:`.compiler` and :mod:`.driver` and takes the one concrete
``BaseBackend`` and ``DriverBase`` subclass of each.

A real one (triton-ascend's, for instance) lowers Triton's IR to the device's
binaries and launches them. This one compiles nothing: the example runs its
kernels in Triton's interpreter (``TRITON_INTERPRET=1``), which needs no
backend. What Inductor takes from it outside the interpreter is its name, its
hash (in the kernels' cache keys) and its driver (made active before a kernel
of the device is compiled).

Triton imports this package in every process that imports triton, so it
imports neither torch nor the device's package.
"""

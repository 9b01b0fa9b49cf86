"""Compile scenarios of the protacc example, each checked against eager.

    python scenarios.py            # after `pip install -e docs/examples/protacc`

Prints one line per scenario and exits with status 1 if any fails.
"""

import ctypes
import os
import signal
import sys
import traceback

import torch
import torch_protacc  # noqa: F401  (PrivateUse1 is now "protacc")
from torch._inductor.utils import run_and_get_code
from torch.testing import assert_close, FileCheck


def make_model():
    torch.default_generator.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))
    return model.to("protacc")


def make_input():
    return torch.randn(5, 8, generator=torch.Generator().manual_seed(1)).to("protacc")


def memory_is_protected():
    # Host code that reads device memory outside a grant faults: try it in a
    # forked child, which dies of SIGSEGV.
    x = make_input()
    pid = os.fork()
    if pid == 0:
        ctypes.string_at(x.data_ptr(), 4)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGSEGV, status


def inference(options):
    model, x = make_model(), make_input()
    with torch.no_grad():
        expected = model(x)
        actual, (code,) = run_and_get_code(torch.compile(model, options=options), x)
    assert_close(actual, expected)
    return code


def python_wrapper_inference():
    code = inference({})
    # ProtaccOpOverrides.kernel_call_guard_with_args around the generated kernel.
    FileCheck().check("with torch.protacc.access(").check_next("cpp_fused_").run(code)


def cpp_wrapper_inference():
    code = inference({"cpp_wrapper": True})
    # ProtaccOpOverrides.cpp_kernel_call_guard before and after it.
    FileCheck().check("protacc::set_access(true, ").check_next("cpp_fused_").check_next(
        "protacc::set_access(false, "
    ).run(code)


SCENARIOS = [memory_is_protected, python_wrapper_inference, cpp_wrapper_inference]


def main() -> int:
    failed = 0
    for scenario in SCENARIOS:
        try:
            scenario()
        except Exception:
            failed += 1
            print(f"FAIL {scenario.__name__}\n{traceback.format_exc()}", flush=True)
        else:
            print(f"ok {scenario.__name__}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

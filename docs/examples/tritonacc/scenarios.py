"""Compile scenarios of the tritonacc example, each checked against eager.

    python scenarios.py            # after `pip install -e docs/examples/tritonacc`

The device has no hardware, so the generated Triton kernels run in Triton's
interpreter, which this script turns on before triton is imported. Prints one
line per scenario and exits with status 1 if any fails.
"""

import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before triton is imported

import sys
import traceback

import torch
import torch_tritonacc  # noqa: F401  (PrivateUse1 is now "tritonacc")
from torch._inductor.utils import run_and_get_code
from torch.testing import assert_close, FileCheck


def inference_code():
    torch.default_generator.manual_seed(0)
    # ReLU: the interpreter runs tl.math, but not the libdevice functions
    # (tanh, erf, ...) that Inductor calls for some ops.
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU()).to("tritonacc")
    x = torch.randn(5, 8, generator=torch.Generator().manual_seed(1)).to("tritonacc")
    with torch.no_grad():
        actual, (code,) = run_and_get_code(torch.compile(model), x)
        assert_close(actual, model(x))
    # The wrapper: the device guard, the raw stream, each kernel launched on it.
    FileCheck().check("def get_raw_stream(index):").check("def call(").check(
        "with torch.tritonacc.device(0):"
    ).check("raw_stream0 = get_raw_stream(0)").check("stream=raw_stream0)").run(code)
    # The kernels: the device's Triton backend and its properties.
    FileCheck().check("triton_helpers.set_driver_to_backend('tritonacc')").check(
        "DeviceProperties(type='tritonacc', index=0, multi_processor_count=4,"
    ).check("'triton_backend': 'tritonacc'").check("@triton.jit").run(code)


def triton_backend():
    # Outside the interpreter, the kernels' cache keys take the hash of the
    # device's Triton backend (tritonacc_triton), and its driver is made active.
    import triton.runtime
    from torch._dynamo.device_interface import get_interface_for_device
    from torch._inductor.runtime.triton_helpers import set_driver_to_backend
    from torch.utils._triton import triton_hash_for_device, triton_hash_with_backend
    from tritonacc_triton.driver import TritonaccDriver

    os.environ["TRITON_INTERPRET"] = "0"
    try:
        get_interface_for_device("tritonacc").raise_if_triton_unavailable()
        assert triton_hash_for_device("tritonacc") == triton_hash_with_backend("tritonacc")
        set_driver_to_backend("tritonacc")
        assert isinstance(triton.runtime.driver.active, TritonaccDriver)
    finally:
        os.environ["TRITON_INTERPRET"] = "1"


SCENARIOS = [inference_code, triton_backend]


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

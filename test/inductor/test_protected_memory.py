# Owner(s): ["module: inductor"]
"""Protected device memory (OpenReg's model) in both wrappers: the fake device's
memory is unreadable from host code outside a guard, and the kernel-call hooks
of DeviceOpOverrides (kernel_call_guard_with_args for the Python wrapper,
cpp_kernel_call_guard for the C++ wrapper) are what make compiled code run."""

import subprocess
import sys
import textwrap
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent

SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {test_dir!r})
    import torch
    import torch._inductor.config as inductor_config
    from extension_backends.extension_device import register
    from extension_backends.cpp.extension_codegen_backend import (
        ExtensionDeviceOpOverrides, register_compile_backend)
    from torch._inductor.codegen.common import register_device_op_overrides

    DEVICE = "extension_device"
    mod = register(DEVICE)
    register_compile_backend(DEVICE)

    class Guarded(ExtensionDeviceOpOverrides):
        def kernel_call_guard_with_args(self, kernel_name, tensor_args):
            args = "".join(a + ", " for a in tensor_args)
            return f"torch.{{self.name}}.memory_guard({{kernel_name!r}}, ({{args}}))"

        def cpp_kernel_call_guard(self, kernel_name, tensor_args):
            args = "".join(", " + a for a in tensor_args)
            return ([f"extension_device::set_access(true{{args}});"],
                    [f"extension_device::set_access(false{{args}});"])

    if {guarded!r}:
        register_device_op_overrides(DEVICE, Guarded(DEVICE))
    mod.set_memory_protection(True)

    def step(w, x):
        y = (x * w).relu().sin()
        return (y * y).sum()

    w = torch.randn(8, 8, device=DEVICE, requires_grad=True)
    x = torch.randn(8, 8, device=DEVICE)
    with inductor_config.patch(cpp_wrapper={cpp_wrapper!r}, fx_graph_cache=False):
        compiled = torch.compile(step)
        with torch.no_grad():
            out = compiled(w, x)  # inference
        torch.testing.assert_close(out.cpu(), step(w, x).detach().cpu())
        loss = compiled(w, x)  # training step
        loss.backward()
    ref = w.detach().clone().requires_grad_()
    step(ref, x).backward()
    torch.testing.assert_close(w.grad.cpu(), ref.grad.cpu())
    print("OK", flush=True)
    # Every check has run.  Skip interpreter teardown: it can race with the
    # autograd engine's thread for the device, which ran the backward and may
    # still take the GIL while Python finalizes (std::terminate, exit -6).
    import os
    os._exit(0)
    """
)


from torch.testing._internal.common_utils import run_tests, TestCase


class ProtectedMemoryTests(TestCase):
    def _run(self, *, guarded, cpp_wrapper):
        code = SCRIPT.format(
            test_dir=str(TEST_DIR), guarded=guarded, cpp_wrapper=cpp_wrapper
        )
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
        )

    def test_guard_hooks_make_both_wrappers_work(self):
        for cpp_wrapper in (False, True):
            with self.subTest(cpp_wrapper=cpp_wrapper):
                proc = self._run(guarded=True, cpp_wrapper=cpp_wrapper)
                self.assertEqual(proc.returncode, 0,
                                 f"stdout: {proc.stdout[-500:]}\nstderr: {proc.stderr[-3000:]}")
                self.assertIn("OK", proc.stdout)

    def test_without_the_hooks_the_kernel_faults(self):
        proc = self._run(guarded=False, cpp_wrapper=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertNotIn("OK", proc.stdout)


if __name__ == "__main__":
    run_tests()

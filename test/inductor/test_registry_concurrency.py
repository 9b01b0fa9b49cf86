# Owner(s): ["module: inductor"]
"""Registering, looking up, discovering and compiling from many threads at once
neither hangs nor loses a registration, and every view derived from the device
registry agrees with it afterwards.

Runs in a fresh interpreter (PrivateUse1 is renamed "acc" there), bounded by a
timeout; a hang dumps every thread's stack.
"""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.testing import run_python


# The convention module of the "acc" backend, imported by Dynamo's discovery.
# While it is being imported it registers the interface from another thread
# and waits for that thread: with a lock held around discovery, that hangs.
CONVENTION_MODULE = """
import threading

from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1
from torch._inductor.codegen.common import BackendFeature
from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceInterface


class StressInterface(ExtensionDeviceInterface):
    @classmethod
    def backend_features(cls, device=None):
        return {BackendFeature.FOREACH_KERNELS}


thread = threading.Thread(
    target=register_interface_for_device_PrivateUse1, args=(StressInterface,)
)
thread.start()
thread.join()
"""

STRESS = """
import faulthandler, os, sys, tempfile, threading
faulthandler.dump_traceback_later(TIMEOUT, exit=True)

import torch
from extension_backends.extension_device import register
from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceOpOverrides,
    ExtensionPythonWrapperCodegen,
)
from extension_backends.cpp import extension_device_config

register("acc")
site = tempfile.mkdtemp()
package = os.path.join(site, "torch_acc", "_dynamo")
os.makedirs(package)
for init in (os.path.join(site, "torch_acc"), package):
    open(os.path.join(init, "__init__.py"), "w").close()
with open(os.path.join(package, "device_interface.py"), "w") as f:
    f.write(CONVENTION_MODULE)
sys.path.insert(0, site)

import torch._dynamo.device_interface as di
import torch._dynamo.trace_rules as trace_rules
import torch._inductor.utils as inductor_utils
import torch.utils._foreach_utils as foreach_utils
from torch._inductor.codecache import CacheBase
from torch._inductor.codegen.common import (
    get_scheduling_for_device,
    init_backend_registration,
    register_backend_for_device,
    register_device_backend_loader,
    register_device_op_overrides,
)
from torch._inductor.codegen.cpp import CppScheduling
from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu


def load_backend():
    # Codegen only: the interface comes from discovery.
    register_backend_for_device(
        "acc", CppScheduling, ExtensionPythonWrapperCodegen, CppWrapperCpu,
        device_custom_config=extension_device_config,
    )
    register_device_op_overrides("acc", ExtensionDeviceOpOverrides("acc"))


register_device_backend_loader("acc", load_backend)


class Plain(di.DeviceInterface):
    pass


class GpuClass(di.DeviceInterface):
    is_gpu = staticmethod(lambda: True)


ROUNDS = 20
names = {f"stress{t}_{i}": (GpuClass if i % 3 == 0 else Plain)
         for t in range(2) for i in range(ROUNDS)}
start = threading.Barrier(6)
errors = []


def worker(fn):
    def run():
        try:
            start.wait()
            fn()
        except BaseException as err:
            errors.append(err)
            raise
    return threading.Thread(target=run, name=fn.__name__)


def registrar(t):
    def register_names():
        for i in range(ROUNDS):
            name = f"stress{t}_{i}"
            di.register_interface_for_device(name, names[name])
    register_names.__name__ = f"registrar{t}"
    return register_names


def discover():
    assert di.get_interface_for_device("acc").__name__ == "StressInterface"


def look_up():
    for i in range(ROUNDS):
        for name in ("acc", "acc:1", f"stress0_{i}", f"stress1_{i}"):
            try:
                di.get_interface_for_device(name)
            except NotImplementedError:
                pass
            inductor_utils.is_gpu(name)
        list(inductor_utils.GPU_TYPES)
        trace_rules._device_tables()
        foreach_utils._get_foreach_kernels_supported_devices()
        CacheBase.get_system()


def load():
    init_backend_registration(("acc",))


def compile_on_acc():
    x = torch.randn(8, device="acc")
    out = torch.compile(lambda x: x.sin() + 1)(x)
    torch.testing.assert_close(out.cpu(), x.cpu().sin() + 1)


threads = [worker(fn) for fn in
           (registrar(0), registrar(1), discover, look_up, load, compile_on_acc)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert not errors, errors

# No registration lost.
for name, interface in names.items():
    assert di.device_interfaces[name] is interface, name
assert di.device_interfaces["acc"].__name__ == "StressInterface"
assert [n for n in ("acc:0", "acc:1") if di.device_interfaces.get(n)] == ["acc:0", "acc:1"]
assert get_scheduling_for_device("acc") is CppScheduling

# Every derived view agrees with the registry, without being refreshed.
gpu = [n for n in names if names[n] is GpuClass]
assert inductor_utils.GPU_TYPES == inductor_utils._gpu_types(), inductor_utils.GPU_TYPES
assert sorted(inductor_utils.GPU_TYPES[4:]) == sorted(gpu), inductor_utils.GPU_TYPES
assert trace_rules._device_tables() == trace_rules._derive_device_tables("acc")
assert "acc" in foreach_utils._get_foreach_kernels_supported_devices()
assert "acc" not in foreach_utils._get_fused_kernels_supported_devices()
assert CacheBase.get_system() == CacheBase.get_system.__wrapped__()
print("consistent")
"""


# Threads race the first lookup of a device whose get_device_interface() hook
# is slow, looks the device up itself and registers from another thread.
SLOW_HOOK = """
import faulthandler, sys, threading, time, types
faulthandler.dump_traceback_later(TIMEOUT, exit=True)

import torch
import torch._dynamo.device_interface as di

torch.utils.rename_privateuse1_backend("acc")
calls = []


class AccInterface(di.DeviceInterface):
    pass


class Other(di.DeviceInterface):
    pass


def get_device_interface():
    calls.append(threading.get_ident())
    time.sleep(0.5)
    try:
        di.get_interface_for_device("acc")  # re-entry: answered at once
        raise AssertionError("found during its own discovery")
    except NotImplementedError:
        pass
    helper = threading.Thread(
        target=di.register_interface_for_device, args=("acc_helper", Other)
    )
    helper.start()
    helper.join()
    return AccInterface


module = types.ModuleType("torch_acc_runtime")
module.get_device_interface = get_device_interface
torch._register_device_module("acc", module)

THREADS = 16
start = threading.Barrier(THREADS)
found, errors = [], []


def first_lookup():
    try:
        start.wait()
        found.append(di.get_interface_for_device("acc:0" if len(found) % 2 else "acc"))
    except BaseException as err:
        errors.append(err)


threads = [threading.Thread(target=first_lookup) for _ in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert not errors, errors
assert len(calls) == 1, calls
assert found == [AccInterface] * THREADS, found
assert di.get_interface_for_device("acc_helper") is Other
print("once")
"""


class RegistryConcurrencyTest(TestCase):
    TIMEOUT = 60

    def test_racing_first_lookups_run_a_slow_hook_once(self):
        proc = run_python(
            f"TIMEOUT = {self.TIMEOUT}\n" + SLOW_HOOK, timeout=self.TIMEOUT + 30
        )
        self.assertIn("once", proc.stdout)

    def test_concurrent_registration_discovery_lookup_and_compile(self):
        proc = run_python(
            f"CONVENTION_MODULE = {CONVENTION_MODULE!r}\n"
            f"TIMEOUT = {self.TIMEOUT}\n" + STRESS,
            timeout=self.TIMEOUT + 30,
            TORCHINDUCTOR_FX_GRAPH_CACHE="0",
            TORCHINDUCTOR_AUTOGRAD_CACHE="0",
        )
        self.assertIn("consistent", proc.stdout)


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Autotune subprocess pinning follows DeviceInterface.visible_devices_env() (SPEC IND-6)."""

import os
import re
import sys
from pathlib import Path
from unittest import mock

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch._inductor.config as inductor_config
from torch._dynamo.device_interface import get_interface_for_device
from torch._inductor.autotune_process import (
    _visible_devices_env,
    CUDA_VISIBLE_DEVICES,
    get_visible_devices_env_var,
    TuningProcessPool,
)
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


class GpuClass(ExtensionDeviceInterface):
    @staticmethod
    def is_gpu():
        return True


class Pinned(GpuClass):
    @staticmethod
    def visible_devices_env():
        return "ACC_VISIBLE_DEVICES"


class VisibleDevicesTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_builtins(self):
        # The pool's constant names cuda's own variable.
        self.assertEqual(
            get_interface_for_device("cuda").visible_devices_env(), CUDA_VISIBLE_DEVICES
        )
        # No GPU-class device here: get_gpu_type() is "cuda", as in 2.13.
        self.assertEqual(get_visible_devices_env_var(), "CUDA_VISIBLE_DEVICES")
        for device in ("cuda", "xpu", "mtia", "mps"):
            self.assertEqual(get_visible_devices_env_var(device), "CUDA_VISIBLE_DEVICES")
        # As upstream: a device without a variable is refused.
        for device in ("cpu", "acc_unregistered"):
            with self.assertRaisesRegex(ValueError, f"Unsupported gpu_type: {device}"):
                get_visible_devices_env_var(device)

    def test_pinned_device(self):
        register_compile_backend(DEVICE, Pinned)
        self.assertEqual(get_visible_devices_env_var(), "ACC_VISIBLE_DEVICES")
        with inductor_config.patch(autotune_multi_device=True):
            with mock.patch.dict(os.environ, {"ACC_VISIBLE_DEVICES": "1", CUDA_VISIBLE_DEVICES: "0,1"}):
                self.assertEqual(TuningProcessPool.get_device_list(), [1])
            with mock.patch.dict(os.environ, {CUDA_VISIBLE_DEVICES: "0"}):
                os.environ.pop("ACC_VISIBLE_DEVICES", None)
                self.assertEqual(TuningProcessPool.get_device_list(), [0, 1])

    def test_unpinned_device_uses_every_device(self):
        register_compile_backend(DEVICE, GpuClass)
        with self.assertRaisesRegex(ValueError, f"Unsupported gpu_type: {DEVICE}"):
            get_visible_devices_env_var()
        with inductor_config.patch(autotune_multi_device=True):
            with mock.patch.dict(os.environ, {CUDA_VISIBLE_DEVICES: "0"}):
                self.assertEqual(TuningProcessPool.get_device_list(), [0, 1])

    def test_broken_hook_is_not_pinned(self):
        class Broken(GpuClass):
            @staticmethod
            def visible_devices_env():
                raise RuntimeError("no runtime")

        register_compile_backend(DEVICE, Broken)
        with self.assertLogs("torch._dynamo.device_interface", "WARNING"):
            self.assertIsNone(_visible_devices_env(DEVICE))
        with self.assertRaisesRegex(ValueError, "Unsupported gpu_type"):
            get_visible_devices_env_var(DEVICE)

    def test_wrong_type_hook_is_not_pinned(self):
        for value in ("", 1, b"ACC_VISIBLE_DEVICES", ["ACC_VISIBLE_DEVICES"]):

            class WrongType(GpuClass):
                @staticmethod
                def visible_devices_env():
                    return value

            register_compile_backend(DEVICE, WrongType)
            with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
                self.assertIsNone(_visible_devices_env(DEVICE))
            self.assertEqual(len(logs.output), 1)
            self.assertRegex(
                logs.output[0],
                rf"WrongType\.visible_devices_env\(\) returned {re.escape(repr(value))}, "
                r"not a non-empty str; treating it as None",
            )
            # Warned once: a second probe is silent and still not pinned.
            with self.assertNoLogs("torch._dynamo.device_interface", "WARNING"):
                self.assertIsNone(_visible_devices_env(DEVICE))


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""A device's cache system info is part of Inductor's cache identity (SPEC IND-7)."""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch._functorch.config as functorch_config
import torch._inductor.config as inductor_config
from torch._dynamo.utils import counters
from torch._inductor.codecache import CacheBase
from torch._inductor.utils import fresh_cache
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


def interface_with(info):
    class Versioned(ExtensionDeviceInterface):
        @classmethod
        def get_cache_system_info(cls):
            return info

    return Versioned


class CacheSystemInfoTests(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)
        self.plain_hash = CacheBase.get_system()["hash"]

    def test_part_of_the_system_identity(self):
        self.assertNotIn("device_interfaces", CacheBase.get_system())
        register_compile_backend(DEVICE, interface_with({"runtime": "1.0"}))
        system = CacheBase.get_system()
        self.assertEqual(system["device_interfaces"], {DEVICE: {"runtime": "1.0"}})
        v1 = system["hash"]
        self.assertNotEqual(v1, self.plain_hash)
        register_compile_backend(DEVICE, interface_with({"runtime": "2.0"}))
        self.assertNotIn(CacheBase.get_system()["hash"], (v1, self.plain_hash))
        register_compile_backend(DEVICE, interface_with({"runtime": "1.0"}))
        self.assertEqual(CacheBase.get_system()["hash"], v1)

    def test_bad_returns_are_ignored_with_one_warning(self):
        for bad, why in [("1.0", "expected a dict, got str"), ({"when": object()}, "not JSON serializable")]:
            register_compile_backend(DEVICE, interface_with(bad))
            with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
                self.assertEqual(CacheBase.get_system()["hash"], self.plain_hash)
            self.assertIn("Versioned.get_cache_system_info() returned an unusable value", logs.output[0])
            self.assertIn(why, logs.output[0])
            with self.assertNoLogs("torch._dynamo.device_interface", "WARNING"):
                CacheBase.get_system.cache_clear()
                CacheBase.get_system()

    def test_default_is_not_probed(self):
        probed = []

        class Unversioned(ExtensionDeviceInterface):
            @staticmethod
            def is_available():
                probed.append(True)
                raise RuntimeError("no runtime")

        register_compile_backend(DEVICE, Unversioned)
        # The default get_cache_system_info() adds nothing, so is_available()
        # is not asked (its failure would warn).
        with self.assertNoLogs("torch._dynamo.device_interface", "WARNING"):
            CacheBase.get_system.cache_clear()
            self.assertEqual(CacheBase.get_system()["hash"], self.plain_hash)
        self.assertEqual(probed, [])

    def test_fx_graph_cache_hits_and_misses(self):
        def fn(x):
            return x.sin() * 2 + 1

        x = torch.randn(8, device=DEVICE)

        def compile_once():
            torch._dynamo.reset()
            counters.clear()
            self.assertEqual(torch.compile(fn)(x).cpu(), fn(x).cpu())
            return counters["inductor"]["fxgraph_cache_hit"], counters["inductor"]["fxgraph_cache_miss"]

        with fresh_cache(), inductor_config.patch(
            fx_graph_cache=True, fx_graph_remote_cache=False
        ), functorch_config.patch(enable_autograd_cache=False):
            register_compile_backend(DEVICE, interface_with({"runtime": "1.0"}))
            self.assertEqual(compile_once(), (0, 1))
            self.assertEqual(compile_once(), (1, 0))  # unchanged: hit
            register_compile_backend(DEVICE, interface_with({"runtime": "2.0"}))
            self.assertEqual(compile_once(), (0, 1))  # changed: miss
            register_compile_backend(DEVICE, interface_with({"runtime": "1.0"}))
            self.assertEqual(compile_once(), (1, 0))


if __name__ == "__main__":
    run_tests()

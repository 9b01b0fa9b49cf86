# Owner(s): ["module: inductor"]
"""A compile that calls a DeviceInterface member the device's interface does not
implement fails with an error naming the interface and the member, not with
the default's bare NotImplementedError."""

import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from torch._dynamo.device_interface import DeviceInterface
from torch._inductor.exc import _unimplemented_interface_member, InductorError
from torch._inductor.runtime.hints import DeviceProperties
from torch._inductor.utils import fresh_cache
from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot

register(DEVICE)


class NoWorker(ExtensionDeviceInterface):
    """Reads no device properties: neither a Worker nor its own query."""

    Worker = DeviceInterface.Worker
    get_device_properties = DeviceInterface.get_device_properties


def raised_by(call):
    try:
        call()
    except Exception as err:  # noqa: BLE001
        return err
    raise AssertionError(f"{call} did not raise")


class MissingInterfaceMemberTest(TestCase):
    def setUp(self):
        super().setUp()
        RegistrySnapshot.install(self)

    def test_compile_names_the_member(self):
        register_compile_backend(DEVICE, NoWorker)
        # Inductor caches each device's properties for the process (stock):
        # an earlier test's compile must not answer for NoWorker.
        DeviceProperties.create.cache_clear()
        self.addCleanup(DeviceProperties.create.cache_clear)
        linear = torch.nn.Linear(64, 64).to(DEVICE)
        x = torch.randn(256, 64, device=DEVICE)
        # A reduction's split asks the device properties of the device.
        with fresh_cache(), self.assertRaisesRegex(
            InductorError,
            r"NoWorker does not implement DeviceInterface\.Worker\."
            r"get_device_properties, which this compile calls: implement it in "
            r"the device's DeviceInterface subclass\nLoweringException: NotImplementedError",
        ):
            torch.compile(lambda x: linear(x).sum(dim=0))(x)

    def test_only_the_defaults_of_members_are_named(self):
        register_compile_backend(DEVICE, NoWorker)
        err = raised_by(lambda: NoWorker.Worker.get_device_properties(0))
        self.assertRegex(
            _unimplemented_interface_member(err),
            r"^NoWorker does not implement DeviceInterface\.Worker\.get_device_properties",
        )
        err = raised_by(lambda: NoWorker._set_stream_by_id(0, 0, 0))
        self.assertRegex(
            _unimplemented_interface_member(err),
            r"^NoWorker does not implement DeviceInterface\._set_stream_by_id,",
        )
        # Errors that no default raised, and members every out-of-tree
        # interface implements, add nothing to the message.
        self.assertIsNone(_unimplemented_interface_member(raised_by(lambda: 1 / 0)))
        err = raised_by(lambda: DeviceInterface.get_raw_stream(0))
        self.assertIsNone(_unimplemented_interface_member(err))
        register_compile_backend(DEVICE, ExtensionDeviceInterface)
        err = raised_by(lambda: DeviceInterface.Worker.get_device_properties(0))
        self.assertIsNone(_unimplemented_interface_member(err))


if __name__ == "__main__":
    run_tests()

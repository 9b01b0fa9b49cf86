# Owner(s): ["module: inductor"]
"""A "<device>.<key>" compile option for a device that is not registered says so."""

import torch
import torch._inductor.config as inductor_config
from torch._inductor.codegen.common import (
    get_compile_option_owner,
    patch_compile_options,
)
from torch.testing._internal.common_utils import run_tests, TestCase


NO_DEVICE = (
    r"Unexpected optimization option npu\.fast_math: it is not an Inductor option, "
    r"and no device 'npu' is registered \(PrivateUse1 is '\w+' in this process\)\. "
    r"Import the backend package that provides 'npu', or register the device with "
    r"torch\.utils\.rename_privateuse1_backend\('npu'\) and its options with "
    r"register_backend_for_device\('npu', \.\.\., device_custom_config=<config module>\)"
)


class UnregisteredDeviceOptionTests(TestCase):
    def test_owner_is_none_as_upstream(self):
        # Upstream's contract: None for anything that is not a device's option.
        self.assertIsNone(get_compile_option_owner("npu.fast_math"))
        self.assertIsNone(get_compile_option_owner("npu.fast-math"))

    def test_torch_compile_names_the_missing_device(self):
        with self.assertRaisesRegex(RuntimeError, NO_DEVICE) as ctx:
            torch.compile(torch.sin, options={"npu.fast_math": True})
        # Not the list of every core option.
        self.assertNotIn("known options are", str(ctx.exception))
        self.assertNotIn("max_autotune", str(ctx.exception))

    def test_patch_compile_options_names_the_missing_device(self):
        before = inductor_config.get_config_copy()
        with self.assertRaisesRegex(RuntimeError, NO_DEVICE):
            with patch_compile_options({"max_autotune": True, "npu.fast-math": True}):
                self.fail("patched with an unknown option")
        # Every name is resolved before anything is patched.
        self.assertEqual(inductor_config.get_config_copy(), before)

    def test_core_option_groups_keep_their_errors(self):
        # A typo inside a core group ("triton.", "cpp.") is a core option error.
        with self.assertRaisesRegex(
            RuntimeError, r"Unexpected optimization option triton\.no_such_key, known options are \["
        ):
            torch.compile(torch.sin, options={"triton.no_such_key": True})
        with self.assertRaisesRegex(AttributeError, r"triton\.no_such_key does not exist"):
            with patch_compile_options({"triton.no_such_key": True}):
                pass

    def test_built_in_device_keeps_the_core_error(self):
        with self.assertRaisesRegex(
            RuntimeError, r"Unexpected optimization option cuda\.no_such_key, known options are \["
        ):
            torch.compile(torch.sin, options={"cuda.no_such_key": True})


if __name__ == "__main__":
    run_tests()

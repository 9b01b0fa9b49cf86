# Owner(s): ["module: inductor"]
"""Per-device Inductor choices on ``extension_device``.

A device whose interface returns an ``InductorChoices`` from
``DeviceInterface.get_inductor_choices()`` decides the scheduler's fusion
questions for its own nodes (what torch_npu does by assigning
``InductorChoices.can_fuse`` and ``Scheduler.speedup_by_fusion``), and how its
reductions are split when they are lowered; every other device keeps
``V.choices``.
"""

import sys
from pathlib import Path


TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
from extension_backends.extension_device import register
from extension_backends.testing import DEVICE, RegistrySnapshot, run_python
from torch._dynamo.device_interface import (
    DeviceInterface,
    register_interface_for_device_PrivateUse1,
)
from torch._inductor import config as inductor_config
from torch._inductor.choices import InductorChoices
from torch._inductor.scheduler import FusionResult
from torch._inductor.utils import _choices_for, run_and_get_code
from torch._inductor.virtualized import V
from torch.testing._internal.common_utils import run_tests, TestCase


register(DEVICE)


class RecordingChoices(InductorChoices):
    """Stock answers (none at all with ``refuse``), recording each question
    with the device type of the nodes it is asked about."""

    def __init__(self, refuse=False):
        self.refuse = refuse
        self.speedup = None
        self.asked = []

    def _ask(self, question, node1, node2):
        self.asked.append((question, node1.get_device().type, node2.get_device().type))

    def can_fuse(self, scheduler, node1, node2, shared_data_score):
        self._ask("can_fuse", node1, node2)
        return not self.refuse and super().can_fuse(
            scheduler, node1, node2, shared_data_score
        )

    def can_fuse_vertical(self, scheduler, node1, node2, shared_data_score):
        self._ask("can_fuse_vertical", node1, node2)
        return super().can_fuse_vertical(scheduler, node1, node2, shared_data_score)

    def can_fuse_horizontal(self, scheduler, node1, node2, shared_data_score):
        self._ask("can_fuse_horizontal", node1, node2)
        return super().can_fuse_horizontal(scheduler, node1, node2, shared_data_score)

    def score_fusion(self, scheduler, node1, node2):
        self._ask("score_fusion", node1, node2)
        return super().score_fusion(scheduler, node1, node2)

    def speedup_by_fusion(self, scheduler, node1, node2):
        self._ask("speedup_by_fusion", node1, node2)
        if self.speedup is None:
            return super().speedup_by_fusion(scheduler, node1, node2)
        return self.speedup


def program(x):
    # a and a.cos() fuse vertically; exp(x * 2) shares x: horizontally.
    a = x.sin() + 1
    return a, a.cos(), (x * 2).exp()


def loop_nests(code):
    # The C++ kernel group puts unfused nodes in one function, a loop nest each.
    return code.count("for(int64_t x0=")


class DeviceFusionChoicesTests(TestCase):
    def setUp(self):
        super().setUp()
        from extension_backends.cpp.extension_codegen_backend import (
            ExtensionDeviceInterface,
            register_compile_backend,
        )

        self.snapshot = RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        self.answer = None

        test = self

        class ChoicesInterface(ExtensionDeviceInterface):
            @staticmethod
            def get_inductor_choices():
                if isinstance(test.answer, Exception):
                    raise test.answer
                return test.answer

        self.interface = ChoicesInterface
        register_compile_backend(DEVICE, ChoicesInterface)

    def compile(self, x):
        torch._dynamo.reset()
        with inductor_config.patch(fx_graph_cache=False):
            result, codes = run_and_get_code(torch.compile(program), x)
        self.assertEqual([r.cpu() for r in result], program(x.cpu()))
        return loop_nests("\n".join(codes))

    def test_the_device_answers_for_its_nodes_only(self):
        self.answer = RecordingChoices()
        x = torch.randn(16)
        self.assertEqual(self.compile(x.to(DEVICE)), 1)
        asked = {question for question, *_ in self.answer.asked}
        self.assertEqual(
            asked,
            {
                "can_fuse",
                "can_fuse_vertical",
                "can_fuse_horizontal",
                "score_fusion",
                "speedup_by_fusion",
            },
        )
        self.assertEqual({d for _, *ds in self.answer.asked for d in ds}, {DEVICE})
        # A cpu compile in the same process asks V.choices.
        before = len(self.answer.asked)
        self.assertEqual(self.compile(x), 1)
        self.assertEqual(len(self.answer.asked), before)

    def test_the_device_choices_decide_its_fusions(self):
        self.answer = RecordingChoices(refuse=True)
        self.assertEqual(self.compile(torch.randn(16, device=DEVICE)), 3)
        self.assertNotIn("score_fusion", {q for q, *_ in self.answer.asked})

    def test_the_device_choices_decide_whether_a_fusion_pays(self):
        # What torch_npu decides by replacing Scheduler.speedup_by_fusion: a
        # fusion the scheduler allows, made or not, now or once benchmarked.
        x = torch.randn(16, device=DEVICE)
        answers = [
            (FusionResult.fuse(False), 3),
            (FusionResult.from_callable(lambda: False), 3),
            (FusionResult.from_callable(lambda: True), 1),
            (None, 1),  # Inductor's answer
        ]
        self.answer = RecordingChoices()
        for result, nests in answers:
            with self.subTest(result=result):
                self.answer.speedup, self.answer.asked = result, []
                self.assertEqual(self.compile(x), nests)
                self.assertIn("speedup_by_fusion", {q for q, *_ in self.answer.asked})

    def test_default_absent_broken_and_wrong_type_use_v_choices(self):
        device = torch.device(DEVICE)
        self.assertIsNone(DeviceInterface.get_inductor_choices())
        self.assertIs(_choices_for(torch.device("cpu")), V.choices)
        self.assertIs(_choices_for(None), V.choices)
        self.assertIs(_choices_for(device), V.choices)  # answer: None
        cases = [
            (RuntimeError("no choices"), r"get_inductor_choices\(\) raised RuntimeError"),
            (object(), r"not an InductorChoices instance; Inductor uses V\.choices"),
        ]
        for answer, message in cases:
            with self.subTest(message):
                self.answer = answer
                # A registration: the interface is asked again.
                register_interface_for_device_PrivateUse1(self.interface)
                with self.assertLogs("torch._dynamo.device_interface", "WARNING") as logs:
                    self.assertIs(_choices_for(device), V.choices)
                self.assertRegex("\n".join(logs.output), message)


class ReductionSplitTests(TestCase):
    def test_the_device_choices_split_its_reductions(self):
        # A Triton device's reductions are split when lowered (C++ ones never
        # are); the split factor is the device's answer. In Triton's
        # interpreter, in a fresh process.
        proc = run_python(
            """
            import torch
            from extension_backends.extension_device import register
            from extension_backends.testing import DEVICE
            from extension_backends.triton_codegen_backend import (
                ExtensionTritonDeviceInterface,
                register_triton_backend,
            )
            from torch._inductor import config
            from torch._inductor.choices import InductorChoices
            from torch._inductor.utils import run_and_get_code

            class NoSplitChoices(InductorChoices):
                @staticmethod
                def reduction_split_factor(device, reduction_numel_hint, numel_hint,
                                           inner_reduction):
                    return 1

            class NoSplitInterface(ExtensionTritonDeviceInterface):
                @staticmethod
                def get_inductor_choices():
                    return NoSplitChoices()

            register(DEVICE)
            x = torch.randn(1 << 16, device=DEVICE)
            for interface in (ExtensionTritonDeviceInterface, NoSplitInterface):
                register_triton_backend(DEVICE, interface)
                torch._dynamo.reset()
                with config.patch(fx_graph_cache=False):
                    total, codes = run_and_get_code(torch.compile(torch.sum), x)
                torch.testing.assert_close(total.cpu(), x.cpu().sum())
                print(interface.__name__, "".join(codes).count("@triton.jit"))
            """,
            TRITON_INTERPRET="1",
        )
        kernels = dict(line.split() for line in proc.stdout.splitlines() if line)
        self.assertEqual(kernels, {"ExtensionTritonDeviceInterface": "2",
                                   "NoSplitInterface": "1"})


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""Tests of the in-tree fake PrivateUse1 device (extension_backends/).

The device is registered as ``extension_device`` for the whole process, since
PrivateUse1 can only be renamed once per process.
"""

import copy
import gc
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path


# Make `extension_backends` importable however this file is run.
TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

import torch
import torch.nn.functional as F
from extension_backends.extension_device import load_library, register
from extension_backends.testing import (
    add_site_dir,
    BACKEND_SITE,
    check_training_step,
    RegistrySnapshot,
)
from torch.testing import FileCheck
from torch.testing._internal.common_utils import run_tests, TestCase


DEVICE = "extension_device"
device_module = register(DEVICE)


class ExtensionDeviceEagerTests(TestCase):
    """Eager behaviour of the device: memory, ops, streams, events, RNG."""

    def setUp(self):
        super().setUp()
        # Every test starts on device 0 with default streams and restores that.
        self.assertEqual(device_module.current_device(), 0)
        self.addCleanup(device_module.set_device, 0)
        for index in range(device_module.device_count()):
            self.addCleanup(device_module.set_stream, device_module.default_stream(index))

    # -- Registration -------------------------------------------------------

    def test_registration(self):
        self.assertIs(torch.extension_device, device_module)
        self.assertIs(torch.get_device_module(DEVICE), device_module)
        self.assertIs(torch.get_device_module(f"{DEVICE}:1"), device_module)
        # Idempotent for the same name, refused for another one.
        self.assertIs(register(DEVICE), device_module)
        with self.assertRaisesRegex(RuntimeError, "already registered as 'extension_device'"):
            register("other_device")
        # Methods generated for the renamed backend.
        self.assertTrue(torch.ones(1, device=DEVICE).is_extension_device)
        self.assertEqual(torch.ones(1).extension_device(1).device.index, 1)
        storage = torch.ones(1).untyped_storage().extension_device(1)
        self.assertTrue(storage.is_extension_device)
        self.assertEqual(storage.device, torch.device(DEVICE, 1))
        self.assertEqual(torch.nn.Linear(2, 2).extension_device().weight.device.type, DEVICE)

    def test_register_in_fresh_process(self):
        # A fresh interpreter can pick another name, and registering must not
        # pull in Dynamo or Inductor.
        code = textwrap.dedent(
            """
            import sys
            import torch
            from extension_backends.extension_device import register

            module = register("acc")
            assert torch.acc is module
            x = torch.arange(4.0, device="acc:1") * 2
            assert x.device == torch.device("acc", 1), x.device
            assert x.cpu().tolist() == [0.0, 2.0, 4.0, 6.0]
            assert torch.acc.device_count() == 2
            assert torch.accelerator.current_accelerator() == torch.device("acc")
            print(sorted(m for m in sys.modules if m.split(".")[:2] in (
                ["torch", "_dynamo"], ["torch", "_inductor"])))
            """
        )
        env = dict(
            os.environ,
            EXTENSION_DEVICE_BUILD_DIR=os.path.dirname(load_library().__file__),
            PYTHONPATH=os.pathsep.join(
                [str(TEST_DIR), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
        )
        result = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "[]")

    # -- Tensors and memory -------------------------------------------------

    def test_tensor_creation(self):
        for device in (DEVICE, f"{DEVICE}:0", f"{DEVICE}:1"):
            expected_index = 1 if device.endswith(":1") else 0
            tensors = [
                torch.empty(2, 3, device=device),
                torch.zeros(2, 3, device=device),
                torch.ones(2, 3, device=device, dtype=torch.int64),
                torch.full((2, 3), 7.5, device=device),
                torch.arange(6, device=device),
                torch.tensor([[1, 2], [3, 4]], device=device),
                torch.eye(3, device=device),
            ]
            for tensor in tensors:
                self.assertEqual(tensor.device, torch.device(DEVICE, expected_index))
            self.assertEqual(tensors[1].cpu(), torch.zeros(2, 3))
            self.assertEqual(tensors[2].cpu(), torch.ones(2, 3, dtype=torch.int64))
            self.assertEqual(tensors[3].cpu(), torch.full((2, 3), 7.5))
            self.assertEqual(tensors[4].cpu(), torch.arange(6))
            self.assertEqual(tensors[5].cpu(), torch.tensor([[1, 2], [3, 4]]))
            self.assertEqual(tensors[6].cpu(), torch.eye(3))

    def test_to_and_cpu_round_trip(self):
        for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16,
                      torch.int32, torch.int64, torch.bool, torch.complex64):
            cpu = torch.randn(4, 5).to(dtype)
            on_device = cpu.to(DEVICE)
            self.assertEqual(on_device.device.type, DEVICE)
            self.assertEqual(on_device.dtype, dtype)
            self.assertEqual(on_device.cpu(), cpu)
        # Non-contiguous sources, dtype conversion during the copy, and
        # conjugate views.
        cpu = torch.randn(4, 6)
        self.assertEqual(cpu.t().to(DEVICE).cpu(), cpu.t())
        self.assertEqual(cpu[:, ::2].to(f"{DEVICE}:1").cpu(), cpu[:, ::2])
        self.assertEqual(cpu.to(DEVICE).to(torch.float64).cpu(), cpu.double())
        self.assertEqual(cpu.to(DEVICE, torch.float16).cpu(), cpu.half())
        complex_cpu = torch.randn(3, dtype=torch.complex64)
        self.assertEqual(complex_cpu.to(DEVICE).conj().cpu(), complex_cpu.conj())
        self.assertEqual(complex_cpu.conj().to(DEVICE).cpu(), complex_cpu.conj())
        # Tensor.item() reads device memory.
        self.assertEqual(torch.tensor(3.5, device=DEVICE).item(), 3.5)

    def test_copy_between_devices(self):
        cpu = torch.randn(3, 4)
        x0 = cpu.to(f"{DEVICE}:0")
        x1 = x0.to(f"{DEVICE}:1")
        self.assertEqual(x1.device, torch.device(DEVICE, 1))
        self.assertEqual(x1.cpu(), cpu)
        self.assertNotEqual(x0.data_ptr(), x1.data_ptr())
        # copy_ into a non-contiguous destination on the other device, with
        # broadcasting.
        dst = torch.zeros(4, 3, device=f"{DEVICE}:1").t()
        dst.copy_(x0)
        self.assertEqual(dst.cpu(), cpu)
        row = torch.zeros(3, 4, device=f"{DEVICE}:0")
        row.copy_(torch.arange(4.0, device=f"{DEVICE}:1"))
        self.assertEqual(row.cpu(), torch.arange(4.0).expand(3, 4))
        # The data is really copied: the source can change afterwards.
        x0.fill_(0)
        self.assertEqual(x1.cpu(), cpu)

    def test_empty_strided_and_as_strided(self):
        x = torch.empty_strided((2, 3), (1, 2), device=f"{DEVICE}:1")
        self.assertEqual(x.stride(), (1, 2))
        self.assertEqual(x.device.index, 1)
        base = torch.arange(12.0, device=DEVICE)
        strided = base.as_strided((3, 2), (4, 1), 1)
        self.assertEqual(strided.cpu(), torch.arange(12.0).as_strided((3, 2), (4, 1), 1))
        strided.mul_(-1)
        expected = torch.arange(12.0)
        expected.as_strided((3, 2), (4, 1), 1).mul_(-1)
        self.assertEqual(base.cpu(), expected)

    def test_views_share_storage(self):
        cpu = torch.arange(24.0).reshape(4, 6)
        base = cpu.to(DEVICE)
        views = {
            "view": lambda t: t.view(6, 4),
            "reshape": lambda t: t.reshape(2, 12),
            "transpose": lambda t: t.t(),
            "select": lambda t: t[1],
            "slice": lambda t: t[:, 1:5:2],
            "unfold": lambda t: t.unfold(1, 2, 2),
            "expand": lambda t: t[0:1].expand(3, 6),
            "view_as_real": lambda t: torch.view_as_real(t.view(torch.complex64)),
            "flatten": lambda t: t.flatten(),
        }
        for name, make_view in views.items():
            with self.subTest(view=name):
                view = make_view(base)
                self.assertEqual(view.device, base.device)
                self.assertEqual(view.untyped_storage().data_ptr(), base.untyped_storage().data_ptr())
                self.assertEqual(view.cpu(), make_view(cpu))
        # Writes through a view land in the base, including through ops that
        # run on the CPU fallback.
        base[1].add_(100)
        base.t()[0].zero_()
        cpu[1].add_(100)
        cpu.t()[0].zero_()
        self.assertEqual(base.cpu(), cpu)
        complex_base = torch.randn(3, 2, device=DEVICE)
        self.assertEqual(
            torch.view_as_complex(complex_base).untyped_storage().data_ptr(),
            complex_base.untyped_storage().data_ptr(),
        )

    def test_resize(self):
        cpu = torch.arange(6.0)
        x = cpu.to(f"{DEVICE}:1")
        x.resize_(2, 5)
        self.assertEqual(x.shape, (2, 5))
        self.assertEqual(x.device.index, 1)
        self.assertEqual(x.flatten()[:6].cpu(), cpu)
        x.resize_(2, 2)
        self.assertEqual(x.cpu(), cpu[:4].view(2, 2))
        y = torch.empty(2, 3, 4, 5, device=DEVICE).resize_(2, 3, 4, 5, memory_format=torch.channels_last)
        self.assertTrue(y.is_contiguous(memory_format=torch.channels_last))
        # Storage-level resize goes through the PrivateUse1 hooks.
        storage = torch.ones(4, device=f"{DEVICE}:1").untyped_storage()
        storage.resize_(32)
        self.assertEqual(storage.nbytes(), 32)
        self.assertEqual(storage.device, torch.device(DEVICE, 1))
        self.assertEqual(torch.empty(0, device=f"{DEVICE}:1").set_(storage)[:4].cpu(), torch.ones(4))

    def test_set(self):
        source = torch.arange(10.0, device=DEVICE)
        x = torch.empty(0, device=DEVICE)
        x.set_(source.untyped_storage(), 2, (2, 3), (3, 1))
        self.assertEqual(x.cpu(), torch.arange(10.0).as_strided((2, 3), (3, 1), 2))
        self.assertTrue(x.untyped_storage().data_ptr() == source.untyped_storage().data_ptr())
        y = torch.empty(0, device=DEVICE).set_(source)
        self.assertTrue(y.is_set_to(source))
        self.assertFalse(x.is_set_to(source))
        y.set_()
        self.assertEqual(y.shape, (0,))
        self.assertEqual(y.untyped_storage().nbytes(), 0)
        self.assertEqual(y.device, source.device)
        # Setting a storage larger than its current size grows it.
        z = torch.empty(0, device=f"{DEVICE}:1")
        z.set_(z.untyped_storage(), 0, (4,), (1,))
        self.assertEqual(z.untyped_storage().nbytes(), 16)
        with self.assertRaisesRegex(RuntimeError, "devices must match"):
            z.set_(source.untyped_storage(), 0, (1,), (1,))

    def test_ops_match_cpu(self):
        a, b, c = (torch.randn(8, 8) for _ in range(3))
        da, db, dc = (t.to(DEVICE) for t in (a, b, c))
        self.assertEqual((da * db + dc).cpu(), a * b + c)
        self.assertEqual((da @ db).cpu(), a @ b)
        self.assertEqual(da.sum().cpu(), a.sum())
        self.assertEqual(da.sum(dim=1, keepdim=True).cpu(), a.sum(dim=1, keepdim=True))
        self.assertEqual(F.softmax(da, dim=-1).cpu(), F.softmax(a, dim=-1))
        self.assertEqual(torch.cat([da, db], dim=1).cpu(), torch.cat([a, b], dim=1))
        self.assertEqual(torch.where(da > 0, da, db).cpu(), torch.where(a > 0, a, b))
        self.assertEqual(da[db > 0].cpu(), a[b > 0])
        self.assertEqual(da.max(dim=0).indices.cpu(), a.max(dim=0).indices)
        # out= variants and in-place ops.
        out = torch.empty(0, device=DEVICE)
        torch.add(da, db, alpha=2, out=out)
        self.assertEqual(out.cpu(), torch.add(a, b, alpha=2))
        da.mul_(db)
        self.assertEqual(da.cpu(), a * b)
        # CPU scalars mix with device tensors.
        self.assertEqual((db * torch.tensor(2.0)).cpu(), b * 2)

    def test_ops_keep_device_index(self):
        x = torch.randn(4, 4, device=f"{DEVICE}:1")
        self.assertEqual(device_module.current_device(), 0)
        for result in (x + 1, x @ x, x.sum(), torch.relu(x), x.clone(), torch.rand_like(x),
                       x.to(torch.float64), x.new_zeros(3), torch.empty_like(x)):
            self.assertEqual(result.device, torch.device(DEVICE, 1))
        with self.assertRaisesRegex(RuntimeError, "Expected all tensors to be on the same device"):
            x + torch.randn(4, 4, device=f"{DEVICE}:0")

    def test_memory_allocated(self):
        gc.collect()  # Free device tensors of earlier tests held in cycles.
        before = [device_module.memory_allocated(i) for i in range(2)]
        x = torch.empty(1024, 1024, dtype=torch.uint8, device=f"{DEVICE}:1")
        self.assertEqual(device_module.memory_allocated(1) - before[1], 1024 * 1024)
        self.assertEqual(device_module.memory_allocated(0), before[0])
        self.assertGreaterEqual(device_module.max_memory_allocated(1), device_module.memory_allocated(1))
        del x
        self.assertEqual(device_module.memory_allocated(1), before[1])
        device_module.reset_peak_memory_stats(1)
        self.assertEqual(device_module.max_memory_allocated(1), before[1])

    def test_pinned_memory(self):
        cpu = torch.randn(16)
        self.assertFalse(cpu.is_pinned())
        pinned = cpu.pin_memory()
        self.assertTrue(pinned.is_pinned())
        self.assertTrue(pinned[3:].is_pinned())
        self.assertEqual(pinned.to(DEVICE, non_blocking=True).cpu(), cpu)
        with self.assertRaisesRegex(RuntimeError, "Only dense CPU tensors can be pinned"):
            torch.empty(2, device=DEVICE, pin_memory=True)

    # -- Devices --------------------------------------------------------------

    def test_set_device(self):
        self.assertEqual(device_module.device_count(), 2)
        self.assertTrue(device_module.is_available())
        device_module.set_device(1)
        self.assertEqual(device_module.current_device(), 1)
        self.assertEqual(torch.empty(1, device=DEVICE).device, torch.device(DEVICE, 1))
        self.assertEqual(device_module.current_stream().device_index, 1)
        device_module.set_device(f"{DEVICE}:0")
        self.assertEqual(torch.empty(1, device=DEVICE).device, torch.device(DEVICE, 0))
        with self.assertRaisesRegex(RuntimeError, "Invalid extension_device device index 2"):
            device_module.set_device(2)

    def test_device_context_manager(self):
        with device_module.device(1):
            self.assertEqual(device_module.current_device(), 1)
            self.assertEqual(torch.zeros(1, device=DEVICE).device.index, 1)
            with device_module.device(torch.device(DEVICE, 0)):
                self.assertEqual(device_module.current_device(), 0)
            self.assertEqual(device_module.current_device(), 1)
        self.assertEqual(device_module.current_device(), 0)
        with torch.device(f"{DEVICE}:1"):
            self.assertEqual(torch.ones(2).device, torch.device(DEVICE, 1))

    def test_device_properties(self):
        for device in (None, 0, 1, f"{DEVICE}:1", torch.device(DEVICE, 0)):
            properties = device_module.get_device_properties(device)
            self.assertIsInstance(properties.name, str)
            self.assertGreater(properties.total_memory, 0)
            self.assertGreater(properties.multi_processor_count, 0)
        self.assertEqual(device_module.get_device_name(), properties.name)
        self.assertEqual(device_module.get_device_capability(), (properties.major, properties.minor))
        with self.assertRaisesRegex(RuntimeError, "Invalid extension_device device index"):
            device_module.get_device_properties(5)
        with self.assertRaisesRegex(ValueError, "Expected a extension_device device"):
            device_module.get_device_properties("cpu")

    def test_lazy_init(self):
        torch.ones(1, device=DEVICE)  # PyTorch lazily initializes the device here.
        self.assertTrue(device_module.is_initialized())

    def test_accelerator(self):
        self.assertTrue(torch.accelerator.is_available())
        self.assertEqual(torch.accelerator.current_accelerator(), torch.device(DEVICE))
        self.assertEqual(torch.accelerator.device_count(), 2)
        torch.accelerator.set_device_index(1)
        self.assertEqual(torch.accelerator.current_device_index(), 1)
        self.assertEqual(device_module.current_device(), 1)
        torch.accelerator.set_device_index(f"{DEVICE}:0")
        self.assertEqual(device_module.current_device(), 0)
        with torch.accelerator.device_index(1):
            self.assertEqual(device_module.current_device(), 1)
        self.assertEqual(device_module.current_device(), 0)

        stream = device_module.Stream(1)
        torch.accelerator.set_stream(stream)
        self.assertEqual(torch.accelerator.current_stream(1), stream)
        self.assertEqual(device_module.current_stream(1), stream)
        self.assertEqual(torch.accelerator.current_device_index(), 1)
        torch.accelerator.synchronize()
        torch.accelerator.synchronize(0)
        capability = torch.accelerator.get_device_capability(1)
        self.assertIn(torch.float32, capability["supported_dtypes"])
        self.assertNotIn(torch.qint8, capability["supported_dtypes"])

    # -- Streams --------------------------------------------------------------

    def test_stream_pools(self):
        for index in (0, 1):
            default = device_module.default_stream(index)
            self.assertEqual(default.stream_id, 0)
            self.assertEqual(default.device, torch.device(DEVICE, index))
            self.assertEqual(device_module.current_stream(index), default)
            streams = [device_module.Stream(index) for _ in range(4)]
            streams.append(torch.Stream(device=f"{DEVICE}:{index}"))
            self.assertEqual(len({s.stream_id for s in streams}), len(streams))
            for s in streams:
                self.assertIsInstance(s, torch.Stream)
                self.assertEqual(s.device_index, index)
                self.assertEqual(s.device_type, default.device_type)
                self.assertNotEqual(s.stream_id, 0)
        self.assertIsInstance(device_module.Stream(), device_module.Stream)
        self.assertEqual(device_module.Stream().device_index, 0)
        self.assertEqual(device_module.Stream(device=1).device_index, 1)
        self.assertEqual(device_module.Stream(f"{DEVICE}:1", priority=-1).device_index, 1)
        # A stream is identified by its device and id.
        s = device_module.Stream(1)
        self.assertEqual(
            s,
            device_module.Stream(stream_id=s.stream_id, device_index=1, device_type=s.device_type),
        )

    def test_stream_context(self):
        s0 = device_module.Stream(0)
        with device_module.stream(s0):
            self.assertEqual(device_module.current_stream(), s0)
            self.assertEqual(torch.accelerator.current_stream(), s0)
            inner = device_module.Stream(0)
            with device_module.stream(inner):
                self.assertEqual(device_module.current_stream(), inner)
            self.assertEqual(device_module.current_stream(), s0)
        self.assertEqual(device_module.current_stream(), device_module.default_stream())
        # A stream of another device also switches the current device, and
        # both devices' current streams are restored.
        s1 = device_module.Stream(1)
        with device_module.stream(s1):
            self.assertEqual(device_module.current_device(), 1)
            self.assertEqual(device_module.current_stream(), s1)
            self.assertEqual(device_module.current_stream(0), device_module.default_stream(0))
        self.assertEqual(device_module.current_device(), 0)
        self.assertEqual(device_module.current_stream(1), device_module.default_stream(1))
        with device_module.stream(None):
            self.assertEqual(device_module.current_stream(), device_module.default_stream())
        # torch.Stream is a context manager too.
        with s1:
            self.assertEqual(device_module.current_stream(1), s1)
        self.assertEqual(device_module.current_stream(1), device_module.default_stream(1))

    def test_current_device_and_stream_are_thread_local(self):
        s1 = device_module.Stream(1)
        device_module.set_stream(s1)
        seen = {}

        def worker():
            seen["device"] = device_module.current_device()
            seen["stream"] = device_module.current_stream(1)
            device_module.set_device(1)

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        self.assertEqual(seen["device"], 0)
        self.assertEqual(seen["stream"], device_module.default_stream(1))
        self.assertEqual(device_module.current_device(), 1)
        self.assertEqual(device_module.current_stream(1), s1)

    def test_set_stream(self):
        s = device_module.Stream(0)
        device_module.set_stream(s)
        self.assertEqual(device_module.current_stream(), s)
        s1 = torch.Stream(device=f"{DEVICE}:1")
        device_module.set_stream(s1)
        self.assertEqual(device_module.current_device(), 1)
        self.assertEqual(device_module.current_stream(1), s1)
        self.assertEqual(device_module.current_stream(0), s)
        with self.assertRaisesRegex(RuntimeError, "Invalid stream id"):
            device_module.set_stream(
                torch.Stream(stream_id=1000, device_index=0, device_type=s.device_type)
            )

    def test_stream_sync_and_waits(self):
        s0, s1 = device_module.Stream(0), device_module.Stream(1)
        x = torch.randn(16, device=DEVICE)
        with device_module.stream(s0):
            y = x * 2
        # Work is executed when it is enqueued, so streams are always idle.
        self.assertTrue(s0.query())
        s0.synchronize()
        s1.wait_stream(s0)
        event = s0.record_event()
        self.assertIsInstance(event, device_module.Event)
        self.assertEqual(device_module.recorded_stream(event), s0)
        s1.wait_event(event)
        self.assertTrue(event.query())
        device_module.synchronize()
        device_module.synchronize(1)
        self.assertEqual(y.cpu(), x.cpu() * 2)

    # -- Events ---------------------------------------------------------------

    def test_event_record_and_wait(self):
        event = device_module.Event()
        self.assertIsInstance(event, torch.Event)
        # Before its first record an event counts as complete (as for CUDA).
        self.assertTrue(event.query())
        self.assertIsNone(device_module.recorded_stream(event))
        event.record()
        self.assertEqual(device_module.recorded_stream(event), device_module.current_stream())
        s = device_module.Stream()
        event.record(s)
        self.assertEqual(device_module.recorded_stream(event), s)
        self.assertTrue(event.query())
        event.synchronize()
        event.wait(device_module.Stream(1))
        event.wait()
        # Events of device 1, including plain torch.Event objects.
        for e1 in (device_module.Event(1), torch.Event(device=f"{DEVICE}:1")):
            s1 = device_module.Stream(1)
            e1.record(s1)
            self.assertEqual(e1.device, torch.device(DEVICE, 1))
            self.assertEqual(device_module.recorded_stream(e1), s1)
            with self.assertRaisesRegex(RuntimeError, "does not match recording stream's device"):
                e1.record(s)
        with device_module.stream(s):
            plain = torch.Event(device=DEVICE)
            plain.record()
        self.assertEqual(device_module.recorded_stream(plain), s)

    def test_event_elapsed_time(self):
        for make_event in (
            lambda: device_module.Event(enable_timing=True),
            lambda: torch.Event(device=DEVICE, enable_timing=True),
        ):
            start, end = make_event(), make_event()
            start.record()
            time.sleep(0.05)
            end.record()
            end.synchronize()
            elapsed = start.elapsed_time(end)
            self.assertGreaterEqual(elapsed, 50.0)
            self.assertLess(elapsed, 5000.0)
            self.assertLess(end.elapsed_time(start), 0.0)

    def test_elapsed_time_requires_timing(self):
        start, end = device_module.Event(enable_timing=True), device_module.Event()
        start.record()
        end.record()
        with self.assertRaisesRegex(ValueError, "enable_timing=True"):
            start.elapsed_time(end)
        unrecorded = device_module.Event(enable_timing=True)
        with self.assertRaisesRegex(ValueError, "Both events must be recorded"):
            start.elapsed_time(unrecorded)

    # -- Autograd and optimizers -------------------------------------------

    def test_mlp_training_matches_cpu(self):
        torch.manual_seed(0)
        cpu_model = torch.nn.Sequential(
            torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
        )
        device_model = torch.nn.Sequential(
            torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
        )
        device_model.load_state_dict(cpu_model.state_dict())
        device_model.to(f"{DEVICE}:1")
        inputs, targets = torch.randn(5, 8), torch.randn(5, 4)

        results = []
        for model, device in ((cpu_model, "cpu"), (device_model, f"{DEVICE}:1")):
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, foreach=False)
            for _ in range(2):
                optimizer.zero_grad()
                loss = F.mse_loss(model(inputs.to(device)), targets.to(device))
                loss.backward()
                optimizer.step()
            results.append((loss, [p.grad for p in model.parameters()], list(model.parameters())))

        (cpu_loss, cpu_grads, cpu_params), (loss, grads, params) = results
        self.assertEqual(loss.device, torch.device(DEVICE, 1))
        self.assertEqual(loss.cpu(), cpu_loss)
        for grad, cpu_grad, param, cpu_param in zip(grads, cpu_grads, params, cpu_params):
            self.assertEqual(grad.device, torch.device(DEVICE, 1))
            self.assertEqual(grad.cpu(), cpu_grad)
            self.assertEqual(param.detach().cpu(), cpu_param.detach())

    def test_cnn_training_matches_cpu(self):
        # Convolutions reach the device as convolution_overrideable and batch
        # norm updates its running statistics in place.
        torch.manual_seed(0)
        cpu_model = torch.nn.Sequential(
            torch.nn.Conv2d(3, 4, 3, padding=1),
            torch.nn.BatchNorm2d(4),
            torch.nn.ReLU(),
            torch.nn.ConvTranspose2d(4, 2, 2, stride=2),
        )
        device_model = copy.deepcopy(cpu_model).to(DEVICE)
        inputs = torch.randn(2, 3, 6, 6)
        cpu_out = cpu_model(inputs)
        out = device_model(inputs.to(DEVICE))
        self.assertEqual(out.cpu(), cpu_out)
        cpu_out.square().sum().backward()
        out.square().sum().backward()
        for (name, param), cpu_param in zip(device_model.named_parameters(), cpu_model.parameters()):
            self.assertEqual(param.grad.cpu(), cpu_param.grad, msg=name)
        for (name, buffer), cpu_buffer in zip(device_model.named_buffers(), cpu_model.buffers()):
            self.assertEqual(buffer.cpu(), cpu_buffer, msg=name)

    def test_kernels_agree_with_fake_tensors(self):
        # What torch.compile derives for a device other than the CPU (fake
        # tensors, decompositions): contiguous convolution results, and in eval
        # mode batch norm's running mean and inverse std as saved statistics.
        from torch._subclasses.fake_tensor import FakeTensorMode

        x = torch.randn(2, 3, 5, 5, device=DEVICE).to(memory_format=torch.channels_last)
        weight = torch.randn(4, 3, 3, 3, device=DEVICE)
        mean, var = torch.randn(3, device=DEVICE), torch.rand(3, device=DEVICE)
        calls = [
            lambda x, w, m, v: F.conv2d(x, w),
            lambda x, w, m, v: torch.ops.aten.convolution_backward(
                F.conv2d(x, w), x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1,
                [True, True, False],
            )[:2],
            lambda x, w, m, v: torch.ops.aten._native_batch_norm_legit_no_training(
                x, None, None, m, v, 0.1, 1e-5
            ),
        ]
        for call in calls:
            actual = call(x, weight, mean, var)
            with FakeTensorMode() as mode:
                fake = call(*map(mode.from_tensor, (x, weight, mean, var)))
            for a, f in zip(*map(torch.utils._pytree.tree_leaves, (actual, fake))):
                self.assertEqual((a.shape, a.stride()), (f.shape, f.stride()))
        _, save_mean, save_invstd = calls[2](x, weight, mean, var)
        self.assertEqual(save_mean.cpu(), mean.cpu())
        self.assertEqual(save_invstd.cpu(), (var.cpu() + 1e-5).rsqrt())

    def test_autocast(self):
        a, b = torch.randn(4, 4, device=DEVICE), torch.randn(4, 4, device=DEVICE)
        with torch.autocast(device_type=DEVICE, dtype=torch.bfloat16):
            result = a @ b
        self.assertEqual(result.dtype, torch.bfloat16)
        self.assertEqual(result.cpu(), (a.cpu().bfloat16() @ b.cpu().bfloat16()))

    # -- Random numbers -----------------------------------------------------

    def test_manual_seed_reproducible(self):
        device_module.manual_seed(1234)
        first = torch.rand(16, device=DEVICE)
        normal = torch.randn(16, device=DEVICE)
        device_module.manual_seed(1234)
        self.assertEqual(torch.rand(16, device=DEVICE), first)
        self.assertEqual(torch.randn(16, device=DEVICE), normal)
        self.assertEqual(device_module.initial_seed(), 1234)
        # Random kernels run on the CPU using the device generator's
        # Mersenne-Twister engine, so a CPU generator with the same seed gives
        # the same numbers.
        self.assertEqual(first.cpu(), torch.rand(16, generator=torch.Generator().manual_seed(1234)))
        # torch.manual_seed seeds every device, through manual_seed_all.
        torch.manual_seed(99)
        x0 = torch.rand(8, device=f"{DEVICE}:0")
        x1 = torch.rand(8, device=f"{DEVICE}:1")
        self.assertEqual(x0.cpu(), x1.cpu())
        self.assertEqual(device_module.default_generators[1].initial_seed(), 99)

    def test_generators_per_device(self):
        device_module.manual_seed_all(7)
        state = device_module.get_rng_state(1)
        self.assertEqual(state.device, torch.device("cpu"))
        self.assertEqual(state.dtype, torch.uint8)
        a = torch.rand(8, device=f"{DEVICE}:1")
        torch.rand(8, device=f"{DEVICE}:0")  # Does not advance device 1.
        device_module.set_rng_state(state, 1)
        self.assertEqual(torch.rand(8, device=f"{DEVICE}:1"), a)
        # Explicit generators.
        generator = torch.Generator(device=DEVICE).manual_seed(3)
        self.assertEqual(generator.device, torch.device(DEVICE, 0))
        b = torch.randn(8, device=DEVICE, generator=generator)
        generator.manual_seed(3)
        self.assertEqual(torch.randn(8, device=DEVICE, generator=generator), b)
        with self.assertRaisesRegex(RuntimeError, "Expected a 'extension_device' device type for generator"):
            torch.rand(2, device=DEVICE, generator=torch.Generator())
        # fork_rng uses the device module's rng state API.
        with torch.random.fork_rng(devices=[0, 1], device_type=DEVICE):
            forked = torch.rand(8, device=DEVICE)
        self.assertEqual(torch.rand(8, device=DEVICE), forked)

    def test_dropout_uses_device_generator(self):
        x = torch.ones(64, device=DEVICE)
        device_module.manual_seed(5)
        first = F.dropout(x, p=0.5)
        device_module.manual_seed(5)
        self.assertEqual(F.dropout(x, p=0.5), first)


class ExtensionBackendCompileTests(TestCase):
    """torch.compile on the device, with its Inductor backend discovered the
    way a vendor's would be: from the ``torch_inductor_backends`` entry point
    of an installed distribution (``extension_backends/site``), loaded by the
    first compile that needs the device. Nothing registers it explicitly."""

    def setUp(self):
        super().setUp()
        from torch._inductor.codegen.common import get_scheduling_for_device

        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        self.assertIsNone(get_scheduling_for_device(DEVICE))
        add_site_dir(self, BACKEND_SITE)

    def _compile(self, fn, *args, cpp_wrapper=False, **compile_kwargs):
        import torch._functorch.config as functorch_config
        import torch._inductor.config as inductor_config
        from torch._inductor.utils import run_and_get_code

        # No cache: every compile generates (and so needs the backend).
        with inductor_config.patch(
            cpp_wrapper=cpp_wrapper, fx_graph_cache=False
        ), functorch_config.patch(enable_autograd_cache=False):
            actual, code = run_and_get_code(torch.compile(fn, **compile_kwargs), *args)
        return actual, "\n".join(code)

    def _compile_and_compare(self, fn, *args, cpp_wrapper=False, **compile_kwargs):
        expected = fn(*args)
        actual, code = self._compile(fn, *args, cpp_wrapper=cpp_wrapper, **compile_kwargs)
        self.assertEqual(actual.device, expected.device)
        self.assertEqual(actual.cpu(), expected.cpu())
        return actual, code

    def _inputs(self, index=0):
        device = f"{DEVICE}:{index}"
        return [torch.randn(4, 8, device=device) for _ in range(3)]

    def test_backend_comes_from_the_entry_point(self):
        from extension_backends.cpp.extension_codegen_backend import (
            ExtensionDeviceOpOverrides,
            ExtensionPythonWrapperCodegen,
        )
        from torch._inductor.codegen.common import (
            get_device_op_overrides,
            get_wrapper_codegen_for_device,
        )

        self._compile_and_compare(lambda a, b, c: a * b + c, *self._inputs())
        self.assertIs(get_wrapper_codegen_for_device(DEVICE), ExtensionPythonWrapperCodegen)
        self.assertIsInstance(get_device_op_overrides(DEVICE), ExtensionDeviceOpOverrides)

    def test_pointwise_python_wrapper(self):
        _, code = self._compile_and_compare(lambda a, b, c: a * b + c, *self._inputs())
        FileCheck().check("async_compile.cpp_pybinding(").check(
            f"device_type='{DEVICE}'"
        ).run(code)

    def test_pointwise_cpp_wrapper(self):
        _, code = self._compile_and_compare(
            lambda a, b, c: a * b + c, *self._inputs(), cpp_wrapper=True
        )
        # The wrapper is built for the device, with the ATen device type its
        # DeviceOpOverrides.aten_device_type() gives (at::kPrivateUse1).
        FileCheck().check(f"#include <torch/csrc/inductor/cpp_wrapper/{DEVICE}.h>").check(
            "CACHE_TORCH_DEVICE(privateuse1)"
        ).check("cached_torch_device_type_privateuse1").run(code)

    def test_pointwise_on_second_device(self):
        out, _ = self._compile_and_compare(lambda a, b, c: a * b + c, *self._inputs(1))
        self.assertEqual(out.device.index, 1)

    def test_training_step(self):
        check_training_step(self, self._compile)

    def test_compile_supported_and_content_store(self):
        # is_compile_supported() finds the backend (by entry point); the
        # minifier's content store then hashes device storage with the
        # device's generator instead of failing on an unknown device type.
        from torch._dynamo.utils import is_compile_supported
        from torch.utils._content_store import hash_storage

        self.assertFalse(is_compile_supported("hpu"))
        self.assertTrue(is_compile_supported(DEVICE))
        x = torch.arange(10.0, device=DEVICE)
        digest = hash_storage(x.untyped_storage())
        self.assertEqual(digest, hash_storage(x.untyped_storage()))
        y = x.clone()
        y[3] = 7
        self.assertNotEqual(hash_storage(y.untyped_storage()), digest)


class ExtensionDynamoTests(TestCase):
    """Dynamo on the device with the eager backend: only the device interface
    is registered (Inductor's entry point is not involved)."""

    def setUp(self):
        super().setUp()
        from extension_backends.cpp.extension_codegen_backend import ExtensionDeviceInterface
        from torch._dynamo.device_interface import register_interface_for_device_PrivateUse1

        RegistrySnapshot.install(self)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)
        register_interface_for_device_PrivateUse1(ExtensionDeviceInterface)

    def _compile_and_compare(self, fn, *args, **compile_kwargs):
        expected = fn(*args)
        actual = torch.compile(fn, **compile_kwargs)(*args)
        self.assertEqual(actual.cpu(), expected.cpu())

    def _inputs(self):
        return [torch.randn(4, 8, device=DEVICE)]

    def test_current_stream_in_fullgraph(self):
        def fn(x):
            s = device_module.current_stream()
            return x + s.stream_id

        self._compile_and_compare(fn, self._inputs()[0], backend="eager", fullgraph=True)

    def test_get_device_module_in_fullgraph(self):
        def fn(x):
            return x * torch.get_device_module(x.device).device_count()

        self._compile_and_compare(fn, self._inputs()[0], backend="eager", fullgraph=True)


if __name__ == "__main__":
    run_tests()

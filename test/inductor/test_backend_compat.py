# Owner(s): ["module: inductor"]
"""Backends written for stock torch 2.13 and for upstream torch 2.15 compile
unchanged (the corpus in ``compat_backends/``).

Each backend is imported in a fresh process, as its users do, and compiles on
the fake device: inference and a training step whose parameters are updated
by ``torch.optim.Adam`` with its default options, with the Python wrapper and
with ``cpp_wrapper=True``, with precompiled headers on (the default) and off;
every result equals eager. One process per backend serves all of them.
"""

import json
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.testing import run_python

# Runs in the child with PACKAGE and NAME replaced; prints a JSON report.
DRIVER = """
import copy
import json
import sys

import torch

dynamo_before = "torch._dynamo" in sys.modules
import compat_backends.PACKAGE as backend

report = {"dynamo_imported_by_package": "torch._dynamo" in sys.modules and not dynamo_before}
import torch._inductor.config as config
from torch._inductor.utils import run_and_get_code
from torch.optim.optimizer import _default_to_fused_or_foreach

name = "NAME"
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)
).to(name)
x = torch.randn(4, 8, device=name)
report["adam_defaults"] = list(_default_to_fused_or_foreach(list(model.parameters()), False))


def train_step(m, optimizer, forward):
    loss = forward(x).square().mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss


eager_model = copy.deepcopy(model)
expected_inference = eager_model(x)
expected_loss = train_step(eager_model, torch.optim.Adam(eager_model.parameters()), eager_model)
expected_params = [p.detach().cpu() for p in eager_model.parameters()]

runs = {}
for cpp_wrapper, precompile_headers in ((False, True), (True, True), (True, False)):
    key = f"cpp_wrapper={cpp_wrapper},precompile_headers={precompile_headers}"
    with config.patch(
        cpp_wrapper=cpp_wrapper,
        cpp_cache_precompile_headers=precompile_headers,
        fx_graph_cache=False,
    ):
        torch._dynamo.reset()
        twin = copy.deepcopy(model)
        compiled = torch.compile(twin)
        inference, codes = run_and_get_code(compiled, x)
        torch.testing.assert_close(inference.cpu(), expected_inference.cpu())
        optimizer = torch.optim.Adam(twin.parameters())
        loss = train_step(twin, optimizer, compiled)
        torch.testing.assert_close(loss.cpu(), expected_loss.cpu())
        for p, q in zip(twin.parameters(), expected_params):
            torch.testing.assert_close(p.detach().cpu(), q)
        includes = sorted(
            {line.strip() for code in codes for line in code.splitlines()
             if line.strip().startswith("#include") and ("cpp_wrapper" in line)}
        )
        runs[key] = {"equal_to_eager": True, "includes": includes}
report["runs"] = runs
EXTRA
print("REPORT" + json.dumps(report), flush=True)
# Leave without interpreter teardown: after a backward pass on the fake
# device, teardown can abort in the autograd engine's device threads
# ("terminate called without an active exception"), after the report.
import os
os._exit(0)
"""

# vendor215 only: Dynamo keeps the device module's typed tensor class in the
# graph, found by its name.
TYPED_TENSOR_CLASS = """
graphs = []


def recording(gm, example_inputs):
    graphs.append(gm)
    return gm


torch._dynamo.reset()
fn = torch.compile(lambda a: torch.vendor_b.FloatTensor([a, a + 1]) * 2, backend=recording, fullgraph=True)
a = torch.arange(3, device=name, dtype=torch.int64)
torch.testing.assert_close(fn(a).cpu(), torch.stack([a, a + 1]).float().cpu() * 2)
report["typed_tensor_class_in_graph"] = any(
    node.target is torch.vendor_b.FloatTensor for gm in graphs for node in gm.graph.nodes
)
from torch._dynamo import device_interface as di

report["interface"] = di.get_interface_for_device(name).__name__
report["interface_names"] = [n for n, _ in di.get_registered_device_interfaces() if n.startswith(name)]
"""


class BackendCompatTest(TestCase):
    def run_backend(self, package, name, extra="pass"):
        code = DRIVER.replace("PACKAGE", package).replace("NAME", name).replace("EXTRA", extra)
        proc = run_python(code, timeout=900)
        line = next(l for l in proc.stdout.splitlines() if l.startswith("REPORT"))
        return json.loads(line[len("REPORT"):])

    def assert_runs(self, report, cpp_header):
        self.assertEqual(
            sorted(report["runs"]),
            [
                "cpp_wrapper=False,precompile_headers=True",
                "cpp_wrapper=True,precompile_headers=False",
                "cpp_wrapper=True,precompile_headers=True",
            ],
        )
        for key, run in report["runs"].items():
            with self.subTest(key):
                self.assertTrue(run["equal_to_eager"])
                if "cpp_wrapper=True" in key:
                    self.assertEqual(run["includes"], [cpp_header])
        # A backend that does not declare backend_features() keeps Adam's
        # foreach default on its device (fused off, foreach on).
        self.assertEqual(report["adam_defaults"], [False, True])

    def test_backend_written_for_torch_2_13(self):
        report = self.run_backend("vendor213", "vendor_a")
        header = TEST_DIR / "compat_backends" / "vendor213" / "cpp_wrapper.h"
        self.assert_runs(report, f"#include <{header}>")

    def test_backend_written_for_torch_2_15(self):
        report = self.run_backend("vendor215", "vendor_b", TYPED_TENSOR_CLASS)
        self.assertFalse(report["dynamo_imported_by_package"])
        self.assert_runs(report, "#include <torch/csrc/inductor/cpp_wrapper/vendor_b.h>")
        self.assertTrue(report["typed_tensor_class_in_graph"])
        # Found through the device module's hook, although it cannot count
        # devices.
        self.assertEqual(report["interface"], "VendorBInterface")
        self.assertEqual(report["interface_names"], ["vendor_b"])

    def test_torch_2_15_backend_starts_at_torch_compile(self):
        proc = run_python(
            """
            import torch
            import compat_backends.vendor215
            from compat_backends.vendor215 import compile as vendor_b

            x = torch.randn(4, device="vendor_b")
            fn = torch.compile(lambda a: a * 2, backend=vendor_b.vendor_b_backend)
            assert vendor_b.starts == 1, vendor_b.starts  # before the first call
            torch.testing.assert_close(fn(x).cpu(), (x * 2).cpu())
            print("starts", vendor_b.starts)
            """
        )
        self.assertIn("starts 1", proc.stdout)


if __name__ == "__main__":
    run_tests()

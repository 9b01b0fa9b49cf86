# Owner(s): ["module: ci"]
"""Tests of tools/vendor_patches.py: the scanner on a small synthetic package,
the counting rule on synthetic sites, and the checked-in inventory of the
audited vendor packages (torch_npu 2.13.0, torch-rbln 0.12.0) against the
series' torch."""

import dataclasses
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import zipfile
from pathlib import Path

from torch.testing._internal.common_utils import run_tests, TestCase

from tools import vendor_patches as vp

REPO = Path(__file__).resolve().parents[2]
# Where `tools/dev.py test` downloads the audited wheels (build/ is ignored);
# the comparison of a fresh scan with the inventory skips without them.
PACKAGES = Path(os.environ.get("VENDOR_WHEELS", REPO / "build" / "vendor_packages"))

SAMPLE = {
    "acc/__init__.py": """
        import torch
        import torch._inductor.config as iconfig
        from torch._inductor import lowering, utils
        from torch._inductor.lowering import register_lowering, make_fallback
        from torch._inductor.decomposition import decompositions
        from torch._inductor.pattern_matcher import register_replacement, PatternMatcherPass
        from torch._decomp import register_decomposition, remove_decompositions
        from torch._inductor.scheduler import Scheduler

        iconfig.size_asserts = False
        torch._inductor.config.triton.max_tiles = 3
        utils.GPU_TYPES.append("acc")
        del decompositions[torch.ops.aten.gelu.default]
        lowering.lowerings.pop(torch.ops.aten.add.Tensor)
        setattr(torch.utils._triton, "has_triton", lambda: True)
        Scheduler.fuse_nodes = lambda self, nodes: nodes
        make_fallback(torch.ops.aten.cumsum)
        remove_decompositions(decompositions, [torch.ops.aten.silu])

        @register_lowering(torch.ops.aten.sin)
        def sin(x):
            return x

        @register_decomposition(torch.ops.aten.cos)
        def cos(x):
            return x

        mine = {}
        register_decomposition(torch.ops.aten.tan, mine)
        my_pass = PatternMatcherPass()
        register_replacement(sin, cos, [], None, my_pass)
        torch.Tensor.acc = lambda self: self
        x = object()
        x.size_asserts = True
    """,
    "acc/heuristics.py": """
        import torch
        from torch._inductor import config
        from triton import Config

        def make_config(extra):
            config = Config({}, num_warps=8)
            config.extra_options = extra
            return config

        def patch(inductor_config=None):
            if inductor_config is None:
                from torch._inductor import config as inductor_config
            inductor_config.post_grad_custom_post_pass = None
            torch.compile = lambda *a, **k: None
    """,
}

EXPECTED = [
    ("acc/__init__.py", 10, "assign", "torch._inductor.config.size_asserts"),
    ("acc/__init__.py", 11, "assign", "torch._inductor.config.triton.max_tiles"),
    ("acc/__init__.py", 12, "mutate", "torch._inductor.utils.GPU_TYPES"),
    ("acc/__init__.py", 13, "mutate", "torch._inductor.decomposition.decompositions"),
    ("acc/__init__.py", 14, "mutate", "torch._inductor.lowering.lowerings"),
    ("acc/__init__.py", 15, "assign", "torch.utils._triton.has_triton"),
    ("acc/__init__.py", 16, "assign", "torch._inductor.scheduler.Scheduler.fuse_nodes"),
    ("acc/__init__.py", 17, "register", "torch._inductor.lowering.lowerings"),
    ("acc/__init__.py", 18, "register", "torch._inductor.decomposition.decompositions"),
    ("acc/__init__.py", 20, "register", "torch._inductor.lowering.lowerings"),
    ("acc/__init__.py", 24, "register", "torch._decomp.global_decomposition_table"),
    ("acc/heuristics.py", 13, "assign", "torch._inductor.config.post_grad_custom_post_pass"),
    ("acc/heuristics.py", 14, "assign", "torch.compile"),
]


def _write_tree(root: str, files: dict) -> None:
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text).lstrip("\n"))


def resolve(ref: str) -> object:
    """The object the dotted name ``ref`` names in this process's torch: the
    longest importable module prefix, then attributes (a dataclass field by
    its name)."""
    parts = ref.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            break
        except ImportError:
            continue
    else:
        raise AssertionError(f"no module of {ref} imports")
    for attr in parts[i:]:
        if dataclasses.is_dataclass(obj) and attr in {f.name for f in dataclasses.fields(obj)}:
            obj = next(f for f in dataclasses.fields(obj) if f.name == attr)
        else:
            obj = getattr(obj, attr)
    return obj


def site(path: str, target: str, function: str = "f", kind: str = "assign") -> vp.Site:
    return vp.Site(path, 1, kind, target, function)


class TestScanner(TestCase):
    def test_sites_of_each_kind(self):
        with tempfile.TemporaryDirectory() as tmp:
            _write_tree(tmp, SAMPLE)
            sites = vp.scan(tmp)
        got = sorted((s.path, s.line, s.kind, s.target) for s in sites)
        self.assertEqual(got, EXPECTED)
        functions = {(s.path, s.line): s.function for s in sites}
        self.assertEqual(functions["acc/__init__.py", 20], "sin")
        self.assertEqual(functions["acc/__init__.py", 10], "<module>")
        self.assertEqual(functions["acc/heuristics.py", 13], "patch")

    def test_file_with_a_byte_order_mark(self):
        # Python accepts a UTF-8 BOM; torch_npu ships four such files.
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "acc"))
            with open(os.path.join(tmp, "acc", "ir.py"), "w", encoding="utf-8-sig") as f:
                f.write("from torch._inductor.ir import Reduction\n"
                        "Reduction.num_splits = None\n")
            sites = vp.scan(tmp)
        self.assertEqual([s.target for s in sites], ["torch._inductor.ir.Reduction.num_splits"])

    def test_local_variable_is_no_torch_name(self):
        # `config = Config(...)` shadows the module's `from torch._inductor import config`.
        with tempfile.TemporaryDirectory() as tmp:
            _write_tree(tmp, SAMPLE)
            targets = {s.target for s in vp.scan(tmp)}
        self.assertNotIn("torch._inductor.config.extra_options", targets)

    def test_command_line_reads_a_wheel(self):
        with tempfile.TemporaryDirectory() as tmp:
            _write_tree(os.path.join(tmp, "tree"), SAMPLE)
            wheel = os.path.join(tmp, "acc-1.0-py3-none-any.whl")
            with zipfile.ZipFile(wheel, "w") as z:
                for rel in SAMPLE:
                    z.write(os.path.join(tmp, "tree", rel), rel)
            proc = subprocess.run(
                [sys.executable, str(REPO / "tools" / "vendor_patches.py"), wheel, "--json"],
                capture_output=True, text=True, check=True,
            )
        (report,) = json.loads(proc.stdout)
        self.assertEqual(report["sites"], len(EXPECTED))
        self.assertEqual(sum(c["sites"] for c in report["concerns"].values()), len(EXPECTED))


    def test_package_directory_and_wheel_root_give_the_same_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            _write_tree(tmp, SAMPLE)
            reports = [
                json.loads(subprocess.run(
                    [sys.executable, str(REPO / "tools" / "vendor_patches.py"), *args, "--json"],
                    capture_output=True, text=True, check=True,
                ).stdout)[0]
                for args in ([tmp, "--package", "acc"], [os.path.join(tmp, "acc")],
                             [os.path.join(tmp, "acc") + os.sep])
            ]
        paths = {s["path"] for s in reports[0]["site_verdicts"]}
        self.assertTrue(paths and all(p.startswith("acc/") for p in paths), paths)
        for report in reports[1:]:
            self.assertEqual(report["site_verdicts"], reports[0]["site_verdicts"])
            self.assertEqual(report["share"], reports[0]["share"])


class TestCountingRule(TestCase):
    def test_replaced_site_names_an_entry_point_that_reaches_it(self):
        v = vp.classify(site("torch_npu/_inductor/utils.py", "torch._inductor.utils.GPU_TYPES",
                             kind="mutate"))
        self.assertTrue(v.replaced)
        self.assertEqual(v.entry, vp.IS_GPU)
        self.assertTrue(v.entry.reaches_route(v.route))

    def test_custom_backend_reaches_graph_passes_only(self):
        # Joint-graph and post-grad passes run under the device's policy on a
        # custom Dynamo backend's path as well; pre-grad passes and
        # decompositions only through compile_fx.
        joint = "torch._inductor.fx_passes.joint_graph.patterns"
        on_custom = vp.classify(site("torch_npu/dynamo/torchair/passes.py", joint,
                                     kind="register"))
        self.assertEqual(on_custom.route, vp.CUSTOM_BACKEND)
        self.assertEqual(on_custom.entry, vp.GRAPH_PASSES)
        on_inductor = vp.classify(site("torch_npu/_inductor/passes.py", joint, kind="register"))
        self.assertEqual(on_inductor.entry, vp.GRAPH_PASSES)
        for target in ("torch._inductor.config.pre_grad_custom_pass",
                       "torch._inductor.decomposition.decompositions"):
            with self.subTest(target):
                v = vp.classify(site("torch_npu/dynamo/torchair/passes.py", target, kind="mutate"))
                self.assertFalse(v.replaced)
                self.assertIn("compile_fx", v.reason)

    def test_custom_backend_decomposition_edit_is_not_replaced(self):
        target = "torch._inductor.decomposition.decompositions"
        self.assertFalse(vp.classify(site("torch_npu/dynamo/npugraph_ex/u.py", target)).replaced)
        self.assertEqual(vp.classify(site("torch_npu/_inductor/d.py", target)).entry, vp.DECOMP)

    def test_fake_overrides_reach_every_route(self):
        v = vp.classify(site("torch_npu/dynamo/torchair/u.py", "torch._decomp.meta_table"))
        self.assertEqual(v.entry, vp.FAKE)

    def test_config_read_when_the_pool_starts_is_not_replaced(self):
        v = vp.classify(site("torch_npu/_inductor/x.py", "torch._inductor.config.compile_threads"))
        self.assertFalse(v.replaced)
        self.assertIn("worker pool", v.reason)
        v = vp.classify(site("torch_npu/_inductor/x.py", "torch._inductor.config.size_asserts"))
        self.assertEqual(v.entry, vp.CONFIG)

    def test_dynamo_options_and_reset(self):
        v = vp.classify(site("torch_rbln/__init__.py", "torch._dynamo.config.cache_size_limit"))
        self.assertEqual((v.concern, v.entry), ("Dynamo config", vp.DYNAMO_CONFIG))
        v = vp.classify(site("torch_npu/_inductor/l.py", "torch._dynamo.config.suppress_errors"))
        self.assertFalse(v.replaced)
        self.assertIn("outside the frame's compile", v.reason)
        v = vp.classify(site("torch_rbln/_internal/monkey_patches.py", "torch._dynamo.reset"))
        self.assertEqual(v.entry, vp.DYNAMO_RESET)
        self.assertFalse(vp.classify(site("torch_npu/_inductor/f.py",
                                          "torch._functorch.config.donated_buffer")).replaced)

    def test_gpu_types_toggle_around_one_call_is_not_replaced(self):
        v = vp.classify(site("torch_npu/_inductor/ascendc/npu.py", "torch._inductor.utils.GPU_TYPES",
                             "NPUScheduling.scheduler_should_partition_override._npu_as_gpu",
                             kind="mutate"))
        self.assertFalse(v.replaced)
        self.assertEqual(v.concern, "device identity")

    def test_internals_without_entry_point(self):
        v = vp.classify(site("torch_npu/_inductor/s.py",
                             "torch._inductor.scheduler.Scheduler.can_fuse_vertical"))
        self.assertEqual((v.concern, v.replaced), ("scheduler & fusion heuristics", False))
        v = vp.classify(site("torch_npu/_inductor/i.py", "torch._inductor.ir.Loops.create"))
        self.assertEqual((v.concern, v.replaced), ("IR / loop-body method replacement", False))

    def test_front_end_wrappers(self):
        v = vp.classify(site("torch_rbln/_internal/monkey_patches.py", "torch.compile"))
        self.assertEqual((v.concern, v.replaced), ("compile front-end wrappers", False))
        self.assertIn("torch_dynamo_backends", v.reason)
        # The entry point replaces registering a backend into torch's table...
        v = vp.classify(site("vendor/dynamo.py", "torch._dynamo.backends.registry._BACKENDS"))
        self.assertEqual(v.entry, vp.BACKEND_EP)
        # ... but not for torch_npu, which declares it and patches all the same.
        v = vp.classify(site("torch_npu/dynamo/__init__.py",
                             "torch._dynamo.backends.registry._BACKENDS"))
        self.assertEqual((v.entry, v.replaced), (None, False))
        self.assertIn("declares its torch_dynamo_backends entry points", v.reason)
        # Its optimize() wrapper starts the backend: upstream 2.15's hook.
        v = vp.classify(site("torch_npu/_compat/dynamo.py", "torch._dynamo.optimize",
                             function="compat_patch_dynamo_optimize"))
        self.assertEqual(v.entry, vp.BACKEND_INIT)

    def test_every_entry_point_exists_in_the_series(self):
        entries = {e for _, e in vp.REPLACEMENTS} | {o.entry for o in vp.OVERRIDES if o.entry}
        for entry in entries:
            with self.subTest(entry.name):
                self.assertIsNotNone(resolve(entry.ref))
                self.assertTrue(entry.reaches)


class TestInventory(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vendors = {v.package: v for v in vp.load_inventory()}
        cls.reports = {name: vp.build_report(v.sites, f"{v.package} {v.version}")
                       for name, v in cls.vendors.items()}

    def test_vendors_audited(self):
        self.assertEqual({(v.package, v.version) for v in self.vendors.values()},
                         {("torch_npu", "2.13.0"), ("torch_rbln", "0.12.0")})

    def test_inventory_names_vendor_functions_only(self):
        for vendor in self.vendors.values():
            for s in vendor.sites:
                self.assertTrue(s.path.startswith(vendor.package + "/"), s)
                self.assertTrue(vp._in_compile_stack(s.target), s)
                self.assertRegex(s.function, r"^(<module>|[\w.]+)$")
                self.assertNotEqual(vp.route_of(s.path), vp.IMPORT, s)

    def test_replaced_sites_name_an_existing_entry_point_that_reaches_them(self):
        for report in self.reports.values():
            for s in report.replaced:
                v = report.verdicts[s]
                with self.subTest(site=s):
                    self.assertTrue(v.entry.name)
                    self.assertIsNotNone(resolve(v.entry.ref))
                    self.assertTrue(v.entry.reaches_route(v.route))

    def test_custom_backend_sites_replaced_only_by_what_reaches_them(self):
        for report in self.reports.values():
            for s, v in report.verdicts.items():
                if v.route == vp.CUSTOM_BACKEND and v.replaced:
                    self.assertTrue(vp.ANY in v.entry.reaches
                                    or v.entry is vp.GRAPH_PASSES, s)

    def test_replaced_config_writes_are_per_device_defaults(self):
        from torch._inductor import config
        from torch._inductor.device_operator_policy import (
            _NOT_DEFAULTABLE_PREFIXES,
            CUSTOM_PASS_STAGES,
        )

        for report in self.reports.values():
            for s in report.replaced:
                if report.verdicts[s].entry is not vp.CONFIG:
                    continue
                option = s.target.removeprefix("torch._inductor.config.")
                with self.subTest(option=option):
                    self.assertIn(option, config._config)
                    self.assertNotIn(option, CUSTOM_PASS_STAGES)
                    self.assertFalse(option.startswith(_NOT_DEFAULTABLE_PREFIXES))
                    self.assertNotIn(option, vp.CONFIG_READ_OUTSIDE_COMPILE)

    def test_totals_are_what_the_tool_prints(self):
        proc = subprocess.run([sys.executable, str(REPO / "tools" / "vendor_patches.py")],
                              capture_output=True, text=True, check=True)
        print("\n" + proc.stdout, file=sys.stderr)
        for report in self.reports.values():
            with self.subTest(report.package):
                rows = report.rows()
                n, r = len(report.sites), len(report.replaced)
                self.assertEqual(sum(len(row.sites) for row in rows), n)
                self.assertEqual(sum(row.replaced for row in rows), r)
                self.assertEqual(report.share, r / n)
                block = proc.stdout.split(report.package + ":", 1)[1].split("\n\n")[0]
                total = re.search(r"^  total\s+(\d+)\s+(\d+)\s+\((\d+)% replaced\)$", block, re.M)
                self.assertEqual((int(total[1]), int(total[2])), (n, r))
                self.assertEqual(int(total[3]), round(100 * r / n))
                for row in rows:
                    self.assertRegex(block, rf"(?m)^  {re.escape(row.concern)}\s+{len(row.sites)}"
                                            rf"\s+{row.replaced}\s+")
                    self.assertEqual(bool(row.entry_points), row.replaced > 0)

    def test_torch_rbln(self):
        report = self.reports["torch_rbln"]
        self.assertEqual(len(report.sites), 7)
        self.assertEqual({s.target for s in report.sites}, {
            "torch.compile", "torch._dynamo.reset",
            "torch._dynamo.config.cache_size_limit", "torch._dynamo.config.specialize_float",
            "torch._dynamo.config.fail_on_cache_limit_hit",
        })
        entries = {}
        for s in report.sites:
            v = report.verdicts[s]
            entries.setdefault(s.target, set()).add(v.entry)
            if not v.replaced:
                self.assertTrue(v.reason, s)  # says which mechanism serves part of it
        self.assertEqual(len(report.replaced), 5)
        self.assertEqual(entries["torch.compile"], {None})
        self.assertEqual(entries["torch._dynamo.reset"], {vp.DYNAMO_RESET})
        for option in ("cache_size_limit", "specialize_float", "fail_on_cache_limit_hit"):
            self.assertEqual(entries[f"torch._dynamo.config.{option}"], {vp.DYNAMO_CONFIG})

    def test_replaced_dynamo_options_are_frame_compile_defaults(self):
        from torch._dynamo import config

        for report in self.reports.values():
            for s in report.replaced:
                if report.verdicts[s].entry is vp.DYNAMO_CONFIG:
                    option = s.target.removeprefix("torch._dynamo.config.")
                    self.assertIn(option, config._config, s)
                    self.assertNotIn(option, vp.DYNAMO_CONFIG_READ_OUTSIDE_COMPILE, s)

    def test_inventory_is_a_fresh_scan_of_the_wheel(self):
        missing = []
        for vendor in self.vendors.values():
            wheels = sorted(PACKAGES.glob(f"{vendor.package}-{vendor.version}-*.whl"))
            if not wheels:
                missing.append(f"{vendor.package}=={vendor.version}")
                continue
            with tempfile.TemporaryDirectory() as tmp:
                with zipfile.ZipFile(wheels[0]) as z:
                    z.extractall(tmp, [n for n in z.namelist() if n.endswith(".py")])
                scanned = vp.build_report(vp.scan(tmp, vendor.package)).sites
            self.assertEqual(scanned, list(vendor.sites), wheels[0].name)
        if missing:
            self.skipTest(f"no wheel of {' '.join(missing)} under {PACKAGES}: `tools/dev.py "
                          "test` downloads them where it can (its output says why not), or "
                          f"run `pip download --no-deps {' '.join(missing)} -d {PACKAGES}`")


if __name__ == "__main__":
    run_tests()

# Owner(s): ["module: inductor"]
"""The code samples and member tables of ``docs/backend_author_guide.md``.

Every ``python`` block of the guide either runs as written (in one fresh
interpreter with the example backend toyacc installed, as a reader would run
it) or, if its first line is ``# from docs/examples/<file>``, is an excerpt
whose lines appear in that example file, in order (a line ``...`` stands for
lines left out). Generated code is shown
in ``text`` blocks. The reference tables list every member of
``DeviceInterface`` and ``DeviceOpOverrides``. The interpreter that runs the
samples first runs the device report on toyacc (inference, a training step in
both wrappers, a side stream, against eager), as its section says.
"""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from torch._dynamo.device_interface import DeviceInterface
from torch._inductor.codegen.common import DeviceOpOverrides
from torch.testing._internal.common_utils import run_tests, TestCase

REPO = Path(__file__).resolve().parents[2]
GUIDE = (REPO / "docs" / "backend_author_guide.md").read_text()
BLOCKS = re.findall(r"^```python\n(.*?)^```", GUIDE, re.S | re.M)
EXCERPT = re.compile(r"# from (docs/examples/\S+)\n")

# The device report is the project's tool (tools/device_report.py); the
# repository root stays off sys.path, where its torch/ would shadow torch.
RUNNER = """
import runpy, sys, textwrap, traceback
import torch_toyacc
report = runpy.run_path(REPORT, run_name="device_report")["report"]
print("report ok" if report("toyacc") else "report FAILED")
for i, block in enumerate(BLOCKS):
    try:
        exec(compile(textwrap.dedent(block), f"<guide block {i}>", "exec"), {"__name__": f"block{i}"})
    except Exception:
        print(f"FAIL block {i}:\\n{block}\\n{traceback.format_exc()}")
print("done")
"""


def _members(cls: type) -> set[str]:
    return {name for name in vars(cls) if not name.startswith("__")}


def _table_members(heading: str) -> set[str]:
    table = GUIDE.split(heading, 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    first_cells = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    return {name for cell in first_cells for name in re.findall(r"`(\w+)", cell)}


class TestGuideSamples(TestCase):
    def test_member_tables_list_every_member(self):
        for cls, heading in (
            (DeviceInterface, "### `torch._dynamo.device_interface.DeviceInterface`"),
            (DeviceOpOverrides, "### `torch._inductor.codegen.common.DeviceOpOverrides`"),
        ):
            with self.subTest(cls=cls.__name__):
                self.assertEqual(_table_members(heading), _members(cls))

    def test_excerpts_are_in_the_examples(self):
        excerpts = [b for b in BLOCKS if EXCERPT.match(b)]
        self.assertGreater(len(excerpts), 0)
        for block in excerpts:
            path = REPO / EXCERPT.match(block).group(1)
            with self.subTest(path=str(path)):
                source = path.read_text().splitlines()
                position = 0
                for line in block.splitlines()[1:]:
                    if line.strip() and not line.strip().startswith("..."):  # "...": elided
                        self.assertIn(line, source[position:], f"{line!r} of\n{block}")
                        position = source.index(line, position) + 1

    def test_samples_run_as_written(self):
        samples = [b for b in BLOCKS if not EXCERPT.match(b)]
        report = REPO / "tools" / "device_report.py"
        code = f"BLOCKS = {samples!r}\nREPORT = {str(report)!r}\n{RUNNER}"
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
            env=dict(os.environ, PYTHONSAFEPATH="1"),
        )
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        lines = proc.stdout.splitlines()
        self.assertIn("report ok", lines, proc.stdout[-6000:])
        self.assertNotIn("FAIL", proc.stdout, proc.stdout[-6000:])
        self.assertEqual(lines[-1], "done", proc.stdout[-6000:])


if __name__ == "__main__":
    run_tests()

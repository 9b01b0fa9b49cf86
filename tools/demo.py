"""Demo: torch.compile on an out-of-tree PrivateUse1 device named ``acc``.

Run with ``python3 tools/dev.py demo`` (which sets up the project environment
first).  The demo

1. renames the fake device ``extension_device`` to ``acc`` and registers its
   eager runtime and its compile backend, through public registration calls
   only (``test/inductor/extension_backends``);
2. compiles an MLP inference, a training step and a function that uses streams,
   events and device properties, in Python-wrapper and C++-wrapper modes, and
   checks every result against eager;
3. prints how torch.compile sees each registered device.

A scenario whose requirements (``docs/contract.md``; their status is
``tools/spec_status.py``) are all implemented must work; one that waits for a
requirement is run anyway and reported as "not yet" with the error it stops
at, and so is one that stock torch 2.13 does not support for any device in a
wrapper mode (user streams in the C++ wrapper).  Warnings torch logs that do
not point to a problem are collected and explained after the report; no line
of the report is cut (long ones are wrapped).  The exit code is 0 iff
everything that is implemented works.
"""

from __future__ import annotations

import copy
import logging
import sys
import textwrap
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The repository root goes last: its torch/ must not shadow the installed torch.
sys.path[:0] = [str(REPO / "test" / "inductor")]
sys.path.append(str(REPO))

import torch  # noqa: E402

from extension_backends.extension_device import register  # noqa: E402
from tools import spec_status  # noqa: E402

NAME = "acc"
#: Width of the report; longer lines are wrapped, never cut.
WIDTH = 100


def _wrap(text: str, indent: int, first: str = "") -> str:
    """``first`` followed by ``text``, wrapped at WIDTH under column ``indent``."""
    return textwrap.fill(
        text, WIDTH, initial_indent=first, subsequent_indent=" " * indent,
        break_long_words=False, break_on_hyphens=False,
    )


# --------------------------------------------------------------------------
# Warnings that do not point to a problem
# --------------------------------------------------------------------------

#: (logger, start of the message, why it does not apply to this demo).
EXPECTED_WARNINGS = [
    ("torch._inductor.utils", "Not enough SMs to use max_autotune_gemm mode",
     "Inductor asks is_big_gpu() whether the GPU-class device could run Triton matmul "
     "templates before it checks that max-autotune was asked for (use_triton_template() "
     "and use_cutlass_template(), as in stock 2.13, for cuda too); the demo does not use max-autotune, so no template "
     "is considered and the warning does not apply."),
    ("torch._dynamo.variables.ctx_manager", "Profiler record function",
     "torch.optim's step() opens a profiler record_function, which Dynamo leaves out of "
     "the compiled graph; profiling is not used here."),
    ("torch._inductor.ir", "aten.hardswish.default is missing a c-shim implementation",
     "the operator policy makes hardswish an eager fallback; the C++ wrapper calls it "
     "through the dispatcher (aoti_torch_call_dispatcher), which is the intended path."),
]


class ExpectedWarnings(logging.Filter):
    """Holds back the EXPECTED_WARNINGS, remembering which were logged."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, str] = {}

    def install(self) -> None:
        for logger, _, _ in EXPECTED_WARNINGS:
            logging.getLogger(logger).addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for logger, start, why in EXPECTED_WARNINGS:
            if record.name == logger and message.startswith(start):
                self.seen.setdefault(message, why)
                return False
        return True

    def print(self) -> None:
        if not self.seen:
            return
        print("\nWarnings torch logged during the scenarios (held back above), and why "
              "they are expected:")
        for message, why in self.seen.items():
            print(_wrap(message, 4, "  - "))
            print(_wrap(why, 4, "    "))


# --------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------


def _mlp() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    )


def mlp_inference() -> None:
    model = _mlp().to(NAME)
    x = torch.randn(8, 16, device=NAME)
    with torch.no_grad():
        expected = model(x)
        actual = torch.compile(model)(x)
    _check(actual, expected)


def training_step() -> None:
    eager_model = _mlp().to(NAME)
    compiled_model = copy.deepcopy(eager_model)
    x = torch.randn(8, 16, device=NAME)
    target = torch.randn(8, 4, device=NAME)

    def step(model, opt):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        return loss

    eager_opt = torch.optim.SGD(eager_model.parameters(), lr=0.1, foreach=False)
    compiled_opt = torch.optim.SGD(compiled_model.parameters(), lr=0.1, foreach=False)
    expected = step(eager_model, eager_opt)
    actual = torch.compile(step)(compiled_model, compiled_opt)
    _check(actual, expected)
    for p, q in zip(compiled_model.parameters(), eager_model.parameters()):
        _check(p, q)


def streams_and_properties() -> None:
    acc = torch.get_device_module(NAME)

    def fn(x):
        side = acc.Stream()
        done = acc.Event()
        scale = acc.get_device_properties().multi_processor_count
        with acc.stream(side):
            y = x * scale
            done.record()
        acc.current_stream().wait_event(done)
        return y + 1

    x = torch.randn(16, device=f"{NAME}:1")
    with acc.device(1):
        expected = fn(x)
        actual = torch.compile(fn, fullgraph=True)(x)
    _check(actual, expected)


def operator_policy() -> None:
    """The device keeps hardswish (an eager fallback) where cpu decomposes it."""
    from extension_backends.operator_policy import excluding_policy
    from torch._inductor.device_operator_policy import register_device_operator_policy
    from torch._inductor.utils import run_and_get_code

    register_device_operator_policy(excluding_policy(NAME))
    fn = torch.nn.functional.hardswish
    x = torch.randn(16)
    for device, fallback in (("cpu", False), (NAME, True)):
        torch._dynamo.reset()
        actual, codes = run_and_get_code(torch.compile(fn), x.to(device))
        _check(actual, fn(x).to(device))
        if ("aten.hardswish.default" in "\n".join(codes)) != fallback:
            raise AssertionError(f"hardswish {'not ' * fallback}kept on {device}")


def _check(actual: torch.Tensor, expected: torch.Tensor) -> None:
    if actual.device != expected.device:
        raise AssertionError(f"result on {actual.device}, expected {expected.device}")
    torch.testing.assert_close(actual.cpu(), expected.cpu(), rtol=1e-4, atol=1e-5)


@dataclass
class Scenario:
    name: str
    fn: Callable[[], None]
    #: Requirements (docs/contract.md) the scenario needs, per wrapper mode.
    needs: dict[str, tuple[str, ...]]
    #: Wrapper modes that stock torch 2.13 does not support for any device,
    #: cuda included, with what is missing: the scenario runs anyway and its
    #: failure does not count.
    unsupported: dict[str, str] = field(default_factory=dict)


SCENARIOS = [
    Scenario("MLP inference", mlp_inference,
             {"python": ("REG-1", "ID-2", "IND-9"),
              "cpp": ("REG-1", "ID-2", "IND-3", "IND-4", "IND-5", "IND-9")}),
    Scenario("training step", training_step,
             {"python": ("REG-1", "ID-2", "IND-9"),
              "cpp": ("REG-1", "ID-2", "IND-3", "IND-4", "IND-5", "IND-9")}),
    Scenario("streams, events, device properties", streams_and_properties,
             {"python": ("REG-1", "ID-2", "DYN-1", "DYN-3", "DYN-6", "IND-9"),
              "cpp": ("REG-1", "ID-2", "DYN-1", "DYN-3", "DYN-6", "IND-4", "IND-5", "IND-9")},
             {"cpp": "its C++ wrapper emits user stream contexts as Python"}),
    Scenario("operator policy", operator_policy,
             {"python": ("REG-1", "ID-2", "IND-9", "POL"),
              "cpp": ("REG-1", "ID-2", "IND-4", "IND-5", "IND-9", "POL")}),
]


def run_scenarios() -> list[str]:
    """Run every scenario in both wrapper modes; return the failures that count."""
    import torch._inductor.config as inductor_config

    failures = []
    print(f"{'scenario':38} {'wrapper':8} result")
    for scenario in SCENARIOS:
        for mode in ("python", "cpp"):
            needs = scenario.needs[mode]
            torch._dynamo.reset()
            try:
                # Graph-break advice from Dynamo would drown the report.
                with warnings.catch_warnings(), inductor_config.patch(
                    cpp_wrapper=(mode == "cpp")
                ):
                    warnings.simplefilter("ignore")
                    scenario.fn()
                error = None
            except Exception as err:  # reported below, with its kind
                error = err
            implemented = spec_status.is_done(*needs)
            pending = [n for n in needs if not spec_status.is_done(n)]
            if error is None:
                result = "works" if implemented else (
                    f"works (needs {', '.join(pending)}, which is not complete yet)")
            else:
                message = _last_line(error)
                if mode in scenario.unsupported:
                    result = (f"unsupported by torch 2.13 for every device "
                              f"({scenario.unsupported[mode]}): {message}")
                elif implemented:
                    result = f"FAILED: {message}"
                    failures.append(f"{scenario.name} [{mode}]")
                    traceback.print_exception(error, file=sys.stderr)
                else:
                    result = f"not yet (waits for {', '.join(pending)}): {message}"
            print(_wrap(result, 48, f"{scenario.name:38} {mode:8} "))
    return failures


def _last_line(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}"
    lines = [line for line in text.splitlines() if line.strip()]
    # Inductor wraps the root error; its first line names it.
    return lines[0] if lines else type(err).__name__


# --------------------------------------------------------------------------
# Capability report
# --------------------------------------------------------------------------


class Notes:
    """Footnotes for report cells whose probe raised.

    On a device that is not available here, a probe that needs its runtime,
    toolkit or C++ support is expected to raise: such cells read "n/a here"
    and are listed apart from the numbered notes, which are errors of
    available devices."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.unavailable: dict[str, list[str]] = {}

    def probe(self, fn: Callable[[], object], device: str = "", column: str = "",
              available: bool = True) -> str:
        try:
            value = fn()
        except Exception as err:  # a report entry, not a failure
            text = str(err).strip().splitlines()
            line = f"{type(err).__name__}: {text[0] if text else ''}"
            if not available:
                self.unavailable.setdefault(device, []).append(f"{column}: {line}")
                return "n/a here"
            if line not in self.lines:
                self.lines.append(line)
            return f"n/a [{self.lines.index(line) + 1}]"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, tuple) and len(value) == 7:  # C++ build options
            return " ".join(value[0]) or "-"
        return str(value)


def capability_report(notes: Notes) -> tuple[list[str], list[list[str]], dict[str, str]]:
    """(header, one row per registered device type, global answers)."""
    import torch._inductor.codegen.common as common
    import torch._inductor.codegen.cpp_utils as cpp_utils
    from torch._dynamo.device_interface import get_registered_device_interfaces
    from torch._inductor import cpp_builder, utils
    from torch.utils._triton import has_triton

    common.init_backend_registration()
    interfaces = {name: i for name, i in get_registered_device_interfaces() if ":" not in name}
    header = ["device", "interface", "available", "GPU-class", "guards", "streams",
              "Triton", "scheduling", "ATen type", "C++ macros"]
    rows = []
    for device, iface in sorted(interfaces.items()):

        def aten(device=device):
            if hasattr(cpp_utils, "device_to_aten"):
                return cpp_utils.device_to_aten(device)
            return cpp_utils.DEVICE_TO_ATEN[device]

        def streams(iface=iface):
            if not hasattr(iface, "exposes_streams"):
                raise NotImplementedError("DeviceInterface.exposes_streams does not exist yet")
            return iface.exposes_streams()

        scheduling = common.get_scheduling_for_device(device)
        available = notes.probe(iface.is_available)

        def probe(fn, column, device=device, available=available == "yes"):
            return notes.probe(fn, device, column, available)

        rows.append([
            device,
            iface.__name__,
            available,
            probe(lambda: utils.is_gpu(device), "GPU-class"),
            probe(lambda: utils.device_need_guard(device), "guards"),
            probe(streams, "streams"),
            probe(lambda: iface.is_available() and iface.is_triton_capable(), "Triton"),
            "built-in" if scheduling and scheduling.__name__ == "<lambda>"
            else getattr(scheduling, "__name__", "none"),
            probe(aten, "ATen type"),
            probe(lambda: cpp_builder.get_cpp_torch_device_options(device_type=device),
                  "C++ macros"),
        ])
    answers = {
        "GPU_TYPES": str(utils.GPU_TYPES),
        "get_gpu_type()": notes.probe(utils.get_gpu_type),
        "has_triton()": notes.probe(has_triton),
        "torch.accelerator": notes.probe(torch.accelerator.current_accelerator),
    }
    return header, rows, answers


def print_report() -> None:
    notes = Notes()
    header, rows, answers = capability_report(notes)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print("\nHow torch.compile sees each registered device:")
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    for key, value in answers.items():
        print(f"{key + ':':20} {value}")
    for i, line in enumerate(notes.lines, 1):
        print(_wrap(line, 4, f"[{i}] "))
    if notes.unavailable:
        print(_wrap(
            "n/a here: the device is not available on this machine; answers that need its "
            "runtime or toolkit, or C++ code generation torch does not provide for it, are "
            "not computed (expected, not failures):", 2))
        for device, lines in notes.unavailable.items():
            for line in lines:
                print(_wrap(line, 10, f"  {device:7} "))


def main() -> int:
    expected_warnings = ExpectedWarnings()
    expected_warnings.install()
    register(NAME)
    from extension_backends.cpp.extension_codegen_backend import (
        ExtensionGpuDeviceInterface,
        register_compile_backend,
    )

    # acc has streams and two devices: a GPU-class device, scheduled by
    # Inductor's C++ backend since its memory is host memory.
    register_compile_backend(NAME, ExtensionGpuDeviceInterface)
    print(f"PrivateUse1 is now '{torch._C._get_privateuse1_backend_name()}', "
          f"{torch.get_device_module(NAME).device_count()} devices; "
          f"torch {torch.__version__} with the series from {REPO}\n")
    failures = run_scenarios()
    print_report()
    expected_warnings.print()
    done = [title for title, ids in spec_status.AREAS if spec_status.area_status(ids) == "done"]
    print(f"\nContract areas done: {len(done)} of {len(spec_status.AREAS)} "
          "(docs/contract.md; the README's status table; tools/spec_status.py)")
    for title, ids in spec_status.AREAS:
        if title not in done:
            print(f"  {title}: {spec_status.area_status(ids)}")
    if failures:
        print(f"demo: {len(failures)} implemented scenario(s) failed: {failures}")
        return 1
    print("demo: everything that is implemented works")
    return 0


if __name__ == "__main__":
    sys.exit(main())

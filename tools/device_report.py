"""How the compile stack sees a device, and whether standard programs compile on it.

    python3 tools/dev.py report <device> [--import MODULE]

(which runs this file in the project environment). Prints one line per answer of the device registries, then compiles a few
standard programs on the device against eager; a failure names the hook to
implement. Exits with 0 iff every program matches eager, 1 if one does
not, and 2 if the device or a module to import is unknown.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import importlib.metadata
import logging
import re
import sys
import textwrap
import traceback
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import torch


__all__ = ["report", "main"]

# (pattern of an error message, the hook that fixes it), first match wins.
_MESSAGE_HOOKS = [
    (r"No DeviceOpOverrides registered|no DeviceOpOverrides is registered",
     "register_device_op_overrides(<device>, <DeviceOpOverrides instance>)"),
    (r"No ATen device type mapping", "DeviceOpOverrides.aten_device_type"),
    (r"has no codegen backend", "register_backend_for_device(<device>, ...)"),
    (r"No interface for device",
     "register_interface_for_device_PrivateUse1(<DeviceInterface subclass>)"),
    (r"on none of the device's C\+\+ include directories",
     "register_cpp_device_options(<device>, ...) (the header's include dir)"),
    (r"Triton has no backend named|triton not built with",
     "DeviceInterface.triton_backend_name (install that Triton backend)"),
    (r"Could not load the Inductor backend", "the backend loader named in the error"),
    (r"marked as skipped", "register_device_trace_rules(<device>, ...) for the "
     "runtime function Dynamo skipped"),
]


@functools.cache
def _base_members() -> dict[types.CodeType, str]:
    """Code object -> name of each default member of DeviceInterface and DeviceOpOverrides."""
    from torch._dynamo.device_interface import DeviceInterface
    from torch._inductor.codegen.common import DeviceOpOverrides

    found: dict[types.CodeType, str] = {}
    stack = [("DeviceInterface", DeviceInterface), ("DeviceOpOverrides", DeviceOpOverrides)]
    while stack:
        prefix, klass = stack.pop()
        for name, attr in vars(klass).items():
            if isinstance(attr, type):
                stack.append((f"{prefix}.{name}", attr))
            elif code := getattr(getattr(attr, "__func__", attr), "__code__", None):
                found[code] = prefix if name == "__new__" else f"{prefix}.{name}"
    return found


def _chain(err: BaseException) -> list[BaseException]:
    """``err`` and the errors it wraps (Inductor's inner error, causes, contexts)."""
    seen: list[BaseException] = []
    while err is not None and err not in seen:
        seen.append(err)
        err = getattr(err, "inner_exception", None) or err.__cause__ or err.__context__
    return seen


def _root(err: BaseException) -> BaseException:
    """The informative error that ``err`` wraps: follows Inductor's inner
    error and explicit causes, and, from an error with no message of its own
    (Dynamo's ``Observed...`` errors), the error being handled when it was
    raised."""
    seen = [err]
    while True:
        inner = getattr(err, "inner_exception", None) or err.__cause__
        if inner is None and not str(err).strip() and not err.__suppress_context__:
            inner = err.__context__
        if inner is None or inner in seen:
            return err
        seen.append(err := inner)


def _missing_attribute(err: BaseException) -> str | None:
    """``torch.<name>.<attr>`` for an ``AttributeError`` raised by a lookup on
    the PrivateUse1 backend's device module."""
    name = torch._C._get_privateuse1_backend_name()
    module = getattr(torch, name, None)
    if isinstance(err, AttributeError) and module is not None and err.name and (
        getattr(err, "obj", None) is module
    ):
        return f"torch.{name}.{err.name} (the device module {module.__name__})"
    return None


def missing_hook(err: BaseException) -> str | None:
    """The hook whose absence raised ``err``: the default member it was raised
    in, the device module's member that a lookup missed, or the registration
    its message asks for; None if it names none."""
    for e in _chain(err):
        frames = list(traceback.walk_tb(e.__traceback__))
        if frames and (hook := _base_members().get(frames[-1][0].f_code)):
            return hook
        if hook := _missing_attribute(e):
            return hook
    text = "\n".join(str(e) for e in _chain(err))
    return next((hook for pattern, hook in _MESSAGE_HOOKS if re.search(pattern, text)), None)


def _describe(err: BaseException) -> str:
    """``Type: first line`` of the innermost wrapped error, and its hook."""
    root = _root(err)
    line = next((line for line in str(root).splitlines() if line.strip()), "")
    hook = missing_hook(err)
    return f"{type(root).__name__}: {line}".strip() + (f" -> implement {hook}" if hook else "")


def _probe(fn: Callable[[], Any]) -> str:
    """``fn()`` as text; never raises."""
    try:
        value = fn()
    except Exception as err:
        return f"error: {_describe(err)}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, type):
        return f"{value.__module__}.{value.__qualname__}"
    return "none" if value is None or value in ("", [], ()) else str(value)


def _misspelt_hooks(iface: Any) -> str:
    """Public attributes of the interface's own classes that are no
    ``DeviceInterface`` member but close to one: hooks that are never called."""
    from torch._dynamo.device_interface import DeviceInterface

    members = [name for name in dir(DeviceInterface) if not name.startswith("_")]
    found = []
    for klass in iface.__mro__:
        if klass.__module__ == DeviceInterface.__module__ or klass is object:
            continue
        for name in vars(klass):
            if name.startswith("_") or name in members:
                continue
            if close := difflib.get_close_matches(name, members, n=1, cutoff=0.85):
                found.append(f"{klass.__name__}.{name} (did you mean {close[0]}?)")
    return ", ".join(found) or "none"


def _names(items: Any) -> str:
    return ", ".join(sorted(getattr(i, "name", str(i)) for i in items)) or "none"


def _resolve(device: str) -> tuple[Any, str, str]:
    """(interface or None, where it came from, where the backend came from)."""
    from torch._dynamo import device_interface as di
    from torch._inductor.codegen import common

    before = "registered before the report"
    had_interface, had_backend = device in di.device_interfaces, device in common.device_codegens
    try:
        common.init_backend_registration((device,))
        backend = before if had_backend else "loaded on demand" if (
            device in common.device_codegens) else (
            "none -> implement register_backend_for_device(<device>, ...) or a loader")
    except Exception as err:
        backend = f"error: {_describe(err)}"
    try:
        interface = di.get_interface_for_device(device)
    except Exception as err:
        return None, f"none -> implement {missing_hook(err) or 'a DeviceInterface'}", backend
    source = before if had_interface else f"torch.{device}.get_device_interface()" if hasattr(
        getattr(torch, device, None), "get_device_interface") else "discovered"
    return interface, f"{_probe(lambda: interface)} ({source})", backend


def _loaders(device: str) -> str:
    from torch._inductor.codegen import common

    found = []
    if device in common.device_backend_loaders:
        found.append(f"register_device_backend_loader: {common.device_backend_loaders[device]!r}")
    eps = importlib.metadata.entry_points(group=common.BACKEND_ENTRY_POINT_GROUP)
    found += [f"entry point '{ep.name} = {ep.value}' of '{ep.dist.name if ep.dist else '?'}'"
              for ep in eps if ep.name == device]
    found += [f"torch.{device}.{name}" for name in ("_inductor_backend_init", "Scheduling")
              if hasattr(getattr(torch, device, None), name)]
    return "; ".join(found) or "none"


def _answers(device: str, iface: Any) -> list[tuple[str, Callable[[], Any]]]:
    """(label, probe) of each registry answer; the interface's only if there is one."""
    from torch._inductor import codecache, cpp_builder, utils
    from torch._inductor.codegen import common, cpp_utils
    from torch._inductor.device_operator_policy import get_device_operator_policy

    fields = "definitions include_dirs cflags ldflags library_dirs libraries passthrough_args"
    identity = [
        ("PrivateUse1 name", torch._C._get_privateuse1_backend_name),
        ("available / devices", lambda: f"{_probe(iface.is_available)} / "
         f"{_probe(iface.device_count)}"),
        ("GPU-class (is_gpu)", lambda: utils.is_gpu(device)),
        ("in GPU_TYPES", lambda: device in utils.GPU_TYPES),
        ("device guard in code", lambda: utils.device_need_guard(device)),
        ("C++-scheduled", lambda: utils.is_cpp_scheduled(device)),
        ("current backend", lambda: utils.get_current_backend(device)),
        ("exposes streams", lambda: iface.exposes_streams()),
        ("Stream / Event", lambda: f"{_probe(lambda: iface.Stream)} / "
         f"{_probe(lambda: iface.Event)}"),
        ("Triton-capable", lambda: iface.is_triton_capable()),
        ("Triton backend name", lambda: iface.triton_backend_name() or
         "none (Triton's active driver)"),
        ("framework features", lambda: _names(iface.backend_features())),
        ("misspelt hooks", lambda: _misspelt_hooks(iface)),
    ]
    return (identity if iface is not None else []) + [
        ("Scheduling", lambda: common.get_scheduling_for_device(device)),
        ("Python wrapper", lambda: common.get_wrapper_codegen_for_device(device)),
        ("C++ wrapper", lambda: common.get_wrapper_codegen_for_device(device, True)),
        ("codegen features", lambda: _names(common.get_backend_features(device))),
        ("DeviceOpOverrides", lambda: type(common.get_device_op_overrides(device))),
        ("GPU C++ wrapper", lambda: common.get_device_op_overrides(device).uses_gpu_cpp_wrapper()),
        ("ATen device type", lambda: cpp_utils.device_to_aten(device)),
        ("C++ options", lambda: " ".join(f"{k}={v}" for k, v in zip(
            fields.split(), cpp_builder.get_cpp_torch_device_options(device)) if v)),
        ("C++ wrapper header", lambda: None if common.get_wrapper_codegen_for_device(
            device, True) is None else codecache._get_cpp_wrapper_header(device)),
        ("backend loaders", lambda: _loaders(device)),
        ("compile options", lambda: "none" if (
            owner := common.get_custom_backend_config_for_device(device)) is None else
         ", ".join(f"{device}.{k}={e.default!r}" for k, e in owner._config.items())),
        ("operator policy", lambda: "none" if (p := get_device_operator_policy(device)) is None
         else f"{p.cache_key}: {len(p.decomposition_overrides)} decompositions, "
         f"{len(p.lowering_overrides)} lowerings, {len(p.config_defaults)} option defaults, "
         f"{len(p.fake_overrides)} fake impls"),
    ]


def _mlp(device: str) -> torch.nn.Module:
    torch.manual_seed(0)
    layers = (torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    return torch.nn.Sequential(*layers).to(device)


def _check(actual: Any, expected: Any) -> None:
    if isinstance(actual, torch.Tensor) and actual.device != expected.device:
        raise AssertionError(f"result on {actual.device}, eager's on {expected.device}")
    torch.testing.assert_close(actual, expected, rtol=1e-4, atol=1e-5)


def _user_function(source: str, **names: Any) -> Callable[..., Any]:
    """The one function defined by ``source``, as user code: Dynamo skips the
    functions of torch's own files."""
    namespace = {"torch": torch, **names}
    exec(compile(textwrap.dedent(source), "<device_report>", "exec"), namespace)
    return next(v for k, v in namespace.items() if k not in names and callable(v) and k != "torch")


def _inference(device: str, options: dict[str, Any]) -> None:
    model, x = _mlp(device), torch.randn(8, 16, device=device)
    with torch.no_grad():
        _check(torch.compile(model, options=options, fullgraph=True)(x), model(x))


def _training(device: str, options: dict[str, Any]) -> None:
    eager, twin = _mlp(device), _mlp(device)  # equal: _mlp seeds
    x, target = torch.randn(8, 16, device=device), torch.randn(8, 4, device=device)
    step = _user_function('''
        def step(model, opt):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), target)
            loss.backward()
            opt.step()
            return loss
    ''', x=x, target=target)
    expected = step(eager, torch.optim.SGD(eager.parameters(), lr=0.1))
    actual = torch.compile(step, options=options)(twin, torch.optim.SGD(twin.parameters(), lr=0.1))
    for a, e in [(actual, expected), *zip(twin.parameters(), eager.parameters())]:
        _check(a, e)


def _stream(device: str, options: dict[str, Any]) -> None:
    fn = _user_function('''
        def fn(x):
            side, done = module.Stream(), module.Event()
            with module.stream(side):
                y = x * 2
                done.record()
            module.current_stream().wait_event(done)
            return y + 1
    ''', module=torch.get_device_module(device))
    x = torch.randn(16, device=device)
    _check(torch.compile(fn, fullgraph=True, options=options)(x), fn(x))


#: (name, program, compile options).
PROGRAMS = [
    ("MLP inference", _inference, {}),
    ("training step (SGD)", _training, {}),
    ("training step, cpp_wrapper=True", _training, {"cpp_wrapper": True}),
    ("side stream", _stream, {}),
]


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """No warnings and no log records but critical ones: the report says
    whether a program matched eager, and what failed."""
    disabled = logging.root.manager.disable
    logging.disable(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(disabled)


def _outcome(device: str, iface: Any, program: Callable[..., None], options: dict) -> str:
    """What running ``program`` says: ok, FAIL and why, or why it did not run."""
    from torch._inductor.codegen.common import get_wrapper_codegen_for_device

    if program is _stream and (iface is None or _probe(iface.exposes_streams) != "yes"):
        return "skipped: the device exposes no streams"
    if options.get("cpp_wrapper") and get_wrapper_codegen_for_device(device, True) is None:
        return "not applicable (no C++ wrapper registered for the device)"
    torch._dynamo.reset()
    try:
        with _quiet():
            program(device, options)
    except Exception as err:
        return f"FAIL {_describe(err)}"
    return "ok (matches eager)"


def _is_device_type(device: str) -> bool:
    try:
        torch.device(device)
    except RuntimeError:
        return False
    return True


def _not_a_device(device: str) -> list[str]:
    """What to say about ``device`` when it is not a device type in this
    process, though its backend loaders, if any, have run."""
    from torch._inductor.codegen.common import BACKEND_ENTRY_POINT_GROUP

    name = torch._C._get_privateuse1_backend_name()
    group = BACKEND_ENTRY_POINT_GROUP
    installed = sorted({ep.name for ep in importlib.metadata.entry_points(group=group)})
    known = installed + ([name] if name != "privateuseone" else [])
    guess = difflib.get_close_matches(device, known, n=1)
    return [
        f"'{device}' is not a device type in this process"
        + (f"; did you mean '{guess[0]}'?" if guess else "."),
        f"PrivateUse1 is called '{name}' here" + (
            ": no backend package has renamed it." if name == "privateuseone" else "."),
        f"Installed backends ('{group}' entry points): {', '.join(installed) or 'none'}.",
        "For a backend that its package sets up when imported: "
        f"python3 tools/dev.py report {device} --import <package>",
    ]


def report(device: str, file: TextIO | None = None) -> bool:
    """Prints the report on the device type ``device`` to ``file`` (default:
    stdout); True iff every program compiled and matched eager."""
    write = functools.partial(print, file=file or sys.stdout, flush=True)
    device = device.partition(":")[0]
    iface, source, backend = _resolve(device)
    if not _is_device_type(device):
        for line in _not_a_device(device):
            write(line)
        return False
    write(f"Device '{device}' as the compile stack sees it (torch {torch.__version__})")
    for label, fn in [("DeviceInterface", lambda: source), ("codegen backend", lambda: backend),
                      *_answers(device, iface)]:
        write(f"  {label:24} {_probe(fn)}")
    write("Standard programs, compiled and compared with eager:")
    failures = 0
    for name, program, options in PROGRAMS:
        outcome = _outcome(device, iface, program, options)
        failures += outcome.startswith("FAIL")
        write(f"  {name:34} {outcome}")
    write(f"{failures} of the programs failed" if failures else "All programs match eager.")
    return failures == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 tools/dev.py report")
    parser.add_argument("device", help="a device type, e.g. the renamed PrivateUse1 backend")
    parser.add_argument("--import", dest="modules", action="append", default=[],
                        help="a module to import first (the backend's package)")
    args = parser.parse_args(argv)
    for name in args.modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name is None or not (name + ".").startswith(err.name + "."):
                raise  # the package is there, but an import inside it failed
            print(f"Cannot import '{name}': there is no module '{err.name}' in this "
                  f"environment ({sys.executable}); install the backend's package here.",
                  file=sys.stderr)
            return 2
    if report(args.device):
        return 0
    return 1 if _is_device_type(args.device.partition(":")[0]) else 2


if __name__ == "__main__":
    sys.exit(main())

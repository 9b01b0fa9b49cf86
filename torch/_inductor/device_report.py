"""How the compile stack sees a device, and whether standard programs compile on it.

    python -m torch._inductor.device_report <device> [--import MODULE]

Prints one line per answer of the device registries (identity, streams, Triton,
C++ build, loaders, options, operator policy, features), then compiles a few
standard programs on the device, compares each with eager and, for a failure,
names the hook to implement. Exits with 0 iff every program matches eager.
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib
import re
import sys
import textwrap
import traceback
import types
import warnings
from collections.abc import Callable
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
     "DeviceOpOverrides.get_cpp_torch_device_options (the header's include dir)"),
    (r"Triton has no backend named|triton not built with",
     "DeviceInterface.triton_backend_name (install that Triton backend)"),
    (r"Could not load the Inductor backend", "the backend loader named in the error"),
    (r"marked as skipped", "register_device_trace_rules(<device>, ...) for the "
     "runtime function Dynamo skipped"),
]


@functools.cache
def _base_members() -> dict[types.CodeType, str]:
    """Code object -> name of each default member of the two device records."""
    from torch._dynamo.device_interface import DeviceInterface
    from torch._inductor.codegen.common import DeviceOpOverrides

    found: dict[types.CodeType, str] = {}
    stack: list[tuple[str, type]] = [
        ("DeviceInterface", DeviceInterface), ("DeviceOpOverrides", DeviceOpOverrides)
    ]
    while stack:
        prefix, klass = stack.pop()
        for name, attr in vars(klass).items():
            if isinstance(attr, type):
                stack.append((f"{prefix}.{name}", attr))
                continue
            code = getattr(getattr(attr, "__func__", attr), "__code__", None)
            if code is not None:
                found[code] = prefix if name == "__new__" else f"{prefix}.{name}"
    return found


def _chain(err: BaseException) -> list[BaseException]:
    """``err`` and the errors it wraps (Inductor's inner error, causes, contexts)."""
    seen: list[BaseException] = []
    while err is not None and err not in seen:
        seen.append(err)
        err = getattr(err, "inner_exception", None) or err.__cause__ or err.__context__
    return seen


def missing_hook(err: BaseException) -> str | None:
    """The hook whose absence raised ``err``: the default member it was raised
    in, or the registration its message asks for; None if it names none."""
    for e in _chain(err):
        frames = list(traceback.walk_tb(e.__traceback__))
        if frames and (hook := _base_members().get(frames[-1][0].f_code)):
            return hook
    text = "\n".join(str(e) for e in _chain(err))
    return next((hook for pattern, hook in _MESSAGE_HOOKS if re.search(pattern, text)), None)


def _describe(err: BaseException) -> str:
    """``Type: first line`` of the innermost wrapped error, and its hook."""
    root = [e for e in _chain(err) if e.__cause__ is None][0] if _chain(err) else err
    root = getattr(root, "inner_exception", None) or root
    lines = [line for line in str(root).splitlines() if line.strip()]
    text = f"{type(root).__name__}: {lines[0] if lines else ''}".strip()
    hook = missing_hook(err)
    return f"{text} -> implement {hook}" if hook else text


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
    if value is None or value == "" or value == [] or value == ():
        return "none"
    return str(value)


def _names(items: Any) -> str:
    return ", ".join(sorted(getattr(i, "name", str(i)) for i in items)) or "none"


def _resolve(device: str) -> tuple[Any, str, str]:
    """(interface or None, where it came from, where the backend came from)."""
    from torch._dynamo import device_interface as di
    from torch._inductor.codegen import common

    had_interface = device in di.device_interfaces
    had_backend = device in common.device_codegens
    try:
        common.init_backend_registration((device,))
    except Exception as err:
        backend = f"error: {_describe(err)}"
    else:
        backend = "registered before the report" if had_backend else (
            "loaded on demand" if device in common.device_codegens else
            "none -> implement register_backend_for_device(<device>, ...) or a loader")
    try:
        interface = di.get_interface_for_device(device)
    except Exception as err:
        return None, f"none -> implement {missing_hook(err) or 'a DeviceInterface'}", backend
    hook = getattr(getattr(torch, device, None), "get_device_interface", None)
    source = "registered before the report" if had_interface else (
        f"torch.{device}.get_device_interface()" if hook else "discovered")
    return interface, f"{_probe(lambda: interface)} ({source})", backend


def _loaders(device: str) -> str:
    from importlib.metadata import entry_points

    from torch._dynamo import device_interface as di

    found = []
    if device in di.device_backend_loaders:
        found.append(f"register_device_backend_loader: {di.device_backend_loaders[device]!r}")
    for ep in entry_points(group=di.BACKEND_ENTRY_POINT_GROUP):
        if ep.name == device:
            dist = ep.dist.name if ep.dist is not None else "?"
            found.append(f"entry point '{ep.name} = {ep.value}' of '{dist}'")
    module = getattr(torch, device, None)
    for name in ("_inductor_backend_init", "Scheduling"):
        if hasattr(module, name):
            found.append(f"torch.{device}.{name}")
    return "; ".join(found) or "none"


def _identity(device: str, iface: Any) -> list[tuple[str, Callable[[], Any]]]:
    from torch._inductor import utils

    return [
        ("PrivateUse1 name", torch._C._get_privateuse1_backend_name),
        ("available / devices", lambda: f"{_probe(iface.is_available)} / "
         f"{_probe(iface.device_count)}"),
        ("GPU-class (is_gpu)", lambda: utils.is_gpu(device)),
        ("in GPU_TYPES", lambda: device in utils.GPU_TYPES),
        ("device guard in code", lambda: utils.device_need_guard(device)),
        ("C++-scheduled", lambda: utils.is_cpp_scheduled(device)),
        ("current backend", lambda: utils.get_current_backend(device)),
        ("exposes streams", iface.exposes_streams),
        ("Stream / Event", lambda: f"{_probe(lambda: iface.Stream)} / "
         f"{_probe(lambda: iface.Event)}"),
        ("Triton-capable", iface.is_triton_capable),
        ("Triton backend name", lambda: iface.triton_backend_name() or
         "none (Triton's active driver)"),
        ("framework features", lambda: _names(iface.backend_features())),
    ]


def _codegen(device: str) -> list[tuple[str, Callable[[], Any]]]:
    from torch._inductor import codecache, cpp_builder
    from torch._inductor.codegen import common, cpp_utils
    from torch._inductor.device_operator_policy import get_device_operator_policy

    def options() -> str:
        fields = ("definitions", "include_dirs", "cflags", "ldflags",
                  "library_dirs", "libraries", "passthrough_args")
        found = cpp_builder.get_cpp_torch_device_options(device)
        return " ".join(f"{k}={v}" for k, v in zip(fields, found) if v)

    def config() -> str:
        owner = common.get_custom_backend_config_for_device(device)
        if owner is None:
            return "none"
        return ", ".join(f"{device}.{k}={e.default!r}" for k, e in owner._config.items())

    def policy() -> str:
        p = get_device_operator_policy(device)
        if p is None:
            return "none"
        return (f"{p.cache_key}: {len(p.decomposition_overrides)} decompositions, "
                f"{len(p.lowering_overrides)} lowerings, {len(p.config_defaults)} "
                f"option defaults, {len(p.fake_overrides)} fake impls")

    return [
        ("Scheduling", lambda: common.get_scheduling_for_device(device)),
        ("Python wrapper", lambda: common.get_wrapper_codegen_for_device(device)),
        ("C++ wrapper", lambda: common.get_wrapper_codegen_for_device(device, True)),
        ("codegen features", lambda: _names(common.get_backend_features(device))),
        ("DeviceOpOverrides", lambda: type(common.get_device_op_overrides(device))),
        ("GPU C++ wrapper", lambda: common.get_device_op_overrides(device)
         .uses_gpu_cpp_wrapper()),
        ("ATen device type", lambda: cpp_utils.device_to_aten(device)),
        ("C++ options", options),
        ("C++ wrapper header", lambda: codecache._get_cpp_wrapper_header(device)),
        ("backend loaders", lambda: _loaders(device)),
        ("compile options", config),
        ("operator policy", policy),
    ]


def _mlp(device: str) -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    ).to(device)


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
    eager = _mlp(device)
    twin = copy.deepcopy(eager)
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
    _check(actual, expected)
    for p, q in zip(twin.parameters(), eager.parameters()):
        _check(p, q)


def _stream(device: str, options: dict[str, Any]) -> None:
    module = torch.get_device_module(device)

    fn = _user_function('''
        def fn(x):
            side, done = module.Stream(), module.Event()
            with module.stream(side):
                y = x * 2
                done.record()
            module.current_stream().wait_event(done)
            return y + 1
    ''', module=module)

    x = torch.randn(16, device=device)
    _check(torch.compile(fn, fullgraph=True, options=options)(x), fn(x))


#: (name, program, compile options).
PROGRAMS = [
    ("MLP inference", _inference, {}),
    ("training step (SGD)", _training, {}),
    ("training step, cpp_wrapper=True", _training, {"cpp_wrapper": True}),
    ("side stream", _stream, {}),
]


def _run_programs(device: str, iface: Any, write: Callable[[str], None]) -> int:
    from torch._inductor.codegen.common import get_wrapper_codegen_for_device

    failures = 0
    for name, program, options in PROGRAMS:
        if program is _stream and not (iface is not None and _probe(iface.exposes_streams) == "yes"):
            write(f"  {name:34} skipped: the device exposes no streams")
            continue
        if options.get("cpp_wrapper") and get_wrapper_codegen_for_device(device, True) is None:
            write(f"  {name:34} not applicable (no C++ wrapper registered for the device)")
            continue
        torch._dynamo.reset()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program(device, options)
        except Exception as err:
            failures += 1
            write(f"  {name:34} FAIL {_describe(err)}")
        else:
            write(f"  {name:34} ok (matches eager)")
    return failures


def report(device: str, file: TextIO | None = None) -> bool:
    """Prints the report on the device type ``device`` to ``file`` (default:
    stdout); True iff every program compiled and matched eager."""
    out = file or sys.stdout

    def write(line: str) -> None:
        print(line, file=out, flush=True)

    device = device.partition(":")[0]
    iface, source, backend = _resolve(device)
    write(f"Device '{device}' as the compile stack sees it (torch {torch.__version__})")
    write(f"  {'DeviceInterface':24} {source}")
    write(f"  {'codegen backend':24} {backend}")
    items = (_identity(device, iface) if iface is not None else []) + _codegen(device)
    for label, fn in items:
        write(f"  {label:24} {_probe(fn)}")
    write("Standard programs, compiled and compared with eager:")
    failures = _run_programs(device, iface, write)
    write(f"{failures} of the programs failed" if failures else "All programs match eager.")
    return failures == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torch._inductor.device_report")
    parser.add_argument("device", help="a device type, e.g. the renamed PrivateUse1 backend")
    parser.add_argument("--import", dest="modules", action="append", default=[],
                        help="a module to import first (the backend's package)")
    args = parser.parse_args(argv)
    for name in args.modules:
        importlib.import_module(name)
    return 0 if report(args.device) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Lazy discovery of out-of-tree devices that lack a registration.

``_discover`` is the one discovery of a device for Dynamo and Inductor alike:
Dynamo asks it for the PrivateUse1 device's ``DeviceInterface`` (through the
device module's ``get_device_interface()`` hook or the convention module
``torch_<name>._dynamo.device_interface``), Inductor for the device's codegen
backend (through its loader routes, see ``torch._inductor.codegen.common``).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any

import torch
from torch.utils import backend_registration

from .device_interface import (
    _BUILTIN_DEVICE_INIT_LIST,
    _describe,
    _register_privateuse1,
    _warn_once,
    device_interfaces,
    DeviceInterface,
)


# Protects the discovery state below; never held while backend code runs.
_discovery_done = threading.Condition(threading.RLock())
# (device type, route) -> (generation, torch.<type>, raised, what ran) of a
# discovery route that left the device unresolved; run again when one changes.
_discovery_misses: dict[tuple[str, Any], tuple[int, Any, bool, str | None]] = {}
_discovering: dict[str, int] = {}  # device type -> the thread discovering it


def _warn_discovery_failure(name: str, source: str, problem: str) -> None:
    _warn_once(
        ("discovery", source, problem),
        f"Skipping {source} while looking for the DeviceInterface of the "
        f"PrivateUse1 device '{name}': {problem}. Fix it, or register the "
        "interface with torch._dynamo.device_interface."
        "register_interface_for_device_PrivateUse1().",
    )


def _register_discovered(name: str, source: str, found: Any) -> None:
    if not (isinstance(found, type) and issubclass(found, DeviceInterface)):
        problem = f"it returned {found!r}, which is not a DeviceInterface subclass"
        expected = "a subclass of torch._dynamo.device_interface.DeviceInterface"
        _warn_discovery_failure(name, source, f"{problem}; expected {expected}")
        return
    try:
        _register_privateuse1(name, found, discovered=True)
    except RuntimeError as err:
        _warn_discovery_failure(name, source, str(err))


def _from_device_module_hook(name: str) -> None:
    hook = getattr(getattr(torch, name, None), "get_device_interface", None)
    if hook is None:
        return
    source = f"torch.{name}.get_device_interface()"
    try:
        found = hook()
    except Exception as err:
        _warn_discovery_failure(name, source, f"it raised {_describe(err)}")
        return
    if name not in device_interfaces:  # else the hook registered it itself
        _register_discovered(name, source, found)


def _from_convention_module(name: str) -> None:
    module_name = f"torch_{name}._dynamo.device_interface"
    try:
        module = importlib.import_module(module_name)
    except Exception as err:
        # An absent module (or parent) is silent; a failing import is not.
        missing = isinstance(err, ModuleNotFoundError) and err.name is not None
        if not (missing and f"{module_name}.".startswith(f"{err.name}.")):
            _warn_discovery_failure(name, module_name, _describe(err))
        return
    source = f"{module_name}.DeviceInterface"
    cls = getattr(module, "DeviceInterface", None)
    if name in device_interfaces:
        return
    if not isinstance(cls, type):
        _warn_discovery_failure(name, source, f"it is {cls!r}, expected a class")
        return
    if not issubclass(cls, DeviceInterface):
        # Adopted, so that a backend need not import torch._dynamo.
        try:
            bases, namespace = (cls, DeviceInterface), {"__module__": cls.__module__}
            cls = type(cls.__name__, bases, namespace)
        except TypeError as err:
            problem = f"it cannot be combined with DeviceInterface: {err}"
            _warn_discovery_failure(name, source, problem)
            return
    _register_discovered(name, source, cls)


# How the PrivateUse1 device's interface is found without a registration.
_INTERFACE_ROUTES = (_from_device_module_hook, _from_convention_module)


def _discover(
    device: str,
    routes: tuple[Callable[[str], str | None], ...],
    satisfied: Callable[[], bool],
    *,
    strict: bool = False,
    unmet: Callable[[str], str] | None = None,
) -> None:
    """Runs `routes` (each returns what it ran, if anything) for `device` in order
    until `satisfied()`: the one discovery of an out-of-tree device that lacks a
    registration, for Dynamo and Inductor. A route that leaves the device
    unresolved runs again after the registry or `torch.<device>` changes, and at
    the next `strict` call (a compile that needs the device) if it ran or raised;
    one that ran warns `unmet(what ran)` once; one that raises raises if
    `strict`, else it is logged once. One thread discovers a device at a time,
    without holding the lock."""
    if device in _BUILTIN_DEVICE_INIT_LIST or satisfied():
        return
    module, me = getattr(torch, device, None), threading.get_ident()

    def due(route: Callable[[str], str | None]) -> bool:
        miss = _discovery_misses.get((device, route))
        now = (backend_registration._registry_generation, module)
        return (
            miss is None
            or miss[:2] != now
            or (strict and (miss[2] or miss[3] is not None))
        )

    with _discovery_done:
        while _discovering.get(device, me) != me:
            _discovery_done.wait()
        if satisfied() or not any(due(route) for route in routes):
            return
        outermost = device not in _discovering  # else this thread's own route
        _discovering[device] = me
    try:
        for route in routes:
            if satisfied():
                break
            if not due(route):
                continue
            generation = backend_registration._registry_generation
            # Marked first, so that a call the route makes does not run it again.
            _discovery_misses[(device, route)] = (generation, module, False, None)
            try:
                ran = route(device)
            except RuntimeError as err:
                _discovery_misses[(device, route)] = (generation, module, True, None)
                if strict:
                    raise
                _warn_once(("route", device, str(err)), str(err), logged=True)
                continue
            moved = generation != backend_registration._registry_generation
            if ran and not satisfied() and not moved:
                _discovery_misses[(device, route)] = (generation, module, False, ran)
                if unmet is not None:
                    _warn_once(("route", device, ran), unmet(ran))
    finally:
        if outermost:
            with _discovery_done:
                del _discovering[device]
                _discovery_done.notify_all()

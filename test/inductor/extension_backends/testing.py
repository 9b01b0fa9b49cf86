"""Test utilities shared by the tests that run on ``extension_device``.

* :class:`RegistrySnapshot` snapshots every device registry a test may touch
  and the caches derived from them, and restores both (use it with
  ``self.addCleanup``), so that tests do not leak registrations into each other.
* :func:`xfail_until` marks a test that waits for a SPEC requirement: it is an
  expected failure only while it fails *for that reason*; failing otherwise is
  a real failure, and passing is a strict XPASS telling to remove the marker.
* :func:`add_site_dir` puts a directory of installed distributions on
  ``sys.path`` for one test (``BACKEND_SITE`` holds the fake device's, whose
  entry points load its Inductor backend).
* :func:`check_training_step` compiles one training step on the device in
  both wrapper modes and compares loss and gradients with eager.
* :func:`run_python` runs code in a fresh interpreter, for what needs its own
  process (renaming PrivateUse1, import order, lazy discovery, entry points).

Importing this module imports neither ``torch._dynamo`` nor ``torch._inductor``;
:class:`RegistrySnapshot` does, when it is created.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TEST_INDUCTOR_DIR = Path(__file__).resolve().parent.parent
REPO = TEST_INDUCTOR_DIR.parent.parent

#: The PrivateUse1 name used by every in-process test.  PrivateUse1 can be
#: renamed once per process, so tests that need another name use run_python.
DEVICE = "extension_device"


class RegistrySnapshot:
    """Snapshot of the device registries of Dynamo and Inductor.

    ``restore()`` puts every registry back into the state it had when the
    snapshot was taken (in place, so module-level aliases stay valid), clears
    the caches not keyed on the registry's generation and moves the generation
    on (it is never rolled back).  Registries that a later version of
    the series adds are picked up by name when present.
    """

    #: (module, attribute) of every dict registry.
    DICTS = [
        ("torch._dynamo.device_interface", "caching_worker_device_properties"),
        ("torch._dynamo.device_interface", "caching_worker_current_devices"),
        ("torch._dynamo.device_interface", "device_interfaces"),
        ("torch._dynamo.device_discovery", "_discovery_misses"),
        ("torch._dynamo.trace_rules", "_device_trace_rules"),
        ("torch._inductor.codegen.common", "device_codegens"),
        ("torch._inductor.codegen.common", "device_op_overrides_dict"),
        ("torch._inductor.codegen.common", "custom_backend_passes"),
        ("torch._inductor.codegen.common", "custom_backend_codegen_configs"),
        ("torch._inductor.codegen.common", "device_backend_loaders"),
        ("torch._inductor.cpp_builder", "_cpp_device_options_registry"),
        ("torch._inductor.device_operator_policy", "device_operator_policies"),
        ("torch._inductor.lowering", "user_lowerings"),
    ]
    #: (module, attribute) of every list registry.
    LISTS = [("torch._dynamo.device_interface", "GPU_TYPES")]
    #: (module, attribute) of every set registry.
    SETS = [("torch._dynamo.device_interface", "_warned")]
    #: (module, attribute) of every module-level flag.
    FLAGS = [
        ("torch._dynamo.device_interface", "_device_initialized"),
        ("torch._inductor.codegen.common", "_device_op_overrides_initialized"),
    ]
    #: (module, function) called last by restore(): moves the registry's
    #: generation, so that every cache derived from the registry recomputes.
    NOTIFY = ("torch._dynamo.device_interface", "_bump_registry_generation")
    #: (module, attribute) of every function whose cache derives from a registry
    #: and is not keyed on the registry's generation.
    CACHED = [
        ("torch._inductor.codegen.common", "_init_builtin_backend_registration"),
    ]

    def __init__(self) -> None:
        import importlib

        from torch._dynamo.device_interface import get_registered_device_interfaces
        from torch._inductor.codegen.common import (
            get_device_op_overrides,
            init_backend_registration,
        )

        # Snapshot the built-ins too: some register as a side effect of a
        # one-time import, which a restore to an earlier state would lose.
        get_registered_device_interfaces()
        # The built-in backends only: probing the PrivateUse1 device would load
        # its backend into the snapshot, or use up the probe of a test that
        # installs a distribution.
        init_backend_registration(())
        get_device_op_overrides("cpu")
        keys = (
            self.DICTS + self.LISTS + self.SETS + self.FLAGS + self.CACHED
            + [self.NOTIFY]
        )
        self._modules = {}
        for name, _ in keys:
            try:
                self._modules[name] = importlib.import_module(name)
            except ModuleNotFoundError:
                pass  # a module of a later version of the series
        present = {key for key in keys if hasattr(self._modules.get(key[0]), key[1])}
        self._dicts = {key: dict(self._get(key)) for key in self.DICTS if key in present}
        self._lists = {key: list(self._get(key)) for key in self.LISTS if key in present}
        self._sets = {key: set(self._get(key)) for key in self.SETS if key in present}
        self._flags = {key: self._get(key) for key in self.FLAGS if key in present}
        self._cached = [key for key in self.CACHED if key in present]

    def _get(self, key: tuple[str, str]):
        module, attr = key
        return getattr(self._modules[module], attr)

    def restore(self) -> None:
        for key, saved in self._dicts.items():
            live = self._get(key)
            live.clear()
            live.update(saved)
        for key, saved in self._lists.items():
            self._get(key)[:] = saved
        for key, saved in self._sets.items():
            live = self._get(key)
            live.clear()
            live.update(saved)
        for (module, attr), saved in self._flags.items():
            setattr(self._modules[module], attr, saved)
        for key in self._cached:
            self._get(key).cache_clear()
        # The registry changed: every cache derived from it refreshes, and the
        # generation moves on (it is never rolled back, so that no cache keyed by
        # it can mistake the restored registry for a later state).
        self._get(self.NOTIFY)()

    @classmethod
    def install(cls, testcase) -> RegistrySnapshot:
        """Take a snapshot and restore it when ``testcase`` ends."""
        snapshot = cls()
        testcase.addCleanup(snapshot.restore)
        return snapshot


class SpecPending(Exception):
    """Raised by :func:`xfail_until` when a test fails for the awaited reason."""


def xfail_until(spec_id: str, pattern: str):
    """Expect the test to fail until SPEC requirement ``spec_id`` is implemented.

    The test is an expected failure only if it raises an exception whose
    ``"<TypeName>: <message>"`` matches ``pattern`` (``re.search``).  Any other
    failure fails the test; a pass is a strict XPASS, i.e. a failure saying the
    marker should go.
    """

    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as err:
                text = f"{type(err).__name__}: {err}"
                if re.search(pattern, text):
                    raise SpecPending(f"waits for {spec_id}: {text}") from err
                raise

        mark = pytest.mark.xfail(
            raises=SpecPending, strict=True, reason=f"waits for SPEC {spec_id}"
        )
        return mark(wrapper)

    return decorator


#: A directory with the dist-info of ``extension-device-backend``, the
#: distribution whose ``torch_inductor_backends`` entry points (named
#: ``extension_device`` and ``acc``) load the fake device's Inductor backend.
BACKEND_SITE = Path(__file__).resolve().parent / "site"


def add_site_dir(testcase, site: str | os.PathLike = BACKEND_SITE) -> str:
    """Put ``site`` (a directory holding installed distributions) on
    ``sys.path`` until ``testcase`` ends, so that their entry points are found."""
    site = str(site)
    sys.path.append(site)
    testcase.addCleanup(sys.path.remove, site)
    return site


def check_training_step(testcase, compile_fn) -> dict[bool, str]:
    """One training step of a small MLP on ``DEVICE``, eagerly and through
    ``compile_fn(step, model, cpp_wrapper=...)`` (returning the loss and the
    generated code) with the Python and the C++ wrapper; asserts that loss and
    gradients match eager. Returns the code per ``cpp_wrapper`` value."""
    import copy

    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)
    ).to(DEVICE)
    x = torch.randn(4, 8, device=DEVICE)

    def step(m):
        loss = m(x).square().mean()
        loss.backward()
        return loss

    eager = copy.deepcopy(model)
    expected = step(eager)
    codes = {}
    for cpp_wrapper in (False, True):
        with testcase.subTest(cpp_wrapper=cpp_wrapper):
            torch._dynamo.reset()
            twin = copy.deepcopy(model)
            actual, codes[cpp_wrapper] = compile_fn(step, twin, cpp_wrapper=cpp_wrapper)
            testcase.assertEqual(actual.cpu(), expected.cpu())
            for p, q in zip(twin.parameters(), eager.parameters()):
                testcase.assertEqual(p.grad.cpu(), q.grad.cpu())
    return codes


def subprocess_env(**extra: str) -> dict[str, str]:
    """Environment for a child interpreter: finds the test helpers and reuses
    this run's build of the device and Inductor cache."""
    env = dict(os.environ)
    # Not the repository root: its torch/ would shadow the installed torch.
    paths = [str(TEST_INDUCTOR_DIR)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONSAFEPATH"] = "1"
    env.update(extra)
    return env


def run_python(code: str, *, timeout: float = 600, cwd: str | None = None,
               **extra_env: str) -> subprocess.CompletedProcess:
    """Run dedented ``code`` in a fresh interpreter; fail with its output if it fails."""
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=subprocess_env(**extra_env),
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"subprocess exited {proc.returncode}\n--- stdout\n{proc.stdout}"
            f"\n--- stderr\n{proc.stderr}"
        )
    return proc

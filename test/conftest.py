"""pytest configuration shared by every test of the series.

Tests run in the project environment (``python3 tools/dev.py test``), where the
series is overlaid on torch 2.13.0.  This file makes the repository's own
helpers importable: ``tools`` (the standard-library tooling) and
``extension_backends`` (the fake PrivateUse1 device under ``test/inductor``);
and it tells parallel workers what to run where (below).

The repository root goes *last* on ``sys.path``: its ``torch/`` holds series
files, ``torch/__init__.py`` among them, and must never shadow the installed
torch (tools/dev.py also runs Python with PYTHONSAFEPATH=1 for that reason).
"""

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

_TEST = Path(__file__).resolve().parent
if str(_TEST / "inductor") not in sys.path:
    sys.path.insert(0, str(_TEST / "inductor"))


def _root_last() -> None:
    """Moves the root last on sys.path: a pytest-xdist worker starts with it
    first, and Inductor's subprocesses inherit sys.path as PYTHONPATH."""
    root = str(_TEST.parent)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != root] + [root]


_root_last()


def pytest_runtest_setup(item):
    _root_last()  # again, after whatever an earlier test imported


# --------------------------------------------------------------------------
# Parallel runs (pytest-xdist; `tools/dev.py test` passes `-n <cores>`).
#
# Work goes to the workers a file at a time, so that each file runs in one
# process and in its order, as it does alone (its module state, class
# fixtures and the one PrivateUse1 rename of the process are the same).  The
# files of SPLIT_FILES hold long tests that are independent of each other (each
# runs its own processes); they go a test at a time.  The longest work goes
# first, as the last run measured it (build/test-durations.json, written at the
# end of every run), so that no long file starts last.
# --------------------------------------------------------------------------

#: Test files whose tests may run on different workers, one test at a time,
#: and the seconds a test of theirs counts before any run has measured it (a
#: fresh clone's first run: their long tests start first, not last).
SPLIT_FILES = {
    "test/tools/test_differential.py": 60.0,
    "test/tools/test_workbench.py": 30.0,
}
#: Seconds taken by each test (setup, call and teardown) in the latest run that ran it.
DURATIONS = Path(
    os.environ.get("WORKBENCH_TEST_DURATIONS") or _TEST.parent / "build" / "test-durations.json"
)


def _read_durations() -> dict:
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


def _scope(nodeid: str) -> str:
    """The unit of work that ``nodeid`` belongs to: its file, or itself."""
    path = nodeid.split("::", 1)[0]
    return nodeid if path in SPLIT_FILES else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """The scheduler of ``--dist loadfile`` (any other mode is xdist's own)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    known = _read_durations()

    class LongestFirst(LoadScopeScheduling):
        """xdist's scope scheduling with the scopes above, longest first (a
        test never measured counts one second, or its SPLIT_FILES value)."""

        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            def expected(scope: str) -> float:
                guess = SPLIT_FILES.get(scope.split("::", 1)[0], 1.0)
                return sum(known.get(test, guess) for test in self.workqueue[scope])

            self.workqueue.move_to_end(max(self.workqueue, key=expected), last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report) -> None:
    if getattr(report, "context", None) is not None:
        return  # a subtest's report: its time is in its test's
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.when == "setup":
        # A class's (or module's) setup is charged to its first test only;
        # recorded apart too, as what any of its tests costs when run alone.
        key = setup_key(report.nodeid)
        _durations[key] = max(_durations.get(key, 0.0), report.duration)


def setup_key(nodeid: str) -> str:
    """The record's key for the longest setup among the tests of ``nodeid``'s
    class (or module)."""
    return "setup::" + nodeid.rsplit("::", 1)[0]


def pytest_sessionfinish(session, exitstatus) -> None:
    """Record this run's durations (in the controller only; merged with what
    earlier runs of other tests measured)."""
    if hasattr(session.config, "workerinput") or not _durations:
        return
    merged = {**_read_durations(), **{k: round(v, 2) for k, v in _durations.items()}}
    try:
        DURATIONS.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=DURATIONS.parent, prefix=".test-durations-")
        with os.fdopen(fd, "w") as f:
            json.dump(merged, f, indent=0, sort_keys=True)
        os.replace(tmp, DURATIONS)
    except OSError:
        pass  # a read-only checkout: the next run orders as xdist does

#!/usr/bin/env python3
"""Developer entry point of the patch series.  Standard library only.

    python3 tools/dev.py demo            set everything up, run the demo
    python3 tools/dev.py test [ARGS]     set up if needed, run the test suite on
                                         parallel workers (ARGS go to pytest;
                                         `-n 0`: one process)
    python3 tools/dev.py report DEVICE [--import MODULE]
                                         how the compile stack sees DEVICE, and
                                         whether standard programs compile on it

Plumbing (each sets up only what it needs):

    setup                 create .venv and .venv-stock, overlay the series, build the device,
                          install the guide's example backends (docs/examples/*) into .venv;
                          prints each step it takes and its time (a step done already: nothing)
    overlay | restore     lay the series over .venv's torch / put the pristine files back
    status                where each series file stands in .venv
    import PATH...        import pristine 2.13.0 files into torch/ (own commit; --no-commit)
    export [-o FILE]      the series as one unified diff (default: stdout)
    export --stack DIR    the series as an ordered stack of pull requests (tools/stack_plan.py),
                          one `git format-patch` file each, and prints their sizes
    check                 import commits are pristine, the export round-trips, no branch
                          on a device name lacks a verdict (tools/device_gates.py), no
                          function is added or grown over 80 lines (tools/function_sizes.py),
                          no added line is one `ruff format` would rewrite (tools/formatting.py)
    check --stack [--no-tests] [--patch NAME]... [--sample N]
                          apply the stack patch by patch to pristine 2.13.0; after each,
                          import torch, torch._dynamo, torch._inductor.compile_fx from
                          that state and run the patch's own tests (--sample N: its N
                          quickest, as the latest suite run measured them); a state
                          that reads a global name it does not define, or imports
                          one that the series module's state lacks, fails
    diff [ARGS]           differential harness, stock twin vs project env
    bench [ARGS]          benchmark, stock twin vs project env

Every command is idempotent.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python3 tools/dev.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import envs, series, stack  # noqa: E402
from tools.series import REPO, SeriesError  # noqa: E402

BUILD = REPO / "build"
# The guide's worked examples (out-of-tree backends), installed into .venv:
# name -> its runtime package, whose first import builds the C++ runtime into
# $<NAME>_BUILD_DIR (build/<name>).
EXAMPLES = {"toyacc": "torch_toyacc", "protacc": "torch_protacc", "tritonacc": "torch_tritonacc"}
EXAMPLES_DIR = REPO / "docs" / "examples"


def run_env() -> dict[str, str]:
    """Environment for everything run inside the project env: one Inductor cache
    and one build of the fake device per checkout, shared by every process."""
    env = dict(os.environ)
    # Never put the working directory (the repository root, whose torch/
    # holds series files) on sys.path ahead of the installed torch.
    env["PYTHONSAFEPATH"] = "1"
    env.setdefault("TORCHINDUCTOR_CACHE_DIR", str(BUILD / "inductor-cache"))
    env.setdefault("EXTENSION_DEVICE_BUILD_DIR", str(BUILD / "extension_device"))
    for name in EXAMPLES:
        env.setdefault(f"{name.upper()}_BUILD_DIR", str(BUILD / name))
    return env


def project_python() -> Path:
    python = envs.ensure_env(envs.PROJECT_ENV)
    inst = series.locate_torch(str(python))
    report = series.overlay(inst)
    # Byte-compile edited series files now, as an installed torch is, so that
    # no process (a benchmark in particular) pays for compiling them.
    subprocess.run(
        [str(python), "-m", "compileall", "-q", *(str(inst.path(rel))
         for rel in series.series_files() if rel.endswith(".py"))],
        check=True,
    )
    if report.linked or report.restored:
        envs._log(
            f"overlay: {len(report.linked)} linked, {len(report.restored)} restored, "
            f"{len(report.unchanged)} unchanged"
        )
    return python


def stock_install() -> series.TorchInstall:
    python = envs.ensure_env(envs.STOCK_ENV)
    return series.locate_torch(str(python))


def _tree_digest(*roots: Path, extra: str = "") -> str:
    """sha256 of every file under ``roots`` (names and bytes; byte code and
    egg-info left out) and ``extra``."""
    h = hashlib.sha256(extra.encode())
    for root in roots:
        for path in sorted(root.rglob("*") if root.is_dir() else [root]):
            if path.is_file() and not {"__pycache__", f"{root.name}.egg-info"} & set(
                    path.relative_to(root.parent).parts) and path.suffix != ".pyc":
                h.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _once(what: str, stamp: Path, digest: Callable[[], str | None], action) -> None:
    """Run ``action`` as a set-up step unless ``stamp`` records ``digest()``;
    then record ``digest()`` as the step left things.  The digest may cover
    what the step produces (None while it is missing), so a step that built
    it does not run again, and one whose product is gone runs again.  A step
    already done prints nothing."""
    done = digest()
    if done is not None and stamp.exists() and stamp.read_text() == done:
        return
    with envs.step(what):
        action()
    if (done := digest()) is not None:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(done)


def _build_step(what: str, python: Path, code: str, inputs: list[Path], build_dir: Path) -> None:
    """Run ``code`` in ``python`` as a set-up step that builds a C++ library
    into ``build_dir``, unless it was done for these ``inputs`` (sources, the
    environment) and its library is there.  The stamp in ``build_dir``
    records the inputs and the libraries the step left."""

    def digest() -> str | None:
        built = sorted(path.name for path in build_dir.glob("*.so"))
        if not built:
            return None
        return _tree_digest(*inputs, extra="\0".join(
            [envs._wanted_stamp(), str(build_dir), *built]))

    _once(f"{what} (C++, into {_shown(build_dir)})", build_dir / ".workbench-stamp", digest,
          lambda: subprocess.run([str(python), "-c", code], cwd=REPO, env=run_env(),
                                 check=True))


def build_device(python: Path) -> None:
    """Build the fake device's C++ extension into build/extension_device once;
    every test process loads that build.  Redone when its sources or the
    environment change, or its library is gone (cpp_extension itself also
    rebuilds what changed)."""
    sources = REPO / "test" / "inductor" / "extension_backends"
    code = (
        "import sys; sys.path.insert(0, 'test/inductor')\n"
        "from extension_backends.extension_device import load_library\n"
        "load_library()\n"
    )
    _build_step("building the fake device", python, code,
                [sources / "cpp", sources / "extension_device.py"],
                Path(run_env()["EXTENSION_DEVICE_BUILD_DIR"]))


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def install_example_backends(python: Path) -> None:
    """``pip install -e`` each of the guide's examples into .venv, as its README
    says a backend author does in a development checkout (a real dist-info, so
    Inductor finds its ``torch_inductor_backends`` entry point), then build its
    C++ runtime.  An install is redone only when its pyproject.toml or its
    location changes; a runtime build (under build/<name>) when the package's
    files or the environment change, or its library is gone."""
    for name, package in EXAMPLES.items():
        example = EXAMPLES_DIR / name
        pyproject = example / "pyproject.toml"
        wanted = hashlib.sha256(pyproject.read_bytes() + str(example).encode()).hexdigest()
        _once(f"installing {_shown(example)} into .venv (editable)",
              envs.PROJECT_ENV / f".{name}-stamp", lambda wanted=wanted: wanted,
              lambda example=example: subprocess.run(
                  [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "--no-deps", "--editable", str(example)],
                  check=True))
        build_example_runtime(python, name)


def build_example_runtime(python: Path, name: str) -> None:
    """Build the runtime of the example ``name`` into build/<name> by importing
    its package in a fresh process (the import renames PrivateUse1).  Redone
    when the package's files or the environment change, or its library is
    gone."""
    package = EXAMPLES[name]
    _build_step(f"building the {name} example's runtime", python, f"import {package}",
                [EXAMPLES_DIR / name / package],
                Path(run_env()[f"{name.upper()}_BUILD_DIR"]))


def setup() -> Path:
    python = project_python()
    # The fake device's build (one compiler process, about a minute on a fresh
    # clone) runs beside the stock environment's install and the examples' builds.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        device = pool.submit(build_device, python)
        stock_install()
        install_example_backends(python)
        device.result()
    return python


#: Programs that tests run, by the distribution (Debian) package that has them;
#: ``test`` installs those its run needs where missing.  Value: the package
#: and the test file that runs the program (it skips, saying why, without it).
SYSTEM_PROGRAMS = {
    "redis-server": ("redis-server", "test/inductor/test_remote_fx_graph_cache.py"),
}


class _InstallFailed(Exception):
    pass


def ensure_system_programs(needed: list[str]) -> None:
    """Install the distribution packages of the ``needed`` programs that are
    not on PATH with ``apt-get`` (as root, or through ``sudo -n``), saying what
    it does; where it cannot, say so and go on (their tests skip)."""
    missing = [prog for prog in needed if shutil.which(prog) is None]
    if not missing:
        return
    packages = [SYSTEM_PROGRAMS[prog][0] for prog in missing]
    users = ", ".join(SYSTEM_PROGRAMS[prog][1] for prog in missing)
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"] if shutil.which("sudo") else None
    if shutil.which("apt-get") is None or sudo is None:
        envs._log(f"{', '.join(missing)} not on PATH and cannot be installed here (no "
                  f"apt-get, or not root and no sudo): {users} will skip; install the "
                  f"distribution package {' '.join(packages)} to run it")
        return
    apt = [*sudo, "apt-get", "-y", "-q"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")

    def apt_get(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*apt, *args], env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)

    try:
        with envs.step(f"installing {' '.join(packages)} for {users} "
                       f"(apt-get install {' '.join(packages)})"):
            proc = apt_get("install", *packages)
            if proc.returncode:
                envs._log("apt-get update (the package lists may be missing or old)")
                proc = apt_get("update")
                if proc.returncode == 0:
                    proc = apt_get("install", *packages)
            if proc.returncode:
                raise _InstallFailed((proc.stderr or proc.stdout).strip()[-1000:])
    except _InstallFailed as err:
        envs._log(f"could not install {' '.join(packages)}: {err}\n"
                  f"[workbench] {users} will skip")


#: The test that rescans the audited vendor wheels of
#: tools/vendor_patches_inventory.json; ``test`` downloads those missing when it
#: is in the run (it skips, saying why, without them).
VENDOR_WHEELS_TEST = "test/tools/test_vendor_patches.py"


def vendor_wheels_dir() -> Path:
    """Where the vendor wheels are kept: $VENDOR_WHEELS, else build/vendor_packages."""
    return Path(os.environ.get("VENDOR_WHEELS") or BUILD / "vendor_packages")


def fetch_vendor_wheels(python: Path) -> None:
    """``pip download --no-deps`` into vendor_wheels_dir() each inventoried
    vendor wheel not there yet, with ``python``'s pip (the wheel for its
    platform), saying what it does; where that fails (no network, say), say so
    and go on (the test skips)."""
    from tools.vendor_patches import load_inventory

    dest = vendor_wheels_dir()
    wanted = [f"{v.package}=={v.version}" for v in load_inventory()
              if not any(dest.glob(f"{v.package}-{v.version}-*.whl"))]
    if not wanted:
        return
    try:
        with envs.step(f"downloading {' '.join(wanted)} for {VENDOR_WHEELS_TEST} "
                       f"(pip download --no-deps, into {_shown(dest)})"):
            proc = subprocess.run(
                [str(python), "-m", "pip", "download", "--no-deps", "--quiet",
                 "--disable-pip-version-check", "--retries", "1", "--timeout", "20",
                 "--dest", str(dest), *wanted],
                stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if proc.returncode:
                said = [line for line in (proc.stderr + proc.stdout).splitlines()
                        if line.strip() and not line.startswith("WARNING")]
                raise _InstallFailed("\n".join(said)[-1000:] or f"pip exited {proc.returncode}")
    except _InstallFailed as err:
        envs._log(f"could not download {' '.join(wanted)}: {err}\n"
                  f"[workbench] {VENDOR_WHEELS_TEST} will skip its rescan of the wheels")


def _named_paths(args: list[str]) -> list[str]:
    """The test paths (files, directories, node ids' files) that ``args`` name."""
    return [arg.split("::")[0] for arg in args
            if not arg.startswith("-") and (REPO / arg.split("::")[0]).exists()]


def _selects(paths: list[str], rel: str) -> bool:
    """Whether a run of ``paths`` (none: the whole suite) includes file ``rel``."""
    if not paths:
        return True
    target = (REPO / rel).resolve()
    return any(target == (REPO / p).resolve() or (REPO / p).resolve() in target.parents
               for p in paths)


def pytest_command(args: list[str]) -> list[str]:
    """pytest's arguments for ``test ARGS``: the whole suite unless ARGS name
    tests; the slowest tests listed at the end; parallel workers (one per
    core, whole files to a worker: see pytest.ini) unless the run is one file
    or ARGS choose (``-n N``, ``-n 0`` for one process)."""
    paths = _named_paths(args)
    cmd = ([] if paths else ["test/"]) + (args or ["-q", "-rfEsxX"])
    if not any(arg.startswith("--durations") for arg in args):
        cmd.append("--durations=20")
    one_file = len({(REPO / p).resolve() for p in paths}) == 1 and (REPO / paths[0]).is_file()
    chosen = any(arg.startswith(("-n", "--numprocesses", "--dist")) or arg == "no:xdist"
                 for arg in args)
    if not one_file and not chosen:
        cmd += ["-n", str(workers()), "--dist", "loadfile"]
    return cmd


def workers() -> int:
    """Parallel pytest workers: $WORKBENCH_WORKERS, else one per core."""
    return int(os.environ.get("WORKBENCH_WORKERS") or os.cpu_count() or 1)


def cmd_test(args: list[str]) -> int:
    python = setup()
    paths = _named_paths(args)
    ensure_system_programs([prog for prog, (_, rel) in SYSTEM_PROGRAMS.items()
                            if _selects(paths, rel)])
    if _selects(paths, VENDOR_WHEELS_TEST):
        fetch_vendor_wheels(python)
    rc = subprocess.run([str(python), "-m", "pytest", *pytest_command(args)], cwd=REPO,
                        env=run_env()).returncode
    if rc == 5:
        print("[workbench] pytest collected no tests; that is a failure", file=sys.stderr)
        return 1
    return rc


def cmd_report(args: list[str]) -> int:
    python = setup()
    return subprocess.run([str(python), "tools/device_report.py", *args], cwd=REPO,
                          env=run_env()).returncode


def cmd_demo() -> int:
    python = setup()
    return subprocess.run([str(python), "tools/demo.py"], cwd=REPO, env=run_env()).returncode


def cmd_import(paths: list[str], commit: bool) -> int:
    pristine = stock_install()
    if commit:
        staged = subprocess.run(["git", "diff", "--cached", "--name-only"], cwd=REPO,
                                check=True, capture_output=True, text=True).stdout.split()
        if staged:
            raise SeriesError(f"the index already holds changes {staged}; an import "
                              "commit must contain only the import")
    rels = series.import_files(paths, pristine)
    manifest = f"tools/{series.MANIFEST.name}"
    if commit:
        subprocess.run(["git", "add", "--", *rels, manifest], cwd=REPO, check=True)
        body = (
            f"Byte-identical copies of these files from the torch {series.TORCH_VERSION} "
            "wheel,\nimported by `tools/dev.py import` so that later commits show only "
            "this\nproject's changes. The manifest records their sha256.\n\n"
            + "".join(f"  {rel}\n" for rel in rels)
        )
        subprocess.run(["git", "commit", "-q", "-m", f"{series.IMPORT_SUBJECT}\n\n{body}",
                        "--", *rels, manifest], cwd=REPO, check=True)
    print("\n".join(rels))
    return 0


def cmd_check() -> int:
    problems = series.verify_import_commits()
    pristine = stock_install()
    patch = series.export_patch(pristine)
    try:
        series.check_roundtrip(patch, pristine)
    except SeriesError as err:
        problems.append(str(err))
    # No branch on a literal device name without a verdict (issue 22).
    from tools import device_gates

    gates = device_gates.build_report(REPO, pristine.site)
    problems += [f"{b.rel}:{b.line}: {b.qualname}: {b.snippet}: a branch on a device name "
                 "with no verdict in tools/device_gates.py" for b in gates.unlisted]
    problems += gates.problems
    # No function the series adds or grows over the size limit (issue 21).
    from tools import function_sizes

    problems += [f"{rel}: {name}: {new} lines (stock: {old}), over the limit of "
                 f"{function_sizes.LIMIT} (tools/function_sizes.py)"
                 for rel, name, old, new in function_sizes.scan(REPO, pristine.site)]
    # No line the series adds that upstream's formatter would rewrite.
    from tools import formatting

    problems += [f"{rel}:{number}: not formatted as `ruff format` would (tools/formatting.py): "
                 f"{line.strip()}" for rel, number, line in formatting.scan(REPO, pristine.site)]
    n = len(series.series_files())
    for p in problems:
        print(f"FAIL {p}")
    print(f"check: {n} series files, {len(series.read_manifest())} imported, "
          f"patch {len(patch.splitlines())} lines, {len(problems)} problems")
    return 1 if problems else 0


def cmd_export_stack(dest: str) -> int:
    pristine = stock_install()
    plan, files = stack.compute(pristine)
    written = stack.export_stack(Path(dest), pristine, computed=(plan, files))
    stack.print_summary(plan, files)
    print(f"export: {len(written)} patches in {dest}")
    return 0


def cmd_check_stack(run_tests: bool, only: list[str] | None, sample: int | None) -> int:
    python = setup()
    problems = stack.check_stack(python, run_env(), stock_install(), run_tests=run_tests,
                                 only=set(only) if only else None, sample=sample,
                                 parallel=workers())
    for p in problems:
        print(f"FAIL {p}")
    print(f"check --stack: {len(problems)} problems")
    return 1 if problems else 0


def parser() -> argparse.ArgumentParser:
    """The command line: one sub-command per command."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("setup", "overlay", "restore", "status"):
        sub.add_parser(name)
    about = ("check that import commits are pristine, the export round-trips, no device "
             "branch lacks a verdict and no function grows over 80 lines; --stack: check "
             "the stack of patches instead")
    p = sub.add_parser("check", help=about, description=about)
    p.add_argument("--stack", action="store_true",
                   help="apply the stack patch by patch to pristine 2.13.0, import torch "
                        "from each state and run that patch's tests")
    p.add_argument("--no-tests", action="store_true",
                   help="with --stack: apply and import each state, run no tests")
    p.add_argument("--patch", action="append", metavar="NAME",
                   help="run the tests of this patch only (repeatable)")
    p.add_argument("--sample", type=int, metavar="N",
                   help="run N of each patch's tests instead of all: the quickest ones the "
                        "latest suite run measured (none measured: spread evenly)")
    about = ("set everything up, then print the device report of the fake device renamed "
             "'acc' (exit 0 iff its programs match eager)")
    sub.add_parser("demo", help=about, description=about)
    for name in ("test", "diff", "bench", "report"):
        sub.add_parser(name).add_argument("args", nargs=argparse.REMAINDER)
    p = sub.add_parser("import")
    p.add_argument("paths", nargs="+")
    p.add_argument("--no-commit", action="store_true")
    p = sub.add_parser("export")
    p.add_argument("-o", "--output")
    p.add_argument("--stack", metavar="DIR")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("test", "diff", "bench", "report"):
        # Everything after the command goes to the tool it runs, verbatim.
        ns = argparse.Namespace(cmd=argv[0], args=argv[1:])
    else:
        ns = parser().parse_args(argv)

    try:
        if ns.cmd == "test":
            return cmd_test(ns.args)
        if ns.cmd == "demo":
            return cmd_demo()
        if ns.cmd == "report":
            return cmd_report(ns.args)
        if ns.cmd == "setup":
            setup()
        elif ns.cmd == "overlay":
            project_python()
        elif ns.cmd == "restore":
            python = envs.ensure_env(envs.PROJECT_ENV)
            for rel in series.restore(series.locate_torch(str(python))):
                print(f"restored {rel}")
        elif ns.cmd == "status":
            python = envs.ensure_env(envs.PROJECT_ENV)
            for rel, state in series.overlay_status(series.locate_torch(str(python))).items():
                print(f"{state:16} {rel}")
        elif ns.cmd == "import":
            return cmd_import(ns.paths, commit=not ns.no_commit)
        elif ns.cmd == "export" and ns.stack:
            return cmd_export_stack(ns.stack)
        elif ns.cmd == "export":
            patch = series.export_patch(stock_install())
            if ns.output:
                Path(ns.output).write_text(patch)
            else:
                sys.stdout.write(patch)
        elif ns.cmd == "check" and ns.stack:
            return cmd_check_stack(run_tests=not ns.no_tests, only=ns.patch, sample=ns.sample)
        elif ns.cmd == "check":
            return cmd_check()
        elif ns.cmd in ("diff", "bench"):
            project_python()
            stock_install()
            # Run as files: with PYTHONSAFEPATH (run_env) "-m" would not find
            # tools/; each script appends the repository root itself.
            script = (["tools/differential/__main__.py"] if ns.cmd == "diff"
                      else ["benchmarks/compile_bench.py"])
            return subprocess.run([sys.executable, *script, *ns.args], cwd=REPO,
                                  env=run_env()).returncode
    except SeriesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

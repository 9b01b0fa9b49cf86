"""Bookkeeping for the patch series over torch 2.13.0.

The series is the tree ``torch/`` at the root of this repository: edited copies
of torch 2.13.0 Python files at their upstream paths, plus new modules.  This
module is the single implementation behind ``tools/dev.py`` and ``setup.py``:

* the *pristine manifest* (``tools/pristine-2.13.0.sha256``) records, for
  every series file that exists in torch 2.13.0, the sha256 of the pristine
  file, in ``sha256sum`` format;
* :func:`overlay` lays the series over an installed torch 2.13.0 by replacing
  each file with a hard link to the repository's file, so edits are live
  without reinstalling and Inductor's ``torch_key()`` (which hashes every module
  of the installed ``torch`` package) reflects them.  Hard links rather than
  symlinks, because torch resolves some of its own paths
  (``torch/_dynamo/exc.py`` reads ``Path(__file__).resolve().parent``); an
  editor or git command that replaces a file breaks its link, which the next
  overlay (every ``tools/dev.py`` command runs one) repairs, and
  :func:`overlay_status` reports as ``stale``.  Across file systems the files
  are copied instead;
* :func:`restore` puts the pristine files back;
* :func:`import_files` copies pristine files into ``torch/``;
* :func:`export_patch` writes the whole series as one unified diff that
  ``git apply`` applies to a pristine 2.13.0 tree; :func:`check_roundtrip`
  proves it;
* :func:`verify_import_commits` checks in git history that every pristine file
  entered the series byte-identical, in an import-only commit.

Standard library only: it runs under any Python 3.11, before any environment
exists.
"""

from __future__ import annotations

import base64
import csv
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

TORCH_VERSION = "2.13.0"
REPO = Path(__file__).resolve().parent.parent
MANIFEST = REPO / "tools" / f"pristine-{TORCH_VERSION}.sha256"
# Kept next to the torch package, outside it, so torch_key() never hashes it.
STATE_DIRNAME = ".torch-series-overlay"
IMPORT_SUBJECT = f"[series] Import pristine torch {TORCH_VERSION} files"


class SeriesError(RuntimeError):
    """A precondition of the series tooling does not hold; the message says why."""


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --------------------------------------------------------------------------
# The manifest and the series tree
# --------------------------------------------------------------------------


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """Return ``{"torch/<rel>": sha256}`` for every pristine file in the series."""
    entries: dict[str, str] = {}
    if not path.exists():
        return entries
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = re.fullmatch(r"([0-9a-f]{64})  (torch/\S+)", line)
        if m is None:
            raise SeriesError(f"{path}:{lineno}: malformed manifest line {line!r}")
        entries[m.group(2)] = m.group(1)
    return entries


def write_manifest(entries: dict[str, str], path: Path = MANIFEST) -> None:
    header = (
        f"# sha256 of the pristine torch {TORCH_VERSION} file behind every series file\n"
        "# that exists upstream.  Written by `tools/dev.py import`; do not edit.\n"
    )
    body = "".join(f"{entries[rel]}  {rel}\n" for rel in sorted(entries))
    path.write_text(header + body)


def series_files(repo: Path = REPO) -> list[str]:
    """Relative paths (``torch/...``) of every file in the series tree."""
    root = repo / "torch"
    if not root.is_dir():
        return []
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")):
                continue
            out.append(Path(dirpath, name).relative_to(repo).as_posix())
    return sorted(out)


def normalize_relpath(path: str) -> str:
    """Map ``torch/x.py``, ``x.py`` relative to torch, or a path inside the repo
    to the manifest form ``torch/x.py``."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(REPO)
        except ValueError as err:
            raise SeriesError(f"{path} is not inside {REPO}") from err
    rel = p.as_posix().lstrip("./")
    if not rel.startswith("torch/"):
        rel = "torch/" + rel
    if ".." in Path(rel).parts:
        raise SeriesError(f"{path}: '..' is not allowed in a series path")
    return rel


# --------------------------------------------------------------------------
# Installed torch
# --------------------------------------------------------------------------


@dataclass
class TorchInstall:
    """A torch installation: the site directory that holds the ``torch`` package."""

    site: Path
    version: str
    record: dict[str, str] = field(default_factory=dict)  # "torch/<rel>" -> sha256

    @property
    def state_dir(self) -> Path:
        return self.site / STATE_DIRNAME

    def path(self, rel: str) -> Path:
        return self.site / rel


def _record_sha256(site: Path) -> dict[str, str]:
    """sha256 of every torch file as listed in the wheel's dist-info RECORD."""
    out: dict[str, str] = {}
    for dist_info in sorted(site.glob("torch-*.dist-info")):
        record = dist_info / "RECORD"
        if not record.exists():
            continue
        with open(record, newline="") as f:
            for row in csv.reader(f):
                if len(row) < 2 or not row[1].startswith("sha256="):
                    continue
                digest = row[1][len("sha256=") :]
                raw = base64.urlsafe_b64decode(digest + "=" * (-len(digest) % 4))
                out[row[0]] = raw.hex()
    return out


def torch_install_at(site: Path) -> TorchInstall:
    site = Path(site)
    version_py = site / "torch" / "version.py"
    if not version_py.exists():
        raise SeriesError(f"no torch installation in {site} (missing torch/version.py)")
    m = re.search(r"^__version__\s*=\s*'([^']+)'", version_py.read_text(), re.M)
    if m is None:
        raise SeriesError(f"cannot read __version__ from {version_py}")
    return TorchInstall(site=site, version=m.group(1), record=_record_sha256(site))


def locate_torch(python: str) -> TorchInstall:
    """Find the torch that ``python`` imports, without importing (initialising) it."""
    code = (
        "import importlib.util, os\n"
        "spec = importlib.util.find_spec('torch')\n"
        "print(os.path.dirname(list(spec.submodule_search_locations)[0]) if spec else '')\n"
    )
    # PYTHONSAFEPATH: the working directory may be the repository root, whose
    # torch/ (series files) must not be what is found.
    out = subprocess.run(
        [python, "-c", code], check=True, capture_output=True, text=True,
        env=dict(os.environ, PYTHONSAFEPATH="1"),
    ).stdout.strip()
    if not out:
        raise SeriesError(
            f"{python} cannot import torch; install torch=={TORCH_VERSION} first"
        )
    return torch_install_at(Path(out))


def check_version(inst: TorchInstall) -> None:
    if inst.version.split("+")[0] != TORCH_VERSION:
        raise SeriesError(
            f"the series applies to torch {TORCH_VERSION} only, but {inst.site} has "
            f"torch {inst.version}; install it with `pip install torch=={TORCH_VERSION}`"
        )


# --------------------------------------------------------------------------
# Overlay / restore
# --------------------------------------------------------------------------


def _load_state(inst: TorchInstall) -> dict:
    path = inst.state_dir / "state.json"
    if path.exists():
        return json.loads(path.read_text())
    return {"files": {}, "dirs": []}


def _save_state(inst: TorchInstall, state: dict) -> None:
    inst.state_dir.mkdir(exist_ok=True)
    tmp = inst.state_dir / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    os.replace(tmp, inst.state_dir / "state.json")


def _is_linked(target: Path, src: Path) -> bool:
    """``target`` is ``src`` (hard link) or, where linking was impossible, a copy."""
    if target.is_symlink() or not target.is_file():
        return False
    return os.path.samefile(target, src) or filecmp.cmp(target, src, shallow=False)


def _link(src: Path, target: Path) -> None:
    try:
        os.link(src, target)
    except OSError:  # another file system: a copy, refreshed by every overlay
        shutil.copyfile(src, target)


@dataclass
class OverlayReport:
    linked: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)


def overlay(
    inst: TorchInstall, repo: Path = REPO, manifest: dict[str, str] | None = None
) -> OverlayReport:
    """Lay the series of ``repo`` over ``inst``; idempotent.

    Every pristine file is checked against the manifest before anything is
    touched, so a wrong version or a locally modified torch is refused and the
    installation is left as it was.
    """
    check_version(inst)
    manifest = read_manifest() if manifest is None else manifest
    files = series_files(repo)
    state = _load_state(inst)
    owned = state["files"]

    missing = [rel for rel in manifest if rel not in files]
    if missing:
        raise SeriesError(
            f"the manifest lists files that are not in {repo / 'torch'}: {missing}"
        )
    for rel in files:
        target = inst.path(rel)
        if rel in owned:
            continue
        if rel in manifest:
            if target.is_symlink() or not target.is_file():
                raise SeriesError(
                    f"{target} is missing or not a regular file; this is not a "
                    f"pristine torch {TORCH_VERSION} install"
                )
            found = sha256_file(target)
            if found != manifest[rel]:
                raise SeriesError(
                    f"{target} does not match pristine torch {TORCH_VERSION} "
                    f"(sha256 {found[:16]}..., expected {manifest[rel][:16]}...): "
                    "it was modified locally. Reinstall it with "
                    f"`pip install --force-reinstall --no-deps torch=={TORCH_VERSION}`"
                )
        elif target.exists() or target.is_symlink():
            raise SeriesError(
                f"{rel} exists in the installed torch but is not in the manifest; "
                f"import the pristine file first with `python3 tools/dev.py import {rel}`"
            )

    report = OverlayReport()
    # Files that left the series since the last overlay go back to pristine.
    for rel in sorted(set(owned) - set(files)):
        _restore_one(inst, rel, owned.pop(rel))
        report.restored.append(rel)
    for rel in files:
        src = (repo / rel).resolve()
        target = inst.path(rel)
        if rel in owned and _is_linked(target, src):
            report.unchanged.append(rel)
            continue
        if rel in owned:
            target.unlink(missing_ok=True)
        elif rel in manifest:
            backup = inst.state_dir / "pristine" / rel
            backup.parent.mkdir(parents=True, exist_ok=True)
            os.replace(target, backup)
            owned[rel] = {"pristine": True}
        else:
            parent = target.parent
            new_dirs = []
            while not parent.exists():
                new_dirs.append(str(parent.relative_to(inst.site)))
                parent = parent.parent
            target.parent.mkdir(parents=True, exist_ok=True)
            state["dirs"].extend(reversed(new_dirs))
            owned[rel] = {"pristine": False}
        _link(src, target)
        report.linked.append(rel)
        _save_state(inst, state)
    _save_state(inst, state)
    return report


def _restore_one(inst: TorchInstall, rel: str, info: dict) -> None:
    target = inst.path(rel)
    target.unlink(missing_ok=True)
    if info["pristine"]:
        os.replace(inst.state_dir / "pristine" / rel, target)


def restore(inst: TorchInstall) -> list[str]:
    """Undo :func:`overlay`: put every pristine file back, remove new ones."""
    state = _load_state(inst)
    restored = []
    for rel in sorted(state["files"]):
        _restore_one(inst, rel, state["files"][rel])
        restored.append(rel)
    for d in sorted(state["dirs"], key=len, reverse=True):
        path = inst.site / d
        shutil.rmtree(path / "__pycache__", ignore_errors=True)
        try:
            path.rmdir()
        except OSError:
            pass
    shutil.rmtree(inst.state_dir, ignore_errors=True)
    return restored


def overlay_status(inst: TorchInstall, repo: Path = REPO) -> dict[str, str]:
    """``{rel: state}`` for every series file: linked, stale, pristine or absent."""
    owned = _load_state(inst)["files"]
    out = {}
    for rel in series_files(repo):
        target = inst.path(rel)
        if rel in owned:
            out[rel] = "linked" if _is_linked(target, (repo / rel).resolve()) else "stale"
        elif target.exists():
            out[rel] = "pristine"
        else:
            out[rel] = "absent"
    return out


# --------------------------------------------------------------------------
# Import / export
# --------------------------------------------------------------------------


def pristine_bytes(inst: TorchInstall, rel: str, expected: str | None = None) -> bytes:
    """The pristine content of ``rel`` in ``inst`` (which must not be overlaid),
    verified against the wheel RECORD and, if given, the manifest digest."""
    path = inst.path(rel)
    if rel in _load_state(inst)["files"]:
        raise SeriesError(f"{path} is overlaid; use the stock twin environment")
    if not path.is_file():
        raise SeriesError(f"{rel} does not exist in torch {inst.version} ({inst.site})")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    for what, want in (("the wheel RECORD", inst.record.get(rel)), ("the manifest", expected)):
        if want is not None and digest != want:
            raise SeriesError(f"{path} does not match {what}; it was modified locally")
    if rel not in inst.record:
        raise SeriesError(f"{rel} is not listed in the RECORD of torch {inst.version}")
    return data


def import_files(rels: list[str], pristine: TorchInstall, repo: Path = REPO) -> list[str]:
    """Copy pristine files into the series and record them in the manifest."""
    check_version(pristine)
    manifest_path = repo / "tools" / MANIFEST.name
    manifest = read_manifest(manifest_path)
    rels = [normalize_relpath(r) for r in rels]
    for rel in rels:
        if (repo / rel).exists():
            raise SeriesError(f"{rel} is already in the series")
    contents = {rel: pristine_bytes(pristine, rel) for rel in rels}
    for rel, data in contents.items():
        dest = repo / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        manifest[rel] = hashlib.sha256(data).hexdigest()
    write_manifest(manifest, manifest_path)
    return rels


def _git(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_AUTHOR_NAME="series", GIT_AUTHOR_EMAIL="series@localhost",
               GIT_COMMITTER_NAME="series", GIT_COMMITTER_EMAIL="series@localhost")
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True, env=env, **kw)


def _pristine_tree(dest: Path, rels: list[str], pristine: TorchInstall,
                   manifest: dict[str, str]) -> None:
    for rel in rels:
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pristine_bytes(pristine, rel, manifest[rel]))


def export_patch(pristine: TorchInstall, repo: Path = REPO) -> str:
    """The whole series as one unified diff with ``a/torch/...``/``b/torch/...`` paths."""
    check_version(pristine)
    manifest = read_manifest(repo / "tools" / MANIFEST.name)
    files = series_files(repo)
    with tempfile.TemporaryDirectory(prefix="series-export-") as tmp:
        work = Path(tmp)
        _git(["init", "-q"], work)
        _pristine_tree(work, [r for r in files if r in manifest], pristine, manifest)
        _git(["add", "-A"], work)
        _git(["commit", "-q", "--allow-empty", "-m", "pristine"], work)
        for rel in files:
            dest = work / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(repo / rel, dest)
        _git(["add", "-A"], work)
        return _git(["diff", "--cached", "--no-color", "--no-renames"], work).stdout


def check_roundtrip(patch: str, pristine: TorchInstall, repo: Path = REPO) -> None:
    """Apply ``patch`` to a scratch pristine tree and require it to equal the series."""
    manifest = read_manifest(repo / "tools" / MANIFEST.name)
    files = series_files(repo)
    with tempfile.TemporaryDirectory(prefix="series-apply-") as tmp:
        work = Path(tmp)
        _pristine_tree(work, [r for r in files if r in manifest], pristine, manifest)
        if patch.strip():
            patch_file = work / "series.patch"
            patch_file.write_text(patch)
            try:
                subprocess.run(["git", "apply", "--check", str(patch_file)], cwd=work,
                               check=True, capture_output=True, text=True)
                subprocess.run(["git", "apply", str(patch_file)], cwd=work,
                               check=True, capture_output=True, text=True)
            except subprocess.CalledProcessError as err:
                raise SeriesError(f"git apply failed: {err.stderr.strip()}") from err
            patch_file.unlink()
        applied = sorted(
            p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_file()
        )
        if applied != files:
            raise SeriesError(
                f"patched tree has files {sorted(set(applied) ^ set(files))} that differ "
                "from the series"
            )
        for rel in files:
            if not filecmp.cmp(work / rel, repo / rel, shallow=False):
                raise SeriesError(f"{rel}: patched pristine file differs from the series")


def verify_import_commits(repo: Path = REPO) -> list[str]:
    """Problems with how pristine files entered the series (empty list = fine).

    For each manifest entry, the commit that added the file must hold exactly the
    pristine bytes, touch nothing but imported files and the manifest, and say
    that it is an import.
    """
    manifest_rel = f"tools/{MANIFEST.name}"
    manifest = read_manifest(repo / manifest_rel)
    if _git(["rev-parse", "--is-shallow-repository"], repo).stdout.strip() == "true":
        return ["the clone is shallow; import commits cannot be verified"]
    problems = []
    for rel, digest in sorted(manifest.items()):
        log = _git(["log", "--diff-filter=A", "--format=%H", "--", rel], repo).stdout.split()
        if not log:
            problems.append(f"{rel}: no commit adds it (uncommitted import?)")
            continue
        commit = log[-1]
        blob = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=repo,
                              capture_output=True, check=True).stdout
        if hashlib.sha256(blob).hexdigest() != digest:
            problems.append(f"{rel}: commit {commit[:10]} adds it modified, not pristine")
        changed = _git(["show", "--name-only", "--format=", commit], repo).stdout.split()
        added = _git(["show", "--diff-filter=A", "--name-only", "--format=", commit],
                     repo).stdout.split()
        extra = [p for p in changed
                 if p != manifest_rel and (p not in added or p not in manifest)]
        if extra:
            problems.append(f"{rel}: import commit {commit[:10]} also changes {extra}")
        subject = _git(["show", "-s", "--format=%s", commit], repo).stdout.strip()
        if not subject.startswith(IMPORT_SUBJECT):
            problems.append(f"{rel}: commit {commit[:10]} does not say it imports: {subject!r}")
    return problems

"""Watch one satchel command run as a real subprocess: what it wrote and what it ran.

Three witnesses, each independent of the others:

* the file system: `snapshot` of every folder given (each entry's type, size,
  mtime_ns, mode and link target), before and after;
* Python's audit hooks: a ``sitecustomize.py`` on the child's PYTHONPATH installs one
  before satchel is imported, and records every event that starts a process
  (``subprocess.Popen``, ``os.system``, ``os.exec``, ``os.posix_spawn``, ``os.fork``,
  ``os.forkpty``, ``os.spawn``), every ``open`` for writing, appending or creating
  outside ``/dev``, every event that changes the file system (``os.mkdir``,
  ``os.rename``, ``os.remove``, ...) and every ``socket.connect``, one line each, into
  the file `RECORD` names (opened before the hook is installed and written with
  ``os.write``, so recording records nothing), its first line saying the hook was
  installed in that very run;
* the process table: while the command runs, ``/proc`` is read over and over for a
  process whose parent is the command's.

`watch` takes the command's arguments, so the same proof holds any read-only verb.
The child runs with PYTHONDONTWRITEBYTECODE=1: the interpreter's own bytecode cache
is Python's writing, not the command's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.tools import CALL

__all__ = ["RECORD", "Watched", "snapshot", "watch"]

RECORD = "SATCHEL_TEST_AUDIT_RECORD"
INSTALLED = "audit hook installed"  # the record's first line: the hook was in that run

SITECUSTOMIZE = """\
import os, sys

_PATH = os.environ.get("{record}")
if _PATH:
    _FD = os.open(_PATH, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    _RUN = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.fork",
            "os.forkpty", "os.spawn")
    _CHANGE = ("os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.symlink", "os.link",
               "os.chmod", "os.chown", "os.utime", "os.truncate", "shutil.copyfile",
               "shutil.copytree", "shutil.move", "shutil.rmtree", "socket.connect")
    _FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

    def _writes(args):
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if isinstance(path, int) or str(os.fsdecode(path)).startswith("/dev/"):
            return False
        if isinstance(mode, str):
            return any(c in mode for c in "wax+")
        return isinstance(flags, int) and bool(flags & _FLAGS)

    def _hook(event, args):
        if event.startswith(_RUN) or event.startswith(_CHANGE) or (
            event == "open" and _writes(args)
        ):
            os.write(_FD, (event + " " + repr(args)[:300] + "\\n").encode("utf-8", "replace"))

    sys.addaudithook(_hook)
    os.write(_FD, b"{installed}\\n")
"""


def _entry(path: Path) -> tuple[str, int, int, int, str]:
    st = path.lstat()
    kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
    target = os.readlink(path) if kind == "link" else ""
    return (kind, st.st_size if kind != "dir" else 0, st.st_mtime_ns, st.st_mode, target)


def snapshot(roots: Iterable[Path]) -> dict[str, tuple[str, int, int, int, str]]:
    """Every entry below each root (the roots too; symlinks not followed): its type,
    size, mtime_ns, mode and link target, by path."""
    found: dict[str, tuple[str, int, int, int, str]] = {}
    for root in roots:
        if not os.path.lexists(root):
            found[str(root)] = ("absent", 0, 0, 0, "")
            continue
        found[str(root)] = _entry(root)
        for folder, dirs, files in os.walk(root):
            for name in (*dirs, *files):
                found[os.path.join(folder, name)] = _entry(Path(folder) / name)
    return found


def _children(pid: int) -> set[tuple[int, str]]:
    """The processes whose parent is `pid`, each with its command line."""
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            if ppid == pid:
                cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
                found.add((int(entry.name), cmdline.decode("utf-8", "replace").strip()))
        except (OSError, ValueError):
            continue  # it ended meanwhile
    return found


@dataclass(frozen=True)
class Watched:
    """What the command did: its exit code and output; the snapshots before and
    after; the audit events it raised; the children /proc showed (pid, command)."""

    returncode: int
    stdout: str
    stderr: str
    before: Mapping[str, tuple[str, int, int, int, str]]
    after: Mapping[str, tuple[str, int, int, int, str]]
    events: tuple[str, ...]
    children: frozenset[tuple[int, str]]

    def changed(self) -> list[str]:
        """The paths added, removed or changed, sorted."""
        paths = set(self.before) | set(self.after)
        return sorted(p for p in paths if self.before.get(p) != self.after.get(p))


def watch(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    roots: Sequence[Path],
    record: Path,
) -> Watched:
    """Run `argv` in `cwd` with `env` (plus the audit hook), watching `roots` and the
    process table; `record` is where the hook writes (outside every root)."""
    hook_dir = record.parent / f"{record.name}-site"
    hook_dir.mkdir(parents=True)
    site = SITECUSTOMIZE.format(record=RECORD, installed=INSTALLED)
    (hook_dir / "sitecustomize.py").write_text(site, "utf-8")
    record.write_bytes(b"")
    child_env = {**env, RECORD: str(record), "PYTHONDONTWRITEBYTECODE": "1"}
    child_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(hook_dir), env.get("PYTHONPATH", "")) if p
    )
    before = snapshot(roots)
    children: set[tuple[int, str]] = set()
    started = time.monotonic()
    out, err = record.parent / f"{record.name}.out", record.parent / f"{record.name}.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=child_env, stdin=subprocess.DEVNULL,
            stdout=stdout, stderr=stderr,
        )  # fmt: skip
        while proc.poll() is None:
            children |= _children(proc.pid)
            if time.monotonic() - started > CALL:
                proc.kill()
                raise AssertionError(f"{argv} did not end")
            time.sleep(0.01)  # a scan costs a few ms: the audit hook sees the briefest child
    after = snapshot(roots)
    lines = record.read_text("utf-8").splitlines()
    said = err.read_text("utf-8", "replace")
    assert lines[:1] == [INSTALLED], f"the audit hook was not installed in {argv}: {said}"
    return Watched(
        proc.returncode,
        out.read_text("utf-8", "replace"),
        err.read_text("utf-8", "replace"),
        before,
        after,
        tuple(lines[1:]),
        frozenset(children),
    )


def python(*args: str) -> list[str]:
    """This interpreter with `args`: how a test runs satchel (``-m satchel``)."""
    return [sys.executable, *args]

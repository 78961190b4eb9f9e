"""Read one agent file: bounded, never blocking on a FIFO, symlinks judged first."""

from __future__ import annotations

import os
from pathlib import Path

from satchel._files import FileProblem, open_regular
from satchel.diagnostics import Diagnostic, diagnostic

__all__ = ["MAX_AGENT_FILE", "read_agent_file"]

MAX_AGENT_FILE = 64 * 1024  # seed 003's cap, used for every agent file


def read_agent_file(
    path: Path, *, cap: int = MAX_AGENT_FILE, contain: Path | None = None
) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of the agent file at `path`, or None and why not.

    A symlink is read only when its target is a regular file and, with `contain`,
    lies inside that directory (a cloned repository must not pull in files from
    elsewhere on the machine)."""
    try:
        target, nofollow = _target(path, contain)
        fd, _ = open_regular(target, cap, nofollow=nofollow)
    except FileProblem as e:
        return None, [_problem(e, path, cap)]
    try:
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 16, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                return None, [_problem(FileProblem("too-large", "", total), path, cap)]
    except OSError as e:
        return None, [_problem(FileProblem("os", e.strerror or str(e)), path, cap)]
    finally:
        os.close(fd)
    return b"".join(chunks), []


def _target(path: Path, contain: Path | None) -> tuple[Path, bool]:
    """What to open: the file itself (refusing a symlink swapped in meanwhile), or
    the resolved target of a symlink."""
    try:
        if not path.is_symlink():
            return path, True
        target = path.resolve(strict=True)
    except FileNotFoundError:
        raise FileProblem("not-regular", "a symlink to nothing") from None
    except (OSError, RuntimeError):
        raise FileProblem("not-regular", "a symlink loop") from None
    if contain is not None:
        try:
            inside = target.is_relative_to(contain.resolve())
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise FileProblem("escape", f"a symlink to {target}, outside {contain}")
    return target, False


def _problem(e: FileProblem, path: Path, cap: int) -> Diagnostic:
    if e.kind == "too-large":
        return diagnostic(
            "agent.limit",
            f"the file is {e.size} bytes; the limit is {cap} ({cap // 1024} KiB); it is not read",
            path,
        )
    return diagnostic(
        "agent.invalid",
        f"cannot read the agent file: {e.message}; it is skipped",
        path,
        severity="warning",
    )

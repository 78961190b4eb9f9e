"""Read one agent file: bounded, never blocking on a FIFO, symlinks judged first."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, link_target, open_regular, read_fd
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations import frontmatter

__all__ = ["MAX_AGENT_FILE", "MAX_CLAUDE_AGENT_FILE", "read_agent_file", "toml_table"]

MAX_AGENT_FILE = 64 * 1024  # Vibe's cap on an agent file (.toml)
# Claude Code 2.1.332's cap on an agent file (.md): 1,048,576 bytes, past which it skips
# the file ("not a regular file or exceeds 1048576 byte limit", its binary)
MAX_CLAUDE_AGENT_FILE = 1024 * 1024


def read_agent_file(
    path: Path, *, cap: int | None = None, contain: Path | None = None
) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of the agent file at `path`, or None and why not. The `cap` is, unless
    given, the format's: 64 KiB for Vibe's ``.toml`` files, 1 MiB for Claude Code's
    Markdown, as each host reads them.

    A symlink is read only when its target is a regular file and, with `contain`,
    lies inside that directory (a cloned repository must not pull in files from
    elsewhere on the machine)."""
    if cap is None:
        cap = MAX_AGENT_FILE if path.suffix == ".toml" else MAX_CLAUDE_AGENT_FILE
    try:
        target, nofollow = _target(path, contain)
        fd, _ = open_regular(target, cap, nofollow=nofollow)
    except FileProblem as e:
        return None, [_problem(e, path, cap)]
    try:
        return read_fd(fd, cap), []
    except FileProblem as e:
        return None, [_problem(e, path, cap)]
    except OSError as e:
        return None, [_problem(FileProblem("os", e.strerror or str(e)), path, cap)]
    finally:
        os.close(fd)


def _target(path: Path, contain: Path | None) -> tuple[Path, bool]:
    """What to open: the file itself (refusing a symlink swapped in meanwhile), or
    the resolved target of a symlink."""
    try:
        if not path.is_symlink():
            return path, True
    except OSError:
        raise FileProblem("loop", "a symlink loop") from None  # as resolving it would say
    return link_target(path, contain), False


def _problem(e: FileProblem, path: Path, cap: int) -> Diagnostic:
    if e.kind == "too-large":
        return diagnostic(
            "agent.limit",
            f"the file is {e.size} bytes; the limit is {cap} ({_size(cap)}); it is not read",
            path,
        )
    return diagnostic(
        "agent.invalid",
        f"cannot read the agent file: {e.message}; it is skipped",
        path,
        severity="warning",
    )


def _size(cap: int) -> str:
    return f"{cap >> 20} MiB" if cap % (1 << 20) == 0 else f"{cap // 1024} KiB"


def toml_table(data: bytes, path: Path) -> tuple[dict[str, Any], Diagnostic | None]:
    """The TOML table of an agent file `data` (read from `path`), or ``agent.invalid``
    (the TOML parser is imported only here, when a TOML file is read)."""
    problem = frontmatter.check_text(data, 0, path)
    if problem is not None:
        return {}, problem
    from satchel.core import _toml

    try:
        return _toml.loads(data.decode("utf-8").removeprefix("\ufeff")), None
    except ValueError as e:  # not TOML, or nested too deep
        return {}, diagnostic("agent.invalid", f"not valid TOML: {e}", path)

"""Shell interpolation in a skill body: find the commands, replace each once.

Two forms run, as in Claude Code's skills:

* `` !`cmd` `` at the start of a line or after whitespace (so ``KEY=!`x` `` does not);
* a fenced block whose info string is exactly ``!`` (```` ```! ````): its whole text
  is one command.

Nothing inside any other fenced code block runs, nor ``$(...)``, plain backticks or a
``!`` in prose. Replacement is a single pass over the original text: output is
inlined as it is and never scanned again. This module only finds and replaces; what
runs a command, and whether it may, is the caller's (see `satchel.session`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

from satchel.core._model import model

__all__ = ["Command", "command_variables", "find_commands", "interpolate"]

_INLINE = re.compile(r"(?:(?<=\s)|^)!`([^`\n]+)`", re.M)
_BREAKS = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines() splits on
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^\n]*?)[ \t]*$")


@model
class Command:
    """One command found in a body: `text[start:end]` is replaced by its output."""

    start: int
    end: int
    command: str
    form: Literal["inline", "block"]


def find_commands(text: str) -> tuple[Command, ...]:
    """Every command in `text`, in order."""
    return tuple(_scan(text))


def interpolate(
    text: str, run: Callable[[Command], str], between: Callable[[str], str] | None = None
) -> str:
    """`text` with each command replaced by `run(command)`, in one pass; `between`, when
    given, rewrites the text outside the commands (a skill's placeholders), never
    their output."""
    keep = between or _same
    out: list[str] = []
    at = 0
    for command in find_commands(text):
        out.append(keep(text[at : command.start]))
        out.append(run(command))
        at = command.end
    out.append(keep(text[at:]))
    return "".join(out)


def _same(text: str) -> str:
    return text


def _lines(text: str) -> Iterator[tuple[int, str]]:
    at = 0
    for line in text.splitlines(keepends=True):
        yield at, line
        at += len(line)


def _scan(text: str) -> Iterator[Command]:
    fence: tuple[str, int, bool, int, int] | None = None  # char, length, shell?, start, body
    for at, line in _lines(text):
        bare = line.splitlines()[0] if line.strip("\r\n") else ""
        opened = _FENCE.match(bare)
        if fence is None:
            if opened:
                marks, info = opened.group(1), opened.group(2)
                fence = (marks[0], len(marks), info == "!", at, at + len(line))
            else:
                yield from _inline(line, at)
            continue
        char, length, is_shell, start, body = fence
        closes = opened and not opened.group(2) and opened.group(1)[0] == char
        if closes and opened and len(opened.group(1)) >= length:
            if is_shell:
                command = text[body:at].rstrip(_BREAKS)
                yield Command(start, at + len(bare), command, "block")
            fence = None


def _inline(line: str, at: int) -> Iterator[Command]:
    for found in _INLINE.finditer(line):
        yield Command(at + found.start(), at + found.end(), found.group(1).strip(), "inline")


def command_variables(directory: Path, project: Path) -> dict[str, str]:
    """The variables a skill's command runs with, named as each host names them: the
    skill's folder (`directory`) and the project's. What runs the command and what
    pins it (`satchel trust`) both read them here, so the two agree."""
    return {
        "SKILL_DIR": str(directory),
        "CLAUDE_SKILL_DIR": str(directory),
        "PROJECT_DIR": str(project),
        "CLAUDE_PROJECT_DIR": str(project),
    }

"""Read one Gemini CLI custom command: a ``.toml`` file under a ``commands/`` directory.

Gemini CLI's rules (docs/cli/custom-commands.md; packages/cli/src/services/
FileCommandLoader.ts in google-gemini/gemini-cli):

* The file is TOML with ``prompt`` (a string, required) and ``description`` (a string,
  optional; default ``Custom command from <file name>``). A file that is not TOML,
  has no ``prompt`` or gives either field another type is skipped
  (``command.toml.invalid``). Any other key is kept in `Command.extras`.
* The name is the path below the commands directory without ``.toml``, each
  directory a segment joined by ``:`` (``git/commit.toml`` is ``git:commit``). As in
  Gemini CLI, every character outside ``A-Z a-z 0-9 _ - .`` becomes ``_`` and a segment
  longer than 50 characters is cut to 47 and ``...``.
* ``{{args}}`` is the argument placeholder (`satchel.kinds.commands._arguments.expand_gemini`).
* ``!{...}`` runs a shell command and ``@{...}`` inlines a file in Gemini CLI. A command
  never runs anything in satchel (as Claude Code's `` !`cmd` `` lines in a command file
  are left as written), so both reach the model as written, and each file holding one
  gets one ``command.injection.unsupported`` (info).

The prompt is read with the metadata (TOML has no head to stop at) and held in
`Command.text`; the file is at most 1 MiB and is opened under the same symlink rule
as a Markdown command file (`satchel.kinds.commands._files`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import FileProblem
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import parse_toml
from satchel.foundations.origin import NO_ORIGIN, Origin
from satchel.kinds.commands._files import MAX_COMMAND_FILE, read_command_file
from satchel.kinds.commands._model import Command
from satchel.kinds.commands._names import segments_name

__all__ = ["INJECTIONS", "TOML_SUFFIX", "gemini_segment", "injections", "read_toml_command"]

TOML_SUFFIX = ".toml"
INJECTIONS = ("!{", "@{")
INVALID = "command.toml.invalid"
MAX_DESCRIPTION = 1024
_OUTSIDE = re.compile(r"[^a-zA-Z0-9_\-.]")
_MAX_SEGMENT = 50


def gemini_segment(segment: str) -> str:
    """One path segment as Gemini CLI makes it a name segment."""
    cleaned = _OUTSIDE.sub("_", segment)
    return cleaned[:47] + "..." if len(cleaned) > _MAX_SEGMENT else cleaned


def injections(text: str, trigger: str = "!{") -> list[tuple[int, str]]:
    """Where each ``!{...}`` (or `trigger`) of `text` starts and what it holds, stripped,
    found as Gemini CLI finds them (injectionParser.ts: braces inside are counted, so
    ``!{echo {a}}`` is one). An unclosed one ends the search (Gemini CLI refuses the
    prompt when the command is invoked). Only finds: nothing is run."""
    found: list[tuple[int, str]] = []
    at = text.find(trigger)
    while at >= 0:
        depth, end = 1, at + len(trigger)
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        if depth:
            break
        found.append((at, text[at + len(trigger) : end - 1].strip()))
        at = text.find(trigger, end)
    return found


def read_toml_command(
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    group: str = "",
    inside: Path | None = None,
) -> tuple[Command | None, list[Diagnostic]]:
    """The Gemini CLI command in the TOML file `path`; (None, why) when it cannot be
    used. `group` is its directory below the commands root (``"git"``); a namespace in
    `origin` qualifies its name (``<namespace>:git:commit``). A symlinked file must
    resolve inside `inside` (None: anywhere). Never raises for a bad file."""
    try:
        data = read_command_file(path, inside)
    except FileProblem as e:
        return None, [_file_problem(e, path)]
    doc, problem = parse_toml(data, path, INVALID)
    if doc is None:
        return None, [] if problem is None else [_skipped(problem)]
    fields = _fields(doc, path)
    if isinstance(fields, Diagnostic):
        return None, [fields]
    prompt, description = fields
    segments = [gemini_segment(g) for g in group.split("/") if g]
    name = segments_name(*segments, gemini_segment(path.name.removesuffix(TOML_SUFFIX)))
    if origin.namespace:
        name = segments_name(origin.namespace, name)
    extras = {k: v for k, v in doc.items() if k not in ("prompt", "description")}
    command = Command(
        name=name,
        description=description,
        extras=MappingProxyType(extras),
        path=path,
        origin=origin,
        group=group,
        text=prompt,
        syntax="toml",
        _inside=inside,
    )
    return command, _injections(prompt, path)


def _fields(doc: Mapping[str, Any], path: Path) -> tuple[str, str] | Diagnostic:
    """The prompt and the description, or why the file is skipped."""
    prompt = doc.get("prompt")
    if prompt is None:
        return _invalid("it has no prompt", path)
    if not isinstance(prompt, str):
        return _invalid(f"prompt must be a string, not {type_name(prompt)}", path)
    description = doc.get("description")
    if description is not None and not isinstance(description, str):
        return _invalid(f"description must be a string, not {type_name(description)}", path)
    if not description:
        description = f"Custom command from {path.name}"
    return prompt, description[:MAX_DESCRIPTION]


def _injections(prompt: str, path: Path) -> list[Diagnostic]:
    found = [marker for marker in INJECTIONS if marker in prompt]
    if not found:
        return []
    shown = " and ".join(f"{m}...}}" for m in found)
    message = (
        f"the prompt holds Gemini CLI's {shown}; satchel runs and reads nothing for a "
        "command, so it reaches the model as written"
    )
    return [diagnostic("command.injection.unsupported", message, path)]


def _invalid(why: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, f"{why}; the command is skipped", path)


def _skipped(problem: Diagnostic) -> Diagnostic:
    return replace(problem, message=f"{problem.message}; the command is skipped")


def _file_problem(e: FileProblem, path: Path) -> Diagnostic:
    if e.kind == "too-large":
        message = f"the file is {e.size} bytes; the limit is {MAX_COMMAND_FILE} (1 MiB)"
    else:
        message = f"cannot read the command file: {e.message}"
    return diagnostic("command.read.error", message, path)

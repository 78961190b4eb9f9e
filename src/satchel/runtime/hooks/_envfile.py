"""``CLAUDE_ENV_FILE``: the file a session-start hook writes ``export`` lines to.

Claude Code gives each ``SessionStart`` hook (and ``Setup``, ``CwdChanged``,
``FileChanged`` ones) a writable file of its own, named by ``CLAUDE_ENV_FILE``; what the
hooks write there is sourced before each later Bash command of the session. satchel
does the same for every hook of those events: each gets an empty file (mode 0600) in a
private temporary directory, and after the hooks have run their files are read back in
declared order, bounded, into `Exports` (`Outcome.exports`), and removed. The host
applies them as it runs its own shell commands: satchel never runs the text.

Only ``export NAME=value`` lines are read (quotes are removed as a shell would; nothing
is expanded, so ``$HOME`` stays as written); blank lines and comments are skipped. Any
other line, a value that cannot be split, a name that is not a variable name, or a
variable that injects code into a process (``LD_PRELOAD``, ``NODE_OPTIONS``...,
`satchel.foundations.process.is_dangerous_env`) is left out with ``hook.env.ignored``. The whole
text stays in `Exports.script` for a host that sources it itself.

A ``PATH`` that puts a directory of the project before the ones it had (``bin``,
``./bin``, ``$CLAUDE_PROJECT_DIR/bin``, an empty entry, an absolute path inside the
project) is kept, as Claude Code keeps it, and reported with ``hook.env.path``: a
program the project's files hold there would then run in place of the system's
``git`` or ``ls`` in each later shell command.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from satchel.core._files import FileProblem, read_bounded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.process import is_dangerous_env
from satchel.hooks._model import Exports, Hook
from satchel.hooks._variables import ENV_FILE_VARIABLE

__all__ = ["ENV_FILE_EVENTS", "MAX_ENV_FILE", "collect", "env_file", "read_env_file"]

ENV_FILE_EVENTS = frozenset(("session_start", "setup", "cwd_changed", "file_changed"))
MAX_ENV_FILE = 64 * 1024
IGNORED = "hook.env.ignored"
PATH_FIRST = "hook.env.path"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_OLD_PATH = re.compile(r"\$(?:PATH\b|\{PATH\})")
_PROJECT_VARIABLE = re.compile(
    r"\$(?:\{(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|PWD)\}|(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|PWD)\b)"
)


def env_file(directory: Path, event: str, index: int) -> Path:
    """A new, empty file for hook number `index` (from 0) of `event`, private to the user."""
    path = directory / f"{event.lower()}-hook-{index}.sh"
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
    return path


def read_env_file(
    path: Path, hook: Hook, project: Path | None = None
) -> tuple[Exports, tuple[Diagnostic, ...]]:
    """What `hook` wrote to its file at `path` (see the module docstring); with `project`
    (the project root, where the later shell commands run), a ``PATH`` that puts one of
    its directories first is reported."""
    try:
        data = read_bounded(path, MAX_ENV_FILE)
    except FileProblem as e:
        if e.kind == "missing":
            return Exports(), ()
        why = f"larger than {MAX_ENV_FILE:,} bytes" if e.kind == "too-large" else e.message
        return Exports(), (_ignored(hook, f"its {ENV_FILE_VARIABLE} cannot be read ({why})"),)
    text = data.decode("utf-8", "replace")
    variables: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for number, line in enumerate(text.splitlines(), 1):
        found, left_out = _exports(line)
        if left_out is not None:
            problems.append(_ignored(hook, f"line {number} of its {ENV_FILE_VARIABLE} {left_out}"))
        variables.update(found)
        if project is not None and "PATH" in found:
            problems.extend(_project_first(hook, number, found["PATH"], project))
    return Exports(tuple(variables.items()), text), tuple(problems)


def collect(found: list[Exports]) -> Exports:
    """Several hooks' exports in declared order: a later value of a name wins."""
    variables: dict[str, str] = {}
    for exports in found:
        variables.update(exports.pairs)
    texts = [e.script if e.script.endswith("\n") else f"{e.script}\n" for e in found if e.script]
    script = "".join(texts)
    return Exports(tuple(variables.items()), script)


def _exports(line: str) -> tuple[dict[str, str], str | None]:
    """The variables one line exports, and why (part of) it is left out."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return {}, None
    if not stripped.startswith("export "):
        return {}, "is not an `export NAME=value` line; it is ignored"
    try:
        words = shlex.split(stripped[len("export ") :], comments=True)
    except ValueError as e:
        return {}, f"cannot be split as a shell would ({e}); it is ignored"
    found: dict[str, str] = {}
    why: str | None = None
    for word in words:
        name, equals, value = word.partition("=")
        if not _NAME.match(name):
            why = why or f"exports {name!r}, which is not a variable name; it is ignored"
        elif is_dangerous_env(name):
            why = why or f"sets {name}, which injects code into a process; it is ignored"
        elif equals:
            found[name] = value
    return found, why


def _project_first(hook: Hook, number: int, value: str, project: Path) -> list[Diagnostic]:
    """``hook.env.path`` for the first entry of `value` that is the project's and comes
    before the ``PATH`` it had (every entry, when it does not keep the old one)."""
    for entry in value.split(":"):
        if _OLD_PATH.search(entry):
            return []
        if _of_project(entry, project):
            shown = entry or "an empty entry (the working directory)"
            return [
                diagnostic(
                    PATH_FIRST,
                    f"hook {hook.name!r}: line {number} of its {ENV_FILE_VARIABLE} puts "
                    f"{shown} (a directory of the project) on PATH before the system's "
                    "directories; a program the project holds there runs in place of the "
                    "one of the same name in each later shell command",
                    hook.spec.path,
                )
            ]
    return []


def _of_project(entry: str, project: Path) -> bool:
    """Whether a ``PATH`` entry, as written, names a directory of `project` (relative
    entries are relative to the working directory, which is the project)."""
    if _PROJECT_VARIABLE.match(entry) or not entry.startswith(("/", "$", "~")):
        return True
    return entry.startswith("/") and Path(os.path.normpath(entry)).is_relative_to(project)


def _ignored(hook: Hook, what: str) -> Diagnostic:
    return diagnostic(IGNORED, f"hook {hook.name!r}: {what}", hook.spec.path)

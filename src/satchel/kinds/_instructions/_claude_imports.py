"""Claude Code's ``@path`` imports in its instruction files, read as Claude Code reads
them (2.1.332 and 2.1.337, observed by running them: tests/hostloop/test_context.py).

An import is ``@`` at the start of a line or after whitespace, then a path up to the
next whitespace (``\\ `` is an escaped space), outside fenced code blocks and code
spans; ``me@x.md`` and ``(@x.md)`` are not imports. The path is relative to the
importing file's folder, or ``~/``-rooted (the home), or absolute; it needs no
extension. A file that is missing, or was read before, is skipped without a word.
The imported file is sent as a file of its own, labelled as its importer is, right
after the file that imports it (its own imports after it, depth first). Four levels of imports below
a file are read; a fifth is not. A project file's import outside the working folder
is not read: Claude Code asks before it reads such an import, and in print mode it
reads none (``instructions.imports``, info, names them); the user's files import from
anywhere. A conditional rule's imports are not read at the start.
"""

from __future__ import annotations

import re
from pathlib import Path

from satchel.core.diagnostics import diagnostic
from satchel.kinds._instructions._model import Kind, Scope
from satchel.kinds._instructions._read import Loader

__all__ = ["MAX_DEPTH", "claude_imports", "read_imports"]

MAX_DEPTH = 4
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_FIRST = re.compile(r"[A-Za-z0-9._-]")


def claude_imports(text: str) -> list[str]:
    """The ``@path`` imports of `text`, in order, as written (spaces unescaped)."""
    found: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in _IMPORT.finditer(_CODE_SPAN.sub(" ", line)):
            raw = m.group(1).replace("\\ ", " ")
            rooted = raw.startswith(("./", "~/")) or (raw.startswith("/") and raw != "/")
            if rooted or _FIRST.match(raw):
                found.append(raw)
    return found


def _resolve(raw: str, folder: Path, home: Path) -> Path:
    if raw.startswith("~/"):
        return home / raw[2:]
    return Path(raw) if raw.startswith("/") else folder / raw


def _outside(loader: Loader, path: Path, scope: Scope) -> bool:
    if scope != "project":
        return False
    return not Path(path).resolve().is_relative_to(loader.layout.cwd.resolve())


def read_imports(
    loader: Loader, importer: Path, text: str, scope: Scope, kind: Kind, depth: int = 1
) -> list[tuple[Path, str]]:
    """The files `importer` (whose text is `text`) imports, depth first, each with its
    text, read through `loader` (so each file once, inside its bounds); the caller adds
    them where Claude Code puts them."""
    if depth > MAX_DEPTH:
        return []
    out: list[tuple[Path, str]] = []
    away: list[str] = []
    for raw in claude_imports(text):
        path = _resolve(raw, importer.parent, loader.layout.home)
        if _outside(loader, path, scope):
            if path.exists():
                away.append(raw)
            continue
        got = loader.read(path, scope)
        if not got:
            continue
        out.append((path, got))
        out += read_imports(loader, path, got, scope, kind, depth + 1)
    if away:
        shown = ", ".join(f"@{a}" for a in away)
        loader.diags.append(
            diagnostic(
                "instructions.imports",
                f"{loader.label(importer, scope)} imports files outside the working folder, "
                f"which Claude Code reads only once the user approves them: {shown}",
                importer,
                hint="Claude Code asks in an interactive session; in print mode it reads none",
            )
        )
    return out

"""Gemini CLI's ``@path`` imports in a GEMINI.md, inlined as Gemini CLI 0.61.0 inlines
them (its memory import processor, "tree" format; compared with the real host in
tests/hostloop/test_context.py).

An import is ``@`` at the start of the text or after a space, tab or line break, then
everything up to the next one, when it starts with ``.``, ``/`` or an ASCII letter. One
inside a code region (a run of backticks up to the same run, across lines: code spans
and fenced blocks alike) stays as written. The path is relative to the importing
file's folder and must stay, symlinks resolved, inside the project root (the nearest
folder above the file holding ``.git``, else the file's own folder) and, for a project
file, inside satchel's project; it is replaced by::

    <!-- Imported from: PATH -->
    THE FILE'S TEXT, ITS OWN IMPORTS INLINED
    <!-- End of import from: PATH -->

A path outside the root becomes ``<!-- Import failed: PATH - Path traversal attempt
-->``, one that cannot be read ``<!-- Import failed: PATH - REASON -->`` (Node's
reason, ``ENOENT: no such file or directory, access '...'``), a file already imported
on the way down ``<!-- File already processed: PATH -->``. Five levels are inlined;
a file five levels down keeps its imports as written. URLs (``http://``,
``https://``, ``file://``) are never imported.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from satchel.core._files import FileProblem, open_regular, read_fd

__all__ = ["MAX_DEPTH", "find_imports", "inline_imports"]

MAX_DEPTH = 5
_SPACE = frozenset(" \t\n\r")
_CODE = re.compile(r"(`+)([\s\S]*?)\1")
_URL = re.compile(r"^(file|https?)://")


def find_imports(content: str) -> list[tuple[int, int, str]]:
    """Each import's start, end and path, as Gemini CLI's ``findImports``."""
    found: list[tuple[int, int, str]] = []
    i, size = 0, len(content)
    while i < size:
        i = content.find("@", i)
        if i == -1:
            break
        if i > 0 and content[i - 1] not in _SPACE:
            i += 1
            continue
        j = i + 1
        while j < size and content[j] not in _SPACE:
            j += 1
        path = content[i + 1 : j]
        if path and (path[0] in "./" or ("A" <= path[0] <= "Z") or ("a" <= path[0] <= "z")):
            found.append((i, j, path))
        i = j + 1
    return found


def project_root(folder: Path) -> Path:
    """The nearest folder at or above `folder` holding ``.git``, else `folder`."""
    for d in (folder, *folder.parents):
        if os.path.lexists(d / ".git"):
            return d
    return folder


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    real = Path(os.path.realpath(path))
    return all(real.is_relative_to(os.path.realpath(r)) for r in roots)


def _read(path: Path, max_file: int) -> str:
    """The text of `path` (bad UTF-8 replaced, as Node reads it), or OSError with
    the reason Node would give."""
    if not os.path.lexists(path) or not os.path.exists(path):
        raise OSError(f"ENOENT: no such file or directory, access '{path}'")
    if os.path.isdir(path):
        raise OSError("EISDIR: illegal operation on a directory, read")
    try:
        fd, _ = open_regular(path, max_file)
    except FileProblem as e:
        raise OSError(e.message) from None
    try:
        return read_fd(fd, max_file).decode("utf-8", "replace")
    finally:
        os.close(fd)


def inline_imports(
    content: str,
    folder: Path,
    bounds: tuple[Path, ...],
    max_file: int,
    *,
    seen: frozenset[Path] = frozenset(),
    depth: int = 0,
) -> str:
    """`content` (a file in `folder`) with its imports inlined; `bounds` are the
    folders an import must stay inside (the project root, and satchel's project)."""
    if depth >= MAX_DEPTH:
        return content
    code = [(m.start(), m.end()) for m in _CODE.finditer(content)]
    out: list[str] = []
    last = 0
    for start, end, raw in find_imports(content):
        out.append(content[last:start])
        last = end
        if any(a <= start < b for a, b in code):
            out.append(f"@{raw}")
            continue
        full = Path(os.path.normpath(folder / raw))
        if _URL.match(raw) or not _inside(full, bounds):
            out.append(f"<!-- Import failed: {raw} - Path traversal attempt -->")
            continue
        if full in seen:
            out.append(f"<!-- File already processed: {raw} -->")
            continue
        try:
            text = _read(full, max_file)
        except OSError as e:
            out.append(f"<!-- Import failed: {raw} - {e} -->")
            continue
        inner = inline_imports(
            text, full.parent, bounds, max_file, seen=seen | {full}, depth=depth + 1
        )
        out.append(f"<!-- Imported from: {raw} -->\n{inner}\n<!-- End of import from: {raw} -->")
    out.append(content[last:])
    return "".join(out)

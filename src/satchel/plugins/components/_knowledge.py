"""Vibe knowledge folders: ``ai.mistral.vibe/knowledge/<name>/KNOWLEDGE.md`` (Vibe
Step 6).

Each folder holds a ``KNOWLEDGE.md`` (at most 256 KiB) whose frontmatter has `name`
(equal to the folder name, ``^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$``), `description`
(5-300 characters), and optionally `display_name` (at most 100) and `icon` (at most
16); other fields are ignored. A folder holding a symlink anywhere, or being one, is
refused. At most 100 folders load: the first 100 by name, the rest reported. A bad
folder is dropped with `plugin.knowledge.invalid`; the others load. Names are stored
bare; the caller qualifies them ``<namespace>:<name>``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations import frontmatter
from satchel.foundations._contain import (
    MAX_TREE_ENTRIES,
    OUTSIDE_ROOT,
    Refusal,
    absent,
    find_symlink,
    is_inside,
    read_inside,
    real_below,
    real_path,
)
from satchel.plugins._model import Knowledge

__all__ = [
    "ENTRYPOINT",
    "MAX_DESCRIPTION",
    "MAX_DISPLAY_NAME",
    "MAX_ENTRYPOINT",
    "MAX_FOLDERS",
    "MAX_ICON",
    "MIN_DESCRIPTION",
    "NAME",
    "load_knowledge",
]

INVALID = "plugin.knowledge.invalid"
ENTRYPOINT = "KNOWLEDGE.md"
NAME = r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"
MAX_FOLDERS = 100
MAX_ENTRYPOINT = 256 * 1024
MIN_DESCRIPTION, MAX_DESCRIPTION = 5, 300
MAX_DISPLAY_NAME = 100
MAX_ICON = 16
_NAME = re.compile(NAME)


@model
class _Source:
    root: Path
    plugin: str
    namespace: str
    resolved: bool  # `root` is already a real path


class _Bad(Exception):
    """One folder is invalid: raised by the checks, caught per folder."""

    def __init__(self, message: str, path: Path, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


def load_knowledge(
    directory: Path, root: Path, plugin: str, namespace: str, *, resolved: bool = False
) -> tuple[tuple[Knowledge, ...], list[Diagnostic]]:
    """The knowledge folders under `directory` (``<root>/ai.mistral.vibe/knowledge``).
    `resolved`: `root` is already a real path."""
    if absent(directory):
        return (), []
    base = root if resolved else real_path(root)
    names = _folders(directory, base)
    if isinstance(names, Diagnostic):
        return (), [names]
    diags: list[Diagnostic] = []
    if len(names) > MAX_FOLDERS:
        skipped = ", ".join(names[MAX_FOLDERS:][:5]) + (
            ", ..." if len(names) > MAX_FOLDERS + 5 else ""
        )
        message = (
            f"{len(names)} knowledge folders; the limit is {MAX_FOLDERS}: {skipped} are not loaded"
        )
        diags.append(diagnostic(INVALID, message, directory))
        names = names[:MAX_FOLDERS]
    found: list[Knowledge] = []
    src = _Source(root, plugin, namespace, resolved)
    for name in names:
        try:
            item, warnings = _folder(directory / name, src)
        except _Bad as bad:
            message = f"knowledge {namespace}:{name}: {bad}; the folder is skipped"
            diags.append(diagnostic(INVALID, message, bad.path, line=bad.line))
            continue
        found.append(item)
        diags.extend(warnings)
    return tuple(found), diags


def _folders(directory: Path, base: Path | None) -> list[str] | Diagnostic:
    """The sorted names of the folders in `directory` (a symlink to a directory counts,
    to be refused), or why the directory cannot be used (`base`: the real root)."""
    target = None if base is None else real_below(directory, base)
    if base is None or target is None or not is_inside(target, base):
        message = f"{directory} resolves outside the plugin root"
        return diagnostic(OUTSIDE_ROOT, message, directory, severity="warning")
    if directory.is_symlink():
        return diagnostic(INVALID, "the knowledge directory is a symlink", directory)
    names: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for count, entry in enumerate(entries, 1):
                if count > MAX_TREE_ENTRIES:
                    why = f"the knowledge directory holds more than {MAX_TREE_ENTRIES} entries"
                    return diagnostic(INVALID, why, directory)
                if entry.is_dir():
                    names.append(entry.name)
    except OSError as e:
        return diagnostic(
            INVALID, f"the knowledge directory cannot be listed: {e.strerror or e}", directory
        )
    return sorted(names)


def _folder(folder: Path, src: _Source) -> tuple[Knowledge, list[Diagnostic]]:
    name = folder.name
    if folder.is_symlink():
        raise _Bad("the folder is a symlink; knowledge folders may hold no symlinks", folder)
    if not _NAME.fullmatch(name):
        raise _Bad(f"the folder name must match {NAME}", folder)
    link = find_symlink(folder)
    if link is not None:
        raise _Bad(f"{link}; knowledge folders may hold no symlinks", folder)
    entry = folder / ENTRYPOINT
    data = read_inside(entry, src.root, MAX_ENTRYPOINT, resolved=src.resolved)
    if isinstance(data, Refusal):
        raise _Bad(f"{ENTRYPOINT}: {data.message}", entry)
    problem = frontmatter.check_text(data, 0, entry)
    if problem is not None:
        raise _Bad(f"{ENTRYPOINT}: {problem.message}", entry, problem.line)
    parsed = frontmatter.parse(data, entry)
    errors = [d for d in parsed.diagnostics if d.severity == "error"]
    if parsed.fields is None or errors:
        first = errors[0] if errors else parsed.diagnostics[0]
        raise _Bad(f"{ENTRYPOINT} frontmatter: {first.message}", entry, first.line)
    item = _knowledge(parsed.fields, name, entry, src.plugin)
    return item, list(parsed.diagnostics)


def _knowledge(fields: Mapping[str, Any], name: str, entry: Path, plugin: str) -> Knowledge:
    declared = fields.get("name")
    if declared != name:
        why = "has no name" if declared is None else f"names {declared!r}"
        raise _Bad(f"the frontmatter {why}; it must equal the folder name {name!r}", entry)
    description = _text(fields, "description", entry, required=True)
    if description is None or not MIN_DESCRIPTION <= len(description) <= MAX_DESCRIPTION:
        size = 0 if description is None else len(description)
        why = f"description is {size} characters; it must be {MIN_DESCRIPTION}-{MAX_DESCRIPTION}"
        raise _Bad(why, entry)
    display_name = _text(fields, "display_name", entry, limit=MAX_DISPLAY_NAME)
    icon = _text(fields, "icon", entry, limit=MAX_ICON)
    return Knowledge(name, description, entry, display_name=display_name, icon=icon, plugin=plugin)


def _text(
    fields: Mapping[str, Any], key: str, entry: Path, *, required: bool = False, limit: int = 0
) -> str | None:
    value = fields.get(key)
    if value is None:
        if required:
            raise _Bad(f"the frontmatter has no {key}", entry)
        return None
    if not isinstance(value, str):
        raise _Bad(f"{key} must be a string, not {type_name(value)}", entry)
    if limit and len(value) > limit:
        raise _Bad(f"{key} is {len(value)} characters; the limit is {limit}", entry)
    return value

"""Vibe libraries: ``libraries.json`` maps import aliases to sources inside the plugin
(Vibe Step 8).

``{"schemaVersion": 1, "node": {alias: "./dir"}, "python": {alias: "./dir" | "./x.py"}}``:
node aliases match `NODE_ALIAS` (at most 214 characters), python aliases
`PYTHON_ALIAS` (at most 128); at most 128 entries per language. A source is a ``./``
POSIX path with no ``..`` and no backslash, inside the root, passing through no
symlink and holding none; node sources are directories, python sources a directory
or a ``.py`` file. A bad file drops every library of the plugin
(`plugin.libraries.invalid`); a bad entry drops that entry (`plugin.library.invalid`).
`drop_colliding` then drops an alias that several plugins declare, from all of them.
`Library.path` is the resolved source: the alias -> path map the host exposes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import (
    OUTSIDE_ROOT,
    Bad,
    Refusal,
    bounded,
    find_symlink,
    real_path,
    relative_form,
    resolve_in_root,
    symlink_on_path,
    versioned_object,
    with_json,
)
from satchel.plugins._model import Library

__all__ = [
    "MAX_NODE_ALIAS",
    "MAX_PER_LANGUAGE",
    "MAX_PYTHON_ALIAS",
    "NODE_ALIAS",
    "PYTHON_ALIAS",
    "drop_colliding",
    "load_libraries",
]

FILE_INVALID = "plugin.libraries.invalid"
INVALID = "plugin.library.invalid"
COLLISION = "plugin.library.alias_collision"
NODE_ALIAS = r"^(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$"
PYTHON_ALIAS = r"^[A-Za-z_][A-Za-z0-9_]*$"
MAX_NODE_ALIAS = 214
MAX_PYTHON_ALIAS = 128
MAX_PER_LANGUAGE = 128
Language = Literal["node", "python"]
_ALIASES: Mapping[Language, tuple[re.Pattern[str], int]] = {
    "node": (re.compile(NODE_ALIAS), MAX_NODE_ALIAS),
    "python": (re.compile(PYTHON_ALIAS), MAX_PYTHON_ALIAS),
}
_LANGUAGES: tuple[Language, ...] = ("node", "python")


def load_libraries(
    path: Path, root: Path, plugin: str, *, resolved: bool = False
) -> tuple[tuple[Library, ...], list[Diagnostic]]:
    """The libraries ``libraries.json`` declares, each source checked on disk.
    `resolved`: `root` is already a real path."""
    return with_json(
        path,
        root,
        FILE_INVALID,
        lambda data: _libraries(data, path, root, plugin, resolved),
        resolved=resolved,
    )


def _libraries(
    data: Any, path: Path, root: Path, plugin: str, resolved: bool
) -> tuple[tuple[Library, ...], list[Diagnostic]]:
    tables = _tables(data)
    if isinstance(tables, str):
        return (), [diagnostic(FILE_INVALID, f"{tables}; no library of this plugin loads", path)]
    found: list[Library] = []
    diags: list[Diagnostic] = []
    for language, table in tables:
        for alias, source in table.items():
            try:
                found.append(_library(language, alias, source, root, plugin, resolved))
            except Bad as bad:
                message = f"{language} library {alias!r}: {bad}; it is skipped"
                diags.append(diagnostic(bad.code or INVALID, message, path, severity="warning"))
    return tuple(found), diags


def _tables(data: Any) -> list[tuple[Language, Mapping[str, Any]]] | str:
    """The (language, alias map) pairs of a valid top level, or what is wrong with it."""
    problem = versioned_object(data, "libraries.json", ("schemaVersion", *_LANGUAGES))
    if problem is not None:
        return problem
    tables: list[tuple[Language, Mapping[str, Any]]] = []
    for language in _LANGUAGES:
        table = _table(data, language)
        if isinstance(table, str):
            return table
        tables.append((language, table))
    return tables


def _table(data: Mapping[str, Any], language: Language) -> Mapping[str, Any] | str:
    table = data.get(language, {})
    problem = bounded(
        table,
        dict,
        f"{language} must be an object of alias -> path",
        MAX_PER_LANGUAGE,
        lambda n: f"{language} declares {n} libraries; the limit is {MAX_PER_LANGUAGE}",
    )
    return table if problem is None else problem


def _library(
    language: Language, alias: str, source: Any, root: Path, plugin: str, resolved: bool
) -> Library:
    pattern, limit = _ALIASES[language]
    if len(alias) > limit or not pattern.fullmatch(alias):
        raise Bad(f"the alias must match {pattern.pattern} and be at most {limit} characters")
    if not isinstance(source, str):
        raise Bad(f"the source must be a string, not {type_name(source)}")
    why = relative_form(source)
    if why is None and ".." in source.split("/"):
        why = "it has a .. segment"
    if why is not None:
        raise Bad(f"source {source!r}: {why}")
    base = root if resolved else real_path(root)
    link = None if base is None else symlink_on_path(base, source)
    if link is not None:
        raise Bad(f"source {source!r}: {link} is a symlink; library paths may hold no symlinks")
    target = resolve_in_root(root, source, resolved=resolved)
    if isinstance(target, Refusal):
        raise Bad(f"source {target.message}", OUTSIDE_ROOT if target.outside else INVALID)
    if target == base:
        raise Bad(f"source {source!r}: it names the plugin root itself")
    _check_kind(language, source, target)
    return Library(language, alias, target, plugin)


def _check_kind(language: Language, source: str, target: Path) -> None:
    if not target.exists():
        raise Bad(f"source {source!r} does not exist")
    if target.is_dir():
        link = find_symlink(target)
        if link is not None:
            raise Bad(f"source {source!r}: {link}; library directories may hold no symlinks")
        return
    if language == "node":
        raise Bad(f"source {source!r} must be a directory (a node package)")
    if not target.is_file() or target.suffix != ".py":
        raise Bad(f"source {source!r} must be a directory (a package) or a .py file")


def drop_colliding(libraries: Sequence[Library]) -> tuple[tuple[Library, ...], list[Diagnostic]]:
    """`libraries` without the aliases more than one plugin declares (per language):
    those are dropped from every plugin, with one diagnostic per plugin naming the
    others. A plugin's own repeat of an alias keeps its first entry."""
    owners: dict[tuple[str, str], list[str | None]] = {}
    for lib in libraries:
        plugins = owners.setdefault((lib.language, lib.alias), [])
        if lib.plugin not in plugins:
            plugins.append(lib.plugin)
    kept: list[Library] = []
    diags: list[Diagnostic] = []
    seen: set[tuple[str, str, str | None]] = set()
    for lib in libraries:
        if (lib.language, lib.alias, lib.plugin) in seen:
            continue
        seen.add((lib.language, lib.alias, lib.plugin))
        plugins = owners[(lib.language, lib.alias)]
        if len(plugins) == 1:
            kept.append(lib)
            continue
        others = ", ".join(repr(p) for p in plugins if p != lib.plugin)
        message = (
            f"{lib.language} library alias {lib.alias!r} of plugin {lib.plugin!r} is also "
            f"declared by {others}; it is dropped from all of them"
        )
        diags.append(diagnostic(COLLISION, message, lib.path))
    return tuple(kept), diags

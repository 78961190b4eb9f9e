"""The plugins Claude Code installed: ``~/.claude/plugins/installed_plugins.json`` and
the ``enabledPlugins`` of Claude Code's settings files.

    records, problems = installed_plugins(layout, trust_project=True)

Claude Code keeps one record file, ``~/.claude/plugins/installed_plugins.json``::

    {"version": 2, "plugins": {"hello@team-tools": [
        {"scope": "user", "installPath": "~/.claude/plugins/cache/team-tools/hello/1.2.0",
         "version": "1.2.0", "installedAt": "...", "lastUpdated": "...",
         "gitCommitSha": "..."},
        {"scope": "project", "projectPath": "/src/app", "installPath": "...", ...}]}}

Version 1 mapped each id to one record without a scope (a user install). A plugin's id
is ``<name>@<marketplace>``; its files are the copy under ``installPath`` (Claude Code
writes it to ``cache/<marketplace>/<name>/<version>/``). Of an id's records the first
that applies is used, as Claude Code picks it: a ``user`` or ``managed`` one, or a
``project`` or ``local`` one whose ``projectPath`` is the project (or the working
directory). A plugin is enabled when ``enabledPlugins`` says ``true`` for its id in
the settings that win, highest first: the project's ``.claude/settings.local.json``,
its ``.claude/settings.json``, then the user's ``~/.claude/settings.json``; an id no
file names is not enabled. In a project that is not trusted, neither its settings
nor its project and local records are read.

Where the files are read depends on the marketplace (``known_marketplaces.json``, its
``source.source``; the rule is `satchel.hosts._claude_code.CLAUDE_IN_PLACE_SOURCES`): a
plugin of a ``directory`` marketplace is read in place, from the marketplace folder
joined with the relative ``source`` of its entry in that folder's
``.claude-plugin/marketplace.json`` (a bare name: below its ``metadata.pluginRoot``):
Claude Code reads its skills, commands, agents and hooks there, not the
``installPath`` copy. A missing folder there is ``plugin.installed.missing`` and
nothing of the plugin loads, as Claude Code fails it. The entry's folder must be
inside the marketplace folder after symlinks (``plugin.installed.outside``); the
plugin's own files are then read within it. A plugin of any other marketplace
(``git``), or one whose marketplace or entry cannot be read, is read from its
``installPath``.

A record is used only when its ``installPath`` is a directory inside
``~/.claude/plugins`` after symlinks; one that escapes is refused
(``plugin.installed.outside``), a missing one is ``plugin.installed.missing``, a bad
record ``plugin.installed.invalid`` and a file that cannot be read, is not JSON or is
not the shape above ``plugin.installed.unreadable``. Nothing is executed.

Sources (Claude Code 2.1.332): https://code.claude.com/docs/en/plugins-reference
(installation scopes, the plugin cache), https://code.claude.com/docs/en/settings
(``enabledPlugins``; local over project over user), and observed: ``claude plugin
marketplace add``, ``claude plugin install --scope``, ``claude plugin disable --scope
local`` and ``claude plugin list --json`` run offline with a scratch HOME (the record
schema and the record choice are read off the program; tests/hosts/ checks them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.layout import PROJECT, USER, Layout
from satchel.foundations._contain import is_dir, is_inside, probe_json, real_path
from satchel.hosts._claude_code import (
    CLAUDE_BARE_SOURCE,
    CLAUDE_IN_PLACE_SOURCES,
    CLAUDE_MARKETPLACE_MANIFEST,
    CLAUDE_MARKETPLACES,
)

__all__ = ["Installed", "installed_plugins", "plugins_home", "settings_files"]

RECORDS = "installed_plugins.json"
VERSIONS = (1, 2)
_USER_SCOPES = ("user", "managed")
_PROJECT_SCOPES = ("project", "local")


@model
class Installed:
    """One plugin Claude Code installed, as it applies here: its id
    (``name@marketplace``), the satchel `scope` of its record (``user`` or
    ``project``), Claude Code's own scope, the version recorded, the directory its
    files are in (`in_place`: the entry's folder in its directory marketplace, which
    Claude Code reads instead of the ``installPath`` copy), and whether Claude Code's
    settings enable it (`decided_by`: the
    settings file that said so; None: no file names it)."""

    id: str
    name: str
    marketplace: str
    scope: str
    record_scope: str
    version: str | None
    root: Path
    enabled: bool
    decided_by: Path | None = None
    servers: tuple[tuple[str, bool], ...] = ()  # the host's switch of each plugin server
    in_place: bool = False  # `root` is its marketplace's folder, not the installPath copy


def plugins_home(layout: Layout) -> Path:
    """Claude Code's plugins directory, ``~/.claude/plugins``."""
    return layout.home / ".claude" / "plugins"


def installed_plugins(
    layout: Layout, *, trust_project: bool
) -> tuple[tuple[Installed, ...], tuple[Diagnostic, ...]]:
    """Every plugin Claude Code installed that applies to `layout`'s project, in the
    record file's order, and the problems met (see the module docstring)."""
    problems: list[Diagnostic] = []
    base = plugins_home(layout)
    path = base / RECORDS
    if not path.exists():
        return (), ()
    table = _records(path, problems)
    settings = _Settings.read(layout, trust_project, problems)
    real_base = real_path(base) or base
    markets = _Marketplaces.read(base / CLAUDE_MARKETPLACES)
    found: list[Installed] = []
    for plugin_id, entries in table.items():
        record = _applying(plugin_id, entries, layout, trust_project, path, problems)
        if record is None:
            continue
        name, marketplace = plugin_id.rsplit("@", 1)
        in_place = markets.in_place(name, marketplace)
        if in_place is None:
            root = _install_root(plugin_id, record, base, real_base, path, problems)
        else:
            root = _source_root(plugin_id, in_place, problems)
        if root is None:
            continue
        enabled, decided = settings.enabled(plugin_id)
        scope = USER if record["scope"] in _USER_SCOPES else PROJECT
        version = record.get("version")
        found.append(
            Installed(
                plugin_id,
                name,
                marketplace,
                scope,
                record["scope"],
                version if isinstance(version, str) else None,
                root,
                enabled,
                decided,
                in_place=in_place is not None,
            )
        )
    return tuple(found), tuple(problems)


def _unreadable(message: str, path: Path) -> Diagnostic:
    return diagnostic("plugin.installed.unreadable", message, path)


def _records(path: Path, problems: list[Diagnostic]) -> Mapping[str, Any]:
    """The ``plugins`` table of the record file, each id's records as a list."""
    data, why = probe_json(path)
    if why is not None:
        problems.append(_unreadable(f"Claude Code's installed plugins are not read: {why}", path))
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("plugins"), dict):
        message = (
            "Claude Code's installed plugins are not read: it is not an object holding "
            "a plugins object"
        )
        problems.append(_unreadable(message, path))
        return {}
    version = data.get("version", 1)
    if version not in VERSIONS or isinstance(version, bool):
        message = (
            f"Claude Code's installed plugins are not read: version {version!r} is not "
            f"one of {', '.join(map(str, VERSIONS))}"
        )
        problems.append(_unreadable(message, path))
        return {}
    plugins: dict[str, Any] = data["plugins"]
    if version == 1:  # one record per id, a user install
        return {
            key: [{"scope": "user", **value}] if isinstance(value, dict) else value
            for key, value in plugins.items()
        }
    return plugins


def _invalid(plugin_id: str, why: str, path: Path) -> Diagnostic:
    message = f"Claude Code's record of {plugin_id!r} is not used: {why}"
    return diagnostic("plugin.installed.invalid", message, path)


def _applying(
    plugin_id: str,
    entries: Any,
    layout: Layout,
    trust_project: bool,
    path: Path,
    problems: list[Diagnostic],
) -> dict[str, Any] | None:
    """The first of an id's records that applies to this project (None: none does)."""
    name, _, marketplace = plugin_id.rpartition("@")
    if not name or not marketplace:
        problems.append(_invalid(plugin_id, "an id is <plugin>@<marketplace>", path))
        return None
    if not isinstance(entries, list):
        why = f"its records must be a list, not {type_name(entries)}"
        problems.append(_invalid(plugin_id, why, path))
        return None
    here = {p for p in (real_path(layout.project), real_path(layout.cwd)) if p is not None}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("installPath"), str):
            problems.append(_invalid(plugin_id, "a record needs an installPath string", path))
            continue
        scope = entry.get("scope")
        if scope in _USER_SCOPES:
            return entry
        if scope not in _PROJECT_SCOPES:
            problems.append(_invalid(plugin_id, f"scope {scope!r} is not known", path))
            continue
        where = entry.get("projectPath")
        if trust_project and isinstance(where, str) and real_path(where) in here:
            return entry
    return None


def _install_root(
    plugin_id: str,
    record: Mapping[str, Any],
    base: Path,
    real_base: Path,
    path: Path,
    problems: list[Diagnostic],
) -> Path | None:
    """The record's install directory, when it is a directory inside the plugins
    directory after symlinks."""
    given = Path(record["installPath"])
    spelled = given if given.is_absolute() else base / given
    real = real_path(spelled)
    if real is None or not is_inside(real, real_base) or real == real_base:
        message = (
            f"the installPath {record['installPath']!r} of {plugin_id!r} is outside "
            f"{base}; it is not read"
        )
        problems.append(diagnostic("plugin.installed.outside", message, path))
        return None
    if not is_dir(real):
        message = (
            f"the installPath of {plugin_id!r} is not a directory: {spelled}; "
            "reinstall it with claude plugin install"
        )
        problems.append(diagnostic("plugin.installed.missing", message, path))
        return None
    return spelled


@model
class _InPlace:
    """A plugin Claude Code reads where its directory marketplace keeps it: the
    marketplace folder and the entry's folder (not yet checked)."""

    market: Path
    folder: Path
    manifest: Path


@model
class _Marketplaces:
    """``known_marketplaces.json``: each marketplace's record, by name."""

    table: Mapping[str, Any]

    @classmethod
    def read(cls, path: Path) -> _Marketplaces:
        data, _ = probe_json(path) if path.exists() else (None, None)
        return cls(data if isinstance(data, dict) else {})

    def in_place(self, name: str, marketplace: str) -> _InPlace | None:
        """Where a plugin of a directory marketplace is read (None: from its copy)."""
        record = self.table.get(marketplace)
        if not isinstance(record, dict):
            return None
        source = record.get("source")
        if not isinstance(source, dict) or source.get("source") not in CLAUDE_IN_PLACE_SOURCES:
            return None
        where = record.get("installLocation", source.get("path"))
        if not isinstance(where, str) or not Path(where).is_absolute():
            return None
        market = Path(where)
        manifest = market / CLAUDE_MARKETPLACE_MANIFEST
        data, _ = probe_json(manifest)
        entries = data.get("plugins") if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and entry.get("name") == name:
                relative = _entry_folder(entry.get("source"), data.get("metadata"))
                if relative is None:
                    return None
                return _InPlace(market, Path(os.path.normpath(market / relative)), manifest)
        return None


def _entry_folder(source: Any, metadata: Any) -> str | None:
    """An entry's folder relative to its marketplace: a relative path as written, a
    bare name below ``metadata.pluginRoot`` (None: neither)."""
    if not isinstance(source, str) or not source or Path(source).is_absolute():
        return None
    if not re.fullmatch(CLAUDE_BARE_SOURCE, source) or ".." in source:
        return source
    root = metadata.get("pluginRoot") if isinstance(metadata, dict) else None
    if not isinstance(root, str) or root == "" or root.startswith("/"):
        return None
    if "\\" in root or ":" in root:
        return None
    trimmed = root.removeprefix("./").rstrip("/")
    if trimmed in ("", "."):
        return source
    if any(part in ("", ".", "..") for part in trimmed.split("/")):
        return None
    return f"{trimmed}/{source}"


def _source_root(plugin_id: str, place: _InPlace, problems: list[Diagnostic]) -> Path | None:
    """The entry's folder in its directory marketplace, when it is a directory inside
    the marketplace folder after symlinks."""
    real, top = real_path(place.folder), real_path(place.market)
    if real is None or top is None or not is_inside(real, top):
        message = (
            f"the folder of {plugin_id!r} that {place.manifest} names, {place.folder}, is "
            f"outside its marketplace {place.market}; it is not read"
        )
        problems.append(diagnostic("plugin.installed.outside", message, place.manifest))
        return None
    if not is_dir(real):
        message = (
            f"Claude Code reads {plugin_id!r} from its directory marketplace, and "
            f"{place.folder} is not a directory: the plugin fails to load (its installed "
            "copy is not read)"
        )
        problems.append(diagnostic("plugin.installed.missing", message, place.manifest))
        return None
    return place.folder


@model
class _Settings:
    """The ``enabledPlugins`` of Claude Code's settings files, the winning file first."""

    files: tuple[tuple[Path, Mapping[str, Any]], ...]

    @classmethod
    def read(cls, layout: Layout, trust_project: bool, problems: list[Diagnostic]) -> _Settings:
        return cls(tuple(_enabled_tables(layout, trust_project, problems)))

    def enabled(self, plugin_id: str) -> tuple[bool, Path | None]:
        for path, table in self.files:
            value = table.get(plugin_id)
            if isinstance(value, bool):
                return value, path
        return False, None


def settings_files(layout: Layout, trust_project: bool) -> tuple[Path, ...]:
    """Claude Code's settings files that decide, highest precedence first."""
    user = layout.home / ".claude" / "settings.json"
    if not trust_project:
        return (user,)
    project = layout.project / ".claude"
    return (project / "settings.local.json", project / "settings.json", user)


def _enabled_tables(
    layout: Layout, trust_project: bool, problems: list[Diagnostic]
) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    for path in settings_files(layout, trust_project):
        if not path.exists():
            continue
        data, why = probe_json(path)
        if why is not None:
            message = f"its enabledPlugins are not read: {why}"
            problems.append(_unreadable(message, path))
            continue
        table = data.get("enabledPlugins", {}) if isinstance(data, dict) else None
        if not isinstance(table, dict):
            message = "its enabledPlugins are not read: it must be an object"
            problems.append(_unreadable(message, path))
            continue
        yield path, table

"""`HostState`: where a host keeps its own state on this machine, as data its host
definition sets; `host_config`: that state's config files read for one layout.

A host such as Codex keeps one config file in its home (``~/.codex/config.toml``) and
one in each project folder (``.codex/config.toml``), and records there what it
installed and enabled: its plugins (``[plugins."<name>@<marketplace>"]``, their files
under ``plugins/cache/<marketplace>/<name>/<version>/``), its MCP servers
(``[mcp_servers.<name>]``), the skills it turned off (``[[skills.config]]``), its
instruction settings and the hooks it trusts (``[hooks.state."<key>"]``). Every such
location and key is a field of `HostState`; the readers (`satchel.plugins`,
`satchel.mcp`, `satchel.hooks`, `satchel.skills`, `satchel.kinds._instructions`) take it as
data, so no reader names a host.

A project's config file is read only where the host reads it: in a project the host
itself trusts (``[projects."<path>"] trust_level = "trusted"`` in the user's file, for
the project root or the working directory) and that satchel's trust lets load. One
the host would not read is listed in `HostConfig.untrusted` and named with
``host.config.untrusted``. Reading writes nothing and
runs nothing; a file that cannot be read or is not TOML is ``config.invalid`` and its
settings are ignored.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout

__all__ = ["HostConfig", "HostState", "dotted", "host_config", "instruction_settings"]

MAX_CONFIG = 1024 * 1024
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class HostState:
    """Where one host keeps its state, and the keys it writes there (each None: the
    host has no such thing).

    * `title`: the host's name in messages (``Codex``).
    * `home`: its home folder, a template of ``{home}`` (``{home}/.codex``); `config`
      the config file in it; `project_config` the config file of a project folder
      (``.codex/config.toml``, read in each folder from the project root to cwd).
    * `projects`, `trust_key`, `trusted`: the user's table of projects and the key and
      value that trust one (``[projects."<path>"] trust_level = "trusted"``).
    * `plugins`: the table of the plugins it installed (``plugins``: one entry per
      ``<name>@<marketplace>``, ``enabled`` defaulting to `enabled_default`);
      `plugin_cache` where their files are (``plugins/cache``, then
      ``<marketplace>/<name>/<version>``); `default_version` the version folder that
      wins over every other (``local``; else the highest version); `manifests` the
      manifest files a plugin folder must hold one of, preferred first;
      `schema_manifest` a root manifest read only when its ``$schema`` starts with
      `schema_prefix`. `plugin_servers`: the table of a plugin's entry that switches
      its MCP servers on or off by name (``mcp_servers``: ``enabled``).
    * `mcp_servers`: the table of MCP servers; `skill_rules`: the dotted key of the
      list of skill rules (``skills.config``: ``path`` or ``name``, and ``enabled``).
    * `doc_fallback`, `doc_max_bytes`: the keys naming the instruction files read when
      the usual one is missing, and the cap on the project's instruction files.
    * `hooks_file`: the hook file beside each config file; `hooks_table` the hooks of
      the config file itself; `hook_state` the table of per-hook state, by hook key
      (``trusted_hash``, ``enabled``). `hook_events` maps each event the host fires
      to the label its hook keys use (``PreToolUse`` -> ``pre_tool_use``);
      `hook_unmatched` are the events whose matcher it ignores; a command hook's
      timeout defaults to `hook_timeout` seconds, and for the `hook_short` events to
      1 and at most `hook_short_cap`; `hook_skipped_types` are the handler types it
      skips (each still counts in the hook's position). `hook_trusted` and
      `hook_enabled` are the keys of a hook's state (``trusted_hash``: the hash the
      user trusted; ``enabled``: false turns it off). `hook_trust`: how a user trusts
      a hook in the host, in its own words (a fix line).
    """

    title: str
    home: str
    config: str = "config.toml"
    project_config: str | None = None
    projects: str | None = None
    trust_key: str = "trust_level"
    trusted: str = "trusted"
    plugins: str | None = None
    plugin_cache: str | None = None
    enabled_default: bool = True
    default_version: str | None = None
    manifests: tuple[str, ...] = ()
    plugin_servers: str | None = None
    schema_manifest: str | None = None
    schema_prefix: str = ""
    mcp_servers: str | None = None
    skill_rules: str | None = None
    doc_fallback: str | None = None
    doc_max_bytes: str | None = None
    hooks_file: str | None = None
    hooks_table: str | None = None
    hook_state: str | None = None
    hook_events: tuple[tuple[str, str], ...] = ()
    hook_unmatched: tuple[str, ...] = ()
    hook_timeout: int = 600
    hook_short: tuple[str, ...] = ()
    hook_short_cap: int = 3
    hook_skipped_types: tuple[str, ...] = ()
    hook_trusted: str = "trusted_hash"
    hook_enabled: str = "enabled"
    hook_trust: str | None = None

    def home_dir(self, layout: Layout) -> Path:
        """The host's home folder for `layout` (``~/.codex``)."""
        return Path(self.home.format(home=str(layout.home)))

    def config_path(self, layout: Layout) -> Path:
        """The user's config file (``~/.codex/config.toml``)."""
        return self.home_dir(layout) / self.config


@model
class HostConfig:
    """The host's config files as read for one layout: the user's document, then the
    project folders' that the host reads (root first, the working directory's last:
    a later one wins a key), the project files it would not read because it does not
    trust the project, and what went wrong reading them."""

    user_path: Path
    user: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    projects: tuple[tuple[Path, Mapping[str, Any]], ...] = ()
    untrusted: tuple[Path, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    home: Path | None = None  # the layout's home: what ``~`` in a path names

    def layers(self) -> tuple[tuple[Path, Mapping[str, Any]], ...]:
        """Every document read, lowest precedence first: the user's, then the projects'."""
        return ((self.user_path, self.user), *self.projects)

    def setting(self, key: str) -> Any:
        """The value of the dotted `key` in the layer that wins it (None: unset)."""
        for _, document in reversed(self.layers()):
            value = dotted(document, key)
            if value is not None:
                return value
        return None


def instruction_settings(state: HostState, config: HostConfig) -> dict[str, Any]:
    """The keywords of `satchel.kinds._instructions.load_instructions` that `state`'s config
    sets: ``fallback_names`` (the file names read where the usual one is missing) and
    ``max_total`` (the cap on the project's files, in bytes); a value of the wrong type
    is left out, as if unset."""
    found: dict[str, Any] = {}
    if state.doc_fallback is not None:
        names = config.setting(state.doc_fallback)
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            found["fallback_names"] = tuple(names)
    if state.doc_max_bytes is not None:
        cap = config.setting(state.doc_max_bytes)
        if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 0:
            found["max_total"] = cap
    return found


def dotted(document: Mapping[str, Any], key: str) -> Any:
    """The value at the dotted `key` of `document` (None: it is not there)."""
    value: Any = document
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def host_config(layout: Layout, state: HostState, *, trust_project: bool) -> HostConfig:
    """`state`'s config files for `layout` (see the module docstring): the project's
    only when `trust_project` (satchel's trust) and the host's own list trusts it."""
    problems: list[Diagnostic] = []
    user_path = state.config_path(layout)
    user = _read(user_path, problems)
    files = _project_files(layout, state)
    if not trust_project or not files:
        return HostConfig(user_path, user, (), (), tuple(problems), layout.home)
    if not _host_trusts(layout, state, user):
        problems += [_unread(state, path, user_path) for path in files]
        return HostConfig(user_path, user, (), files, tuple(problems), layout.home)
    projects = tuple((path, _read(path, problems)) for path in files)
    return HostConfig(user_path, user, projects, (), tuple(problems), layout.home)


def _project_files(layout: Layout, state: HostState) -> tuple[Path, ...]:
    """The project config files of the folders holding the host's folder, from the
    project root down to cwd (a folder without the file counts: its hook file may be
    there; the user's own folder never counts as a project's)."""
    if state.project_config is None:
        return ()
    user = state.config_path(layout)
    found: list[Path] = []
    for folder in _root_to_cwd(layout):
        path = folder / state.project_config
        if path != user and os.path.isdir(path.parent):
            found.append(path)
    return tuple(found)


def _root_to_cwd(layout: Layout) -> list[Path]:
    cwd, root = layout.cwd, layout.project
    if cwd != root and not cwd.is_relative_to(root):
        return [root]
    folders = [cwd, *cwd.parents]
    return list(reversed(folders[: folders.index(root) + 1]))


def _host_trusts(layout: Layout, state: HostState, user: Mapping[str, Any]) -> bool:
    """Whether the user's config marks the project root or cwd trusted."""
    if state.projects is None:
        return True
    table = user.get(state.projects)
    if not isinstance(table, Mapping):
        return False
    here = {_real(layout.project), _real(layout.cwd)}
    for key, entry in table.items():
        trusted = isinstance(entry, Mapping) and entry.get(state.trust_key) == state.trusted
        if trusted and _real(Path(key)) in here:
            return True
    return False


def _real(path: Path) -> str:
    return os.path.realpath(path)


def _read(path: Path, problems: list[Diagnostic]) -> Mapping[str, Any]:
    """The TOML document at `path`; {} when it is absent or bad (bad: reported)."""
    from satchel.core import _toml  # only when a TOML file is read

    return MappingProxyType(_toml.read_document(path, MAX_CONFIG, problems, _invalid))


def _unread(state: HostState, path: Path, user_path: Path) -> Diagnostic:
    folder = path.parent
    message = (
        f"{state.title} does not read {folder} (its config, MCP servers and hooks): "
        f'{user_path} does not trust the project ([{state.projects}."<path>"] '
        f'{state.trust_key} = "{state.trusted}")'
    )
    return diagnostic("host.config.untrusted", message, folder)


def _invalid(why: str, path: Path) -> Diagnostic:
    message = f"{path.name}: {why}; its settings are ignored"
    return diagnostic("config.invalid", message, path)

"""The plugins a host installed in its own home and enables in its own config file,
as its `HostState` says (Codex: ``~/.codex/plugins/cache`` and ``[plugins]`` in
``~/.codex/config.toml``).

    records, problems = host_installed(layout, state, config)

Codex (0.171.0, observed with ``codex debug prompt-input`` and ``codex mcp list
--json``; openai/codex codex-rs/core-plugins/src/loader.rs and store.rs) loads a
plugin only when the user's config file names it::

    [plugins."hello@team-tools"]
    enabled = true            # the default when the key is left out

A plugin's id is ``<name>@<marketplace>``; its files are one version folder of
``plugins/cache/<marketplace>/<name>/``: ``local`` when there is one, else the
highest version (semantic versions compared as such, any other name as text). Only
real folders whose name is a valid version (ASCII letters, digits, ``.``, ``+``,
``_``, ``-``) count. A folder in the cache that the config does not name is not
loaded; an entry whose folder is missing is ``plugin.installed.missing``; a folder
outside the cache after symlinks is ``plugin.installed.outside``; a folder
holding none of the host's manifests (``.codex-plugin/plugin.json``,
``.claude-plugin/plugin.json``, ``.cursor-plugin/plugin.json``, or a root
``plugin.json`` with an Agent Plugins ``$schema``) is not loaded
(``plugin.installed.invalid``): Codex does not fall back to a default ``skills/``.
``[plugins."<id>".mcp_servers.<name>] enabled`` switches one of the plugin's MCP
servers on or off. Project config files never install a plugin (Codex reads ``[plugins]`` from the
user's file only). Nothing is written or run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cmp_to_key
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.layout import USER, Layout
from satchel.foundations._contain import is_file, is_inside, probe_json, real_path
from satchel.foundations._host_state import HostConfig, HostState
from satchel.plugins._claude_installed import Installed

__all__ = ["active_version", "host_installed"]

_VERSION = re.compile(r"[A-Za-z0-9._+-]+")
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)
_SEGMENT = re.compile(r"[^/\\\x00]+")


def host_installed(
    layout: Layout, state: HostState, config: HostConfig
) -> tuple[tuple[Installed, ...], tuple[Diagnostic, ...]]:
    """Every plugin `state`'s host installed and names in its user config, in id order
    (as the host sorts them), enabled or not, and the problems met."""
    if state.plugins is None or state.plugin_cache is None:
        return (), ()
    table = config.user.get(state.plugins)
    path = config.user_path
    if table is None:
        return (), ()
    if not isinstance(table, Mapping):
        message = (
            f"{state.title}'s installed plugins are not read: [{state.plugins}] must be "
            f"a table, not {type_name(table)}"
        )
        return (), (diagnostic("plugin.installed.unreadable", message, path),)
    cache = state.home_dir(layout) / state.plugin_cache
    found: list[Installed] = []
    problems: list[Diagnostic] = []
    for plugin_id in sorted(table):
        record = _record(state, plugin_id, table[plugin_id], cache, path, problems)
        if record is not None:
            found.append(record)
    return tuple(found), tuple(problems)


def _record(
    state: HostState,
    plugin_id: str,
    entry: Any,
    cache: Path,
    path: Path,
    problems: list[Diagnostic],
) -> Installed | None:
    name, at, marketplace = plugin_id.partition("@")
    if not at or not _SEGMENT.fullmatch(name) or not _SEGMENT.fullmatch(marketplace):
        why = "an id is <plugin>@<marketplace>"
        problems.append(_invalid(state, plugin_id, why, path))
        return None
    if name in (".", "..") or marketplace in (".", ".."):
        problems.append(_invalid(state, plugin_id, "an id names no folder", path))
        return None
    enabled = state.enabled_default
    if isinstance(entry, Mapping):
        enabled = entry.get("enabled", state.enabled_default)
    if not isinstance(entry, Mapping) or not isinstance(enabled, bool):
        why = "its entry must be a table whose enabled is true or false"
        problems.append(_invalid(state, plugin_id, why, path))
        return None
    base = cache / marketplace / name
    version = active_version(base, state.default_version)
    if version is None:
        if enabled:
            message = (
                f"{state.title} enables {plugin_id!r} but it is not installed: no version "
                f"folder in {base}"
            )
            problems.append(diagnostic("plugin.installed.missing", message, path))
        return None
    root = base / version
    real, real_cache = real_path(root), real_path(cache)
    if real is None or real_cache is None or not is_inside(real, real_cache):
        message = f"the folder of {plugin_id!r} is outside {cache} after symlinks; it is not read"
        problems.append(diagnostic("plugin.installed.outside", message, path))
        return None
    if enabled and not _has_manifest(state, root):
        manifests = ", ".join((*state.manifests, *filter(None, [state.schema_manifest])))
        why = f"{root} holds no plugin manifest ({manifests}); {state.title} loads none of it"
        problems.append(_invalid(state, plugin_id, why, path))
        return None
    servers = _switches(state, entry)
    return Installed(
        plugin_id, name, marketplace, USER, USER, version, root, enabled, path, servers
    )


def _switches(state: HostState, entry: Mapping[str, Any]) -> tuple[tuple[str, bool], ...]:
    """The entry's switches of the plugin's MCP servers (a bad one is left out, the
    server staying as its plugin declares it)."""
    table = entry.get(state.plugin_servers) if state.plugin_servers is not None else None
    if not isinstance(table, Mapping):
        return ()
    return tuple(
        (name, value["enabled"])
        for name, value in table.items()
        if isinstance(value, Mapping) and isinstance(value.get("enabled"), bool)
    )


def _invalid(state: HostState, plugin_id: str, why: str, path: Path) -> Diagnostic:
    message = f"{state.title}'s entry for {plugin_id!r} is not used: {why}"
    return diagnostic("plugin.installed.invalid", message, path)


def active_version(base: Path, preferred: str | None) -> str | None:
    """The version folder of `base` the host uses: `preferred` when it is there, else
    the highest (None: there is none)."""
    try:
        with os.scandir(base) as listing:
            names = [
                e.name
                for e in listing
                if e.is_dir(follow_symlinks=False)
                and _VERSION.fullmatch(e.name)
                and e.name not in (".", "..")
            ]
    except OSError:
        return None
    if not names:
        return None
    if preferred is not None and preferred in names:
        return preferred
    return max(names, key=cmp_to_key(_compare))


def _compare(left: str, right: str) -> int:
    """Semantic versions by precedence (build metadata last), else as text."""
    a, b = _SEMVER.fullmatch(left), _SEMVER.fullmatch(right)
    if a is None or b is None:
        return (left > right) - (left < right)
    for x, y in zip(a.groups()[:3], b.groups()[:3], strict=True):
        if int(x) != int(y):
            return (int(x) > int(y)) - (int(x) < int(y))
    pre = _pre(a.group(4), b.group(4))
    if pre:
        return pre
    return _pre_ids(a.group(5) or "", b.group(5) or "")


def _pre(left: str | None, right: str | None) -> int:
    if left is None or right is None:  # a release ranks above its pre-releases
        return (left is None) - (right is None)
    return _pre_ids(left, right)


def _pre_ids(left: str, right: str) -> int:
    xs = left.split(".") if left else []
    ys = right.split(".") if right else []
    for x, y in zip(xs, ys, strict=False):
        if x.isdigit() and y.isdigit():
            order = (int(x) > int(y)) - (int(x) < int(y))
        elif x.isdigit() or y.isdigit():
            order = -1 if x.isdigit() else 1  # numbers rank below names
        else:
            order = (x > y) - (x < y)
        if order:
            return order
    return (len(xs) > len(ys)) - (len(xs) < len(ys))


def _has_manifest(state: HostState, root: Path) -> bool:
    """Whether `root` holds one of the manifests the host reads."""
    if any(is_file(root / m) for m in state.manifests):
        return True
    if state.schema_manifest is None:
        return False
    path = root / state.schema_manifest
    if os.path.islink(path) or not is_file(path):
        return False
    data, _ = probe_json(path)
    schema = data.get("$schema") if isinstance(data, dict) else None
    return isinstance(schema, str) and schema.startswith(state.schema_prefix)

"""The plugins one host installed, with where each came from, read from the records of
the shape its definition names (`satchel.hosts._installs.Installs`):

* ``records``: `satchel.plugins._claude_installed.installed_plugins` gives each
  plugin that applies here, and whether the host reads it in place from its
  marketplace's folder (by the source types its host definition names); its
  marketplace is looked up in the marketplaces file (``{"<name>": {"source":
  {"source": "directory" | "git" | "github", "path" | "url" | "repo", "ref"},
  "installLocation": "<clone or folder>"}}``).
* ``config``: `satchel.plugins._host_installed.host_installed` gives each plugin
  the user's config names; its marketplace is ``[marketplaces.<name>]`` of the same
  file (``source_type`` ``local`` or ``git``, ``source``, ``ref``).
* ``folders``: each folder below the host's folder holding the metadata file
  (``{"source": ..., "type": "local" | "link" | "git" | "github-release", "ref"}``).

Nothing is written or run; what cannot be read is a diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import USER, Layout
from satchel.foundations._contain import probe_json
from satchel.foundations._host_state import host_config
from satchel.hosts._installs import Installs
from satchel.hosts._model import Host
from satchel.plugins._claude_installed import installed_plugins
from satchel.plugins._host_installed import host_installed
from satchel.plugins._read import read_plugin
from satchel.reports.outdated._model import Install, Origin

__all__ = ["host_installs"]

Found = tuple[list[Install], list[Diagnostic]]


def host_installs(layout: Layout, host: Host) -> Found:
    """What `host` installed (see the module docstring)."""
    installs = host.installs
    if installs is None:
        return [], []
    if installs.shape == "records":
        return _records(layout, host, installs)
    if installs.shape == "config":
        return _config(layout, host, installs)
    return _folders(layout, host, installs)


def _records(layout: Layout, host: Host, installs: Installs) -> Found:
    records, read = installed_plugins(layout, trust_project=True)
    problems = list(read)
    if not records:
        return [], problems
    folder = installs.folder_path(layout)
    known = _known(folder / (installs.marketplaces or ""), problems)
    found = []
    for r in records:
        origin = _marketplace_origin(known.get(r.marketplace), r.marketplace, r.name, folder)
        why = None if origin else f"{host.title} knows no marketplace {r.marketplace!r}"
        found.append(
            Install(
                host.title,
                r.id,
                r.name,
                "plugin",
                r.scope,
                r.root,
                r.version,
                origin,
                why,
                ignored=installs.skipped,
                in_place=r.in_place,
            )
        )
    return found, problems


def _known(path: Path, problems: list[Diagnostic]) -> Mapping[str, Any]:
    if not os.path.isfile(path):
        return {}
    data, why = probe_json(path)
    if why is not None or not isinstance(data, dict):
        why = why or "it is not an object"
        message = f"the marketplaces the host knows are not read: {why}"
        problems.append(diagnostic("outdated.record.unreadable", message, path))
        return {}
    return data


def _marketplace_origin(record: Any, name: str, plugin: str, folder: Path) -> Origin | None:
    """A plugin of marketplace `name` as the marketplaces file records it."""
    if not isinstance(record, Mapping) or not isinstance(record.get("source"), Mapping):
        return None
    source = record["source"]
    spec = _spec(
        source.get("source"),
        source.get("path") or source.get("url") or source.get("repo"),
        source.get("ref"),
    )
    where = record.get("installLocation")
    clone = Path(where) if isinstance(where, str) and os.path.isdir(where) else None
    recorded = f"marketplace {name!r} in {folder}"
    return Origin(recorded, marketplace=name, marketplace_spec=spec, clone=clone, entry=plugin)


def _spec(kind: Any, location: Any, ref: Any) -> str | None:
    """A marketplace's recorded source as a satchel source spec (None: unknown)."""
    if not isinstance(location, str) or not location:
        return None
    tail = f"#{ref}" if isinstance(ref, str) and ref else ""
    if kind in ("directory", "local", "file"):
        return location
    if kind in ("git", "url", "github"):
        return location + tail
    return None


def _config(layout: Layout, host: Host, installs: Installs) -> Found:
    state = host.state
    if state is None:
        return [], []
    config = host_config(layout, state, trust_project=False)
    records, problems = host_installed(layout, state, config)
    table = config.user.get(installs.marketplaces or "")
    table = table if isinstance(table, Mapping) else {}
    found = []
    clones = state.home_dir(layout) / installs.clones if installs.clones else None
    for r in records:
        entry = table.get(r.marketplace)
        origin = _config_origin(entry, r.marketplace, r.name, config.user_path, clones)
        why = None if origin else f"{config.user_path} names no marketplace {r.marketplace!r}"
        found.append(
            Install(
                host.title,
                r.id,
                r.name,
                "plugin",
                USER,
                r.root,
                r.version,
                origin,
                why,
                ignored=installs.skipped,
            )
        )
    return found, [*config.diagnostics, *problems]


def _config_origin(
    entry: Any, name: str, plugin: str, path: Path, clones: Path | None
) -> Origin | None:
    """A plugin of marketplace `name` as the config file records it: a local one read
    in its folder, a git one in the clone the host keeps (when it is there)."""
    if not isinstance(entry, Mapping):
        return None
    spec = _spec(entry.get("source_type"), entry.get("source"), entry.get("ref"))
    source = entry.get("source")
    clone = None
    if entry.get("source_type") == "local" and isinstance(source, str) and os.path.isdir(source):
        clone = Path(source)
    elif clones is not None and _segment(name) and _real_dir(clones / name):
        clone = clones / name
    recorded = f"marketplace {name!r} in {path}"
    return Origin(recorded, marketplace=name, marketplace_spec=spec, clone=clone, entry=plugin)


def _segment(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..")


def _real_dir(path: Path) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)


def _folders(layout: Layout, host: Host, installs: Installs) -> Found:
    base = installs.folder_path(layout)
    try:
        with os.scandir(base) as listing:
            names = sorted(e.name for e in listing if e.is_dir(follow_symlinks=False))
    except OSError:
        return [], []
    found: list[Install] = []
    problems: list[Diagnostic] = []
    for name in names:
        meta = base / name / (installs.metadata or "")
        if not os.path.isfile(meta):
            continue  # not installed by the host's own command
        found.append(_folder(host, installs, base / name, meta, problems))
    return found, problems


def _folder(
    host: Host, installs: Installs, root: Path, meta: Path, problems: list[Diagnostic]
) -> Install:
    data, why = probe_json(meta)
    ignored = (meta.name, *installs.skipped)
    title, name = host.title, root.name
    if why is not None or not isinstance(data, dict) or not isinstance(data.get("source"), str):
        why = why or "it holds no source string"
        message = f"{meta.name} is not read: {why}"
        problems.append(diagnostic("outdated.record.unreadable", message, meta))
        return Install(title, name, name, "extension", USER, root, why=message, ignored=ignored)
    kind, source, ref = data.get("type"), data["source"], data.get("ref")
    recorded = f"{meta}"
    version = _version(root)
    if kind == installs.linked:
        origin = Origin(f"{recorded} (linked: the folder is the source)", spec=source)
        return Install(title, name, name, "extension", USER, root, version, origin,
                       ignored=ignored, linked=True)  # fmt: skip
    spec = _spec("local" if kind == "local" else "git" if kind == "git" else None, source, ref)
    if spec is None:
        why = f"an install of type {kind!r} is not one satchel reads again"
        return Install(title, name, name, "extension", USER, root, version, why=why,
                       ignored=ignored)  # fmt: skip
    origin = Origin(recorded, spec=spec)
    return Install(title, name, name, "extension", USER, root, version, origin, ignored=ignored)


def _version(root: Path) -> str | None:
    """The version the installed folder's own manifest gives (None: none, or unread)."""
    plugin, _ = read_plugin(root, executable=False)
    return None if plugin is None else plugin.version

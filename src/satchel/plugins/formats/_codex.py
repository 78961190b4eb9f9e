"""Codex plugins: ``.codex-plugin/plugin.json``, adapted as skills and MCP servers
(Vibe's compatibility table).

Fields read: ``name`` (empty or missing: the directory name), ``version``,
``description``, ``keywords``, ``skills`` (a path or a list of paths: skill
directories or skills roots; default ``skills/``) and ``mcpServers`` (a path to a
``.mcp.json``-shaped file, or an inline object of servers; default ``.mcp.json``).
Paths are plugin-relative (``./x`` or ``x``, never absolute or ``..``). Codex's
``hooks`` (the field, ``hooks/hooks.json`` or a root ``hooks.json``) are not adapted:
one ``plugin.hooks.unsupported`` names them. ``apps`` (a path to an ``.app.json``;
default ``.app.json``) is read into `Plugin.apps` (`satchel.plugins.components._apps`).
``interface``, ``author`` and any other field are kept in `Plugin.manifest` without
comment, as Codex ignores unknown keys. A known field of the wrong type is fatal
``plugin.manifest.invalid``. Skills keep their frontmatter name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.diagnostics import type_name
from satchel.plugins._context import Ctx, listed_or_default
from satchel.plugins._model import App, Plugin
from satchel.plugins.components._apps import FILE as APPS
from satchel.plugins.components._apps import load_apps, unavailable
from satchel.plugins.components._parts import load_skill_paths, manifest_servers
from satchel.plugins.formats._base import adapter, plugin_name, read_manifest, skills_problem

__all__ = ["MANIFEST", "load"]

MANIFEST = ".codex-plugin/plugin.json"
HOOK_FILES = ("hooks/hooks.json", "hooks.json")


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Codex plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / MANIFEST
    manifest = read_manifest(ctx, path, MANIFEST, _type_problem)
    ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    skills = listed_or_default(ctx, manifest, "skills", "skills", path)
    servers = manifest_servers(ctx, manifest, path, ".mcp.json")
    _hooks(ctx, manifest, path)
    return ctx.plugin(
        "codex",
        scope,
        manifest,
        skills=tuple(load_skill_paths(ctx, skills)),
        mcp_servers=servers,
        apps=_apps(ctx, manifest, path),
    )


def _apps(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[App, ...]:
    """The apps of the file ``apps`` names (default ``.app.json``), and the one note
    that they are not reachable here."""
    files = listed_or_default(ctx, manifest, "apps", APPS, path)
    apps = tuple(a for file in files for a in ctx.keep(load_apps(file, ctx.root, ctx.name)))
    note = unavailable(apps, ctx.name)
    if note is not None:
        ctx.diags.append(note)
    return apps


def _type_problem(key: str, value: Any) -> str | None:
    if key == "apps" and not isinstance(value, str):
        return f"a path to an .app.json file, not {type_name(value)}"
    if key == "mcpServers" and not isinstance(value, str | dict):
        return f"a path or an object of servers, not {type_name(value)}"
    return skills_problem(key, value)


def _hooks(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> None:
    found = [ctx.root / f for f in HOOK_FILES if os.path.lexists(ctx.root / f)]
    if "hooks" in manifest:
        found.insert(0, path)
    if not found:
        return
    where = ", ".join(ctx.rel(p) for p in found)
    message = f"Codex plugin hooks are not adapted (only skills and MCP servers): {where}"
    ctx.add("plugin.hooks.unsupported", message, found[0])

"""Codex plugins: ``.codex-plugin/plugin.json``, adapted as skills and MCP servers
(seed 003's compatibility table).

Fields read: ``name`` (empty or missing: the directory name), ``version``,
``description``, ``keywords``, ``skills`` (a path or a list of paths: skill
directories or skills roots; default ``skills/``) and ``mcpServers`` (a path to a
``.mcp.json``-shaped file, or an inline object of servers; default ``.mcp.json``).
Paths are plugin-relative (``./x`` or ``x``, never absolute or ``..``). Codex's
``hooks`` (the field, ``hooks/hooks.json`` or a root ``hooks.json``) are not adapted:
one ``plugin.hooks.unsupported`` names them. ``apps``, ``interface``, ``author`` and
any other field are kept in `Plugin.manifest` without comment, as Codex ignores
unknown keys. A known field of the wrong type is fatal ``plugin.manifest.invalid``.
Skills keep their frontmatter name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.diagnostics import Diagnostic, type_name
from satchel.plugins._parts import (
    Ctx,
    Fatal,
    foreign_servers,
    frozen,
    listed_or_default,
    load_skill_paths,
    plugin_name,
    read_manifest,
)
from satchel.plugins.model import Plugin

__all__ = ["MANIFEST", "load"]

MANIFEST = ".codex-plugin/plugin.json"
STRINGS = ("name", "version", "description")
HOOK_FILES = ("hooks/hooks.json", "hooks.json")


def load(
    root: Path, *, scope: str = "", strict: bool = False, executable: bool = True
) -> tuple[Plugin | None, list[Diagnostic]]:
    """The Codex plugin at `root`, or None and the fatal diagnostic."""
    ctx = Ctx.of(root, executable=executable)
    path = ctx.root / MANIFEST
    try:
        manifest = read_manifest(ctx, path, MANIFEST, _type_problem)
        ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    except Fatal as f:
        return None, [*ctx.diags, f.diagnostic]
    skills = listed_or_default(ctx, manifest, "skills", "skills", path)
    mcp_files, inline = _mcp(ctx, manifest, path)
    servers = foreign_servers(ctx, mcp_files, inline, path)
    _hooks(ctx, manifest, path)
    plugin = Plugin(
        name=ctx.name,
        root=ctx.root,
        format="codex",
        namespace=ctx.namespace,
        scope=scope,
        manifest=frozen(manifest),
        version=manifest.get("version"),
        description=manifest.get("description"),
        skills=tuple(load_skill_paths(ctx, skills)),
        mcp_servers=servers,
        diagnostics=tuple(ctx.diags),
    )
    return plugin, ctx.diags


def _type_problem(key: str, value: Any) -> str | None:
    if key in STRINGS and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "keywords" and not (
        isinstance(value, list) and all(isinstance(k, str) for k in value)
    ):
        return "an array of strings"
    if key == "skills" and not (isinstance(value, str) or _strings(value)):
        return f"a path or a list of paths, not {type_name(value)}"
    if key == "mcpServers" and not isinstance(value, str | dict):
        return f"a path or an object of servers, not {type_name(value)}"
    return None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _mcp(
    ctx: Ctx, manifest: Mapping[str, Any], path: Path
) -> tuple[list[Path], Mapping[str, Any] | None]:
    value = manifest.get("mcpServers")
    if isinstance(value, dict):
        return [], value
    return listed_or_default(ctx, manifest, "mcpServers", ".mcp.json", path), None


def _hooks(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> None:
    found = [ctx.root / f for f in HOOK_FILES if os.path.lexists(ctx.root / f)]
    if "hooks" in manifest:
        found.insert(0, path)
    if not found:
        return
    where = ", ".join(ctx.rel(p) for p in found)
    message = f"Codex plugin hooks are not adapted (only skills and MCP servers): {where}"
    ctx.add("plugin.hooks.unsupported", message, found[0])

"""Cursor plugins: ``.cursor-plugin/plugin.json``, read as skills, commands, agents and
MCP servers (Cursor's plugin reference).

The manifest has Claude Code's shape. Default locations: ``skills/<name>/SKILL.md``,
``commands/**/*.md``, ``agents/**/*.md``, ``mcp.json`` (``{"mcpServers": {...}}``, no
leading dot), ``hooks/hooks.json`` and ``rules/``. Each of the fields ``skills``,
``commands``, ``agents``, ``rules`` (a plugin-relative path or a list of them),
``hooks`` and ``mcpServers`` (a path or an inline object) REPLACES its default
location, as Cursor reads them. Cursor's hooks (camelCase events such as
``sessionStart``, no matchers) are not Claude Code's and are not adapted: one
``plugin.hooks.unsupported`` names them. Rules (``.mdc``) are not loaded: one
``plugin.rules.unsupported``. The name is ``name``, else the directory name (see
`satchel.plugins.formats._base.plugin_name`); a known field of the wrong type is fatal
``plugin.manifest.invalid``; other fields are kept in `Plugin.manifest`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel._contain import str_list
from satchel.diagnostics import type_name
from satchel.plugins._context import Ctx, listed_or_default
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import (
    load_agents,
    load_commands,
    load_skill_paths,
    manifest_servers,
)
from satchel.plugins.formats._base import adapter, plugin_name, read_manifest, skills_problem

__all__ = ["MANIFEST", "load"]

MANIFEST = ".cursor-plugin/plugin.json"
PATHS = ("commands", "agents", "rules")


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Cursor plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / MANIFEST
    manifest = read_manifest(ctx, path, MANIFEST, _type_problem)
    ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    parts: dict[str, Any] = {
        "skills": tuple(load_skill_paths(ctx, _where(ctx, manifest, "skills", path))),
        "commands": tuple(load_commands(ctx, _where(ctx, manifest, "commands", path))),
    }
    agents = _where(ctx, manifest, "agents", path)
    if ctx.runs("agents", agents):
        parts["agents"] = tuple(load_agents(ctx, agents))
    parts["mcp_servers"] = manifest_servers(ctx, manifest, path, "mcp.json")
    _not_adapted(ctx, manifest, "hooks", "hooks/hooks.json", path)
    _not_adapted(ctx, manifest, "rules", "rules", path)
    return ctx.plugin("cursor", scope, manifest, **parts)


def _type_problem(key: str, value: Any) -> str | None:
    if key in ("hooks", "mcpServers") and not (isinstance(value, str | dict) or str_list(value)):
        return f"a path or an object, not {type_name(value)}"
    if key in PATHS and not (isinstance(value, str) or str_list(value)):
        return f"a path or a list of paths, not {type_name(value)}"
    if key == "displayName" and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    return skills_problem(key, value)


def _where(ctx: Ctx, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
    """The paths a field lists, else its default directory (when it exists)."""
    return listed_or_default(ctx, manifest, key, key, path)


def _not_adapted(ctx: Ctx, manifest: Mapping[str, Any], key: str, default: str, path: Path) -> None:
    """One diagnostic naming where the Cursor hooks or rules are, when there are any."""
    value = manifest.get(key)
    if isinstance(value, dict):
        found = [path] if value else []
    else:
        found = listed_or_default(ctx, manifest, key, default, path)
    if not found:
        return
    where = ", ".join(ctx.rel(p) for p in found)
    if key == "hooks":
        message = f"Cursor plugin hooks are not adapted (not Claude Code's events): {where}"
        ctx.add("plugin.hooks.unsupported", message, found[0])
    else:
        message = f"Cursor rules are not loaded: {where}"
        ctx.add("plugin.rules.unsupported", message, found[0])

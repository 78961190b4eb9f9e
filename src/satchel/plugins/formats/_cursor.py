"""Cursor plugins: ``.cursor-plugin/plugin.json``, read as skills, commands, agents and
MCP servers (Cursor's plugin reference).

The manifest has Claude Code's shape. Default locations: ``skills/<name>/SKILL.md``,
``commands/**/*.md``, ``agents/**/*.md``, ``mcp.json`` (``{"mcpServers": {...}}``, no
leading dot), ``hooks/hooks.json`` and ``rules/``. Each of the fields ``skills``,
``commands``, ``agents``, ``rules`` (a plugin-relative path or a list of them),
``hooks`` and ``mcpServers`` (a path or an inline object) REPLACES its default
location, as Cursor reads them. Cursor's hooks (``{"version": 1, "hooks": {event:
[{"command": ...}]}}``, camelCase events such as ``sessionStart`` and
``beforeShellExecution``) load with Cursor's events and answers
(`satchel.hooks._parse.parse_cursor_hooks`). Rules (``rules/**/*.mdc``) are
`Plugin.rules`, each with its condition (``alwaysApply``, ``globs``, ``description``),
read as a project's Cursor rules are. The name is ``name``, else the directory name (see
`satchel.plugins.formats._base.plugin_name`); a known field of the wrong type is fatal
``plugin.manifest.invalid``; other fields are kept in `Plugin.manifest`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import type_name
from satchel.foundations._contain import str_list
from satchel.hooks._parse import cursor_hooks, parse_cursor_hooks
from satchel.hooks._spec import HookSpec
from satchel.kinds._instructions._hosts import cursor_rules
from satchel.kinds._instructions._load import MAX_FILE
from satchel.kinds._instructions._model import InstructionFile
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
    parts["hooks"] = _hooks(ctx, manifest, path)
    parts["rules"] = _rules(ctx, manifest, path)
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


def _hooks(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[HookSpec, ...]:
    """Cursor's hooks (camelCase events, `satchel.hooks._parse.parse_cursor_hooks`): the
    manifest's inline object, else the files it names, else ``hooks/hooks.json``."""
    value = manifest.get("hooks")
    if isinstance(value, dict):
        if not value or not ctx.runs("hooks", [path]):
            return ()
        document = value if "hooks" in value else {"hooks": value}  # or the event map alone
        return tuple(ctx.keep(cursor_hooks(document, path, ctx.name)))
    files = listed_or_default(ctx, manifest, "hooks", "hooks/hooks.json", path)
    if not ctx.runs("hooks", files):
        return ()
    return tuple(
        hook
        for file in files
        for hook in ctx.keep(parse_cursor_hooks(file, ctx.root, ctx.name, resolved=True))
    )


def _rules(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[InstructionFile, ...]:
    """The ``.mdc`` rules of the folders ``rules`` names, else of ``rules/``, each with
    its condition (`satchel.kinds._instructions._hosts.cursor_rules`)."""
    found: list[InstructionFile] = []
    for directory in listed_or_default(ctx, manifest, "rules", "rules", path):
        found += ctx.keep(cursor_rules(ctx.root, directory, MAX_FILE))
    return tuple(found)

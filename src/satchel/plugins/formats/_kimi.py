"""Kimi Code plugins: ``kimi.plugin.json`` or ``.kimi-plugin/plugin.json`` (the first
wins when both exist), adapted as skills, MCP servers and hooks (Vibe's
compatibility table).

Fields read: ``name`` (required, Kimi's rule ``[a-z0-9][a-z0-9_-]{0,63}``),
``version``, ``description``, ``keywords``, ``skills`` (paths; when absent,
``skills/`` if it exists, else a root ``SKILL.md`` as the one skill), ``mcpServers``
(an inline object of servers, or a path to a ``.mcp.json``-shaped file) and
``hooks`` (Kimi's flat list, read by `satchel.hooks._parse.parse_kimi_hooks`).
``tools`` (Kimi CLI's old executable tools) is reported as
``plugin.compatibility.executable_format_unsupported`` and never run. Every other
field (``commands``, ``agents``, ``systemPrompt``, ``interface``...) is kept in
`Plugin.manifest` and not adapted. A known field of the wrong type is fatal
``plugin.manifest.invalid``. Skills keep their frontmatter name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import type_name
from satchel.hooks._parse import parse_kimi_hooks
from satchel.hooks._spec import HookSpec
from satchel.hosts._kimi import KIMI_NAME
from satchel.plugins._context import Ctx, fatal, listed_or_default
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import load_skill_paths, manifest_servers, root_skill
from satchel.plugins.formats._base import adapter, read_manifest, skills_problem
from satchel.skills._model import Skill

__all__ = ["MANIFESTS", "NAME", "load"]

MANIFESTS = ("kimi.plugin.json", ".kimi-plugin/plugin.json")
NAME = KIMI_NAME


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Kimi Code plugin at `root`, or None and the fatal diagnostic."""
    label = next((m for m in MANIFESTS if os.path.lexists(ctx.root / m)), MANIFESTS[0])
    path = ctx.root / label
    manifest = read_manifest(ctx, path, label, _type_problem)
    ctx.name = ctx.namespace = _name(manifest.get("name"), path)
    skills = _skills(ctx, manifest, path)
    servers = manifest_servers(ctx, manifest, path, None)
    hooks = _hooks(ctx, manifest, path)
    if "tools" in manifest:
        message = "`tools` declares executable Kimi CLI tools; they are never run"
        ctx.add("plugin.compatibility.executable_format_unsupported", message, path)
    return ctx.plugin(
        "kimi", scope, manifest, skills=tuple(skills), mcp_servers=servers, hooks=hooks
    )


def _hooks(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[HookSpec, ...]:
    if not ctx.runs("hooks", [path] if manifest.get("hooks") else []):
        return ()
    return ctx.keep(parse_kimi_hooks(manifest.get("hooks"), path, ctx.name))


def _name(value: Any, path: Path) -> str:
    if not isinstance(value, str) or not NAME.match(value):
        shown = "missing" if value is None else repr(value)
        message = f"`name` is required and must match [a-z0-9][a-z0-9_-]{{0,63}} ({shown})"
        raise fatal("plugin.manifest.invalid", message, path)
    return value


def _type_problem(key: str, value: Any) -> str | None:
    if key == "mcpServers" and not isinstance(value, str | dict):
        return f"an object of servers or a path, not {type_name(value)}"
    if key == "hooks" and not isinstance(value, list):
        return f"a list of hooks, not {type_name(value)}"
    return skills_problem(key, value)


def _skills(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> list[Skill]:
    if "skills" in manifest:
        return load_skill_paths(ctx, listed_or_default(ctx, manifest, "skills", "skills", path))
    if os.path.lexists(ctx.root / "skills"):
        default = ctx.fixed("skills")
        return [] if default is None else load_skill_paths(ctx, [default])
    return root_skill(ctx)

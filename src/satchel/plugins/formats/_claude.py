"""Claude Code plugins: the optional ``.claude-plugin/plugin.json`` and the default layout.

Default locations: ``skills/<name>/SKILL.md``, ``commands/**/*.md``, ``agents/**/*.md``,
``hooks/hooks.json`` and ``.mcp.json`` (``{"mcpServers": {...}}`` or the bare map).
Without ``skills/`` and a ``skills`` field, a root ``SKILL.md`` is the one skill.

The manifest is optional; without it (or without ``name``) the plugin is named after
its directory (see `satchel.plugins.formats._base.plugin_name`). Its path fields, each a
plugin-relative path or a list of them (``./x`` or ``x``; never absolute or ``..``):

* ``commands`` and ``agents`` REPLACE ``commands/`` and ``agents/`` (files or
  directories);
* ``skills`` ADDS skill directories or skills roots to ``skills/`` (``"./"`` is the
  plugin root);
* ``hooks`` and ``mcpServers`` ADD to ``hooks/hooks.json`` and ``.mcp.json`` (Claude
  Code always loads its default files; the same file named twice is read once): a
  path, an inline object, or a list mixing paths and objects, as Claude Code reads
  them. An inline ``hooks`` object is the event map of a hooks file (``{"PreToolUse":
  [...]}``, not wrapped in ``{"hooks": ...}``); an inline ``mcpServers`` object maps
  server names to entries, as ``.mcp.json`` does. ``lspServers`` ADDS to ``.lsp.json``
  the same way (`satchel.plugins.components._lsp`).

``defaultEnabled: false`` keeps the plugin off until a setting enables it
(`satchel.plugins._discover`); ``settings`` and a root ``settings.json`` are its
default settings (`satchel.plugins.components._settings`). A known field of the
wrong type (``defaultEnabled`` not a boolean, ``settings`` not an object, as
``claude plugin validate`` 2.1.332 rejects them too) is fatal ``plugin.manifest.invalid``
(Claude Code refuses to load such a plugin); an unknown field is reported
(``plugin.manifest.field.unknown``) and ignored.

Ids, as Claude Code gives them (``claude plugin validate --json``): a skill in a
skills directory is ``<plugin>:<directory name>`` (a differing frontmatter ``name`` is
a ``skill.name.mismatch`` warning; a skill directory the manifest lists keeps its
frontmatter name); a command is ``<plugin>:`` plus its path under its commands
directory joined with ``:`` (``commands/content/draft.md`` is
``<plugin>:content:draft``; its frontmatter ``name`` is not read); an agent is
``<plugin>:`` plus its subdirectories under ``agents/`` and its frontmatter name (or
file stem): ``agents/review/deep.md`` named ``strict`` is ``<plugin>:review:strict``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from satchel.agents import AgentType
from satchel.core.diagnostics import type_name
from satchel.foundations._contain import real_below, str_list
from satchel.hooks._parse import claude_hooks, parse_claude_hooks
from satchel.hooks._spec import HookSpec
from satchel.hosts._claude_code import CLAUDE_EVENTS
from satchel.plugins._context import Ctx
from satchel.plugins._model import Plugin, PluginSettings
from satchel.plugins.components._bin import read_bin
from satchel.plugins.components._lsp import load_lsp_servers
from satchel.plugins.components._monitors import read_monitors
from satchel.plugins.components._parts import (
    foreign_servers,
    load_agents,
    load_commands,
    load_skill_paths,
    root_skill,
)
from satchel.plugins.components._settings import agent_problem, load_settings
from satchel.plugins.components._user_config import load_user_config
from satchel.plugins.formats._base import adapter, plugin_name, read_manifest
from satchel.plugins.formats._claude_kinds import read_kinds
from satchel.plugins.formats._claude_kinds import type_problem as kinds_problem
from satchel.skills._model import Skill

__all__ = ["KNOWN_FIELDS", "MANIFEST", "load"]

MANIFEST = ".claude-plugin/plugin.json"
STRINGS = ("name", "displayName", "version", "description", "homepage", "license")
PATHS = ("skills", "commands", "agents", "hooks", "mcpServers")
KNOWN_FIELDS = frozenset(
    (*STRINGS, *PATHS, "$schema", "author", "repository", "keywords", "metadata",
     "defaultEnabled", "outputStyles", "workflows", "experimental", "lspServers",
     "userConfig", "channels", "dependencies", "settings", "monitors", "icon",
     "privacyPolicyUrl")
)  # fmt: skip


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Claude Code plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / MANIFEST
    manifest = _manifest(ctx, path)
    ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    parts: dict[str, Any] = {
        "skills": tuple(_skills(ctx, manifest, path)),
        "commands": tuple(
            load_commands(ctx, _located(ctx, manifest, "commands", path), file_names=True)
        ),
    }
    agents = _located(ctx, manifest, "agents", path)
    hooks, inline_hooks = _files(ctx, manifest, "hooks", "hooks/hooks.json", path)
    servers, inline_servers = _files(ctx, manifest, "mcpServers", ".mcp.json", path)
    if ctx.runs("agents", agents):
        parts["agents"] = tuple(load_agents(ctx, agents, nested_names=True))
    if ctx.runs("hooks", [*hooks, *([path] if inline_hooks else [])]):
        parts["hooks"] = tuple(_hooks(ctx, hooks, inline_hooks, path))
    parts["mcp_servers"] = foreign_servers(ctx, servers, inline_servers, path)
    parts.update(read_kinds(ctx, manifest, path, hooks))
    parts["settings"] = _settings(ctx, manifest, path, parts.get("agents"))
    parts["default_enabled"] = manifest.get("defaultEnabled", True)
    parts["user_config"] = ctx.keep(load_user_config(manifest.get("userConfig"), ctx.name, path))
    lsp, inline_lsp = _files(ctx, manifest, "lspServers", ".lsp.json", path)
    parts["lsp_servers"] = load_lsp_servers(ctx, lsp, inline_lsp, path)
    parts["monitors"] = read_monitors(ctx, manifest, path)
    parts["bin"] = read_bin(ctx)
    return ctx.plugin("claude", scope, manifest, **parts)


def _settings(
    ctx: Ctx, manifest: Mapping[str, Any], path: Path, agents: tuple[AgentType, ...] | None
) -> PluginSettings | None:
    """The default settings (``settings.json`` over the manifest's ``settings``); an
    ``agent`` the plugin does not have is dropped (when its agents were read)."""
    settings, problems = load_settings(ctx.root, manifest, path)
    ctx.diags.extend(problems)
    if settings is None or agents is None:
        return settings
    why = agent_problem(settings, (a.name for a in agents), ctx.namespace)
    if why is None:
        return settings
    ctx.add("plugin.settings.invalid", why, settings.sources[-1])
    settings = replace(settings, agent=None)
    return settings if settings.subagent_status_line is not None else None


def _manifest(ctx: Ctx, path: Path) -> dict[str, Any]:
    """The manifest ({} when there is none), with known fields type-checked."""

    def problem_of(key: str, item: Any) -> str | None:
        problem = _type_problem(key, item)
        if problem is None and key not in KNOWN_FIELDS:
            message = f"`{key}` is not a Claude Code plugin.json field; it is ignored"
            ctx.add("plugin.manifest.field.unknown", message, path)
        return problem

    return read_manifest(ctx, path, MANIFEST, problem_of, optional=True)


def _type_problem(key: str, value: Any) -> str | None:
    """What a known field should be, when `value` is not that."""
    if key in STRINGS and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "author" and not isinstance(value, dict):
        return f"an object (name, email, url), not {type_name(value)}"
    if key == "defaultEnabled" and not isinstance(value, bool):
        return f"true or false, not {type_name(value)}"
    if key == "settings" and not isinstance(value, dict):
        return f"an object of settings, not {type_name(value)}"
    if key == "keywords" and not str_list(value):
        return "an array of strings"
    if key == "lspServers" and not (_inline_ok(value) or isinstance(value, str)):
        return f"a path, an object or a list of paths and objects, not {type_name(value)}"
    if key in PATHS:
        inline = key in ("hooks", "mcpServers") and _inline_ok(value)
        if not (inline or str_list(value) or isinstance(value, str)):
            kinds = (
                "a path, an object or a list of paths and objects"
                if key in ("hooks", "mcpServers")
                else "a path or a list of paths"
            )
            return f"{kinds}, not {type_name(value)}"
    return kinds_problem(key, value)


def _inline_ok(value: Any) -> bool:
    """An object, or a list of paths and objects (``hooks``, ``mcpServers``)."""
    items = value if isinstance(value, list) else [value]
    return isinstance(value, dict | list) and all(isinstance(v, str | dict) for v in items)


def _located(ctx: Ctx, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
    """``commands``/``agents``: the listed paths replace the default directory."""
    if key in manifest:
        return [p for p in ctx.listed(manifest, key, path) if _exists(ctx, p, key, path)]
    default = ctx.fixed(key)
    return [] if default is None else [default]


def _exists(ctx: Ctx, target: Path, key: str, path: Path) -> bool:
    if os.path.lexists(target):
        return True
    message = f"`{key}` names {ctx.rel(target)}, which does not exist"
    code = "plugin.agent.invalid" if key == "agents" else "command.read.error"
    ctx.add(code, message, path, severity="warning")
    return False


def _files(
    ctx: Ctx, manifest: Mapping[str, Any], key: str, default: str, path: Path
) -> tuple[list[Path], list[Mapping[str, Any]]]:
    """``hooks``/``mcpServers``: the default file plus the listed ones (each real
    file once), and the inline objects, in the order given."""
    value = manifest.get(key)
    items = value if isinstance(value, list) else [] if value is None else [value]
    inline: list[Mapping[str, Any]] = [v for v in items if isinstance(v, dict)]
    paths = {key: [v for v in items if not isinstance(v, dict)]}
    files: list[Path] = []
    seen: set[str] = set()
    fixed = ctx.fixed(default)
    for target in [*([fixed] if fixed is not None else []), *ctx.listed(paths, key, path)]:
        real = str(real_below(target, ctx.root) or target)
        if real not in seen:
            seen.add(real)
            files.append(target)
    return files, inline


def _skills(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> list[Skill]:
    listed = ctx.listed(manifest, "skills", path)
    default = ctx.fixed("skills")
    if default is None and "skills" not in manifest:
        return root_skill(ctx)
    return load_skill_paths(
        ctx, [*([default] if default is not None else []), *listed], by_dir=True
    )


def _hooks(
    ctx: Ctx, files: list[Path], inline: list[Mapping[str, Any]], path: Path
) -> list[HookSpec]:
    """The hooks of the files, then of the inline event maps (declared by `path`)."""
    hooks: list[HookSpec] = []
    fired = ("Claude Code", CLAUDE_EVENTS) if ctx.as_host else None
    for file in files:
        hooks += ctx.keep(parse_claude_hooks(file, ctx.root, ctx.name, resolved=True, fired=fired))
    for events in inline:
        hooks += ctx.keep(claude_hooks({"hooks": events}, path, ctx.name, fired=fired))
    return hooks

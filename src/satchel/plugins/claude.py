"""Claude Code plugins: the optional ``.claude-plugin/plugin.json`` and the default layout.

Default locations: ``skills/<name>/SKILL.md``, ``commands/**/*.md``, ``agents/**/*.md``,
``hooks/hooks.json`` and ``.mcp.json`` (``{"mcpServers": {...}}`` or the bare map).
Without ``skills/`` and a ``skills`` field, a root ``SKILL.md`` is the one skill.

The manifest is optional; without it (or without ``name``) the plugin is named after
its directory (see `satchel.plugins._parts.plugin_name`). Its path fields, each a
plugin-relative path or a list of them (``./x`` or ``x``; never absolute or ``..``):

* ``commands`` and ``agents`` REPLACE ``commands/`` and ``agents/`` (files or
  directories);
* ``skills`` ADDS skill directories or skills roots to ``skills/`` (``"./"`` is the
  plugin root);
* ``hooks`` and ``mcpServers`` ADD files to ``hooks/hooks.json`` and ``.mcp.json``
  (Claude Code always loads its default hooks file; the same file named twice is read
  once); either may also be an inline object.

A known field of the wrong type is fatal ``plugin.manifest.invalid`` (Claude Code
refuses to load such a plugin); an unknown field is reported
(``plugin.manifest.field.unknown``) and ignored. Skills keep their frontmatter name
(Claude Code lets it differ from the directory). Commands are ``<plugin>:<name>``,
agents ``<plugin>:<name>``.
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
    contained,
    fatal,
    foreign_servers,
    frozen,
    load_agents,
    load_commands,
    load_skill_dir,
    load_skill_paths,
    plugin_name,
    read_json,
)
from satchel.plugins.hooks import parse_claude_hooks
from satchel.plugins.model import HookSpec, Plugin
from satchel.skills.read import SKILL_FILE

__all__ = ["KNOWN_FIELDS", "MANIFEST", "load"]

MANIFEST = ".claude-plugin/plugin.json"
STRINGS = ("name", "displayName", "version", "description", "homepage", "license")
PATHS = ("skills", "commands", "agents", "hooks", "mcpServers")
KNOWN_FIELDS = frozenset(
    (*STRINGS, *PATHS, "$schema", "author", "repository", "keywords", "metadata",
     "defaultEnabled", "outputStyles", "workflows", "experimental", "lspServers",
     "userConfig", "channels", "dependencies", "settings")
)  # fmt: skip


def load(
    root: Path, *, scope: str = "", strict: bool = False, executable: bool = True
) -> tuple[Plugin | None, list[Diagnostic]]:
    """The Claude Code plugin at `root`, or None and the fatal diagnostic."""
    ctx = Ctx.of(root, executable=executable)
    path = ctx.root / MANIFEST
    try:
        manifest = _manifest(ctx, path)
        ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    except Fatal as f:
        return None, [*ctx.diags, f.diagnostic]
    parts: dict[str, Any] = {
        "skills": tuple(_skills(ctx, manifest, path)),
        "commands": tuple(load_commands(ctx, _located(ctx, manifest, "commands", path))),
    }
    agents = _located(ctx, manifest, "agents", path)
    hooks, inline_hooks = _files(ctx, manifest, "hooks", "hooks/hooks.json", path)
    servers, inline_servers = _files(ctx, manifest, "mcpServers", ".mcp.json", path)
    if executable:
        parts["agents"] = tuple(load_agents(ctx, agents))
        parts["hooks"] = tuple(_hooks(ctx, hooks, inline_hooks, path))
    else:
        ctx.unsupported("agents", agents)
        ctx.unsupported("hooks", [*hooks, *([path] if inline_hooks is not None else [])])
    parts["mcp_servers"] = foreign_servers(ctx, servers, inline_servers, path)
    plugin = Plugin(
        name=ctx.name,
        root=ctx.root,
        format="claude",
        namespace=ctx.namespace,
        scope=scope,
        manifest=frozen(manifest),
        version=manifest.get("version"),
        description=manifest.get("description"),
        diagnostics=tuple(ctx.diags),
        **parts,
    )
    return plugin, ctx.diags


def _manifest(ctx: Ctx, path: Path) -> dict[str, Any]:
    """The manifest ({} when there is none), with known fields type-checked."""
    if not os.path.lexists(path):
        return {}
    if not contained(path, ctx.root):
        raise fatal("plugin.path.outside_root", f"{MANIFEST} resolves outside the root", path)
    value, problem = read_json(path)
    if problem is not None:
        raise fatal("plugin.manifest.invalid", f"{MANIFEST}: {problem}", path)
    if not isinstance(value, dict):
        message = f"{MANIFEST} must hold a JSON object, not {type_name(value)}"
        raise fatal("plugin.manifest.invalid", message, path)
    for key, item in value.items():
        problem = _type_problem(key, item)
        if problem is not None:
            raise fatal("plugin.manifest.invalid", f"`{key}` must be {problem}", path)
        if key not in KNOWN_FIELDS:
            message = f"`{key}` is not a Claude Code plugin.json field; it is ignored"
            ctx.add("plugin.manifest.field.unknown", message, path)
    return value


def _type_problem(key: str, value: Any) -> str | None:
    """What a known field should be, when `value` is not that."""
    if key in STRINGS and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "author" and not isinstance(value, dict):
        return f"an object (name, email, url), not {type_name(value)}"
    if key == "keywords" and not (
        isinstance(value, list) and all(isinstance(k, str) for k in value)
    ):
        return "an array of strings"
    if key in PATHS:
        inline = key in ("hooks", "mcpServers") and isinstance(value, dict)
        listed = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if not (inline or listed or isinstance(value, str)):
            kinds = (
                "a path, a list of paths or an object"
                if key in ("hooks", "mcpServers")
                else "a path or a list of paths"
            )
            return f"{kinds}, not {type_name(value)}"
    return None


def _paths(ctx: Ctx, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
    """The contained paths a path field names (refused entries reported)."""
    value = manifest.get(key)
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    found = [ctx.entry(v, f"`{key}`", path) for v in values]
    return [p for p in found if p is not None]


def _located(ctx: Ctx, manifest: Mapping[str, Any], key: str, path: Path) -> list[Path]:
    """``commands``/``agents``: the listed paths replace the default directory."""
    if key in manifest:
        return [p for p in _paths(ctx, manifest, key, path) if _exists(ctx, p, key, path)]
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
) -> tuple[list[Path], Mapping[str, Any] | None]:
    """``hooks``/``mcpServers``: the default file plus the listed ones (each real
    file once), and the inline object when the field is one."""
    value = manifest.get(key)
    inline = value if isinstance(value, dict) else None
    files: list[Path] = []
    seen: set[str] = set()
    fixed = ctx.fixed(default)
    for target in [*([fixed] if fixed is not None else []), *_paths(ctx, manifest, key, path)]:
        real = os.path.realpath(target)
        if real not in seen:
            seen.add(real)
            files.append(target)
    return files, inline


def _skills(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> list[Any]:
    listed = _paths(ctx, manifest, "skills", path)
    default = ctx.fixed("skills")
    if default is None and "skills" not in manifest:
        if os.path.lexists(ctx.root / SKILL_FILE):
            skill = load_skill_dir(ctx, ctx.root, match_dir=False, name=ctx.name)
            return [] if skill is None else [skill]
        return []
    return load_skill_paths(ctx, [*([default] if default is not None else []), *listed])


def _hooks(
    ctx: Ctx, files: list[Path], inline: Mapping[str, Any] | None, path: Path
) -> list[HookSpec]:
    hooks: list[HookSpec] = []
    for file in files:
        found, diags = parse_claude_hooks(file, ctx.root, ctx.name)
        ctx.diags.extend(diags)
        hooks += found
    if inline is not None:
        message = "inline `hooks` in plugin.json are not read; put them in a hooks file"
        ctx.add("plugin.hooks.invalid", message, path)
    return hooks

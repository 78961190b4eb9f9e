"""Codex plugins: ``.codex-plugin/plugin.json``: skills, MCP servers, hooks and apps,
as Codex reads them (openai/codex ``codex-rs/core-plugins/src/manifest.rs`` and
``loader.rs``; observed with Codex 0.171.0).

Fields read: ``name`` (empty or missing: the directory name), ``version``,
``description``, ``keywords``, ``skills`` (a path or a list of paths: skill
directories or skills roots; default ``skills/``), ``mcpServers`` (a path to a
``.mcp.json``-shaped file, or an inline object of servers; default ``.mcp.json``) and
``hooks``: a path or a list of paths to hooks files (Claude Code's shape), an inline
``{"hooks": {event: [...]}}`` object or a list of them; without the field (or with a
value Codex ignores, such as a bare event map: ``plugin.hooks.invalid``),
``hooks/hooks.json``. A root ``hooks.json`` is not read (Codex does not read it).
Paths are plugin-relative (``./x`` or ``x``, never absolute or ``..``). ``apps`` (a
path to an ``.app.json``;
default ``.app.json``) is read into `Plugin.apps` (`satchel.plugins.components._apps`).
``interface``, ``author`` and any other field are kept in `Plugin.manifest` without
comment, as Codex ignores unknown keys. A known field of the wrong type is fatal
``plugin.manifest.invalid``. Skills keep their frontmatter name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import type_name
from satchel.hooks._parse import claude_hooks, parse_claude_hooks
from satchel.hooks._spec import HookSpec
from satchel.plugins._context import Ctx, listed_or_default
from satchel.plugins._model import App, Plugin
from satchel.plugins.components._apps import FILE as APPS
from satchel.plugins.components._apps import load_apps, unavailable
from satchel.plugins.components._parts import load_skill_paths, manifest_servers
from satchel.plugins.formats._base import adapter, plugin_name, read_manifest, skills_problem

__all__ = ["MANIFEST", "load"]

MANIFEST = ".codex-plugin/plugin.json"
HOOKS = "hooks/hooks.json"


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Codex plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / MANIFEST
    manifest = read_manifest(ctx, path, MANIFEST, _type_problem)
    ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    skills = listed_or_default(ctx, manifest, "skills", "skills", path)
    servers = manifest_servers(ctx, manifest, path, ".mcp.json")
    return ctx.plugin(
        "codex",
        scope,
        manifest,
        skills=tuple(load_skill_paths(ctx, skills)),
        mcp_servers=servers,
        hooks=_hooks(ctx, manifest, path),
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


def _hooks(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[HookSpec, ...]:
    """The hooks of the files or inline objects ``hooks`` gives, else of
    ``hooks/hooks.json``; a declarative-only client notes where they are."""
    files, inline = _hook_sources(ctx, manifest.get("hooks"), path)
    if not ctx.runs("hooks", [*files, *([path] if inline else [])]):
        return ()
    found: list[HookSpec] = []
    for file in files:
        found += ctx.keep(parse_claude_hooks(file, ctx.root, ctx.name, resolved=True))
    for document in inline:
        found += ctx.keep(claude_hooks(document, path, ctx.name))
    return tuple(found)


def _hook_sources(ctx: Ctx, value: Any, path: Path) -> tuple[list[Path], list[Mapping[str, Any]]]:
    """What Codex reads hooks from: the listed files, or the inline ``{"hooks": ...}``
    objects, or (no field, or one Codex ignores) ``hooks/hooks.json``."""
    items = value if isinstance(value, list) else [value]
    if value is not None and all(isinstance(v, str) for v in items):
        return ctx.listed({"hooks": value}, "hooks", path), []
    if value is not None and all(_wrapped(v) for v in items) and items:
        return [], [v for v in items if isinstance(v, dict)]
    if value is not None:
        given = "an object of events" if isinstance(value, dict) else type_name(value)
        message = (
            "`hooks` must be a path, a list of paths, an object holding a `hooks` object or a "
            f"list of them, not {given}; Codex ignores it and reads hooks/hooks.json"
        )
        ctx.add("plugin.hooks.invalid", message, path, severity="warning")
    fixed = ctx.fixed(HOOKS)
    return ([] if fixed is None else [fixed]), []


def _wrapped(value: Any) -> bool:
    """A hooks file's object: ``{"hooks": {...}}`` and nothing else (Codex's
    ``HooksFile`` refuses other fields)."""
    return isinstance(value, dict) and set(value) == {"hooks"} and isinstance(value["hooks"], dict)

"""Mermaid's plugin bundle: a ``plugin.toml`` listing what the plugin contributes.

    name = "deploy-kit"            # else the directory name
    description = "Release tooling"
    version = "1.2.0"
    skills = ["skills", "./extra/lint"]
    mcp = ["servers.toml"]         # files of [servers.<name>] tables
    prompts = ["deploy.md"]        # markdown prompt commands
    agents = ["types.toml"]        # files of [types.<name>] tables

Every entry is a plugin-relative path, ``./x`` or plain ``x``; an absolute path, a
``..`` segment or a path whose real location leaves the plugin is refused for that
entry (``plugin.path.outside_root``). A ``skills`` entry is a skill directory when it
holds a ``SKILL.md``, else a skills root whose immediate child directories are
skills. A prompt is named by its frontmatter ``name:`` or its file stem, which must
match ``[a-z0-9-]+`` (else ``command.name.invalid`` and it is skipped); it is
``<plugin>:<name>``. The plugin's name is ``name``, else its directory's (see
`satchel.plugins.formats._base.plugin_name`). A known key of the wrong type is fatal
``plugin.manifest.invalid``; an unknown key is reported and ignored (fatal with
`strict`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from satchel.agents import AgentType, load_bundle
from satchel.core._files import FileProblem, read_bounded
from satchel.core.diagnostics import type_name
from satchel.foundations._contain import MAX_MANIFEST, is_file, str_list
from satchel.kinds.commands import Command
from satchel.kinds.commands._names import NAME_RULE
from satchel.mcp._parse import load_server_files
from satchel.plugins._context import Ctx, fatal
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import as_plugin_agent, load_command_file, load_skill_paths
from satchel.plugins.formats._base import adapter, check_inside, plugin_name

__all__ = ["BUNDLE_MANIFEST", "FIELDS", "load"]

BUNDLE_MANIFEST = "plugin.toml"
LISTS = ("skills", "mcp", "prompts", "agents")
STRINGS = ("name", "description", "version")
FIELDS = (*STRINGS, *LISTS)


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The bundle plugin at `root`, or None and the fatal diagnostic."""
    path = ctx.root / BUNDLE_MANIFEST
    manifest = _manifest(ctx, path, strict)
    ctx.name = ctx.namespace = plugin_name(manifest.get("name"), ctx.dir_name, path)
    entries = {key: _entries(ctx, manifest, key, path) for key in LISTS}
    skills = load_skill_paths(ctx, entries["skills"])
    prompts = [c for c in (_prompt(ctx, p) for p in entries["prompts"]) if c is not None]
    parts: dict[str, Any] = {}
    if ctx.runs("mcp", entries["mcp"]) and entries["mcp"]:
        parts["mcp_servers"] = ctx.keep(
            load_server_files(entries["mcp"], ctx.root, ctx.name, resolved=True)
        )
    if ctx.runs("agents", entries["agents"]):
        parts["agents"] = tuple(_agents(ctx, entries["agents"]))
    return ctx.plugin(
        "bundle", scope, manifest, skills=tuple(skills), commands=tuple(prompts), **parts
    )


def _manifest(ctx: Ctx, path: Path, strict: bool) -> dict[str, Any]:
    check_inside(ctx, path, BUNDLE_MANIFEST)
    from satchel.core import _toml  # only when a TOML file is read

    try:
        text = read_bounded(path, MAX_MANIFEST).decode("utf-8").removeprefix("\ufeff")
        doc = _toml.loads(text)
    except FileProblem as e:
        message = f"cannot read plugin.toml: {e.message}"
        raise fatal("plugin.manifest.invalid", message, path) from None
    except UnicodeDecodeError:
        raise fatal("plugin.manifest.invalid", "plugin.toml is not valid UTF-8", path) from None
    except ValueError as e:  # not TOML, or nested too deep
        message = f"plugin.toml is not valid TOML: {e}"
        raise fatal("plugin.manifest.invalid", message, path) from None
    unknown = [key for key in doc if key not in FIELDS]
    if unknown and strict:
        listed = ", ".join(f"`{key}`" for key in unknown)
        raise fatal("plugin.manifest.invalid", f"unknown keys: {listed} (strict)", path)
    for key in unknown:
        ctx.add("plugin.manifest.field.unknown", f"`{key}` is not a bundle key; ignored", path)
    for key in STRINGS:
        if key in doc and not isinstance(doc[key], str):
            message = f"`{key}` must be a string, not {type_name(doc[key])}"
            raise fatal("plugin.manifest.invalid", message, path)
    for key in LISTS:
        value = doc.get(key, [])
        if not str_list(value):
            message = f"`{key}` must be a list of paths (strings), not {type_name(value)}"
            raise fatal("plugin.manifest.invalid", message, path)
    return doc


def _entries(ctx: Ctx, manifest: dict[str, Any], key: str, path: Path) -> list[Path]:
    """The contained paths a list names (refused entries reported)."""
    out: list[Path] = []
    for i, value in enumerate(manifest.get(key, [])):
        target = ctx.entry(value, f"{key}[{i}]", path)
        if target is not None:
            out.append(target)
    return out


def _prompt(ctx: Ctx, path: Path) -> Command | None:
    if not is_file(path):
        message = f"the prompt {ctx.rel(path)} is not a file"
        ctx.add("command.read.error", message, path)
        return None
    mark = len(ctx.diags)
    command = load_command_file(ctx, path)
    if command is None:
        return None
    base = command.name.split(":", 1)[1]
    if NAME_RULE.match(base):
        return command
    # the reader's "loads with a warning" does not hold for a bundle prompt
    ctx.diags[mark:] = [d for d in ctx.diags[mark:] if d.code != "command.name.invalid"]
    message = f"the prompt name {base!r} must match [a-z0-9-]+, as mermaid requires; it is skipped"
    ctx.add("command.name.invalid", message, path, severity="error")
    return None


def _agents(ctx: Ctx, paths: list[Path]) -> list[AgentType]:
    agents: list[AgentType] = []
    for path in paths:
        if not is_file(path):
            ctx.add("plugin.agent.invalid", f"{ctx.rel(path)} is not a file", path)
            continue
        found, diags = load_bundle(path, origin=ctx.origin)  # family: as other plugin agents
        ctx.diags.extend(as_plugin_agent(diags))
        agents += found
    return agents

"""Gemini CLI extensions: ``gemini-extension.json``, read as skills, commands, agents,
MCP servers and hooks.

Sources: docs/extensions/reference.md, docs/cli/custom-commands.md and
docs/hooks/reference.md in google-gemini/gemini-cli, and its loader:
packages/cli/src/config/extension-manager.ts (``loadExtensionConfig``,
``_buildExtension``), extension.ts (``ExtensionConfig``), extensions/variables.ts.

The manifest must hold ``name`` and ``version`` (Gemini CLI refuses an extension
without either); ``name`` is Gemini's rule ``[A-Za-z0-9-]+`` (at most 64 here). Gemini
CLI's docs expect the name to match the directory; its code does not check it, and
neither does satchel. A known field of the wrong type is fatal
``plugin.manifest.invalid``; an unknown one is reported
(``plugin.manifest.field.unknown``) and kept in `Plugin.manifest`, as every field is.

What loads, from fixed places (the manifest names none but the context files):

* ``skills/<dir>/SKILL.md``, named by their frontmatter ``name`` as Gemini CLI names them
  (`SKILL_NAMES`): as written, a name that breaks the Agent Skills rule
  kept (a warning), and a skill with no ``name:`` not loaded (``plugin.skill.invalid``);
* ``commands/**/*.toml``: Gemini CLI's TOML commands (`satchel.kinds.commands._toml`),
  ``<namespace>:<path joined by :>`` (``commands/gcs/sync.toml`` is ``<ns>:gcs:sync``),
  each answering to its bare path name too (``/gcs:sync``), as Gemini CLI names it;
* ``agents/*.md`` (not below; a name starting with ``_`` is passed over), read as
  Markdown agent files;
* ``mcpServers``, inline only (`satchel.mcp._gemini`);
* ``hooks/hooks.json`` (`satchel.hooks._parse.parse_gemini_hooks`; Gemini CLI reads no
  ``hooks`` field of the manifest);
* ``contextFileName`` (a file or a list; absent or empty: ``GEMINI.md``): the first
  that exists is `Plugin.instructions`, listed, never read. A context file outside
  the root is fatal ``plugin.path.outside_root``, as Gemini CLI refuses the extension.

``excludeTools``, ``settings``, ``themes``, ``plan`` and ``migratedTo`` are kept in
`Plugin.manifest` and not applied: one ``plugin.manifest.field.unapplied`` (info)
names those present. ``policies/*.toml`` (policy engine rules) are not read:
``plugin.policies.unsupported`` (info).

Gemini CLI substitutes ``${extensionPath}``, ``${workspacePath}`` and ``${/}`` (or
``${pathSeparator}``) in the manifest and hooks file; satchel maps them onto its own
placeholders where a server or hook runs (see those readers) and keeps them as
written elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core.diagnostics import type_name
from satchel.core.layout import PLUGIN, Root
from satchel.foundations import frontmatter
from satchel.foundations._contain import contained, is_file, str_list
from satchel.hooks._parse import parse_gemini_hooks
from satchel.hooks._spec import HookSpec
from satchel.hosts._gemini import GEMINI_EXTENSION_NAMES
from satchel.kinds.commands import Command, scan_commands
from satchel.mcp._gemini import parse_gemini_servers
from satchel.mcp._spec import McpServer
from satchel.plugins._context import Ctx, fatal
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import load_agents, load_skills
from satchel.plugins.formats._base import adapter, read_manifest

__all__ = [
    "AGENT_FIELDS",
    "CONTEXT_FILE",
    "KNOWN_FIELDS",
    "MANIFEST",
    "NAME",
    "SKILL_NAMES",
    "UNAPPLIED",
    "agent_problem",
    "load",
]

MANIFEST = "gemini-extension.json"
CONTEXT_FILE = "GEMINI.md"
NAME = re.compile(r"[A-Za-z0-9-]{1,64}\Z")
STRINGS = ("name", "version", "description", "migratedTo")
UNAPPLIED = ("excludeTools", "settings", "themes", "plan", "migratedTo")
# how Gemini CLI names an extension's skill (`satchel.hosts`' Gemini CLI profile)
SKILL_NAMES = GEMINI_EXTENSION_NAMES
KNOWN_FIELDS = frozenset((*STRINGS, *UNAPPLIED, "mcpServers", "contextFileName", "$schema"))


@adapter
def load(ctx: Ctx, scope: str, strict: bool) -> Plugin:
    """The Gemini CLI extension at `root`, or None and the fatal diagnostic."""
    path = ctx.root / MANIFEST
    manifest = _manifest(ctx, path)
    ctx.name = ctx.namespace = _name(manifest, path)
    instructions = _context_file(ctx, manifest, path)
    parts: dict[str, Any] = {
        "skills": tuple(_skills(ctx)),
        "commands": tuple(_commands(ctx)),
        "mcp_servers": _servers(ctx, manifest, path),
        "instructions": instructions,
    }
    agents = ctx.fixed("agents")
    if ctx.runs("agents", [] if agents is None else [agents]) and agents is not None:
        found = load_agents(ctx, [agents], recursive=False)
        parts["agents"] = tuple(
            a
            for a in found
            if not (a.path and a.path.name.startswith("_")) and _agent_kept(ctx, a.path)
        )
    hooks = ctx.fixed("hooks/hooks.json")
    if ctx.runs("hooks", [] if hooks is None else [hooks]) and hooks is not None:
        parts["hooks"] = _hooks(ctx, hooks)
    _unapplied(ctx, manifest, path)
    return ctx.plugin("gemini", scope, manifest, **parts)


def _manifest(ctx: Ctx, path: Path) -> dict[str, Any]:
    def problem_of(key: str, item: Any) -> str | None:
        problem = _type_problem(key, item)
        if problem is None and key not in KNOWN_FIELDS:
            message = f"`{key}` is not a gemini-extension.json field; it is ignored"
            ctx.add("plugin.manifest.field.unknown", message, path)
        return problem

    return read_manifest(ctx, path, MANIFEST, problem_of)


def _type_problem(key: str, value: Any) -> str | None:
    """What a known field must be (extension.ts's ``ExtensionConfig``), when it is not."""
    if key in STRINGS and not isinstance(value, str):
        return f"a string, not {type_name(value)}"
    if key == "mcpServers" and not isinstance(value, dict):
        return f"an object of servers, not {type_name(value)}"
    if key == "contextFileName" and not (isinstance(value, str) or str_list(value)):
        return f"a file name or a list of them, not {type_name(value)}"
    if key == "excludeTools" and not str_list(value):
        return "an array of tool names"
    if key in ("settings", "themes") and not (
        isinstance(value, list) and all(isinstance(v, dict) for v in value)
    ):
        return "an array of objects"
    if key == "plan" and not isinstance(value, dict):
        return f"an object, not {type_name(value)}"
    return None


def _name(manifest: Mapping[str, Any], path: Path) -> str:
    """`name` (Gemini CLI's rule), with `version` required beside it."""
    for key in ("name", "version"):
        if not manifest.get(key):
            message = f"`{key}` is required (Gemini CLI refuses an extension without it)"
            raise fatal("plugin.manifest.invalid", message, path)
    name: str = manifest["name"]
    if not NAME.match(name):
        message = (
            f"the name {name!r} cannot name an extension: 1-64 letters (a-z, A-Z), "
            "digits and '-', as Gemini CLI allows"
        )
        raise fatal("plugin.manifest.invalid", message, path)
    return name


def _context_file(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> Path | None:
    """The first context file that exists (``contextFileName``, default GEMINI.md)."""
    value = manifest.get("contextFileName") or CONTEXT_FILE
    names = [value] if isinstance(value, str) else list(value)
    found: list[Path] = []
    for name in names:
        target = ctx.root / name
        if Path(name).is_absolute() or ".." in Path(name).parts or not contained(target, ctx.root):
            message = (
                f"contextFileName {name!r} is outside the extension directory "
                "(Gemini CLI refuses the extension)"
            )
            raise fatal("plugin.path.outside_root", message, path)
        if is_file(target):
            found.append(target)
    return found[0] if found else None


def _skills(ctx: Ctx) -> list[Any]:
    skills = ctx.fixed("skills")
    if skills is None:
        return []
    return load_skills(ctx, skills, match_dir=False, names=SKILL_NAMES)


def _commands(ctx: Ctx) -> list[Command]:
    directory = ctx.fixed("commands")
    if directory is None:
        return []
    found = scan_commands(Root(directory, PLUGIN, ctx.name), origin=ctx.origin, toml=True)
    ctx.diags.extend(found.diagnostics)
    return list(found.commands)


def _servers(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[McpServer, ...]:
    servers = manifest.get("mcpServers")
    if not servers or not ctx.runs("mcp", [path]):
        return ()
    return ctx.keep(parse_gemini_servers(servers, root=ctx.root, plugin=ctx.name, path=path,
                                         resolved=True))  # fmt: skip


def _hooks(ctx: Ctx, path: Path) -> tuple[HookSpec, ...]:
    return ctx.keep(parse_gemini_hooks(path, ctx.root, ctx.name, resolved=True))


def _unapplied(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> None:
    present = [key for key in UNAPPLIED if key in manifest]
    if present:
        shown = ", ".join(f"`{key}`" for key in present)
        message = f"{shown}: kept in the manifest, not applied by satchel"
        ctx.add("plugin.manifest.field.unapplied", message, path)
    policies = ctx.fixed("policies")
    if policies is not None:
        message = "policies/ (Gemini CLI policy engine rules) are not read"
        ctx.add("plugin.policies.unsupported", message, policies)


# Gemini CLI 0.61.0's local agent schema (zod, strict: any other key refuses the agent)
AGENT_FIELDS = frozenset(
    ("kind", "name", "description", "display_name", "tools", "mcp_servers", "model",
     "temperature", "max_turns", "timeout_mins")
)  # fmt: skip
_AGENT_NAME = re.compile(r"[a-z0-9_-]+\Z")
MAX_AGENT_FILE = 1 << 20


def agent_problem(path: Path | None) -> str | None:
    """Why Gemini CLI refuses the agent file at `path` (its strict schema: only
    `AGENT_FIELDS`, a slug name, a description, ``tools`` a list), or None. The tool
    names themselves are not checked."""
    if path is None:
        return "it has no file"
    try:
        data = read_bounded(path, MAX_AGENT_FILE)
    except FileProblem as e:
        return f"it cannot be read ({e.message})"
    fields = frontmatter.parse(data, path).fields or {}
    extra = sorted(str(k) for k in fields if k not in AGENT_FIELDS)
    if extra:
        return f"Gemini CLI's agent schema refuses the key(s) {', '.join(extra)}"
    name = fields.get("name")
    if not isinstance(name, str) or not _AGENT_NAME.match(name):
        return f"Gemini CLI names an agent with a-z, 0-9, '-' and '_', not {name!r}"
    description = fields.get("description")
    if not isinstance(description, str) or not description:
        return "Gemini CLI needs a description"
    tools = fields.get("tools")
    if tools is not None and not (
        isinstance(tools, list) and all(isinstance(t, str) for t in tools)
    ):
        return f"Gemini CLI takes tools as a list of names, not {type_name(tools)}"
    return None


def _agent_kept(ctx: Ctx, path: Path | None) -> bool:
    problem = agent_problem(path)
    if problem is None:
        return True
    where = path if path is not None else ctx.root
    ctx.add("plugin.agent.invalid", f"{ctx.rel(where)}: {problem}", where, severity="warning")
    return False

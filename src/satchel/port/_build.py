"""Each target's manifest and files, built from the source `Plugin`.

Where the target reads a component from a default place the source already holds it
in (``skills/<name>/``, ``commands/``, ``agents/``, ``hooks/hooks.json``,
``.mcp.json``), the manifest leaves the field out; where it can point at the source's
files it lists them (``./`` paths); otherwise port writes what the target reads
(inline MCP servers and hooks, Gemini's TOML commands, Vibe's ``hooks.toml``,
``mcp.json``). What a target cannot hold is dropped with a ``port.*`` diagnostic
(`satchel.port._plan.Plan.drop`). Component files are never copied or rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from satchel.agents import AgentType
from satchel.core.errors import CommandBodyError
from satchel.hooks._spec import HookSpec
from satchel.kinds.commands import Command
from satchel.plugins._model import Plugin
from satchel.plugins.formats._gemini import SKILL_NAMES as GEMINI_SKILL_NAMES
from satchel.plugins.formats._gemini import agent_problem
from satchel.port._hooks import as_written, cursor_hooks, event_map, kimi_hooks, vibe_hooks
from satchel.port._model import Kind
from satchel.port._names import named_agents, named_commands, named_skills
from satchel.port._plan import Plan
from satchel.port._servers import MCP_SCHEMA, server_entries
from satchel.port._shared import add_to_shared
from satchel.port._targets import hook_key, target_event
from satchel.port._text import json_text, toml_table
from satchel.skills._model import Skill

__all__ = ["BUILDERS", "NATIVE_SCHEMA"]

NATIVE_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
_POSITIONAL = re.compile(r"\$(?:[0-9]|ARGUMENTS\[)")
_NATIVE_META = ("version", "description", "homepage", "repository", "license")
# the metadata Claude Code's, Codex's and Cursor's manifests share
_META = ("version", "description", "author", "homepage", "repository", "license", "keywords")


# -- what every manifest carries ----------------------------------------------------


def _meta(plugin: Plugin, fields: Sequence[str]) -> dict[str, Any]:
    """The source's name and the `fields` of its manifest that are strings (version,
    description, homepage...), author (name, email, url) and keywords."""
    given = plugin.manifest
    out: dict[str, Any] = {"name": plugin.name}
    values = {"version": plugin.version, "description": plugin.description}
    for key in fields:
        value = values.get(key) or given.get(key)
        if key == "author":
            value = _author(given.get("author"))
        elif key == "keywords":
            value = given.get("keywords")
            value = (
                value
                if isinstance(value, list) and all(isinstance(k, str) for k in value)
                else None
            )
        elif not isinstance(value, str):
            value = None
        if value:
            out[key] = value
    return out


def _author(value: Any) -> dict[str, str] | None:
    if isinstance(value, str) and value:
        return {"name": value}
    if not isinstance(value, dict):
        return None
    kept = {k: value[k] for k in ("name", "email", "url") if isinstance(value.get(k), str)}
    return kept or None


# -- skills ---------------------------------------------------------------------------


def _skill_dir(plan: Plan, skill: Skill) -> str | None:
    return plan.rel(skill.directory)


def _in(rel: str | None, directory: str) -> bool:
    """Whether `rel` is a direct child of `directory`."""
    return rel is not None and rel.count("/") == 1 and rel.startswith(directory + "/")


def _listed(rels: Sequence[str]) -> list[str]:
    return ["./" if r == "." else f"./{r}" for r in rels]


def _skills_listed(plan: Plan, default_root: bool) -> list[str] | None:
    """The ``skills`` paths of a manifest that lists them: None when every skill is
    in ``skills/<dir>/`` (`default_root`: the target reads it unasked; else
    ``./skills/``), else each skill directory. A skill at the plugin root cannot be
    listed where ``./`` is refused (`PortSpec.root_skills`: Codex); it is dropped."""
    rels = [(s, _skill_dir(plan, s)) for s in plan.plugin.skills]
    if all(_in(r, "skills") for _, r in rels):
        return None if default_root or not rels else ["./skills/"]
    kept: list[str] = []
    for skill, rel in rels:
        if rel is None or (rel == "." and not plan.target.spec.root_skills):
            message = (
                f"skill {skill.name!r} is at the plugin root, which {plan.target.title} cannot list"
            )
            plan.drop("skill", skill.name, "port.skill.location", message, skill.path)
            continue
        kept.append(rel)
    return _listed(kept)


def _fixed_skills(plan: Plan, *, match_dir: bool) -> None:
    """Targets that read only ``skills/<dir>/SKILL.md`` (Agent Plugins, Gemini CLI)."""
    for skill in plan.plugin.skills:
        rel = _skill_dir(plan, skill)
        if not _in(rel, "skills"):
            message = (
                f"skill {skill.name!r} is in {rel}; {plan.target.title} reads skills only from "
                "skills/<name>/"
            )
            plan.drop("skill", skill.name, "port.skill.location", message, skill.path)
        elif match_dir and rel is not None and rel.split("/")[1] != skill.name:
            message = (
                f"skill {skill.name!r} is in {rel}; {plan.target.title} loads a skill only when "
                "its name is its directory's"
            )
            plan.drop("skill", skill.name, "port.skill.location", message, skill.path)


# -- commands and agents -------------------------------------------------------------------


def _markdown_files(
    plan: Plan,
    items: Sequence[Command] | Sequence[AgentType],
    directory: str,
    kind: Kind,
) -> list[str] | None:
    """The paths for ``commands`` or ``agents``: None when every one is a Markdown file
    below `directory` (the target's default), else each file (a file in another
    format is dropped)."""
    rels: list[str] = []
    for item in items:
        rel = plan.rel(item.path)
        if rel is None or not rel.endswith(".md"):
            code = "port.agent.unsupported" if kind == "agent" else "port.command.unsupported"
            message = f"{kind} {item.name!r} is not a Markdown file; port does not convert it"
            plan.drop(kind, item.name, code, message, item.path)
            continue
        rels.append(rel)
    if all(r.startswith(directory + "/") for r in rels) and len(rels) == len(items):
        return None
    return _listed(rels)


def _unsupported(plan: Plan, kind: str, why: str) -> None:
    """Every component of `kind` (``commands``, ``agents``, ``hooks``) dropped."""
    if kind == "commands":
        for command in plan.plugin.commands:
            message = f"command {command.name!r}: {why}"
            plan.drop("command", command.name, "port.command.unsupported", message, command.path)
    elif kind == "agents":
        for agent in plan.plugin.agents:
            message = f"agent {agent.name!r}: {why}"
            plan.drop("agent", agent.name, "port.agent.unsupported", message, agent.path)
    else:
        for hook in plan.plugin.hooks:
            message = f"{hook.event} hook: {why}"
            plan.drop("hook", hook_key(hook), "port.hook.unsupported", message, hook.path)


def _gemini_commands(plan: Plan) -> None:
    """``commands/<group>/<name>.toml`` for each command: its description, and its
    body as the prompt with ``$ARGUMENTS`` as ``{{args}}``."""
    for command in plan.plugin.commands:
        try:
            body = command.body()
        except CommandBodyError as e:
            message = f"command {command.name!r} cannot be read: {e.diagnostic.message}"
            plan.drop("command", command.name, "port.command.unsupported", message, command.path)
            continue
        if _POSITIONAL.search(body):
            message = (
                f"command {command.name!r} takes positional arguments ($1, $ARGUMENTS[0]...); "
                "Gemini CLI passes only {{args}}"
            )
            plan.drop("command", command.name, "port.command.arguments", message, command.path)
            continue
        parts = command.name.split(":")[1:] if ":" in command.name else [command.name]
        rel = "commands/" + "/".join(parts) + ".toml"
        if plan.taken(rel):
            message = f"command {command.name!r}: {rel} is one of the plugin's own files"
            plan.drop("command", command.name, "port.path.taken", message, command.path)
            continue
        fields: dict[str, str | int | float | bool] = {}
        if command.description:
            fields["description"] = command.description
        fields["prompt"] = body.replace("$ARGUMENTS", "{{args}}")
        plan.add(rel, toml_table(None, fields))


# -- hooks and servers ----------------------------------------------------------------------


def _default_hooks(plan: Plan) -> tuple[tuple[HookSpec, ...], tuple[HookSpec, ...]]:
    """The source's hooks split: those the target reads from ``hooks/hooks.json`` as
    they are (Claude Code reads that file unasked, whatever the plugin's format: a hook
    there whose event it fires under the same name runs as written, and writing it
    again would run it twice: what breaks there is said, `as_written`), and the
    others."""
    default = tuple(
        h
        for h in plan.plugin.hooks
        if plan.rel(h.path) == "hooks/hooks.json"
        and (h.format == plan.target.format or h.event in plan.target.events)
    )
    for hook in default:
        if hook.format != plan.target.format:
            as_written(plan, hook, "hooks/hooks.json")
    return default, tuple(h for h in plan.plugin.hooks if h not in default)


def _read_in_place(plan: Plan, hook: HookSpec) -> bool:
    """Whether the target reads `hook` from the source's own file as it is
    (`PortHooks.reads_in_place`): Gemini CLI reads Claude Code's ``hooks/hooks.json``
    in its own event names, and a few of those are Claude Code's too
    (``SessionStart``, ``SessionEnd``, ``Notification``)."""
    source = plan.target.hooks.reads_in_place
    return (
        source is not None
        and hook.format == source
        and target_event(hook, plan.target) == hook.event
    )


def _hook_file(plan: Plan, rel: str, text_of: Callable[[], str]) -> None:
    """A hooks file the target reads at a fixed place; one of the source's own files
    gets the target's hooks added where both hosts allow it (`add_to_shared`), else
    they are left out."""
    if plan.taken(rel) and plan.target.hooks.adds_keys and add_to_shared(plan, rel):
        return
    if plan.taken(rel):
        for hook in plan.plugin.hooks:
            if plan.rel(hook.path) == rel and _read_in_place(plan, hook):
                as_written(plan, hook, rel)
                continue
            message = f"{hook.event} hook: {rel} is one of the plugin's own files"
            plan.drop("hook", hook_key(hook), "port.path.taken", message, hook.path)
        return
    text = text_of()
    if text:
        plan.add(rel, text)


# -- the targets ------------------------------------------------------------------------------


def claude(plan: Plan) -> dict[str, Any]:
    manifest = _meta(plan.plugin, _META)
    skills = [
        r
        for r in (_skill_dir(plan, s) for s in plan.plugin.skills)
        if r is not None and not _in(r, "skills")
    ]
    if skills:
        manifest["skills"] = _listed(skills)
    named_skills(plan, by_dir=lambda rel: _in(rel, "skills"))
    parts: tuple[tuple[str, Sequence[Command] | Sequence[AgentType], Kind], ...] = (
        ("commands", plan.plugin.commands, "command"),
        ("agents", plan.plugin.agents, "agent"),
    )
    for key, items, kind in parts:
        listed = _markdown_files(plan, items, key, kind)
        if listed is not None:
            manifest[key] = listed
    _, other = _default_hooks(plan)
    events = event_map(plan, other)
    if events:
        manifest["hooks"] = events
    servers = [s for s in plan.plugin.mcp_servers if plan.rel(s.path) != ".mcp.json"]
    entries = server_entries(plan, tuple(servers))
    if entries:
        manifest["mcpServers"] = entries
    return manifest


def codex(plan: Plan) -> dict[str, Any]:
    manifest = _meta(plan.plugin, _META)
    skills = _skills_listed(plan, default_root=False)
    if skills:
        manifest["skills"] = skills
    named_skills(plan)
    entries = server_entries(plan, plan.plugin.mcp_servers)
    if entries:
        manifest["mcpServers"] = entries
    events = event_map(plan, plan.plugin.hooks)
    if events:
        # a hooks file's object: Codex ignores a bare event map (0.171.0, observed)
        manifest["hooks"] = {"hooks": events}
    interface = {"displayName": str(plan.plugin.manifest.get("displayName") or plan.plugin.name)}
    if plan.plugin.description:
        interface["shortDescription"] = plan.plugin.description
    manifest["interface"] = interface
    return manifest


def cursor(plan: Plan) -> dict[str, Any]:
    manifest = _meta(plan.plugin, _META)
    skills = _skills_listed(plan, default_root=True)
    if skills:
        manifest["skills"] = skills
    named_skills(plan)
    parts: tuple[tuple[str, Sequence[Command] | Sequence[AgentType], Kind], ...] = (
        ("commands", plan.plugin.commands, "command"),
        ("agents", plan.plugin.agents, "agent"),
    )
    for key, items, kind in parts:
        listed = _markdown_files(plan, items, key, kind)
        if listed is not None:
            manifest[key] = listed
    named_commands(plan)
    named_agents(plan)
    entries = server_entries(plan, plan.plugin.mcp_servers)
    if entries:
        manifest["mcpServers"] = entries
    hooks = cursor_hooks(plan, plan.plugin.hooks)
    if hooks:
        manifest["hooks"] = hooks
    return manifest


def gemini(plan: Plan) -> dict[str, Any]:
    manifest = _meta(plan.plugin, ("version", "description"))
    if "version" not in manifest and plan.target.spec.version is not None:
        manifest["version"] = plan.target.spec.version
    _fixed_skills(plan, match_dir=False)
    named_skills(plan, names=GEMINI_SKILL_NAMES)
    entries = server_entries(plan, plan.plugin.mcp_servers)
    if entries:
        manifest["mcpServers"] = entries
    _gemini_commands(plan)
    if plan.plugin.hooks:
        _hook_file(plan, "hooks/hooks.json", lambda: _events_file(plan))
    _gemini_agents(plan)
    return manifest


def _gemini_agents(plan: Plan) -> None:
    """Gemini CLI reads an extension's ``agents/*.md`` where they are (0.61.0, its
    ``loadAgentsFromDirectory``: the top level only, a strict frontmatter: satchel's
    Gemini reader applies the same rule, `agent_problem`). An agent there whose
    frontmatter Gemini accepts needs nothing written; any other is dropped."""
    for agent in plan.plugin.agents:
        rel = plan.rel(agent.path)
        if agent.path is None or rel is None or not _in(rel, "agents") or not rel.endswith(".md"):
            problem: str | None = (
                f"Gemini CLI reads agents only from agents/<name>.md, not {rel or 'code'}"
            )
        else:
            problem = agent_problem(agent.path)
            if problem is not None:
                problem += "; port does not convert agents"
        if problem is not None:
            message = f"agent {agent.name!r}: {problem}"
            plan.drop("agent", agent.name, "port.agent.unsupported", message, agent.path)


def _events_file(plan: Plan) -> str:
    events = event_map(plan, plan.plugin.hooks)
    return json_text({"hooks": events}) if events else ""


def kimi(plan: Plan) -> dict[str, Any]:
    manifest = _meta(plan.plugin, ("version", "description", "keywords"))
    skills = _skills_listed(plan, default_root=True)
    if skills and skills != ["./"]:
        manifest["skills"] = skills
    named_skills(plan)
    entries = server_entries(plan, plan.plugin.mcp_servers)
    if entries:
        manifest["mcpServers"] = entries
    hooks = kimi_hooks(plan, plan.plugin.hooks)
    if hooks:
        manifest["hooks"] = hooks
    return manifest


def native(plan: Plan) -> dict[str, Any]:
    """Agent Plugins 1.0, and the host's extension (`PortSpec.extension`: Mistral
    Vibe's) when the plugin has hooks."""
    extension = plan.target.spec.extension
    manifest = {
        "$schema": NATIVE_SCHEMA,
        **_meta(plan.plugin, (*_NATIVE_META, "author", "keywords")),
    }
    _fixed_skills(plan, match_dir=True)
    named_skills(plan, match_dir=True)
    entries = server_entries(plan, plan.plugin.mcp_servers)
    if entries:
        if plan.taken("mcp.json"):
            for server in plan.plugin.mcp_servers:
                message = f"MCP server {server.name!r}: mcp.json is one of the plugin's own files"
                plan.drop("mcp_server", server.name, "port.path.taken", message, server.path)
        else:
            plan.add("mcp.json", json_text({"$schema": MCP_SCHEMA, "mcpServers": entries}))
    if extension is not None and plan.plugin.hooks:
        rel = f"{extension}/hooks.toml"
        _hook_file(plan, rel, lambda: vibe_hooks(plan, plan.plugin.hooks))
        if rel in plan.files:
            manifest["extensions"] = {extension: {"schemaVersion": 1}}
    elif plan.plugin.hooks:
        _unsupported(plan, "hooks", f"{plan.target.title} has no hooks (only a host's extension)")
    why = (
        f"port does not write {extension}'s TOML agents"
        if extension is not None
        else f"{plan.target.title} has no agents (only a host's extension)"
    )
    _unsupported(plan, "agents", why)
    return manifest


BUILDERS: Mapping[str, Callable[[Plan], dict[str, Any]]] = {
    "claude": claude,
    "codex": codex,
    "cursor": cursor,
    "gemini": gemini,
    "kimi": kimi,
    "agent-plugins": native,
}

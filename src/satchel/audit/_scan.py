"""`audit_path`: what PATH is (a skill, a tree of skills, a plugin, a workspace, one
file), and every finding in it.

A workspace is audited from one `satchel.load`, against the user's own list of
trusted folders, Claude Code's settings hooks included: what loads, and what the one
trust decision holds back, which that load read as declared and held (never
runnable): the project's plugins, the workspace plugin and the project-scope plugins
Claude Code installed (`PluginSet.held`, with what went wrong reading them), its MCP
servers (`McpServerSet.held`), its hooks (listed skipped), the project skills,
commands and agents the user's own shadow in a folder that is not trusted, and items
changed since ``satchel trust``. So everything trusting the folder would unlock is
seen, and each item it holds back today is said so. Loading runs nothing, and neither
does anything here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from satchel.agents import AgentType
from satchel.assembly._environment import Environment, load
from satchel.assembly._options import LoadOverrides
from satchel.assembly._policed import hook_refusal
from satchel.audit._content import body_findings, gemini_findings, read_text, text_findings
from satchel.audit._executables import (
    agent_findings,
    agent_tools_findings,
    allowed_tools_findings,
    hook_findings,
    program_findings,
    script_findings,
    server_findings,
)
from satchel.audit._loading import held_back_findings, held_hook_findings, refusal_findings
from satchel.audit._model import Finding, Report
from satchel.audit._tree import Limits, file_findings, is_environment_dir, tree_findings
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import PROJECT, USER, Layout, WalkBounds
from satchel.foundations.origin import Originated
from satchel.foundations.policy._model import Policy
from satchel.foundations.policy._read import read_policy
from satchel.hooks._load import DECLARATIVE, UNTRUSTED
from satchel.hooks._scoped import skill_hooks
from satchel.hosts import Host
from satchel.hosts._lookup import client_profile
from satchel.kinds.commands import Command
from satchel.mcp._spec import McpServer
from satchel.plugins import Plugin, read_plugin
from satchel.plugins._detect import is_plugin_dir, plugin_children
from satchel.skills._discover import skill_dirs
from satchel.skills._model import Skill
from satchel.skills._read import SKILL_FILE, parse_skill
from satchel.trust._approval import CHANGED, server_key

SKILL_FILES = (SKILL_FILE, "skill.md")

__all__ = ["WORKSPACE_MARKERS", "audit_path", "kind_of"]

WORKSPACE_MARKERS = (
    ".git", ".satchel", ".claude", ".agents", ".codex", ".opencode", ".mcp.json",
    "AGENTS.md", "CLAUDE.md",
)  # fmt: skip
TEXT = "loaded"  # the trust state of text: it reaches the model once loaded
SOURCE = "trusted-source"  # a skill or plugin audited alone: where it is installed decides


def kind_of(path: Path, project: Path | None, client: str = "satchel") -> str:
    """``skill``, ``plugin``, ``plugins``, ``skills``, ``workspace`` or ``file``."""
    if project is not None:
        return "workspace"
    if not os.path.isdir(path):
        return "skill" if path.name in SKILL_FILES else "file"
    if os.path.lexists(path / SKILL_FILE):
        return "skill"
    if is_plugin_dir(path):
        return "plugin"
    if plugin_children(path) is not None:
        return "plugins"
    if any(os.path.lexists(path / m) for m in (*WORKSPACE_MARKERS, f".{client}")):
        return "workspace"
    found, _ = skill_dirs(str(path), WalkBounds())
    return "skills" if found else "workspace"


def audit_path(
    path: Path,
    *,
    project: Path | None = None,
    home: Path | None = None,
    client: str = "satchel",
    limits: Limits | None = None,
    plugin_dirs: tuple[Path, ...] = (),
    host: Host | None = None,
) -> Report:
    """Audit `path` (see the module); never runs anything, never raises for bad files.
    `plugin_dirs`: plugin directories a workspace's load takes too (``--plugin-dir``);
    `host`: a workspace is read as that host profile reads it [satchel's, with Claude
    Code's settings hooks]."""
    path = Path(os.path.abspath(path))
    limits = limits or Limits()
    kind = kind_of(path, project, client)
    if kind == "workspace":
        at = project or path
        layout = (
            Layout.default(path, client=client, home=home, project=at)
            if host is None
            else host.layout(path, home=home, project=at)
        )
        options: LoadOverrides = {"plugin_dirs": plugin_dirs, "read_held": True}
        if host is None:
            options["claude_settings_hooks"] = True
        env = load(layout=layout, host=host, **options)  # the user's own trust list
        problems = (*env.diagnostics, *_held_problems(env))
        errors = sum(d.severity != "info" for d in problems)
        return Report(path, kind, _settled(_workspace(env, limits)), errors, env.policy)
    if kind == "file":
        found, diagnostics = list(_file(path)), 0
    elif kind in ("plugin", "plugins"):
        found, diagnostics = _plugins(path, kind, limits)
    else:
        found, diagnostics = _skills(path, kind, client, limits)
    return Report(path, kind, _settled(found), diagnostics, _policy(path, project, home, client))


def _policy(path: Path, project: Path | None, home: Path | None, client: str) -> Policy:
    """The policy in force where `path` is audited (as `load()` would read it there)."""
    lay = Layout.default(path if path.is_dir() else path.parent, client=client, home=home,
                         project=project)  # fmt: skip
    policy, _ = read_policy(config_home=lay.config_home, project=lay.project, client=client)
    return policy


def _plugins(path: Path, kind: str, limits: Limits) -> tuple[list[Finding], int]:
    roots = [path] if kind == "plugin" else plugin_children(path) or []
    found: list[Finding] = []
    errors = 0
    for root in roots:
        plugin, problems = read_plugin(root)
        errors += sum(d.severity != "info" for d in problems)
        found += _plugin(plugin, root, SOURCE, limits)
        found += refusal_findings(problems, SOURCE)
    return found, errors


def _skills(path: Path, kind: str, client: str, limits: Limits) -> tuple[list[Finding], int]:
    if kind == "skill":
        dirs = [path]
    else:
        found_dirs = skill_dirs(str(path), WalkBounds())[0]
        dirs = sorted(Path(d) for d in found_dirs if not _in_environment(Path(d), path))
    found: list[Finding] = []
    errors = 0
    for directory in dirs:
        deprecated = client_profile(client).skill_metadata.deprecated
        skill, problems = parse_skill(directory, client=client, deprecated=deprecated)
        errors += sum(d.severity != "info" for d in problems)
        base = directory if os.path.isdir(directory) else directory.parent
        found += _skill(base, skill, SOURCE, limits)
    return found, errors


def _settled(found: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(sorted(set(found), key=Finding.sort_key))


def _skill(directory: Path, skill: Skill | None, trust: str, limits: Limits) -> Iterator[Finding]:
    file = skill.path if skill is not None and skill.path is not None else directory / SKILL_FILE
    text = read_text(file) if os.path.isfile(file) else None
    if text is not None:
        yield from text_findings(text, file, TEXT)
        yield from body_findings(text, file, trust)
    if skill is not None:
        yield from allowed_tools_findings(skill, _line_of(text, "allowed-tools:"), trust)
    if os.path.isdir(directory):
        yield from tree_findings(directory, TEXT, scripts=trust, limits=limits)


def _plugin(plugin: Plugin | None, root: Path, trust: str, limits: Limits) -> list[Finding]:
    found: list[Finding] = []
    if plugin is None:
        return list(tree_findings(root, TEXT, scripts=None, limits=limits))
    for skill in plugin.skills:
        if skill.path is not None:
            found += _skill(skill.path.parent, skill, trust, limits)
        specs, _, _ = skill_hooks(skill)  # its frontmatter's hooks, run while it is active
        found += (f for h in specs for f in hook_findings(h, f"skill:{skill.name}", trust))
    found += (f for h in plugin.hooks for f in hook_findings(h, f"plugin:{plugin.name}", trust))
    found += (f for s in plugin.mcp_servers for f in server_findings(s, trust))
    found += script_findings(plugin, trust)
    found += program_findings(plugin, trust)
    found += _agents(plugin.agents, trust)
    found += _commands(plugin.commands, trust)
    found += tree_findings(root, TEXT, scripts=None, limits=limits)
    return found


def _agents(agents: Iterable[AgentType], trust: str) -> Iterator[Finding]:
    for agent in agents:
        yield from agent_findings(agent, TEXT)
        yield from _texts([agent.path])
        text = read_text(agent.path) if agent.path and os.path.isfile(agent.path) else None
        line = _line_of(text, "tools:") or _line_of(text, "tools =")
        yield from agent_tools_findings(agent, line, trust)


def _commands(commands: Iterable[Command], trust: str) -> Iterator[Finding]:
    """Each command file's text, and the ``!`cmd`` lines a host such as Claude Code
    (or the ``!{...}`` of a TOML command Gemini CLI) runs when the command is invoked."""
    for command in commands:
        path = command.path
        text = read_text(path) if path is not None and os.path.isfile(path) else None
        if path is not None and text is not None:
            yield from text_findings(text, path, TEXT)
            if command.syntax == "toml":
                yield from gemini_findings(text, path, trust)
            else:
                yield from body_findings(text, path, trust, "command")


def _file(path: Path) -> Iterator[Finding]:
    """One file given on its own: its text, the ``!`cmd`` lines of a Markdown file (a
    command file is one) or the ``!{...}`` of a TOML file under ``commands/`` (Gemini
    CLI's), and whether it is a binary or an executable."""
    kinds = list(file_findings(path, TEXT, scripts=SOURCE))
    yield from kinds
    if any(f.rule == "A-EXEC-OPAQUE-BINARY" for f in kinds):
        return  # a binary's bytes are not text a model reads
    text = read_text(path) if os.path.isfile(path) else None
    if text is not None:
        yield from text_findings(text, path, TEXT)
        if path.suffix.lower() in (".md", ".markdown"):
            what = "command" if "commands" in path.parts else "file"
            yield from body_findings(text, path, SOURCE, what)
        elif path.suffix.lower() == ".toml" and "commands" in path.parts:
            yield from gemini_findings(text, path, SOURCE)


def _in_environment(directory: Path, top: Path) -> bool:
    """Whether `directory` lies inside a version-control or environment directory
    below `top` (a skill vendored in ``.venv`` or ``node_modules`` is not audited)."""
    below = directory.relative_to(top) if directory.is_relative_to(top) else directory
    parent = top
    for part in below.parts[:-1]:
        parent = parent / part
        if is_environment_dir(parent):
            return True
    return False


def _texts(paths: Iterable[Path | None]) -> Iterator[Finding]:
    for path in paths:
        text = read_text(path) if path is not None and os.path.isfile(path) else None
        if path is not None and text is not None:
            yield from text_findings(text, path, TEXT)


def _workspace(env: Environment, limits: Limits) -> Iterator[Finding]:
    lay = env.layout

    def trust_of(path: Path | None) -> str:
        if path is None:
            return "none"
        user = (lay.home, lay.config_home)
        if _under(path, lay.project) and not any(_under(path, u) for u in user):
            return "trusted-project"
        return "none"

    plugins = (*env.plugins.enabled(), *(p for p in env.plugins.held.values() if p.enabled))
    plugin_skills = {s.path for p in plugins for s in p.skills}
    for skill in (*env.skills.values(), *_shadowed_project(env)[0]):
        if skill.path is not None and skill.path not in plugin_skills:
            yield from _skill(skill.path.parent, skill, trust_of(skill.path), limits)
    for plugin in plugins:
        for skill in plugin.skills:
            if skill.path is not None:
                yield from _skill(skill.path.parent, skill, trust_of(plugin.root), limits)
        yield from script_findings(plugin, trust_of(plugin.root))
        yield from program_findings(plugin, trust_of(plugin.root))
        yield from tree_findings(plugin.root, TEXT, scripts=None, limits=limits)
    yield from _hooks(env, trust_of)
    for server in (*env.mcp_servers.servers, *env.mcp_servers.held):
        yield from server_findings(_as_trusted(env, server), trust_of(server.path))
    _, commands, agents = _shadowed_project(env)
    held_agents = (a for p in env.plugins.held.values() if p.enabled for a in p.agents)
    for agent in (*env.agents.agents.values(), *agents, *held_agents):
        yield from _agents([agent], trust_of(agent.path))
    held_commands = (c for p in env.plugins.held.values() if p.enabled for c in p.commands)
    for command in (*env.commands.commands.values(), *commands, *held_commands):
        yield from _commands([command], trust_of(command.path))
    yield from _texts(f.path for f in env.instructions)
    for problem in (*env.diagnostics, *_held_problems(env)):
        yield from refusal_findings([problem], trust_of(problem.path))
    yield from held_back_findings(env.plugins, env.mcp_servers, trust_of)


def _held_problems(env: Environment) -> tuple[Diagnostic, ...]:
    """What went wrong reading what the trust decision holds back (its plugins and
    MCP servers): not among the load's diagnostics, as none of it loads."""
    return (*env.plugins.held_diagnostics, *env.mcp_servers.held_diagnostics)


def _shadowed_project(
    env: Environment,
) -> tuple[tuple[Skill, ...], tuple[Command, ...], tuple[AgentType, ...]]:
    """The project's skills, commands and agent types the user's own shadow in a folder
    that is not trusted (the user's rank first there): each would count once it is."""
    if env.trusted:
        return (), (), ()
    skills = tuple(s.loser for s in env.shadowed if _demoted(s.winner, s.loser))
    commands = tuple(b for a, b in env.commands.shadowed if _demoted(a, b))
    agents = tuple(s.loser for s in env.agents.shadowed if _demoted(s.winner, s.loser))
    return skills, commands, agents


def _demoted(winner: Originated, loser: Originated) -> bool:
    return winner.scope == USER and loser.scope == PROJECT


def _hooks(env: Environment, trust_of: Callable[[Path | None], str]) -> Iterator[Finding]:
    """Each hook as it runs once the folder is trusted (again), and one held-back
    finding, with the loader's reason, for each the trust decision holds back today."""
    for hook in env.hooks.hooks:
        why = None if hook.loaded else hook.why
        held = why in (UNTRUSTED, CHANGED)
        refused = hook_refusal(hook, env.policy) if held else None
        if refused is not None:  # what would not run trusted either is not held back
            held, why = False, refused.message
        elif held and not env.options.executable:
            held, why = False, DECLARATIVE
        trust = trust_of(hook.spec.path)
        yield from hook_findings(hook.spec, hook.source, trust, None if held else why)
        if held:
            yield from held_hook_findings([hook], "trusted-project")


def _as_trusted(env: Environment, server: McpServer) -> McpServer:
    """`server` as a trusted load holds it: one disabled only because it changed since
    ``satchel trust`` is audited as declared (the pins are what hold it back)."""
    if server.enabled or not env.trust.held:
        return server
    key = server_key(server, env.plugins.plugins)
    return replace(server, enabled=True) if key is not None and env.trust.holds(key) else server


def _under(path: Path, root: Path) -> bool:
    return path == root or str(path).startswith(os.path.join(root, ""))


def _line_of(text: str | None, prefix: str) -> int | None:
    if text is None:
        return None
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(prefix):
            return number
    return None

"""What every format adapter shares: reading a manifest, keeping paths inside the
plugin root, and reading skills, commands and agents from a plugin's files.

Containment (Agent Plugins 1.0 §4): every file or directory read from a plugin must
resolve, after symlinks, inside the resolved plugin root; links that stay inside are
fine. A path the plugin declares (`entry`) is plugin-relative: ``./x`` or plain
``x``; an absolute path or one with a ``..`` segment is refused before it is looked
at (``plugin.path.outside_root``, that entry dropped), and so is one whose real path
leaves the root. A fixed component location (`fixed`) that leaves the root makes
that component type invalid; the rest of the plugin loads.

Plugin skills, commands and agents are read by the skills, commands and agents
packages: skills have scope ``plugin`` and the plugin's name as their family;
commands are named ``<namespace>:<name>``; agents ``<namespace>:<name>``. A plugin
agent that fails is ``plugin.agent.invalid`` (the agents package's ``agent.invalid``
with its message kept). Nothing here runs anything.

Skill ids (`SkillRule`): under Claude Code's rule (``claude-code``, the default) a
format that names skills by directory (`load_skills(by_dir=True)`) gives a skill of a
skills root the name of its directory, whatever its frontmatter says (a differing
``name`` is a ``skill.name.mismatch`` warning); Vibe's rule (``vibe``) skips a skill
whose name is not its directory's (``plugin.skill.invalid``), in every format.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from satchel.agents import AgentType, parse_agent, scan_agent_dir
from satchel.agents._read import read_agent_file
from satchel.core.diagnostics import Diagnostic, diagnostic, recast
from satchel.core.layout import PLUGIN, Root
from satchel.foundations._contain import (
    is_dir,
    is_file,
    real_below,
    resolves_inside,
    walk,
)
from satchel.hosts._rules import PLUGIN_SKILL_RULES
from satchel.kinds.commands import Command, read_command, scan_commands
from satchel.mcp._parse import parse_claude_mcp, parse_server_tables
from satchel.mcp._spec import McpServer
from satchel.plugins._context import (
    Ctx,
    listdir,
    listed_or_default,
)
from satchel.skills._bare import read_bare_skill
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill
from satchel.skills._names import NameRule
from satchel.skills._read import SKILL_FILE, read_skill

T = TypeVar("T")

__all__ = [
    "SKIP",
    "as_plugin_agent",
    "foreign_servers",
    "load_agent_file",
    "load_agents",
    "load_command_file",
    "load_commands",
    "load_skill_dir",
    "load_skill_paths",
    "load_skills",
    "manifest_servers",
    "root_skill",
    "skipped_agents",
    "unique_servers",
]

SKIP = frozenset((".git", "node_modules"))


# skill diagnostics that mean the name is not the spec's name for its directory
_NAME_CODES = frozenset(
    ("skill.name.missing", "skill.name.invalid", "skill.name.mismatch", "skill.name.too-long")
)


_RULES = FieldRules()  # plugin skills are judged leniently, as the client's own


def load_skills(
    ctx: Ctx,
    directory: Path,
    *,
    match_dir: bool,
    by_dir: bool = False,
    names: NameRule | None = None,
) -> list[Skill]:
    """The skills in the immediate child directories of `directory` that hold a
    SKILL.md (no deeper search). `directory` being something other than a
    directory makes the component invalid (reported); the rest loads. `by_dir`:
    each is named after its directory (Claude Code's rule); `names`: the format's own
    rule for a ``name:`` field (`load_skill_dir`)."""
    state, mode = walk(directory, ctx.root)
    real = state == "clean"  # then `directory` is a real path, and so is a plain child
    if not (stat.S_ISDIR(mode) if real else is_dir(directory)):
        message = f"{ctx.rel(directory)} is not a directory, so no skills load from it"
        ctx.add("plugin.skill.invalid", message, directory)
        return []
    skills: list[Skill] = []
    for entry in listdir(ctx, directory, "plugin.skill.invalid"):
        if entry.name in SKIP:
            continue
        plain = _plain_dir(entry) if real else None
        skill_dir = Path(entry.path)
        if plain is False or (plain is None and not is_dir(skill_dir)):
            continue
        skill = load_skill_dir(
            ctx,
            skill_dir,
            match_dir=match_dir,
            quiet=True,
            real=bool(plain),
            by_dir=by_dir,
            names=names,
        )
        if skill is not None:
            skills.append(skill)
    return skills


def _plain_dir(entry: os.DirEntry[str]) -> bool | None:
    """Whether a listed entry that is not a symlink is a directory (from the listing,
    most often without a look at the disk); None for a symlink, or when unsure."""
    try:
        return None if entry.is_symlink() else entry.is_dir(follow_symlinks=False)
    except OSError:
        return None


def load_skill_paths(
    ctx: Ctx, paths: Iterable[Path], *, match_dir: bool = False, by_dir: bool = False
) -> list[Skill]:
    """Declared skill paths: one holding SKILL.md is a skill (named by its
    frontmatter, as Claude Code names a listed skill directory), any other directory a
    skills root (`by_dir`: its skills are named after their directories). The same
    real directory is read once."""
    unique: dict[str, Path] = {}
    for path in paths:
        unique.setdefault(str(real_below(path, ctx.root) or path), path)
    return _each_path(
        unique.values(),
        lambda path: not os.path.lexists(path / SKILL_FILE),
        lambda path: load_skills(ctx, path, match_dir=match_dir, by_dir=by_dir),
        lambda path: load_skill_dir(ctx, path, match_dir=match_dir),
    )


def root_skill(ctx: Ctx) -> list[Skill]:
    """A root SKILL.md as the plugin's one skill, named after the plugin."""
    if not os.path.lexists(ctx.root / SKILL_FILE):
        return []
    skill = load_skill_dir(ctx, ctx.root, match_dir=False, name=ctx.name)
    return [] if skill is None else [skill]


def _each_path(
    paths: Iterable[Path],
    scans: Callable[[Path], bool],
    scan: Callable[[Path], list[T]],
    read: Callable[[Path], T | None],
) -> list[T]:
    """What `paths` hold, in order: `scan` of a directory (that `scans`), else `read`
    of the one thing at the path."""
    found: list[T] = []
    for path in paths:
        if is_dir(path) and scans(path):
            found += scan(path)
            continue
        one = read(path)
        if one is not None:
            found.append(one)
    return found


def load_skill_dir(
    ctx: Ctx,
    skill_dir: Path,
    *,
    match_dir: bool,
    quiet: bool = False,
    name: str | None = None,
    real: bool = False,
    by_dir: bool = False,
    names: NameRule | None = None,
) -> Skill | None:
    """The skill in `skill_dir` (its SKILL.md must be a regular file resolving inside
    the plugin root). With `match_dir` (or a `SkillRule` whose skill's name is its
    folder's: `satchel.hosts.PLUGIN_SKILL_RULES`), its name must equal the directory
    name (Vibe), else ``plugin.skill.invalid``; with `by_dir` the
    directory name is its name. `quiet`: a directory without SKILL.md is passed over
    silently. `name` stands in for the directory name. `real`: `skill_dir` is a real
    path inside the root, so only SKILL.md is looked at. `names`: how the format names
    a skill from its ``name:`` field (Gemini CLI's extensions), in place of the Agent
    Skills rule."""
    path = skill_dir / SKILL_FILE
    state, mode = walk(path, skill_dir if real else ctx.root)
    linked = state == "linked"
    if state == "missing" or (linked and not os.path.lexists(path)):
        if not quiet:
            ctx.add("plugin.skill.invalid", f"no {SKILL_FILE} in {ctx.rel(skill_dir)}", skill_dir)
        return None
    if linked and not resolves_inside(path, ctx.root):
        message = f"{SKILL_FILE} must resolve inside the plugin root; the skill is skipped"
        ctx.add("plugin.skill.invalid", message, path)
        return None
    if not (is_file(path) if linked else stat.S_ISREG(mode)):
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} is not a regular file", path)
        return None
    # a SKILL.md linked elsewhere inside the root is read where it really is
    target = Path(os.path.realpath(path)) if linked and path.is_symlink() else path
    dir_name = name or skill_dir.name
    match_dir = match_dir or PLUGIN_SKILL_RULES[ctx.skill_rule].name_is_folder
    by_dir = by_dir and not match_dir
    rules = _RULES if names is None else FieldRules(names=names)
    skill = _read_skill(
        ctx, path, target, dir_name, match_dir, rules, stand_in=name is not None, by_dir=by_dir
    )
    return skill if skill is None or not by_dir else replace(skill, name=dir_name)


def _named_by_dir(ctx: Ctx, found: Diagnostic, dir_name: str) -> Diagnostic:
    """A ``skill.name.mismatch`` or ``skill.name.invalid`` said again for a skill named
    by its directory."""
    if found.code not in ("skill.name.mismatch", "skill.name.invalid"):
        return found
    message = (
        f"{found.message}; the skill is {ctx.namespace}:{dir_name}, named by its directory "
        "as Claude Code names it"
    )
    return replace(found, message=message, hint=f"set name: {dir_name}")


def _read_skill(
    ctx: Ctx,
    path: Path,
    target: Path,
    dir_name: str,
    match_dir: bool,
    rules: FieldRules,
    *,
    stand_in: bool,
    by_dir: bool = False,
) -> Skill | None:
    origin = ctx.origin
    read = read_skill(target, rules, origin=origin, dir_name=dir_name, by_dir=by_dir)
    if read is None:
        ctx.add("plugin.skill.invalid", f"{SKILL_FILE} vanished while it was read", path)
        return None
    skill, diags = read
    if skill is None and by_dir and _no_frontmatter(diags):  # Claude Code loads it anyway
        skill, diags = read_bare_skill(target, rules, dir_name=dir_name, origin=origin)
    if stand_in:  # a root SKILL.md: its directory is the plugin's, not the skill's
        diags = [d for d in diags if d.code != "skill.name.mismatch"]
    if by_dir:
        diags = [_named_by_dir(ctx, d, dir_name) for d in diags]
    ctx.diags.extend(diags)
    if skill is None:
        why = next((d.message for d in diags if d.severity == "error"), "it did not parse")
        ctx.add("plugin.skill.invalid", f"the skill is skipped: {why}", path)
        return None
    if match_dir and (skill.name != dir_name or any(d.code in _NAME_CODES for d in diags)):
        message = (
            f"the skill's name must be given and equal its directory name {dir_name!r} "
            f"(got {skill.name!r}); the skill is skipped"
        )
        ctx.add("plugin.skill.invalid", message, path)
        return None
    return skill


def _no_frontmatter(diags: Sequence[Diagnostic]) -> bool:
    """Whether the only error is a SKILL.md with no frontmatter at all."""
    return [d.code for d in diags if d.severity == "error"] == ["frontmatter.missing"]


def load_commands(ctx: Ctx, paths: Iterable[Path], *, file_names: bool = False) -> list[Command]:
    """Commands from directories (``**/*.md``, walked by the commands package) and
    single ``.md`` files, named ``<namespace>:<name>``. `file_names` (Claude Code's
    rule): the name is the file's path under the directory joined by ``:``
    (``content/draft.md`` is ``<namespace>:content:draft``), a frontmatter ``name``
    is not read."""

    origin = ctx.origin

    def scan(path: Path) -> list[Command]:
        root = Root(path, PLUGIN, ctx.name)
        found = scan_commands(root, origin=origin, file_names=file_names)
        ctx.diags.extend(found.diagnostics)
        return list(found.commands)

    def one(path: Path) -> Command | None:
        return load_command_file(ctx, path, file_names=file_names)

    return _each_path(paths, _always, scan, one)


def load_command_file(ctx: Ctx, path: Path, *, file_names: bool = False) -> Command | None:
    command, diags = read_command(
        path,
        origin=ctx.origin,
        inside=ctx.root,
        file_names=file_names,
    )
    ctx.diags.extend(diags)
    return command


def load_agents(
    ctx: Ctx, paths: Iterable[Path], *, recursive: bool = True, nested_names: bool = False
) -> list[AgentType]:
    """Agent types from directories (Claude Code ``.md`` and Vibe ``.toml`` files)
    and single files, named ``<namespace>:<name>``. `nested_names` (Claude Code's
    rule): an agent in a subdirectory of a directory has the subdirectories in its
    name (``agents/review/deep.md`` named ``deep`` is ``<namespace>:review:deep``)."""

    origin = ctx.origin

    def scan(path: Path) -> list[AgentType]:
        found = scan_agent_dir(path, origin=origin, recursive=recursive)
        ctx.diags.extend(skipped_agents(as_plugin_agent(found.diagnostics), found.agents))
        if not nested_names:
            return list(found.agents)
        return [_nested_name(ctx, agent, path) for agent in found.agents]

    return _each_path(paths, _always, scan, lambda path: load_agent_file(ctx, path))


def _nested_name(ctx: Ctx, agent: AgentType, directory: Path) -> AgentType:
    """`agent` (found under `directory`) with the subdirectories it sits in named:
    ``<namespace>:<dir>:...:<name>``."""
    try:
        groups = agent.path.parent.relative_to(directory).parts if agent.path else ()
    except ValueError:
        return agent
    if not groups:
        return agent
    bare = agent.name.removeprefix(f"{ctx.namespace}:")
    return replace(agent, name=":".join((ctx.namespace, *groups, bare)))


def _always(_: Path) -> bool:
    return True


def load_agent_file(ctx: Ctx, path: Path) -> AgentType | None:
    data, diags = read_agent_file(path, contain=ctx.root)
    ctx.diags.extend(as_plugin_agent(diags))
    if data is None:
        return None
    agent, diags = parse_agent(data, path, origin=ctx.origin)
    ctx.diags.extend(skipped_agents(as_plugin_agent(diags), [] if agent is None else [agent]))
    return agent


def as_plugin_agent(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The agents package's ``agent.invalid`` is a plugin's ``plugin.agent.invalid``
    (Vibe), with its message kept."""
    return [
        recast(d, "warning", code="plugin.agent.invalid") if d.code == "agent.invalid" else d
        for d in diags
    ]


def skipped_agents(diags: list[Diagnostic], loaded: Sequence[AgentType]) -> list[Diagnostic]:
    """`diags`, plus one ``plugin.agent.invalid`` for each file that an error kept from
    loading without saying so in that code (a YAML error, an unreadable file...)."""
    loaded_paths = {a.path for a in loaded}
    said = {d.path for d in diags if d.code == "plugin.agent.invalid"}
    out = list(diags)
    for d in diags:
        if d.severity == "error" and d.path not in loaded_paths and d.path not in said:
            said.add(d.path)
            message = f"the agent is skipped: {d.message}"
            out.append(diagnostic("plugin.agent.invalid", message, d.path))
    return out


def foreign_servers(
    ctx: Ctx,
    files: Sequence[Path],
    inline: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    manifest: Path,
) -> tuple[McpServer, ...]:
    """A foreign plugin's MCP servers: Claude-shaped ``.mcp.json`` files, then the
    manifest's inline objects (one or a list). Declarative-only: none, and one
    diagnostic."""
    objects = [] if inline is None else [inline] if isinstance(inline, Mapping) else inline
    if not ctx.runs("mcp", [*files, *([manifest] if objects else [])]):
        return ()
    results = [parse_claude_mcp(file, ctx.root, ctx.name, resolved=True) for file in files]
    for table in objects:
        results.append(
            parse_server_tables(table, root=ctx.root, plugin=ctx.name, path=manifest, resolved=True)
        )
    return tuple(unique_servers(ctx, results))


def manifest_servers(
    ctx: Ctx, manifest: Mapping[str, Any], path: Path, default: str | None
) -> tuple[McpServer, ...]:
    """The servers a foreign manifest's ``mcpServers`` gives: an inline object, or the
    ``.mcp.json``-shaped files it lists (`default` when it is absent)."""
    value = manifest.get("mcpServers")
    if isinstance(value, dict):
        return foreign_servers(ctx, [], value, path)
    files = listed_or_default(ctx, manifest, "mcpServers", default, path)
    return foreign_servers(ctx, files, None, path)


def unique_servers(
    ctx: Ctx, results: Iterable[tuple[tuple[McpServer, ...], list[Diagnostic]]]
) -> list[McpServer]:
    """The servers of several sources in order; a name declared again is dropped
    (the first wins, ``plugin.mcp.invalid``)."""
    servers: list[McpServer] = []
    first: dict[str, McpServer] = {}
    for found, diags in results:
        ctx.diags.extend(diags)
        for server in found:
            if server.name in first:
                where = first[server.name].path
                message = (
                    f"MCP server {server.name!r} is declared again; the one in {where} is kept"
                )
                ctx.add("plugin.mcp.invalid", message, server.path)
                continue
            first[server.name] = server
            servers.append(server)
    return servers

"""`load()`: read every root in precedence order into one immutable `Environment`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

from satchel._approval import hold_back
from satchel._changes import Changes, Stamp, compare, stamps
from satchel._files import same_file
from satchel._instructions import InstructionFile, InstructionMode, load_instructions
from satchel._trust import read_trust
from satchel.agents import BUILTIN_TYPES, DEFAULT_TOOL_MAP, AgentSet, load_agents
from satchel.commands import Command, CommandSet, Naming, load_commands
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.hooks._load import load_hooks
from satchel.hooks._model import HookSet
from satchel.layout import EXTRA, PLUGIN, PROJECT, Layout, Root, user_first
from satchel.mcp import McpServerSet, host_servers, settle_servers
from satchel.plugins._detect import AMBIGUITY, Ambiguity
from satchel.plugins._discover import PluginSet, load_plugins
from satchel.plugins._model import FORMATS, Format, Plugin
from satchel.plugins.components._parts import SkillRule
from satchel.precedence import UNSEEN, Clash, Loss, Shadowed, Source, Verdict, settle
from satchel.skills._discover import RootScan, scan_files, scan_root
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill

__all__ = ["Environment", "Options", "RootReport", "Shadowed", "load"]

WRITTEN = "written"
PluginSkillNames = Literal["namespaced", "bare"]
_NO_TYPES: Mapping[str, Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Options:
    """What the host asks of `load()` beyond the layout (zidane and caveman).

    * `enabled`: True, False, or an allow-list of names (False or [] loads nothing).
    * `exclude`: names to drop.
    * `scan`: extra roots, searched after the layout's roots (scope ``extra``).
    * `catalog`: skills resolved by the host; they win every name clash.
    * `write`: skills defined in code, written under the layout's `write_root` and
      then loaded like any other (they rank just after the catalog).
    * `skip_default_paths` (or `include_default_roots=False`): ignore the layout's table.
    * `trust_project_skills`: False skips project-scope roots.
    * `trusted`: whether the project folder is trusted [None: as the user's list of
      trusted folders says, `satchel._trust`]. In a folder that is not trusted the
      project's plugins (and the workspace plugin) do not load, its skills run no
      ``!`cmd``` lines, and user skills, commands and agents rank above the project's.
    * `strict`, `unicode_names`: how fields are judged (see `FieldRules`).

    Commands, agents and instructions (see docs/commands-and-agents.md):

    * `builtin_commands`: the host's own command names; they win every clash.
    * `extra_commands`: commands the host defines in code (after the built-ins).
    * `command_naming`: ``stem`` (mermaid: subdirectories only group, ``dir:name``
      is an alias) or ``path`` (Claude Code's ``dir:name`` names).
    * `builtin_agents`: the host's built-in agent types a project cannot redefine.
    * `agent_types`: the host config's agent types (``[agents.types.<name>]`` tables).
    * `agent_tool_map`: Claude Code tool name -> the host's tool names.
    * `mcp_servers`: the host config's MCP servers (``[mcp_servers.<name>]`` tables);
      they rank above satchel's ``config.toml`` ones and hide a plugin's server of the
      same name (see docs/plugins.md).
    * `instructions`: ``satchel`` (AGENTS.md, else CLAUDE.md, the client's file last),
      ``codex`` (AGENTS.md from the git root down to cwd, 32 KiB) or None (none).

    Plugins (see docs/plugins.md):

    * `plugins`: False reads no plugin at all.
    * `plugin_dirs`: plugin directories the host names (``--plugin-dir``).
    * `include_workspace_plugin`: the project's own ``skills/`` and ``commands/`` as a
      plugin (caveman) [True].
    * `strict_plugins`: an unknown manifest field is fatal, as in Vibe [False: the
      Agent Plugins spec reports and ignores it].
    * `ambiguous_plugins`: a plugin directory holding several hosts' manifests:
      ``prefer`` reads one by `plugin_format_order`, ``refuse`` loads none (Mistral
      Vibe's rule) [None: as ``[plugin_manifests]`` in ``config.toml`` says, else
      ``prefer``].
    * `plugin_format_order`: the formats in order of preference [None: as
      ``config.toml`` says, else `satchel.plugins.FORMAT_ORDER`].
    * `executable`: False is declarative-only loading (caveman): plugins' hooks, MCP
      servers and agents are recognised and left alone.
    * `plugin_skill_names`: ``namespaced`` (``<namespace>:<skill>``, Vibe and caveman)
      or ``bare`` (mermaid: plugin skills dedupe with project and user ones by name).
    * `plugin_skill_rule`: ``claude-code`` (a Claude Code plugin's skill is named by
      its directory; a differing frontmatter name warns) or ``vibe`` (a plugin skill
      whose name is not its directory's is skipped, in every format) [None: as
      ``config.toml``'s ``[load] plugin_skill_rule`` says, else ``claude-code``].

    Hooks (see docs/hooks.md):

    * `hook_files`: satchel's own ``hooks.toml`` (project ``.<client>/hooks.toml``,
      user ``{config}/<client>/hooks.toml``) [True].
    * `claude_settings_hooks`: Claude Code's ``settings.json`` hooks (project, local
      and user) [False: opt-in].

    `trust_project_skills` False skips the project's commands, agents, instruction
    files and plugins too, and its hooks do not run.
    """

    enabled: bool | tuple[str, ...] = True
    exclude: tuple[str, ...] = ()
    scan: tuple[Path, ...] = ()
    catalog: tuple[Skill, ...] = ()
    write: tuple[Skill, ...] = ()
    skip_default_paths: bool = False
    trust_project_skills: bool = True
    trusted: bool | None = None
    strict: bool = False
    unicode_names: bool = False
    builtin_commands: tuple[str, ...] = ()
    extra_commands: tuple[Command, ...] = ()
    command_naming: Naming = "stem"
    builtin_agents: tuple[str, ...] = BUILTIN_TYPES
    agent_types: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_TYPES)
    agent_tool_map: Mapping[str, Sequence[str]] = field(default_factory=lambda: DEFAULT_TOOL_MAP)
    mcp_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_TYPES)
    instructions: InstructionMode | None = "satchel"
    plugins: bool = True
    plugin_dirs: tuple[Path, ...] = ()
    include_workspace_plugin: bool = True
    strict_plugins: bool = False
    ambiguous_plugins: Ambiguity | None = None
    plugin_format_order: tuple[Format, ...] | None = None
    executable: bool = True
    plugin_skill_names: PluginSkillNames = "namespaced"
    plugin_skill_rule: SkillRule | None = None
    hook_files: bool = True
    claude_settings_hooks: bool = False

    @classmethod
    def build(cls, **options: Any) -> Options:
        """Options from keyword arguments; an unknown keyword is a `TypeError`."""
        if "include_default_roots" in options:
            include = options.pop("include_default_roots")
            options.setdefault("skip_default_paths", not include)
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown load() option(s): {', '.join(unknown)}")
        for key in (
            "exclude",
            "catalog",
            "write",
            "builtin_commands",
            "extra_commands",
            "builtin_agents",
        ):
            if key in options:
                options[key] = tuple(options[key])
        if options.get("plugin_format_order") is not None:
            options["plugin_format_order"] = _format_order(options["plugin_format_order"])
        if options.get("ambiguous_plugins") not in (None, *AMBIGUITY):
            raise TypeError(f"ambiguous_plugins must be one of {', '.join(AMBIGUITY)}")
        for key in ("scan", "plugin_dirs"):
            if key in options:
                options[key] = tuple(Path(p) for p in options[key])
        enabled = options.get("enabled", True)
        if isinstance(enabled, str) or not isinstance(enabled, bool | Iterable):
            raise TypeError("enabled must be True, False or a list of skill names")
        if not isinstance(enabled, bool):
            options["enabled"] = tuple(enabled)
        return cls(**options)


def _format_order(value: Any) -> tuple[Format, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError("plugin_format_order must be a list of plugin formats")
    order = tuple(value)
    unknown = [f for f in order if f not in FORMATS]
    if unknown:
        raise TypeError(f"unknown plugin format(s) {unknown}; use {', '.join(FORMATS)}")
    return cast("tuple[Format, ...]", order)


@dataclass(frozen=True, slots=True)
class RootReport:
    """One root as `doctor` shows it: whether it exists, what loaded, what lost."""

    root: Root
    exists: bool
    loaded: int = 0
    shadowed: int = 0
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class Environment:
    """Everything `load()` found. `skills` is ordered by root precedence, then name.

    `diagnostics` holds every problem, skills first, then commands, agents and
    instruction files: an empty tuple means everything loaded cleanly. `trusted` says
    whether the project folder was trusted (`Options.trusted`); `layout` is the one
    given, whose project rows ranked below the user's when it was not."""

    layout: Layout
    skills: Mapping[str, Skill]
    diagnostics: tuple[Diagnostic, ...]
    roots: tuple[RootReport, ...] = ()
    shadowed: tuple[Shadowed[Skill], ...] = ()
    options: Options = field(default_factory=Options)
    commands: CommandSet = field(default_factory=lambda: CommandSet(MappingProxyType({})))
    agents: AgentSet = field(default_factory=lambda: AgentSet(MappingProxyType({})))
    instructions: tuple[InstructionFile, ...] = ()
    plugins: PluginSet = field(default_factory=PluginSet)
    mcp_servers: McpServerSet = field(default_factory=McpServerSet)
    hooks: HookSet = field(default_factory=HookSet)
    stamps: Mapping[Path, Stamp] = field(default_factory=lambda: MappingProxyType({}))
    trusted: bool = True

    def reload(self) -> tuple[Environment, Changes]:
        """Read the disk again with the same layout and options; the new environment
        and what changed (Vibe's ``/reload``). This environment is not modified."""
        options = {name: getattr(self.options, name) for name in Options.__dataclass_fields__}
        fresh = load(layout=self.layout, **options)
        return fresh, compare(self, fresh)


def load(
    cwd: str | os.PathLike[str] | None = None,
    *,
    layout: Layout | None = None,
    project: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Environment:
    """Discover every skill for `cwd` (or `layout`). Never raises for bad files: they
    become diagnostics and the rest loads. Nothing is executed.

    The project root is `project` when given; else `cwd` itself when it holds a
    project marker (``.satchel/``, ``.claude/``, ``.agents/``, ``AGENTS.md`` ...: a
    package inside a monorepo); else the git root above `cwd` (see docs/layout.md)."""
    if layout is not None and (cwd is not None or project is not None):
        raise TypeError("pass cwd and project, or layout, not both")
    lay = layout if layout is not None else Layout.default(cwd, project=project)
    opts = Options.build(**options)
    trusted, problems, pins = _trusted(lay, opts)
    effective = lay if trusted else user_first(lay)
    plugins = _plugins(effective, opts, trusted)
    skills = _skills(effective, opts, plugins.enabled())
    env = _with_the_rest(skills, effective, opts, plugins, trusted)
    env = replace(env, layout=lay, trusted=trusted, diagnostics=(*problems, *env.diagnostics))
    return env if pins is None else hold_back(env, pins[1], pins[0])


def _trusted(
    lay: Layout, opts: Options
) -> tuple[bool, tuple[Diagnostic, ...], tuple[Path, Mapping[str, str]] | None]:
    """Whether the project folder is trusted (as the host says, else as the user's
    list), why the list could not be read, and the folder's pins (`satchel._approval`)."""
    if opts.trusted is not None:
        return opts.trusted, (), None
    listed = read_trust(lay)
    found = (listed.problem,) if listed.problem is not None else ()
    folder = listed.trusting(lay.project)
    if folder is None:
        return False, found, None
    approved = listed.approved.get(folder)
    return True, found, None if approved is None else (folder, approved)


def _plugins(lay: Layout, opts: Options, trusted: bool) -> PluginSet:
    if not opts.plugins:
        return PluginSet()
    return load_plugins(
        lay,
        trust_project=opts.trust_project_skills and trusted,
        dirs=opts.plugin_dirs,
        include_workspace=opts.include_workspace_plugin,
        strict=opts.strict_plugins,
        executable=opts.executable,
        ambiguous=opts.ambiguous_plugins,
        format_order=opts.plugin_format_order,
        skill_rule=opts.plugin_skill_rule,
    )


def _skills(lay: Layout, opts: Options, plugins: Sequence[Plugin]) -> Environment:
    if opts.enabled is False or opts.enabled == ():
        return Environment(lay, MappingProxyType({}), (), options=opts)
    rules = FieldRules(strict=opts.strict, unicode_names=opts.unicode_names, client=lay.client)
    parts = list(_skill_sources(lay, opts, rules, plugins))
    settled = settle(
        (Source(opts.catalog, admit=_wanted(opts)), *(source for source, _ in parts)),
        name=_skill_name,
        lost=_skill_lost,
        within=_skill_name,
    )
    return Environment(
        lay,
        MappingProxyType({s.name: s for s in settled.winners}),
        settled.diagnostics,
        tuple(_report(part, settled.winners) for _, part in parts),
        settled.shadowed,
        opts,
    )


def _skill_sources(
    lay: Layout, opts: Options, rules: FieldRules, plugins: Sequence[Plugin]
) -> Iterator[tuple[Source[Skill], RootScan | RootReport]]:
    """Each root in precedence order as a source of skills, with its scan (or, for a
    root that is skipped, its report)."""
    wanted = _wanted(opts)
    if opts.write:
        failed: list[Diagnostic] = []
        scan = _written(lay, opts.write, rules, failed)
        yield Source(scan.skills, (*failed, *scan.diagnostics), wanted), scan
    for root, skipped in _roots(lay, opts):
        if skipped:
            yield _skipped(root, skipped)
            continue
        scan = scan_root(root, rules, lay.walk)
        yield Source(scan.skills, scan.diagnostics, wanted), scan
    for plugin in plugins:
        scan = _plugin_skills(plugin, opts.plugin_skill_names)
        yield Source(scan.skills, scan.diagnostics, wanted), scan


def _skipped(root: Root, why: str) -> tuple[Source[Skill], RootReport]:
    exists = os.path.isdir(root.path)
    found: tuple[Diagnostic, ...] = ()
    if exists:
        message = "project skills here are not loaded: the project is not trusted"
        found = (diagnostic("discovery.untrusted", message, root.path),)
    return Source(diagnostics=found), RootReport(root, exists, skipped=why)


def _report(part: RootScan | RootReport, winners: Sequence[Skill]) -> RootReport:
    """A scanned root's report: how many of its skills loaded, how many did not."""
    if isinstance(part, RootReport):
        return part
    won = {id(s) for s in winners}
    loaded = sum(id(s) in won for s in part.skills)
    return RootReport(part.root, part.exists, loaded, len(part.skills) - loaded)


def _plugin_skills(plugin: Plugin, names: PluginSkillNames) -> RootScan:
    """A plugin's skills as one more root of scope ``plugin``, after every other (the
    root shown is the plugin's directory: formats keep skills in different places)."""
    root = Root(plugin.root, PLUGIN, plugin.name)
    skills = [
        replace(
            s,
            name=plugin.qualified(s.name) if names == "namespaced" else s.name,
            scope=PLUGIN,
            family=plugin.name,
        )
        for s in plugin.skills
    ]
    return RootScan(root, exists=True, skills=skills)


def _servers(lay: Layout, opts: Options, plugins: Sequence[Plugin], trusted: bool) -> McpServerSet:
    """The host's MCP servers and the enabled plugins', settled by name."""
    trust_project = opts.trust_project_skills and trusted
    host, problems = host_servers(lay, given=opts.mcp_servers, trust_project=trust_project)
    return settle_servers(host, plugins, problems)


def _with_the_rest(
    env: Environment, lay: Layout, opts: Options, plugins: PluginSet, trusted: bool
) -> Environment:
    """The skills' environment with commands, agents, instruction files, plugins and
    MCP servers (`trusted`: the project folder is; its config then counts)."""
    enabled = plugins.enabled()
    project = opts.trust_project_skills
    commands = load_commands(
        lay,
        builtins=opts.builtin_commands,
        naming=opts.command_naming,
        trust_project=project,
        extra=opts.extra_commands,
        plugin_commands=[c for p in enabled for c in p.commands],
    )
    agents = load_agents(
        lay,
        builtins=opts.builtin_agents,
        config_types=opts.agent_types,
        trust_project=project,
        tool_map=opts.agent_tool_map,
        plugin_types=[a for p in enabled for a in p.agents],
    )
    files: tuple[InstructionFile, ...] = ()
    found: tuple[Diagnostic, ...] = ()
    if opts.instructions is not None:
        files, found = load_instructions(lay, mode=opts.instructions, trust_project=project)
    servers = _servers(lay, opts, enabled, trusted)
    hooks = load_hooks(
        lay,
        enabled,
        trusted=trusted and project,
        executable=opts.executable,
        own_files=opts.hook_files,
        claude_settings=opts.claude_settings_hooks,
    )
    diagnostics = (
        *env.diagnostics,
        *commands.diagnostics,
        *agents.diagnostics,
        *found,
        *plugins.diagnostics,
        *servers.diagnostics,
        *hooks.diagnostics,
    )
    whole = replace(
        env,
        diagnostics=diagnostics,
        commands=commands,
        agents=agents,
        instructions=files,
        plugins=plugins,
        mcp_servers=servers,
        hooks=hooks,
    )
    return replace(whole, stamps=MappingProxyType(stamps(whole)))


def _roots(lay: Layout, opts: Options) -> Iterable[tuple[Root, str | None]]:
    """The roots to read in precedence order, each with why it is skipped, if it is."""
    if not opts.skip_default_paths:
        for root in lay.skill_roots():
            untrusted = root.scope == PROJECT and not opts.trust_project_skills
            yield root, "untrusted" if untrusted else None
    for path in opts.scan:
        yield Root(Path(lay.cwd, path), EXTRA, "scan"), None


def _written(
    lay: Layout, skills: Sequence[Skill], rules: FieldRules, diags: list[Diagnostic]
) -> RootScan:
    """Write the skills defined in code under `write_root`, then read back exactly
    those (never others left there by an earlier run)."""
    from satchel._authoring import write_skill  # writing is rare; keep load() lean

    root = Root(lay.write_root or Path(), WRITTEN, "write")
    if lay.write_root is None:
        diags.append(diagnostic("skill.write.failed", "the layout has no write_root", None))
        return RootScan(root)
    paths: list[Path] = []
    for skill in skills:
        try:
            paths.append(write_skill(lay.write_root, skill))
        except (OSError, ValueError) as e:
            diags.append(
                diagnostic(
                    "skill.write.failed",
                    f"cannot write skill {skill.name!r}: {getattr(e, 'strerror', None) or e}",
                    lay.write_root / skill.name,
                )
            )
    return scan_files(root, paths, rules)


def _wanted(opts: Options) -> Callable[[Skill], Verdict[Skill]]:
    """The skills `enabled` and `exclude` let through (the others count as not loaded)."""
    allowed = None if opts.enabled is True else frozenset(opts.enabled or ())
    excluded = frozenset(opts.exclude)

    def admit(skill: Skill) -> Verdict[Skill]:
        dropped = skill.name in excluded or (allowed is not None and skill.name not in allowed)
        return (None if dropped else skill), None

    return admit


def _skill_name(skill: Skill) -> str:
    return skill.name


def _skill_lost(clash: Clash[Skill]) -> Loss:
    if same_file(clash.winner.path, clash.loser.path):
        return UNSEEN
    return Loss(_shadow_diagnostic(clash.winner, clash.loser, same_root=clash.same_source))


def _shadow_diagnostic(winner: Skill, loser: Skill, *, same_root: bool) -> Diagnostic:
    if same_root:
        return diagnostic(
            "skill.name.collision",
            f"two skills are named {loser.name!r} in one root; {winner.path} is kept, "
            f"{loser.path} is ignored",
            loser.path,
        )
    return diagnostic(
        "skill.shadowed",
        f"skill {loser.name!r} at {loser.path} ({_where(loser)}) is shadowed by "
        f"{winner.path or 'the host catalog'} ({_where(winner)})",
        loser.path,
    )


def _where(skill: Skill) -> str:
    return f"{skill.scope} {skill.family}".strip() or "catalog"

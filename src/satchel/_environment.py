"""`load()`: read every root in precedence order into one immutable `Environment`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypedDict, Unpack, cast

from satchel._approval import Executables, HeldBack, hold_back
from satchel._changes import Changes, Inventory, Stamp, compare, stamps
from satchel._files import same_file
from satchel._instructions import InstructionFile, InstructionMode, load_instructions
from satchel._trust import Pins, TrustDecision, decide_trust
from satchel.agents import BUILTIN_TYPES, DEFAULT_TOOL_MAP, AgentSet, load_agents
from satchel.commands import Command, CommandSet, Naming, load_commands
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.hooks._load import load_hooks
from satchel.hooks._model import HookSet
from satchel.layout import EXTRA, PLUGIN, PROJECT, Layout, Root, user_first
from satchel.mcp import McpServerSet, host_servers, settle_servers
from satchel.origin import Trust
from satchel.plugins._context import SkillRule
from satchel.plugins._detect import AMBIGUITY, Ambiguity
from satchel.plugins._discover import PluginSet, load_plugins
from satchel.plugins._model import FORMATS, Format, Plugin
from satchel.precedence import UNSEEN, Clash, Loss, Shadowed, Source, Verdict, settle
from satchel.skills._discover import RootScan, scan_files, scan_root
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill

__all__ = [
    "Environment",
    "LoadOverrides",
    "Options",
    "RootReport",
    "Shadowed",
    "WrittenSkills",
    "load",
    "write_skills",
]

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
    def build(cls, **options: Unpack[LoadOverrides]) -> Options:
        """Options from keyword arguments; an unknown keyword is a `TypeError`."""
        return cls._coerce(dict(options))

    @classmethod
    def _coerce(cls, options: dict[str, Any]) -> Options:
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

    def keywords(self) -> LoadOverrides:
        """These options as `load()` keywords: `load(**opts.keywords())` loads with them."""
        given = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return cast("LoadOverrides", given)


class LoadOverrides(TypedDict, total=False):
    """The keywords `load()` takes, as the caller may give them: each is the `Options`
    field of that name (see there), a sequence where the field is a tuple, and
    `include_default_roots` the inverse of `skip_default_paths`."""

    enabled: bool | Iterable[str]
    exclude: Iterable[str]
    scan: Iterable[str | os.PathLike[str]]
    catalog: Iterable[Skill]
    write: Iterable[Skill]
    skip_default_paths: bool
    include_default_roots: bool
    trust_project_skills: bool
    trusted: bool | None
    strict: bool
    unicode_names: bool
    builtin_commands: Iterable[str]
    extra_commands: Iterable[Command]
    command_naming: Naming
    builtin_agents: Iterable[str]
    agent_types: Mapping[str, Mapping[str, Any]]
    agent_tool_map: Mapping[str, Sequence[str]]
    mcp_servers: Mapping[str, Mapping[str, Any]]
    instructions: InstructionMode | None
    plugins: bool
    plugin_dirs: Iterable[str | os.PathLike[str]]
    include_workspace_plugin: bool
    strict_plugins: bool
    ambiguous_plugins: Ambiguity | None
    plugin_format_order: Iterable[Format] | None
    executable: bool
    plugin_skill_names: PluginSkillNames
    plugin_skill_rule: SkillRule | None
    hook_files: bool
    claude_settings_hooks: bool


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
    instruction files: an empty tuple means everything loaded cleanly. `trust` is the
    one trust decision every part was read with (`satchel.origin.Trust`), `trusted`
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
    trust: Trust = field(default_factory=lambda: Trust("trusted", folder=True))

    @property
    def trusted(self) -> bool:
        """Whether the project folder was trusted (`Options.trusted`, else the user's
        list of trusted folders)."""
        return self.trust.folder

    def executables(self) -> Executables:
        """The hooks and MCP servers a trust pin covers (`satchel._approval.digests`)."""
        return _executables(self.layout, self.options, self.plugins, self.hooks, self.mcp_servers)

    def inventory(self) -> Inventory:
        """What this environment holds, as `satchel._changes.compare` reads it."""
        return Inventory(
            self.skills,
            self.commands.commands,
            self.agents.agents,
            self.plugins.plugins,
            dict(self.hooks.named()),
            {s.name: s for s in self.mcp_servers.servers},
            self.stamps,
        )

    def reload(self) -> tuple[Environment, Changes]:
        """Read the disk again with the same layout and options; the new environment
        and what changed (Vibe's ``/reload``). This environment is not modified."""
        fresh = load(layout=self.layout, **self.options.keywords())
        return fresh, compare(self.inventory(), fresh.inventory())


def load(
    cwd: str | os.PathLike[str] | None = None,
    *,
    layout: Layout | None = None,
    project: str | os.PathLike[str] | None = None,
    **options: Unpack[LoadOverrides],
) -> Environment:
    """Discover every skill for `cwd` (or `layout`). Never raises for bad files: they
    become diagnostics and the rest loads. Nothing is executed.

    The project root is `project` when given; else `cwd` itself when it holds a
    project marker (``.satchel/``, ``.claude/``, ``.agents/``, ``AGENTS.md`` ...: a
    package inside a monorepo); else the git root above `cwd` (see docs/layout.md).

    The `write` skills are written first (`write_skills`); reading writes nothing."""
    if layout is not None and (cwd is not None or project is not None):
        raise TypeError("pass cwd and project, or layout, not both")
    lay = layout if layout is not None else Layout.default(cwd, project=project)
    opts = Options.build(**options)
    decided = decide_trust(lay, given=opts.trusted, load_project=opts.trust_project_skills)
    effective = user_first(lay) if decided.trust.demote_project else lay
    written = write_skills(effective, opts.write) if opts.write and _skills_on(opts) else None
    builder = _Builder(effective, opts, decided.trust)
    builder.read(written)
    return builder.build(lay, decided)


@dataclass(frozen=True, slots=True)
class WrittenSkills:
    """What `write_skills` did: the root the skills load from (scope ``written``), the
    files it wrote, and each skill it could not write."""

    root: Root
    paths: tuple[Path, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def write_skills(layout: Layout, skills: Sequence[Skill]) -> WrittenSkills:
    """Write the skills defined in code under the layout's `write_root` (what
    ``load(write=...)`` does before it reads); a skill that cannot be written, or a
    layout without `write_root`, is a ``skill.write.failed`` diagnostic."""
    from satchel._authoring import write_skill  # writing is rare; keep load() lean

    root = Root(layout.write_root or Path(), WRITTEN, "write")
    if layout.write_root is None:
        problem = diagnostic("skill.write.failed", "the layout has no write_root", None)
        return WrittenSkills(root, diagnostics=(problem,))
    paths: list[Path] = []
    problems: list[Diagnostic] = []
    for skill in skills:
        try:
            paths.append(write_skill(layout.write_root, skill))
        except (OSError, ValueError) as e:
            problems.append(
                diagnostic(
                    "skill.write.failed",
                    f"cannot write skill {skill.name!r}: {getattr(e, 'strerror', None) or e}",
                    layout.write_root / skill.name,
                )
            )
    return WrittenSkills(root, tuple(paths), tuple(problems))


@dataclass(frozen=True, slots=True)
class _Skills:
    """The skills part of a load: the winners, what went wrong, each root's report and
    every skill that lost its name."""

    skills: Mapping[str, Skill] = field(default_factory=lambda: MappingProxyType({}))
    diagnostics: tuple[Diagnostic, ...] = ()
    roots: tuple[RootReport, ...] = ()
    shadowed: tuple[Shadowed[Skill], ...] = ()


@dataclass(slots=True)
class _Builder:
    """The parts of one `load()`, read in order for the (effective) `layout` with the
    one `trust`; `build` makes the `Environment` from them, once."""

    layout: Layout
    options: Options
    trust: Trust
    plugins: PluginSet = field(default_factory=PluginSet)
    skills: _Skills = field(default_factory=_Skills)
    commands: CommandSet = field(default_factory=lambda: CommandSet(MappingProxyType({})))
    agents: AgentSet = field(default_factory=lambda: AgentSet(MappingProxyType({})))
    instructions: tuple[InstructionFile, ...] = ()
    instruction_problems: tuple[Diagnostic, ...] = ()
    mcp_servers: McpServerSet = field(default_factory=McpServerSet)
    hooks: HookSet = field(default_factory=HookSet)

    def read(self, written: WrittenSkills | None) -> None:
        """Plugins, skills (`written`: the skills `write_skills` wrote), commands,
        agents, instruction files, MCP servers and hooks."""
        self.plugins = _plugins(self.layout, self.options, self.trust)
        enabled = self.plugins.enabled()
        if _skills_on(self.options):
            self.skills = _skills(self.layout, self.options, self.trust, enabled, written)
        self._read_components(enabled)
        self._read_executables(enabled)

    def _read_components(self, enabled: Sequence[Plugin]) -> None:
        """Commands, agent types and instruction files (the project's when it loads)."""
        lay, opts, project = self.layout, self.options, self.trust.load_project
        self.commands = load_commands(
            lay,
            builtins=opts.builtin_commands,
            naming=opts.command_naming,
            trust_project=project,
            extra=opts.extra_commands,
            plugin_commands=[c for p in enabled for c in p.commands],
        )
        self.agents = load_agents(
            lay,
            builtins=opts.builtin_agents,
            config_types=opts.agent_types,
            trust_project=project,
            tool_map=opts.agent_tool_map,
            plugin_types=[a for p in enabled for a in p.agents],
        )
        if opts.instructions is not None:
            self.instructions, self.instruction_problems = load_instructions(
                lay, mode=opts.instructions, trust_project=project
            )

    def _read_executables(self, enabled: Sequence[Plugin]) -> None:
        """MCP servers and hooks (the project's when it runs)."""
        lay, opts, trust = self.layout, self.options, self.trust
        host, problems = host_servers(lay, given=opts.mcp_servers, trust_project=trust.run_project)
        self.mcp_servers = settle_servers(host, enabled, problems)
        self.hooks = load_hooks(
            lay,
            enabled,
            trusted=trust.run_project,
            executable=opts.executable,
            own_files=opts.hook_files,
            claude_settings=opts.claude_settings_hooks,
        )

    def build(self, given: Layout, decided: TrustDecision) -> Environment:
        """The one `Environment`: for the `given` layout, with the project's pinned
        items held back (`satchel._approval`) when `decided` carries pins."""
        held = self._held_back(given, decided.pins)
        diagnostics = (*decided.problems, *self._diagnostics(), *held.diagnostics)
        found = stamps(
            self.skills.skills,
            self.commands.commands,
            self.agents.agents,
            self.plugins.plugins,
        )
        return Environment(
            given,
            self.skills.skills,
            diagnostics,
            self.skills.roots,
            self.skills.shadowed,
            self.options,
            commands=self.commands,
            agents=self.agents,
            instructions=self.instructions,
            plugins=self.plugins,
            mcp_servers=held.servers,
            hooks=held.hooks,
            stamps=MappingProxyType(found),
            trust=self.trust,
        )

    def _held_back(self, given: Layout, pins: Pins | None) -> HeldBack:
        if pins is None:
            return HeldBack(self.hooks, self.mcp_servers)
        items = _executables(given, self.options, self.plugins, self.hooks, self.mcp_servers)
        return hold_back(items, pins)

    def _diagnostics(self) -> tuple[Diagnostic, ...]:
        return (
            *self.skills.diagnostics,
            *self.commands.diagnostics,
            *self.agents.diagnostics,
            *self.instruction_problems,
            *self.plugins.diagnostics,
            *self.mcp_servers.diagnostics,
            *self.hooks.diagnostics,
        )


def _executables(
    lay: Layout, opts: Options, plugins: PluginSet, hooks: HookSet, servers: McpServerSet
) -> Executables:
    """The hooks and servers of one load as approval reads them."""
    return Executables(
        lay, hooks, servers, plugins.plugins, settings_read=opts.claude_settings_hooks
    )


def _skills_on(opts: Options) -> bool:
    """False when the host turned skills off (``enabled=False`` or ``[]``)."""
    return not (opts.enabled is False or opts.enabled == ())


def _plugins(lay: Layout, opts: Options, trust: Trust) -> PluginSet:
    if not opts.plugins:
        return PluginSet()
    return load_plugins(
        lay,
        trust_project=trust.run_project,
        dirs=opts.plugin_dirs,
        include_workspace=opts.include_workspace_plugin,
        strict=opts.strict_plugins,
        executable=opts.executable,
        ambiguous=opts.ambiguous_plugins,
        format_order=opts.plugin_format_order,
        skill_rule=opts.plugin_skill_rule,
    )


def _skills(
    lay: Layout,
    opts: Options,
    trust: Trust,
    plugins: Sequence[Plugin],
    written: WrittenSkills | None,
) -> _Skills:
    rules = FieldRules(strict=opts.strict, unicode_names=opts.unicode_names, client=lay.client)
    parts = list(_skill_sources(lay, opts, trust, rules, plugins, written))
    settled = settle(
        (Source(opts.catalog, admit=_wanted(opts)), *(source for source, _ in parts)),
        name=_skill_name,
        lost=_skill_lost,
        within=_skill_name,
    )
    return _Skills(
        MappingProxyType({s.name: s for s in settled.winners}),
        settled.diagnostics,
        tuple(_report(part, settled.winners) for _, part in parts),
        settled.shadowed,
    )


def _skill_sources(
    lay: Layout,
    opts: Options,
    trust: Trust,
    rules: FieldRules,
    plugins: Sequence[Plugin],
    written: WrittenSkills | None,
) -> Iterator[tuple[Source[Skill], RootScan | RootReport]]:
    """Each root in precedence order as a source of skills, with its scan (or, for a
    root that is skipped, its report); first the skills `write_skills` wrote."""
    wanted = _wanted(opts)
    if written is not None:
        scan = _read_written(lay, written, rules)
        yield Source(scan.skills, (*written.diagnostics, *scan.diagnostics), wanted), scan
    for root, skipped in _roots(lay, opts, trust):
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


def _read_written(lay: Layout, written: WrittenSkills, rules: FieldRules) -> RootScan:
    """Exactly the skills `write_skills` wrote (never others left there by an earlier
    run); nothing when the layout has no `write_root`."""
    if lay.write_root is None:
        return RootScan(written.root)
    return scan_files(written.root, list(written.paths), rules)


def _plugin_skills(plugin: Plugin, names: PluginSkillNames) -> RootScan:
    """A plugin's skills as one more root of scope ``plugin``, after every other (the
    root shown is the plugin's directory: formats keep skills in different places)."""
    root = Root(plugin.root, PLUGIN, plugin.name)
    skills = [
        replace(
            s,
            name=plugin.qualified(s.name) if names == "namespaced" else s.name,
            origin=replace(s.origin, scope="plugin", family=plugin.name),
        )
        for s in plugin.skills
    ]
    return RootScan(root, exists=True, skills=skills)


def _roots(lay: Layout, opts: Options, trust: Trust) -> Iterable[tuple[Root, str | None]]:
    """The roots to read in precedence order, each with why it is skipped, if it is."""
    if not opts.skip_default_paths:
        for root in lay.skill_roots():
            untrusted = root.scope == PROJECT and not trust.load_project
            yield root, "untrusted" if untrusted else None
    for path in opts.scan:
        yield Root(Path(lay.cwd, path), EXTRA, "scan"), None


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

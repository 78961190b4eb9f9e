"""`load()`: read every root in precedence order into one immutable `Environment`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Unpack

from satchel.agents import AgentSet, load_agents
from satchel.agents._model import AgentType
from satchel.assembly._options import LoadOverrides, Options, host_overrides
from satchel.assembly._policed import hooks as policed_hooks
from satchel.assembly._policed import plugins as policed_plugins
from satchel.assembly._policed import servers as policed_servers
from satchel.assembly._policed import skill_servers as policed_skill_servers
from satchel.assembly._policed import skills as policed_skills
from satchel.assembly._skillset import RootReport, SkillPart, settle_skills
from satchel.assembly._writing import WrittenSkills, write_skills
from satchel.core._collector import collector_paused
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, Layout, user_first
from satchel.foundations._claude_managed import ClaudeManaged, read_claude_managed
from satchel.foundations._host_files import StateFiles
from satchel.foundations._host_settings import SettingsRead, read_host_settings
from satchel.foundations._host_state import host_config, instruction_settings
from satchel.foundations.origin import Trust
from satchel.foundations.policy._model import Policy
from satchel.foundations.policy._read import read_policy
from satchel.foundations.precedence import Shadowed
from satchel.hooks._load import load_hooks
from satchel.hooks._model import HookSet
from satchel.index._budget import Budget
from satchel.index._listing import ListingSettings, claude_settings, read_listing, read_overrides
from satchel.index._render import DEFAULT_BUDGET
from satchel.kinds._instructions import InstructionFile, gemini_context_names, load_instructions
from satchel.kinds.commands import CommandSet, load_commands
from satchel.mcp import McpServerSet, host_servers, settle_servers
from satchel.mcp._approved import held_servers
from satchel.mcp._hosts import McpFile, turned_off
from satchel.mcp._names import server_id
from satchel.mcp._served import served_skills, skill_servers
from satchel.mcp._spec import McpServer
from satchel.plugins._dependencies import missing_requirements
from satchel.plugins._discover import PluginSet, load_plugins
from satchel.plugins._kinds import OutputStyle
from satchel.plugins._lsp import LspServer
from satchel.plugins._main_agent import MainAgent, main_agent
from satchel.plugins._model import Plugin
from satchel.plugins._options import unset_options
from satchel.plugins.components._settings import deprecation_notes
from satchel.plugins.components._styles import user_and_project_styles
from satchel.skills._model import Skill
from satchel.skills._names import HostNaming
from satchel.trust._approval import (
    Declaring,
    Executables,
    HeldBack,
    declared_by_agent,
    declared_by_skill,
    declaring,
    held_line,
    held_lines,
    held_shell,
    hold_back,
    programs_key,
    scoped_hooks,
)
from satchel.trust._changes import Changes, Inventory, Stamp, compare, stamps
from satchel.trust._trust import Pins, TrustDecision, decide_trust

if TYPE_CHECKING:
    from satchel.hosts._model import Host

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


@model
class Environment:
    """Everything `load()` found. `skills` is ordered by root precedence, then name.

    `diagnostics` holds every problem, skills first, then commands, agents and
    instruction files: an empty tuple means everything loaded cleanly. `trust` is the
    one trust decision every part was read with (`satchel.foundations.origin.Trust`), `trusted`
    whether the project folder was trusted (`Options.trusted`); `layout` is the one
    given, whose project rows ranked below the user's when it was not; `host` the
    profile it was read with (`satchel.hosts`; None: satchel's own, the default).
    `output_styles` are the styles a session may select, by id (the user's and
    project's ``.claude/output-styles``, then the enabled plugins'). `skill_overrides`
    says how the index lists a skill, by name (`satchel.index._listing`: the files', then
    `Options.skill_overrides`); `build_index` checks the values. `policy` is the
    organisation's policy it was read under (`satchel.foundations.policy`, docs/policy.md): what it
    refused is not here, and each refusal is a ``policy.denied`` diagnostic.
    `listing` holds the host's settings that size its skill listing (Claude Code's
    ``skillListingBudgetFraction`` and ``skillListingMaxDescChars``; `index_budget`).
    `options` are the ones in force; `requested_options` the ones asked for, when the
    policy changed them (a closed policy loads declaratively, ``require_trust``
    ignores ``trusted=True``): `reload` asks for those again, so a policy fixed or
    loosened since is read afresh."""

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
    host: Host | None = None
    output_styles: Mapping[str, OutputStyle] = field(default_factory=lambda: MappingProxyType({}))
    skill_overrides: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    listing: ListingSettings = field(default_factory=ListingSettings)
    policy: Policy = field(default_factory=Policy)
    requested_options: Options | None = field(default=None, repr=False, compare=False)

    def index_budget(self) -> Budget:
        """The skill listing's budget under this environment's host profile for
        `Options.model` (None: the host's default model) and its listing settings
        (`satchel.hosts.Host.budget`); satchel's own 64 skills in 8 KiB without a
        profile."""
        if self.host is None:
            return DEFAULT_BUDGET
        return self.host.budget(self.options.model, self.listing)[0]

    @property
    def trusted(self) -> bool:
        """Whether the project folder was trusted (`Options.trusted`, else the user's
        list of trusted folders)."""
        return self.trust.folder

    @property
    def lsp_servers(self) -> tuple[LspServer, ...]:
        """The language servers that may start, in plugin order: the enabled plugins'
        whose trust lets them run (`Trust.runs`, as their hooks: a user plugin's
        always, a project plugin's when the project runs and its programs are not held
        back since `satchel trust`); none when `Options.executable` is False."""
        if not self.options.executable or not self.policy.allows_component("lsp"):
            return ()
        runs = self.trust.runs
        return tuple(
            s
            for p in self.plugins.enabled()
            if runs(p.scope == PROJECT, key=programs_key(p.name))
            for s in p.lsp_servers
        )

    def main_agent(self) -> MainAgent | None:
        """The agent type the main thread runs as, as Claude Code chooses it: the
        ``agent`` of the project's local and shared settings (a trusted project), then
        the user's, then an enabled plugin's default settings
        (`satchel.plugins.main_agent`); None when nothing sets one. Read from disk at
        each call."""
        return main_agent(
            self.layout, self.plugins.enabled(), trust_project=self.trust.load_project
        )

    def executables(self) -> Executables:
        """The hooks and MCP servers a trust pin covers (`satchel.trust._approval.digests`),
        with the skills and agent types whose frontmatter declares hooks of their own."""
        return _executables(
            self.layout,
            self.options,
            self.plugins,
            self.hooks,
            self.mcp_servers,
            self.skills,
            self.agents.agents,
        )

    def own_hooks(self, item: Skill | AgentType) -> HookSet:
        """The hooks `item` (a skill, or an agent type) declares in its frontmatter, as
        the runner sees them: a project's skipped when the project is not trusted, or
        when they are new or changed since `satchel trust` pinned it (`Trust.held`);
        one the policy refuses skipped; none runs when loading is declarative-only.
        Empty when it declares none."""
        items = self.executables()
        found = (
            declared_by_skill(items, item)
            if isinstance(item, Skill)
            else declared_by_agent(items, item)
        )
        return HookSet() if found is None else self._scoped(found)

    def frontmatter_hooks(self) -> HookSet:
        """Every hook the skills and agent types declare in their frontmatter (in skill
        order, then agent order), as `own_hooks` gives each: what `satchel hooks` and
        `satchel doctor` list beside `hooks`."""
        found = [self._scoped(item) for item in declaring(self.executables())]
        return HookSet(
            tuple(h for s in found for h in s.hooks),
            tuple(d for s in found for d in s.diagnostics),
        )

    def every_hook(self) -> HookSet:
        """Every hook this environment holds, as listings show them: `hooks` (its files'
        and plugins'), then `frontmatter_hooks`."""
        own = self.frontmatter_hooks()
        if not own.hooks and not own.diagnostics:
            return self.hooks
        found = self.hooks
        return replace(
            found,
            hooks=(*found.hooks, *own.hooks),
            diagnostics=(*found.diagnostics, *own.diagnostics),
        )

    def held_line(self, skill: Skill, number: int, command: str) -> str | None:
        """Why `command`, the `number`-th `` !`cmd` `` line of `skill`'s body, does not
        run for the trust decision: it is a project skill's, new or changed since
        ``satchel trust`` pinned the folder (`Trust.pins`); None: it may run."""
        return held_line(self.executables(), self.trust, skill, number, command)

    def held_lines(self) -> tuple[Diagnostic, ...]:
        """A ``trust.changed`` for each `` !`cmd` `` line of a project skill held back
        as the bodies are now (reads them): what ``satchel doctor`` reports."""
        return held_lines(self.executables(), self.trust)

    def held_keys(self) -> tuple[str, ...]:
        """The pin keys of what the trust decision holds back as new or changed since
        ``satchel trust``: `Trust.held` (hooks, MCP servers, plugins' programs), then
        each project skill's `` !`cmd` `` line as its body is now (reads them)."""
        return (*sorted(self.trust.held), *held_shell(self.executables(), self.trust))

    def _scoped(self, item: Declaring) -> HookSet:
        found = scoped_hooks(item, self.trust, executable=self.options.executable)
        return policed_hooks(found, self.policy)  # a refused hook is marked skipped

    def inventory(self) -> Inventory:
        """What this environment holds, as `satchel.trust._changes.compare` reads it."""
        return Inventory(
            self.skills,
            self.commands.commands,
            self.agents.agents,
            self.plugins.plugins,
            dict(self.hooks.named()),
            {server_id(s): s for s in self.mcp_servers.servers},
            self.stamps,
        )

    def reload(self) -> tuple[Environment, Changes]:
        """Read the disk again with the same layout and options; the new environment
        and what changed (Vibe's ``/reload``). This environment is not modified."""
        asked = self.requested_options or self.options
        fresh = load(layout=self.layout, host=self.host, **asked.keywords())
        return fresh, compare(self.inventory(), fresh.inventory())


def load(
    cwd: str | os.PathLike[str] | None = None,
    *,
    layout: Layout | None = None,
    project: str | os.PathLike[str] | None = None,
    host: str | Host | None = None,
    **options: Unpack[LoadOverrides],
) -> Environment:
    """Discover every skill for `cwd` (or `layout`). Never raises for bad files: they
    become diagnostics and the rest loads. Nothing is executed.

    The project root is `project` when given; else `cwd` itself when it holds a
    project marker (``.satchel/``, ``.claude/``, ``.agents/``, ``AGENTS.md`` ...: a
    package inside a monorepo); else the git root above `cwd` (see docs/layout.md).

    `host` reads the project as that host does (a `satchel.hosts` profile or its
    name, ``codex``; `UnknownHost` when there is none): its layout, unless `layout`
    is given, and its options, which the `options` given override.

    The `write` skills are written first (`write_skills`); reading writes nothing.

    The organisation's policy (`satchel.foundations.policy.read_policy`: the system's, the user's
    and the project's ``policy.toml``) decides what may load and run; a policy that
    cannot be read loads everything declaratively (``executable=False``)."""
    if layout is not None and (cwd is not None or project is not None):
        raise TypeError("pass cwd and project, or layout, not both")
    profile, problems = _profile(host, layout, cwd, project)
    if profile is None:  # satchel's own rules: what every option defaults to
        lay = layout if layout is not None else Layout.default(cwd, project=project)
        opts = Options.build(**options)
    else:
        lay = layout if layout is not None else profile.layout(cwd, project=project)
        given = host_overrides(profile)
        given.update(options)
        opts = Options.build(**given)
    policy, read = read_policy(config_home=lay.config_home, project=lay.project, client=lay.client)
    problems = (*problems, *read)
    if profile is not None:
        problems = (*problems, *profile.model(opts.model).diagnostics(profile.name))
    managed = ClaudeManaged()
    if opts.claude_settings_hooks:  # a load that follows Claude Code's settings
        managed, said = read_claude_managed()
        lay, opts, locked = _claude_locked(lay, opts, managed)
        problems = (*problems, *said, *locked)
    requested = opts
    opts, refused = _policed_options(opts, policy)
    decided = decide_trust(
        lay,
        given=opts.trusted,
        load_project=opts.trust_project_skills,
        hide_untrusted=opts.untrusted == "skip-project",
        source=opts.trust_list,
    )
    effective = user_first(lay) if decided.trust.demote_project else lay
    written = write_skills(effective, opts.write) if opts.write and _skills_on(opts) else None
    builder = _Builder(effective, opts, decided.trust, profile, policy, given=lay)
    builder.managed = managed
    builder.pins = decided.pins
    with collector_paused():  # many small values and no cycles (docs/performance.md)
        builder.read(written)
    env = builder.build(lay, decided, (*problems, *refused))
    return env if requested == opts else replace(env, requested_options=requested)


def _claude_locked(
    lay: Layout, opts: Options, managed: ClaudeManaged
) -> tuple[Layout, Options, tuple[Diagnostic, ...]]:
    """`lay` and `opts` as Claude Code's managed settings leave them
    (`satchel.foundations._claude_managed`): a locked ``skills`` or ``agents`` surface drops the
    ``.claude`` roots, ``disableSideloadFlags`` the plugin directories given (a lock on
    ``hooks`` and ``mcp`` is applied where those are read, in `_Builder`)."""
    said: list[Diagnostic] = []
    where = managed.files[-1] if managed.files else None
    for surface in ("skills", "agents"):
        rows = lay.roots if surface == "skills" else lay.agent_roots
        kept = tuple(r for r in rows if r.family != ".claude")
        if surface in managed.locked and kept != rows:
            lay = (
                replace(lay, roots=kept) if surface == "skills" else replace(lay, agent_roots=kept)
            )
            message = (
                f"~/.claude/{surface}/ and .claude/{surface}/ are not read: Claude Code's "
                f"managed settings lock {surface} to plugins (strictPluginOnlyCustomization)"
            )
            said.append(diagnostic("host.managed.locked", message, where))
    if managed.sideload_flags_off and opts.plugin_dirs:
        opts = replace(opts, plugin_dirs=())
        message = (
            "the plugin directories given are not loaded: Claude Code's managed settings "
            "refuse --plugin-dir (disableSideloadFlags)"
        )
        said.append(diagnostic("host.managed.sideload_refused", message, where))
    return lay, opts, tuple(said)


def _mcp_unlocked(servers: Sequence[McpServer], kept: Sequence[McpServer]) -> list[Diagnostic]:
    """A word that the host's own files other than the managed one were not read
    (`servers` were read without the lock, `kept` with it), when Claude Code's managed
    settings lock ``mcp`` to plugins."""
    left = [s for s in servers if s not in kept]
    if not left:
        return []
    files = sorted({s.path.name for s in left if s.path is not None})
    message = (
        f"{', '.join(files)} not read ({len(left)} server(s)): Claude Code's managed "
        "settings lock mcp to plugins (strictPluginOnlyCustomization)"
    )
    return [diagnostic("host.managed.locked", message, left[0].path)]


def _all_off(servers: McpServerSet) -> McpServerSet:
    """`servers` each turned off, with a word why: the host starts none in a folder it
    does not trust (`Options.untrusted_servers`)."""
    on = [s for s in servers.servers if s.enabled]
    if not on:
        return servers
    message = (
        f"{len(on)} MCP server(s) are not started: the host starts none in a folder it "
        "does not trust, not even the user's"
    )
    said = diagnostic("mcp.server.untrusted", message)
    off = tuple(replace(s, enabled=False) for s in servers.servers)
    return replace(servers, servers=off, diagnostics=(*servers.diagnostics, said))


def _policed_options(opts: Options, policy: Policy) -> tuple[Options, tuple[Diagnostic, ...]]:
    """`opts` as the policy lets them stand: ``require_trust`` ignores a host's
    ``trusted=True`` (the user's list decides); a closed policy loads declaratively."""
    refused: list[Diagnostic] = []
    if opts.trusted is True and (why := policy.check_trust_override()) is not None:
        opts = replace(opts, trusted=None)
        refused.append(why)
    if policy.closed is not None and opts.executable:
        opts = replace(opts, executable=False)
    return opts, tuple(refused)


def _name_hosts() -> tuple[HostNaming, ...]:
    """What each host whose name rule is not the spec's does with a skill's name, for
    the ``skill.name.hosts`` note: the profiles are imported only when a name breaks
    the rule."""
    from satchel.hosts._profiles import name_rules

    return name_rules()


def _profile(
    host: str | Host | None,
    layout: Layout | None,
    cwd: str | os.PathLike[str] | None,
    project: str | os.PathLike[str] | None,
) -> tuple[Host | None, tuple[Diagnostic, ...]]:
    """The profile `host` names (None: satchel's own rules), looked up in the user's
    config (that of `layout`, else of the default layout) when it is not a built-in
    one. The profiles are imported only when one is named."""
    if host is None:
        return None, ()
    from satchel.hosts._config import resolve

    lay = layout if layout is not None else Layout.default(cwd, project=project)
    return resolve(host, config_home=lay.config_home)


@dataclass(slots=True)
class _Builder:
    """The parts of one `load()`, read in order for the (effective) `layout` with the
    one `trust`; `build` makes the `Environment` from them, once."""

    layout: Layout
    options: Options
    trust: Trust
    host: Host | None = None
    policy: Policy = field(default_factory=Policy)
    managed: ClaudeManaged = field(default_factory=ClaudeManaged)
    plugins: PluginSet = field(default_factory=PluginSet)
    skills: SkillPart = field(default_factory=SkillPart)
    commands: CommandSet = field(default_factory=lambda: CommandSet(MappingProxyType({})))
    agents: AgentSet = field(default_factory=lambda: AgentSet(MappingProxyType({})))
    instructions: tuple[InstructionFile, ...] = ()
    instruction_problems: tuple[Diagnostic, ...] = ()
    mcp_servers: McpServerSet = field(default_factory=McpServerSet)
    hooks: HookSet = field(default_factory=HookSet)
    output_styles: Mapping[str, OutputStyle] = field(default_factory=lambda: MappingProxyType({}))
    style_problems: tuple[Diagnostic, ...] = ()
    overrides: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    override_problems: tuple[Diagnostic, ...] = ()
    listing: ListingSettings = field(default_factory=ListingSettings)
    refused: tuple[Diagnostic, ...] = ()  # what the policy refused
    given: Layout | None = None  # the layout as given (a trusted load's order)
    state: SettingsRead = field(default_factory=SettingsRead)  # the host's own settings
    state_problems: tuple[Diagnostic, ...] = ()
    state_files: StateFiles = field(default_factory=StateFiles)  # read once a load
    pins: Pins | None = None  # what `satchel trust` pinned the project to

    def read(self, written: WrittenSkills | None) -> None:
        """The host's settings, plugins, skills (`written`: the skills `write_skills`
        wrote), commands, agents, instruction files, MCP servers and hooks."""
        if self.options.host_settings is not None:
            self.state, self.state_problems = read_host_settings(
                self.options.host_settings, self.layout, trust_project=self.trust.load_project
            )
        self.plugins, self.refused = policed_plugins(
            _plugins(self.layout, self.options, self.trust, self.given, self.managed, self.state),
            self.policy,
        )
        enabled = self.plugins.enabled()
        if _skills_on(self.options):
            self.skills = settle_skills(
                self.layout, self.options, self.trust, enabled, written, _name_hosts
            )
            self._read_served()
            kept, refused = policed_skills(self.skills.skills, self.policy)
            self.skills = replace(self.skills, skills=kept)
            self.refused += refused
        self._read_components(enabled)
        self._read_executables(enabled)
        self.output_styles, self.style_problems = user_and_project_styles(
            self.layout, enabled, trust_project=self.trust.load_project
        )
        self._read_overrides()

    def _read_served(self) -> None:
        """The skills of the configured skill servers (`satchel.mcp._served`), beside the
        local ones under their servers' labels; nothing starts when none is configured."""
        servers, problems = skill_servers(
            self.layout, given=self.options.skill_servers, trust_project=self.trust.run_project
        )
        if not servers and not problems:
            return
        kept, refusals = policed_skill_servers(servers, self.policy)
        approved, held = held_servers(kept, self.pins)  # a changed project server: not started
        served, notes = served_skills(approved, self.skills.skills)
        skills = MappingProxyType({**self.skills.skills, **served})
        found = (*self.skills.diagnostics, *problems, *refusals, *held, *notes)
        self.skills = replace(self.skills, skills=skills, diagnostics=found)

    def _read_overrides(self) -> None:
        """The skill listing overrides: the files', then the options'."""
        project = self.trust.load_project
        claude = claude_settings(self.layout, project) if self.options.claude_settings_hooks else ()
        found, problems = read_overrides(self.layout, trust_project=project, claude=claude)
        off = self.state.disabled_skills  # the host's own list: the skill is off
        turned_off = {name: "off" for name in self.skills.skills if name.lower() in off}
        self.overrides = MappingProxyType({**turned_off, **found, **self.options.skill_overrides})
        self.listing, more = read_listing(self.layout, claude)
        self.override_problems = (*problems, *more)

    def _read_components(self, enabled: Sequence[Plugin]) -> None:
        """Commands, agent types and instruction files (the project's when it loads)."""
        lay, opts, project = self.layout, self.options, self.trust.load_project
        self._refuse_kinds()
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
        if "commands" in self.policy.disabled_components:
            self.commands = CommandSet(MappingProxyType({}), builtins=self.commands.builtins)
        if "agents" in self.policy.disabled_components:
            self.agents = replace(self.agents, agents=MappingProxyType({}), shadowed=())
        if opts.instructions is not None and self.policy.allows_component("instructions"):
            names = self.state.context_names
            self.instructions, self.instruction_problems = load_instructions(
                lay,
                mode=opts.instructions,
                trust_project=project,
                **_instruction_settings(lay, opts, project),
                context_names=gemini_context_names(names),
            )

    def _read_executables(self, enabled: Sequence[Plugin]) -> None:
        """MCP servers and hooks (the project's when it runs; when only its folder's
        trust holds it back, its servers and its plugins' hooks are read too, held)."""
        lay, opts, trust = self.layout, self.options, self.trust
        files = self._mcp_files()
        host, problems = host_servers(
            lay,
            given=opts.mcp_servers,
            trust_project=trust.run_project,
            files=files,
            state=self.state_files,
            host_state=opts.host_state,
        )
        if "mcp" in self.managed.locked:  # only the managed file is read
            kept, problems = host_servers(
                lay,
                given=opts.mcp_servers,
                trust_project=trust.run_project,
                files=tuple(f for f in files if f.exclusive),
                state=self.state_files,
                host_state=opts.host_state,
            )
            problems += _mcp_unlocked(host, kept)
            host = kept
        self.mcp_servers = policed_servers(settle_servers(host, enabled, problems), self.policy)
        self.mcp_servers = self._turned_off(self.mcp_servers)
        if not opts.untrusted_servers and not trust.folder:
            self.mcp_servers = _all_off(self.mcp_servers)
        held = [p for p in self.plugins.held.values() if p.enabled]
        if self._holds_project():
            self.mcp_servers = self._held_servers(self.mcp_servers, (*enabled, *held))
        self.hooks = load_hooks(
            lay,
            (*enabled, *held),  # a held plugin's hooks are listed, skipped (`Trust.runs`)
            trust=trust,
            executable=opts.executable,
            own_files=opts.hook_files,
            # a managed lock on hooks: Claude Code's settings hooks are not read
            claude_settings=opts.claude_settings_hooks and "hooks" not in self.managed.locked,
            state=opts.host_state,
        )
        self.hooks = policed_hooks(self.hooks, self.policy)

    def _mcp_files(self) -> tuple[McpFile, ...]:
        """The files other hosts keep MCP servers in, as the options or the profile
        name them (None: satchel's own table, every host's user files)."""
        if self.options.mcp_files is not None:
            return self.options.mcp_files
        from satchel.hosts._mcp import SATCHEL_MCP  # the hosts' data, not their profiles

        return SATCHEL_MCP

    def _turned_off(self, servers: McpServerSet) -> McpServerSet:
        """`servers` with those the hosts turn off in this project disabled (Claude
        Code's ``disabledMcpServers``: `Options.mcp_off`)."""
        rows = self.options.mcp_off
        if rows is None:
            from satchel.hosts._mcp import EVERY_HOST_MCP_OFF  # the hosts' data

            rows = EVERY_HOST_MCP_OFF
        problems: list[Diagnostic] = []
        off = turned_off(self.layout, rows, problems, self.state_files) if rows else frozenset()
        found = tuple(
            replace(s, enabled=False) if s.enabled and server_id(s) in off else s
            for s in servers.servers
        )  # fmt: skip
        return replace(servers, servers=found, diagnostics=(*servers.diagnostics, *problems))

    def _holds_project(self) -> bool:
        """Whether what trust holds back is read, as declared, to be listed (as
        `_plugins` reads the project's plugins): `_holds_project`."""
        return _holds_project(self.options, self.trust)

    def _held_servers(self, actual: McpServerSet, plugins: Sequence[Plugin]) -> McpServerSet:
        """`actual` with what trusting the project would add, read as a trusted load
        settles it (never started): the servers of the project's config
        (``config.toml``, ``.mcp.json``) and of its held `plugins` that would count,
        what went wrong reading them, and whom they would hide."""
        lay = self.given or self.layout
        files = self._mcp_files()
        if "mcp" in self.managed.locked:
            files = tuple(f for f in files if f.exclusive)
        host, problems = host_servers(
            lay,
            given=self.options.mcp_servers,
            trust_project=True,
            files=files,
            state=self.state_files,
            host_state=self.options.host_state,
        )
        view = policed_servers(settle_servers(host, plugins, problems), self.policy)
        projects = (s for p in plugins if p.scope == PROJECT for s in p.mcp_servers)
        ours = (*(s for s in host if s.scope == PROJECT), *projects)  # compared by value
        return replace(
            actual,
            held=tuple(s for s in view.servers if s not in actual.servers and s in ours),
            held_shadowed=tuple(p for p in view.shadowed if p not in actual.shadowed),
            held_diagnostics=tuple(d for d in view.diagnostics if d not in actual.diagnostics),
        )

    def _refuse_kinds(self) -> None:
        """One ``policy.denied`` for each whole kind ``disabled_components`` names that
        `load()` leaves out itself (commands, agents, instructions, lsp)."""
        for kind in ("agents", "commands", "instructions", "lsp"):
            if kind in self.policy.disabled_components:
                why = self.policy.check_component(kind)
                self.refused += () if why is None else (why,)

    def build(
        self, given: Layout, decided: TrustDecision, problems: tuple[Diagnostic, ...] = ()
    ) -> Environment:
        """The one `Environment`: for the `given` layout, with the project's pinned
        items held back (`satchel.trust._approval`) when `decided` carries pins; `problems`
        are those met finding the host profile."""
        # a project plugin's programs changed since trust stay declared: `Trust.runs`
        # keeps them from running (its language servers, monitors and bin/)
        held = self._held_back(given, decided.pins)
        trust = replace(self.trust, held=held.changed, pins=decided.pins)
        diagnostics = (*problems, *decided.problems, *self._diagnostics(), *held.diagnostics)
        skills = self.skills.skills
        if held.skills:  # a project's served skills whose set is not the approved one
            skills = MappingProxyType({n: s for n, s in skills.items() if n not in held.skills})
        found = stamps(
            skills,
            self.commands.commands,
            self.agents.agents,
            self.plugins.plugins,
        )
        return Environment(
            given,
            skills,
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
            trust=trust,
            host=self.host,
            output_styles=self.output_styles,
            skill_overrides=self.overrides,
            listing=self.listing,
            policy=self.policy,
        )

    def _held_back(self, given: Layout, pins: Pins | None) -> HeldBack:
        if pins is None:
            return HeldBack(self.hooks, self.mcp_servers)
        items = _executables(
            given,
            self.options,
            self.plugins,
            self.hooks,
            self.mcp_servers,
            self.skills.skills,
            self.agents.agents,
        )
        return hold_back(items, pins)

    def _diagnostics(self) -> tuple[Diagnostic, ...]:
        return (
            *self.state_problems,
            *self.skills.diagnostics,
            *self.commands.diagnostics,
            *self.agents.diagnostics,
            *self.instruction_problems,
            *self.style_problems,
            *self.override_problems,
            *self.plugins.diagnostics,
            *missing_requirements(self.plugins.enabled(), self.skills.skills),
            *unset_options(self.layout, self.plugins.enabled()),
            *deprecation_notes(self.plugins.enabled()),
            *self.mcp_servers.diagnostics,
            *self.hooks.diagnostics,
            *self.refused,
        )


def _executables(
    lay: Layout,
    opts: Options,
    plugins: PluginSet,
    hooks: HookSet,
    servers: McpServerSet,
    skills: Mapping[str, Skill],
    agents: Mapping[str, AgentType],
) -> Executables:
    """The hooks and servers of one load, and its skills and agent types, as approval
    reads them."""
    return Executables(
        lay,
        hooks,
        servers,
        plugins.plugins,
        settings_read=opts.claude_settings_hooks,
        skills=skills,
        agents=agents,
    )


def _instruction_settings(lay: Layout, opts: Options, project: bool) -> dict[str, Any]:
    """What the host's own config says of its instruction files (`Options.host_state`)."""
    state = opts.host_state
    if state is None or (state.doc_fallback is None and state.doc_max_bytes is None):
        return {}
    return instruction_settings(state, host_config(lay, state, trust_project=project))


def _skills_on(opts: Options) -> bool:
    """False when the host turned skills off (``enabled=False`` or ``[]``)."""
    return not (opts.enabled is False or opts.enabled == ())


def _holds_project(opts: Options, trust: Trust) -> bool:
    """Whether the project would run if its folder were trusted, and the caller asked
    for what it holds back (`Options.read_held`): then it is read, as declared."""
    return opts.read_held and not trust.folder and opts.trust_project_skills


def _plugins(
    lay: Layout,
    opts: Options,
    trust: Trust,
    given: Layout | None,
    managed: ClaudeManaged,
    state: SettingsRead,
) -> PluginSet:
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
        formats=opts.plugin_formats,
        carries=opts.plugin_parts,
        claude_installed=opts.claude_installed_plugins,
        skills_dir=not managed.locked,  # any lock turns Claude Code's scan off
        hold_project=_holds_project(opts, trust),
        trusted_layout=given,
        host_state=opts.host_state,
        enablement=state.enablement,
        links=opts.host_settings.plugin_link if opts.host_settings is not None else None,
    )

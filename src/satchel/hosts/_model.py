"""`Host`: one agent host's every decision about skills, commands, agents, plugins,
instructions, hooks and the skill index, as one frozen value.

A profile says where the host looks and in what order (its root tables: the first
root to define a name wins), how it walks a root, which plugin manifests it reads and
which it prefers, how it names plugin skills and commands, how it numbers
``$ARGUMENTS``, which instruction files it reads, how much room its skill listing
gets, which hook events it fires, and what it does in a folder that is not trusted.
`Host.layout` gives the `Layout` and `satchel.assembly._options.host_overrides` the `load()`
options that make satchel see a project as that host does; options given to `load()`
override them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout, RootSpec, WalkBounds
from satchel.foundations._host_settings import HostSettings
from satchel.foundations._host_state import HostState
from satchel.foundations.policy._export import Export
from satchel.foundations.policy._model import Policy
from satchel.foundations.tokens import BYTES_PER_TOKEN
from satchel.hosts._hooks import HookDialect
from satchel.hosts._installs import Installs
from satchel.hosts._instructions import InstructionRule
from satchel.hosts._mcp import MCP_JSON, McpApproval, McpFile, McpOff, McpPolicy
from satchel.hosts._models import Models, Resolved
from satchel.hosts._parts import PARTS, Carries, Part, carries
from satchel.hosts._port import PortSpec
from satchel.hosts._rules import MetadataRule, TrustSource
from satchel.hosts._vocabulary import (
    Ambiguity,
    Format,
    InstructionMode,
    Naming,
    PluginSkillNames,
    SkillRule,
    TrustListName,
    Untrusted,
)
from satchel.index._budget import Budget
from satchel.index._listing import ListingSettings
from satchel.index._render import DEFAULT_BUDGET
from satchel.skills._names import NameRule

__all__ = ["CONTEXT_TOKENS", "Clash", "Host", "Index", "Limits", "Untrusted"]

Clash = Literal["first", "every"]
CONTEXT_TOKENS = 200_000
"""The context window a budget given as a fraction is taken of (Claude Code's own
fallback when it does not know the model's: ``Ubs=200000`` in the 2.1.332 binary)."""


@model
class Index:
    """How much room the host's skill listing gets and what it does when it is full.

    `fraction` is the share of the model's context window, in characters (Claude Code
    1%, Codex 2%); `chars` a cap in characters (Codex 8,000 in its docs; satchel's
    index 8 KiB); `entries` a cap on the skills listed (satchel 64); `description` the
    length a description is cut to. `overflow` says what goes first: ``shorten``
    (every description shortened evenly, nothing dropped: Codex), ``least-used``
    (descriptions of the least-used skills dropped first: Claude Code), ``last``
    (entries past the cap are left out, in precedence order: satchel) or ``none``
    (no budget: Gemini CLI). `bytes` caps the UTF-8 size (satchel's 8 KiB). `style`
    names the host's own listing renderer (`satchel.assembly.listings`: ``claude-code``); None:
    satchel's own index, within this budget. Under a style, `bounds` are the `Budget`
    fields a caller may set (the host applies no other), `bounds_why` says why in a
    sentence, and `lists_commands` whether the listing holds the slash commands too.
    `budget_setting` and `description_setting` name the host's own settings that raise
    the listing's budget and the length a description keeps, and where they are set
    (None: the host has none)."""

    fraction: float | None = None
    chars: int | None = None
    entries: int | None = None
    description: int | None = None
    overflow: Literal["shorten", "least-used", "last", "none"] = "none"
    bytes: int | None = None
    style: str | None = None
    bounds: frozenset[str] = frozenset()
    bounds_why: str = ""
    lists_commands: bool = False
    budget_setting: str | None = None
    description_setting: str | None = None

    def budget(
        self,
        context: int = CONTEXT_TOKENS,
        *,
        chars_per_token: int = BYTES_PER_TOKEN,
        settings: ListingSettings | None = None,
    ) -> Budget:
        """The `Budget` the index gets under this profile for a `context`-token window
        counted at `chars_per_token` characters a token: the smaller of `chars` and
        `fraction` of the window (rounded down, at least 1), and `bytes`, `entries` and
        `description` as they are; `settings` (the host's own, such as Claude Code's
        ``skillListingBudgetFraction``) replace `fraction` and `description`. A
        profile that sets none keeps satchel's own 64 skills in 8 KiB
        (`satchel.index._render.DEFAULT_BUDGET`). `Host.budget` gives it for a model."""
        given = settings or ListingSettings()
        fraction = self.fraction if given.fraction is None else given.fraction
        description = self.description if given.description is None else given.description
        chars = self.chars
        if fraction is not None:
            share = max(1, int(fraction * context * chars_per_token))
            chars = share if chars is None else min(chars, share)
        found = Budget(chars=chars, bytes=self.bytes, skills=self.entries, description=description)
        return DEFAULT_BUDGET if found == Budget() else found


@model
class Limits:
    """What the host refuses or cuts: a skill `name` longer than `name` characters is
    dropped, a `description` longer than `description` characters is cut. None: no
    such limit."""

    name: int | None = None
    description: int | None = None


@model
class Host:
    """One host's profile (see the module docstring and docs/hosts.md).

    * `name`: the profile's id (``claude-code``); `title` its display name; `sources`
      where its facts come from.
    * `client`: the folder family and config name satchel's own files use under
      this profile (``satchel``; ``mermaid`` for the mermaid coding agent).
    * `skills`, `commands`, `agents`, `plugins`: the root tables, in precedence order.
    * `ancestors`: ``{project}`` rows name every folder from the working directory up
      to the project root (Codex, Claude Code); `walk` how a root is walked (depth,
      hidden folders, ``node_modules``, symlinked folders, a skill inside a skill:
      `satchel.core.layout.WalkBounds`).
    * `names`: what the host does with a skill's ``name:`` (`NameRule`: the Agent
      Skills rule, or the name kept as written, some characters replaced).
    * `plugin_formats`: the plugin manifests the host reads, preferred first; a
      directory holding only other hosts' manifests is not one of its plugins [None:
      every format, in the order ``config.toml`` gives]. `ambiguous_plugins`:
      ``refuse`` loads none of several manifests (Vibe) [None: as ``config.toml`` says].
    * `plugin_skill_names`, `plugin_skill_rule`, `strict_plugins`: how plugin skills
      are named and checked; `command_naming` and `argument_numbering`: ``dir:name``
      or stem names, and whether ``$0`` or ``$1`` is the first argument.
    * `instructions`: the word of the instruction-file rule the host reads (None:
      it reads none); `instruction_rule` the rule this host defines (its files,
      folders, walk, cap, import syntax and how it sends them: `InstructionRule`).
    * `skill_metadata`: which top-level SKILL.md fields moved into metadata the
      client calls deprecated (`MetadataRule`).
    * `skill_fields`: the SKILL.md frontmatter fields the host reads (the others it
      ignores) [None: not documented; every field is kept].
    * `index`, `limits`: the skill listing's budget, and the host's hard limits.
    * `models`: the host's default model and the context windows it knows
      (`Host.budget` turns a model into the listing's budget).
    * `events`: the hook events the host fires, in its own spelling.
    * `clash`: ``first`` (one skill per name: the first root wins) or ``every`` (the
      host lists every copy; satchel keeps the first and reports the rest).
    * `untrusted`: in a folder that is not trusted, ``user-first`` (the user's roots
      rank above the project's and project plugins do not load: satchel's rule) or
      ``skip-project`` (no project skills, commands, agents or instructions: Gemini
      CLI). `trust_list`: whose list of trusted folders decides (``satchel``'s, or
      ``gemini``: ``~/.gemini/trustedFolders.json``).
    * `hook_files`, `claude_settings_hooks`, `include_workspace_plugin`, `executable`:
      which hook files are read, whether the project's own folders are a plugin, and
      whether hooks and servers are loaded at all (declarative-only hosts).
    * `claude_installed_plugins`: the plugins Claude Code installed under
      ``~/.claude/plugins`` load, enabled as its settings say (Claude Code, satchel).
    * `hooks`: the host's hook rules (`HookDialect`: its event names, matcher, the
      variables its hooks get, its payload, how it reads an answer and what it tells
      its model) [satchel's plain dialect].
    * `carries`: the component kinds (`satchel.plugins._carry.PARTS`) the host keeps
      of a plugin of each format it reads; the loader leaves the others out
      (``plugin.component.unread``), `compat` reports them and `port` does not write
      them [a format not named: every kind satchel's reader of it reads,
      `satchel.plugins._carry.READS`].
    * `port`: how `satchel port` writes a plugin for this host (None: it does not).
    * `policy_export`: how `satchel policy export` writes satchel's policy as the host's
      managed file (None: it does not).
    * `state`: where the host keeps its own state on this machine, and the keys it
      writes there (`satchel.foundations._host_state.HostState`: Codex's ``~/.codex``): the
      plugins it installed, its MCP servers, the skills it turned off, its instruction
      settings, its hook files and the hooks it trusts [None: nothing of the host's
      own is read].
    * `mcp_files`: the files the host keeps its MCP servers in, strongest first
      within the project's and within the user's (`satchel.mcp._hosts.McpFile`)
      [None: satchel's own table, ``SATCHEL_MCP``: a project's ``.mcp.json`` and the
      user's files of every host]. `mcp_off`: the lists of server names the host turns
      off in a project (`satchel.mcp._hosts.McpOff`) [None: every host's].
      `mcp_approval`: how the host approves a project's own servers before it starts
      them (`satchel.hosts._mcp.McpApproval`: Claude Code's ``.mcp.json``) [None: it
      starts them as any other]. `mcp_policy`: the lists in the host's settings that
      block servers by name (`satchel.hosts._mcp.McpPolicy`: Gemini CLI's
      ``mcp.allowed`` and ``mcp.excluded``) [None: none]. `untrusted_servers`: whether
      the user's and the plugins' servers start in a folder that is not trusted (False:
      Gemini CLI).
    * `settings`: the host's settings files and the keys satchel reads there (skills
      turned off, instruction file names, plugin enablement:
      `satchel.foundations._host_settings.HostSettings`) [None: none].
    * `plugin_skill_clash`: of two plugins holding a skill of the same name, the
      ``first`` in plugin order wins, or the ``last`` (Gemini CLI's extensions).
    * `trust_source`: where the host records the folders it trusts, read only by
      ``satchel trust --from`` (`satchel.hosts._trust.TrustSource`) [None: none].
    * `found_by`: the files and folders whose presence says the host is used on this
      machine (templates of ``{home}``, ``{config}`` and ``{project}``: ``{home}/.codex``),
      read by ``satchel doctor --hosts`` [(): a host only its name brings in].
    * `installs`: where the host records the plugins it installed and where each came
      from, read only by ``satchel outdated`` (`satchel.hosts._installs.Installs`)
      [None: it installs none].
    """

    name: str
    title: str
    skills: tuple[RootSpec, ...]
    sources: tuple[str, ...] = ()
    client: str = "satchel"
    commands: tuple[RootSpec, ...] = ()
    agents: tuple[RootSpec, ...] = ()
    plugins: tuple[RootSpec, ...] = ()
    ancestors: bool = False
    walk: WalkBounds = field(default_factory=WalkBounds)
    names: NameRule = field(default_factory=NameRule)
    plugin_formats: tuple[Format, ...] | None = None
    ambiguous_plugins: Ambiguity | None = None
    plugin_skill_names: PluginSkillNames = "namespaced"
    plugin_skill_rule: SkillRule | None = None
    strict_plugins: bool = False
    command_naming: Naming = "stem"
    argument_numbering: Literal[0, 1] = 1
    instructions: InstructionMode | None = "satchel"
    skill_fields: tuple[str, ...] | None = None
    index: Index = field(default_factory=Index)
    limits: Limits = field(default_factory=Limits)
    models: Models = field(default_factory=Models)
    events: tuple[str, ...] = ()
    clash: Clash = "first"
    untrusted: Untrusted = "user-first"
    trust_list: TrustListName = "satchel"
    hook_files: bool = True
    claude_settings_hooks: bool = False
    include_workspace_plugin: bool = True
    executable: bool = True
    claude_installed_plugins: bool = False
    # the loaders' rules as data (instruction files; skill fields moved into metadata)
    instruction_rule: InstructionRule | None = None
    skill_metadata: MetadataRule = field(default_factory=MetadataRule)
    hooks: HookDialect = field(default_factory=HookDialect)
    carries: Carries = field(default_factory=dict)
    port: PortSpec | None = None
    policy_export: Callable[[Policy], Export] | None = None
    state: HostState | None = None
    mcp_files: tuple[McpFile, ...] | None = (MCP_JSON,)
    mcp_off: tuple[McpOff, ...] | None = ()
    mcp_approval: McpApproval | None = None
    mcp_policy: McpPolicy | None = None
    untrusted_servers: bool = True
    settings: HostSettings | None = None
    plugin_skill_clash: Literal["first", "last"] = "first"
    trust_source: TrustSource | None = None
    found_by: tuple[str, ...] = ()
    installs: Installs | None = None

    def keeps(self, fmt: Format, part: Part) -> bool:
        """Whether the host keeps `part` of a plugin in `fmt` (`carries`)."""
        return carries(self.carries, fmt, part)

    def model(self, model: str | None = None) -> Resolved:
        """The window `model` resolves to under this host (None: its default model)."""
        return self.models.resolve(model)

    def budget(
        self, model: str | None = None, settings: ListingSettings | None = None
    ) -> tuple[Budget, tuple[Diagnostic, ...]]:
        """The listing budget for `model` (None: the host's default), with the host's
        `settings`, and a ``host.model-unknown`` warning for a model it does not know
        (whose budget is taken of the host's fallback window)."""
        found = self.models.resolve(model)
        window = found.window
        budget = self.index.budget(
            window.tokens, chars_per_token=window.chars_per_token, settings=settings
        )
        return budget, found.diagnostics(self.name)

    def layout(
        self,
        cwd: str | os.PathLike[str] | None = None,
        *,
        home: str | os.PathLike[str] | None = None,
        project: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Layout:
        """The `Layout` for `cwd` as this host reads it: its root tables, walk and
        project rule (`Layout.default` decides the project root and directories)."""
        return Layout.default(
            cwd,
            client=self.client,
            home=home,
            project=project,
            roots=self.skills,
            command_roots=self.commands,
            agent_roots=self.agents,
            plugin_roots=self.plugins,
            walk=self.walk,
            ancestors=self.ancestors,
            env=env,
        )

    def to_json(self) -> dict[str, object]:
        """The profile as JSON: every decision, each table as ``scope``, ``family``
        and ``template`` rows."""

        def rows(table: tuple[RootSpec, ...]) -> list[dict[str, str]]:
            return [{"scope": r.scope, "family": r.family, "template": r.template} for r in table]

        return {
            "name": self.name,
            "title": self.title,
            "client": self.client,
            "sources": list(self.sources),
            "skills": rows(self.skills),
            "commands": rows(self.commands),
            "agents": rows(self.agents),
            "plugins": rows(self.plugins),
            "ancestors": self.ancestors,
            "walk": {
                "nested": self.walk.nested,
                "max_depth": self.walk.max_depth,
                "max_dirs": self.walk.max_dirs,
                "max_entries": self.walk.max_entries,
                "follow_symlinks": self.walk.follow_symlinks,
                "follow_symlinked_dirs": self.walk.follow_symlinked_dirs,
                "hidden_dirs": self.walk.hidden_dirs,
                "skip_dirs": list(self.walk.skip_dirs),
                "skills_in_skills": self.walk.skills_in_skills,
                "root_skill": self.walk.root_skill,
                "linked_skill_files": self.walk.linked_skill_files,
                "resolve_root": self.walk.resolve_root,
            },
            "names": {
                "spec": self.names.spec,
                "collapse_spaces": self.names.collapse_spaces,
                "replace": self.names.replace,
                "replacement": self.names.replacement,
                "note_hosts": self.names.note_hosts,
            },
            "plugin_formats": None if self.plugin_formats is None else list(self.plugin_formats),
            "ambiguous_plugins": self.ambiguous_plugins,
            "plugin_skill_names": self.plugin_skill_names,
            "plugin_skill_rule": self.plugin_skill_rule,
            "strict_plugins": self.strict_plugins,
            "command_naming": self.command_naming,
            "argument_numbering": self.argument_numbering,
            "instructions": self.instructions,
            "skill_fields": None if self.skill_fields is None else list(self.skill_fields),
            "index": {
                "fraction": self.index.fraction,
                "chars": self.index.chars,
                "entries": self.index.entries,
                "description": self.index.description,
                "overflow": self.index.overflow,
                "bytes": self.index.bytes,
                "style": self.index.style,
                "bounds": sorted(self.index.bounds),
                "lists_commands": self.index.lists_commands,
                "budget_setting": self.index.budget_setting,
                "description_setting": self.index.description_setting,
            },
            "models": {
                "default": self.models.default,
                "known": {w.id: w.tokens for w in self.models.known},
                "fallback": self.models.fallback,
            },
            "limits": {
                "name": self.limits.name,
                "description": self.limits.description,
            },
            "events": list(self.events),
            "clash": self.clash,
            "untrusted": self.untrusted,
            "trust_list": self.trust_list,
            "hook_files": self.hook_files,
            "claude_settings_hooks": self.claude_settings_hooks,
            "include_workspace_plugin": self.include_workspace_plugin,
            "executable": self.executable,
            "claude_installed_plugins": self.claude_installed_plugins,
            "instruction_rule": (
                None if self.instruction_rule is None else self.instruction_rule.to_json()
            ),
            "skill_metadata": {"deprecated": list(self.skill_metadata.deprecated)},
            "hooks": self.hooks.to_json(),
            "carries": {fmt: [p for p in PARTS if p in kept] for fmt, kept in self.carries.items()},
            "policy_export": self.policy_export is not None,
            "port": None
            if self.port is None
            else {
                "name": self.port.name,
                "manifest": self.port.manifest,
                "format": self.port.format,
            },
            "state": None if self.state is None else _state_json(self.state),
            "mcp_files": None
            if self.mcp_files is None
            else [
                {
                    "path": f.path,
                    "keys": list(f.keys),
                    "shape": f.shape,
                    "owner": f.owner,
                    "label": f.label,
                    "exclusive": f.exclusive,
                }
                for f in self.mcp_files
            ],
            "mcp_off": None
            if self.mcp_off is None
            else [{"path": o.path, "keys": list(o.keys)} for o in self.mcp_off],
            "mcp_approval": None
            if self.mcp_approval is None
            else {
                "settings": list(self.mcp_approval.settings),
                "every": self.mcp_approval.every,
                "named": self.mcp_approval.named,
                "refused": self.mcp_approval.refused,
                "trust": [self.mcp_approval.trust[0], list(self.mcp_approval.trust[1])],
            },
            "mcp_policy": None
            if self.mcp_policy is None
            else {
                "files": list(self.mcp_policy.files),
                "allowed": list(self.mcp_policy.allowed),
                "excluded": list(self.mcp_policy.excluded),
                "allowed_lists": self.mcp_policy.allowed_lists,
            },
            "untrusted_servers": self.untrusted_servers,
            "settings": None if self.settings is None else _settings_json(self.settings),
            "plugin_skill_clash": self.plugin_skill_clash,
            "trust_source": None
            if self.trust_source is None
            else {
                "path": self.trust_source.path,
                "keys": list(self.trust_source.keys),
                "flag": self.trust_source.flag,
            },
            "found_by": list(self.found_by),
            "installs": None if self.installs is None else self.installs.to_json(),
        }


def _state_json(state: HostState) -> dict[str, object]:
    """`state` as JSON: its fields, each as set."""
    return {
        name: _listed(value)
        for name in state.__dataclass_fields__
        if (value := getattr(state, name)) is not None
    }


def _listed(value: object) -> object:
    """`value` with every tuple in it a list, as JSON gives it back."""
    return [_listed(v) for v in value] if isinstance(value, tuple) else value


def _settings_json(settings: HostSettings) -> dict[str, object]:
    def keys(value: tuple[str, ...] | None) -> list[str] | None:
        return None if value is None else list(value)

    return {
        "files": [{"path": f.path, "owner": f.owner} for f in settings.files],
        "disabled_skills": keys(settings.disabled_skills),
        "context_names": keys(settings.context_names),
        "plugin_enablement": settings.plugin_enablement,
        "plugin_link": None if (link := settings.plugin_link) is None else {
            "file": link.file, "type_key": link.type_key, "link": link.link,
            "source_key": link.source_key,
        },
    }  # fmt: skip

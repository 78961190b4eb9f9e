"""The options of `load()`: one frozen `Options` value, and `LoadOverrides`, the typed
keywords `load()` takes (a misspelt option is a type error at the caller)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypedDict, Unpack, cast

from satchel.agents import BUILTIN_TYPES, DEFAULT_TOOL_MAP
from satchel.core._model import model
from satchel.foundations._host_settings import HostSettings
from satchel.foundations._host_state import HostState
from satchel.hosts._instructions import InstructionRule
from satchel.hosts._lookup import client_profile, instruction_rule
from satchel.hosts._mcp import McpFile, McpOff
from satchel.hosts._model import Host
from satchel.hosts._rules import TRUST_LIST_NAMES
from satchel.hosts._trust import TrustListName
from satchel.hosts._vocabulary import InstructionMode, PluginSkillNames, Untrusted
from satchel.kinds.commands import Command, Naming
from satchel.plugins._carry import Carries
from satchel.plugins._context import SkillRule
from satchel.plugins._detect import AMBIGUITY, Ambiguity
from satchel.plugins._model import FORMATS, Format
from satchel.skills._model import Skill
from satchel.skills._names import NameRule

__all__ = ["LoadOverrides", "Options", "PluginSkillNames", "Untrusted", "host_overrides"]


_NO_TYPES: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
_NO_OVERRIDES: Mapping[str, str] = MappingProxyType({})


@model
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
    * `untrusted`: what a folder that is not trusted gets: ``user-first`` (its skills,
      commands and agents rank below the user's; nothing of it runs) or
      ``skip-project`` (none of its content loads, as in Gemini CLI).
    * `trust_list`: whose list of trusted folders decides when `trusted` is None:
      ``satchel``'s, or ``gemini`` (``~/.gemini/trustedFolders.json``, for the working
      directory, as Gemini CLI decides).
    * `trusted`: whether the project folder is trusted [None: as the user's list of
      trusted folders says, `satchel.trust._trust`]. In a folder that is not trusted the
      project's plugins (and the workspace plugin) do not load, its skills run no
      ``!`cmd``` lines, and user skills, commands and agents rank above the project's.
    * `strict`, `unicode_names`: how fields are judged (see `FieldRules`).

    * `skill_names`: what the host does with a skill's ``name:`` (`NameRule`) [the
      Agent Skills rule, with a ``skill.name.hosts`` note on a name that breaks it].
    * `max_skill_name`: a skill whose name is longer is not loaded
      (``skill.name.refused``), as Codex drops it [None: loaded with a warning].
    * `read_held`: also read, as declared, what the trust decision holds back from a
      project whose folder is not trusted: its plugins (`PluginSet.held`) and MCP
      servers (`McpServerSet.held`), listed and never run, for reports that say what
      trusting it would add (`satchel doctor`, `audit`, `mcp list`, `hooks`) [False: a
      host's load reads none of it].
    * `cache`: keep what was read from each SKILL.md in the discovery cache and take
      an unchanged file's reading from it (`satchel.skills._cache`; also off with
      ``SATCHEL_CACHE=off``) [True].

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
    * `mcp_files`: the files other hosts keep MCP servers in, read after satchel's
      own config of the same owner (`satchel.mcp._hosts.McpFile`) [None: satchel's
      own profile's: a project's ``.mcp.json`` and the user's files of every host].
    * `mcp_off`: the hosts' lists of server names turned off in the project (Claude
      Code's ``disabledMcpServers``): such a server is listed disabled
      (`satchel.mcp._hosts.McpOff`) [None: every host's].
    * `untrusted_servers`: False: in a folder that is not trusted no MCP server
      starts, not the user's nor a plugin's; each is listed disabled
      (``mcp.server.untrusted``), as in Gemini CLI [True: the user's start].
    * `skill_servers`: Skills-extension servers whose skills load live
      (``[skill_servers.<label>]`` tables: ``command``/``args`` or ``url``); they rank
      above the ``config.toml`` ones. Only these start a process during `load()`, to
      list their skills (see docs/mcp.md, "Consuming skill servers").
    * `instructions`: ``satchel`` (AGENTS.md, else CLAUDE.md, the client's file last),
      ``codex`` (AGENTS.md from the git root down to cwd, 32 KiB), another host's word,
      an `InstructionRule` of one's own (a host profile passes its definition's), or
      None (none).
    * `deprecated_skill_fields`: the top-level skill fields called deprecated (a host
      profile passes its definition's `MetadataRule`) [None: the client's definition's].

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
    * `plugin_formats`: the only formats read, as a host profile reads them: a
      directory holding only other formats' manifests is refused with
      ``plugin.compatibility.host_unread`` [None: every format].
    * `executable`: False is declarative-only loading (caveman): plugins' hooks, MCP
      servers and agents are recognised and left alone.
    * `plugin_skill_names`: ``namespaced`` (``<namespace>:<skill>``, Vibe and caveman)
      or ``bare`` (mermaid: plugin skills dedupe with project and user ones by name).
    * `plugin_skill_rule`: ``claude-code`` (a Claude Code plugin's skill is named by
      its directory; a differing frontmatter name warns) or ``vibe`` (a plugin skill
      whose name is not its directory's is skipped, in every format) [None: as
      ``config.toml``'s ``[load] plugin_skill_rule`` says, else ``claude-code``].
    * `plugin_parts`: the component kinds kept of a plugin of each format, as a host
      profile keeps them (`satchel.hosts.Host.carries`): a kind not listed is left
      out with ``plugin.component.unread`` [None: every kind the format's reader reads].
    * `claude_installed_plugins`: the plugins Claude Code installed
      (``~/.claude/plugins/installed_plugins.json``), enabled as its settings'
      ``enabledPlugins`` say (docs/install.md) [True].
    * `host_state`: where a host keeps its own state (`satchel.foundations._host_state.HostState`,
      set by its profile: Codex's ``~/.codex``): the plugins it installed and enables
      load, its config's MCP servers, skill rules, instruction settings and hooks are
      read, and the hooks it has not trusted are named [None: none].

    * `host_settings`: a host's own settings files that turn skills off, name the
      instruction files and enable plugins by folder (`satchel.foundations._host_settings`)
      [None: none are read].
    * `plugin_skill_clash`: of two plugins holding a skill of one name, the ``first``
      (in plugin order) or the ``last`` wins [``first``].

    Hooks (see docs/hooks.md):

    * `hook_files`: satchel's own ``hooks.toml`` (project ``.<client>/hooks.toml``,
      user ``{config}/<client>/hooks.toml``) [True].
    * `claude_settings_hooks`: Claude Code's ``settings.json`` hooks (project, local
      and user) [False: opt-in].
    * `allowed_http_hook_urls`: URL patterns (``*`` a wildcard) ``http`` hooks may
      post to, beside the settings' ``allowedHttpHookUrls`` [(): none].

    * `model`: the model the host runs, whose context window sizes the host's skill
      listing (`satchel.hosts.Host.budget`) [None: the host profile's default model].
    * `skill_overrides`: how the index lists a skill, by name: ``on``, ``name-only``,
      ``user-invocable-only`` or ``off``; over those of ``config.toml``'s
      ``[index.overrides]`` and Claude Code's ``skillOverrides`` (`satchel.index._listing`)
      [{}: the files' alone].

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
    untrusted: Untrusted = "user-first"
    trusted: bool | None = None
    trust_list: TrustListName = "satchel"
    strict: bool = False
    unicode_names: bool = False
    skill_names: NameRule = NameRule(note_hosts=True)
    max_skill_name: int | None = None
    builtin_commands: tuple[str, ...] = ()
    extra_commands: tuple[Command, ...] = ()
    command_naming: Naming = "stem"
    builtin_agents: tuple[str, ...] = BUILTIN_TYPES
    agent_types: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_TYPES)
    agent_tool_map: Mapping[str, Sequence[str]] = field(default_factory=lambda: DEFAULT_TOOL_MAP)
    mcp_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_TYPES)
    skill_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_TYPES)
    mcp_files: tuple[McpFile, ...] | None = None
    mcp_off: tuple[McpOff, ...] | None = None
    untrusted_servers: bool = True
    host_settings: HostSettings | None = None
    plugin_skill_clash: Literal["first", "last"] = "first"
    instructions: InstructionMode | InstructionRule | None = "satchel"
    deprecated_skill_fields: tuple[str, ...] | None = None
    plugins: bool = True
    plugin_dirs: tuple[Path, ...] = ()
    include_workspace_plugin: bool = True
    strict_plugins: bool = False
    ambiguous_plugins: Ambiguity | None = None
    plugin_format_order: tuple[Format, ...] | None = None
    plugin_formats: tuple[Format, ...] | None = None
    plugin_parts: Carries | None = None
    executable: bool = True
    plugin_skill_names: PluginSkillNames = "namespaced"
    plugin_skill_rule: SkillRule | None = None
    claude_installed_plugins: bool = True
    host_state: HostState | None = None
    hook_files: bool = True
    claude_settings_hooks: bool = False
    allowed_http_hook_urls: tuple[str, ...] = ()
    skill_overrides: Mapping[str, str] = field(default_factory=lambda: _NO_OVERRIDES)
    model: str | None = None
    read_held: bool = False
    cache: bool = True

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
            "allowed_http_hook_urls",
        ):
            if key in options:
                options[key] = tuple(options[key])
        for key in ("mcp_files", "mcp_off", "deprecated_skill_fields"):
            if options.get(key) is not None:
                options[key] = tuple(options[key])
        if options.get("plugin_skill_clash", "first") not in ("first", "last"):
            raise TypeError("plugin_skill_clash must be first or last")
        for key in ("plugin_format_order", "plugin_formats"):
            if options.get(key) is not None:
                options[key] = _format_order(options[key], key)
        if options.get("trust_list", "satchel") not in TRUST_LIST_NAMES:
            raise TypeError(f"trust_list must be {' or '.join(TRUST_LIST_NAMES)}")
        if options.get("untrusted", "user-first") not in ("user-first", "skip-project"):
            raise TypeError("untrusted must be user-first or skip-project")
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
        if "skill_overrides" in options:
            options["skill_overrides"] = MappingProxyType(dict(options["skill_overrides"]))
        return cls(**options)

    def keywords(self) -> LoadOverrides:
        """These options as `load()` keywords: `load(**opts.keywords())` loads with them."""
        given = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return cast("LoadOverrides", given)

    def deprecated_fields(self, client: str) -> tuple[str, ...]:
        """The top-level skill fields called deprecated: `deprecated_skill_fields`, else
        the definition of the host whose client `client` is."""
        if self.deprecated_skill_fields is not None:
            return self.deprecated_skill_fields
        return client_profile(client).skill_metadata.deprecated


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
    untrusted: Untrusted
    trusted: bool | None
    trust_list: TrustListName
    strict: bool
    unicode_names: bool
    skill_names: NameRule
    max_skill_name: int | None
    builtin_commands: Iterable[str]
    extra_commands: Iterable[Command]
    command_naming: Naming
    builtin_agents: Iterable[str]
    agent_types: Mapping[str, Mapping[str, Any]]
    agent_tool_map: Mapping[str, Sequence[str]]
    mcp_servers: Mapping[str, Mapping[str, Any]]
    skill_servers: Mapping[str, Mapping[str, Any]]
    mcp_files: Iterable[McpFile] | None
    mcp_off: Iterable[McpOff] | None
    untrusted_servers: bool
    host_settings: HostSettings | None
    plugin_skill_clash: Literal["first", "last"]
    instructions: InstructionMode | InstructionRule | None
    deprecated_skill_fields: Iterable[str] | None
    plugins: bool
    plugin_dirs: Iterable[str | os.PathLike[str]]
    include_workspace_plugin: bool
    strict_plugins: bool
    ambiguous_plugins: Ambiguity | None
    plugin_format_order: Iterable[Format] | None
    plugin_formats: Iterable[Format] | None
    plugin_parts: Carries | None
    executable: bool
    plugin_skill_names: PluginSkillNames
    plugin_skill_rule: SkillRule | None
    claude_installed_plugins: bool
    host_state: HostState | None
    hook_files: bool
    claude_settings_hooks: bool
    allowed_http_hook_urls: Iterable[str]
    skill_overrides: Mapping[str, str]
    model: str | None
    read_held: bool
    cache: bool


def _format_order(value: Any, key: str) -> tuple[Format, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{key} must be a list of plugin formats")
    order = tuple(value)
    unknown = [f for f in order if f not in FORMATS]
    if unknown:
        raise TypeError(f"unknown plugin format(s) {unknown}; use {', '.join(FORMATS)}")
    return cast("tuple[Format, ...]", order)


def host_overrides(host: Host) -> LoadOverrides:
    """The `load()` options `host`'s profile sets; options given to `load()` win."""
    return LoadOverrides(
        instructions=_own_rule(host),
        deprecated_skill_fields=_own_deprecated(host),
        command_naming=host.command_naming,
        plugin_skill_names=host.plugin_skill_names,
        plugin_skill_rule=host.plugin_skill_rule,
        strict_plugins=host.strict_plugins,
        ambiguous_plugins=host.ambiguous_plugins,
        plugin_format_order=host.plugin_formats,
        plugin_formats=host.plugin_formats,
        untrusted=host.untrusted,
        trust_list=host.trust_list,
        max_skill_name=host.limits.name,
        hook_files=host.hook_files,
        claude_settings_hooks=host.claude_settings_hooks,
        include_workspace_plugin=host.include_workspace_plugin,
        executable=host.executable,
        claude_installed_plugins=host.claude_installed_plugins,
        plugin_parts=host.carries or None,
        host_state=host.state,
        mcp_files=host.mcp_files,
        mcp_off=host.mcp_off,
        untrusted_servers=host.untrusted_servers,
        host_settings=host.settings,
        plugin_skill_clash=host.plugin_skill_clash,
        skill_names=host.names,
    )


def _own_rule(host: Host) -> InstructionMode | InstructionRule | None:
    """The profile's instruction rule: its word, unless it holds a rule of its own."""
    own = host.instruction_rule
    if own is None or host.instructions is None or own == instruction_rule(host.instructions):
        return host.instructions
    return own


def _own_deprecated(host: Host) -> tuple[str, ...] | None:
    """The profile's deprecated skill fields, when they are not its client's."""
    own = host.skill_metadata.deprecated
    return None if own == client_profile(host.client).skill_metadata.deprecated else own

"""How `satchel port` writes a plugin for a host: `PortSpec`, one value in the host's
definition (`Host.port`), with how that host spells MCP servers (`McpDialect`) and
hooks (`PortHooks`) in the manifest or files it reads.

Which component kinds the host keeps of a plugin of the written format is not here: it
is `Host.carries`, the table `compat` and the loader read too, so what `port` writes
for a host is what `compat` says that host keeps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType

from satchel.core._model import model
from satchel.hosts._vocabulary import Format

__all__ = [
    "AGENT_PLUGINS_MCP",
    "AGENT_PLUGINS_NAMES",
    "HTTP_REMOTE",
    "McpDialect",
    "PluginNameRule",
    "PortHooks",
    "PortSpec",
]

# transport -> (the ``type`` written, None: none; the key of the URL)
HTTP_REMOTE: Mapping[str, tuple[str | None, str]] = MappingProxyType(
    {"streamable-http": ("http", "url"), "sse": ("sse", "url")}
)


@model
class McpDialect:
    """How a host's plugin spells an MCP server. `closed`: only the fields satchel
    knows are written (the others left out and reported); `stdio_type`: the ``type``
    a stdio server carries (None: none); `remote`: per transport, the ``type`` written
    (None: none) and the key of its URL; `relative`: a plugin file stays ``./x`` in
    ``command`` and ``cwd`` names a plugin folder as ``./x`` (another ``cwd`` is left
    out); `refused`: the transports the host refuses (the server is dropped);
    `rooted`: a plugin file as a stdio command (``./x``) is written below the root
    placeholder, when the target has one (False: as written); `starts_in_project`:
    the host sets no plugin-root variable for a server and starts it in the session's
    folder, reading a relative ``cwd`` below the plugin's folder, so a server naming
    plugin files (``./x``, ``${PLUGIN_ROOT}/x``) is written with ``./x`` and
    ``cwd: "./"`` (Codex 0.171.0, observed: tests/port/test_hooks_in_hosts.py);
    `ignores_cwd`: the host starts a plugin's server in the session's folder whatever
    its ``cwd`` says, so a server started in the plugin's folder is written with its
    ``./x`` arguments below the root placeholder and no ``cwd``, and another ``cwd``
    is left out (Claude Code 2.1.332, observed: tests/port/test_hooks_in_hosts.py)."""

    closed: bool = False
    stdio_type: str | None = None
    remote: Mapping[str, tuple[str | None, str]] = field(default_factory=lambda: HTTP_REMOTE)
    relative: bool = False
    refused: tuple[str, ...] = ()
    rooted: bool = True
    starts_in_project: bool = False
    ignores_cwd: bool = False


@model
class PortHooks:
    """How a host's plugin spells a hook. `full`: Claude Code's handler, with the exec
    form (``args``), ``if`` and its other fields (elsewhere a hook needing them is not
    written); `events`: satchel's event -> the host's name for it (None: the hook's
    event in Claude Code's spelling, kept when the host fires it); `tools`: Claude
    Code's tool names -> the host's name for the same tool, for every tool a matcher
    of the host's can name (empty: not known, a matcher is kept as written; a host's
    name several of Claude Code's stand for is read back as all of them);
    `tool_aliases`: the host's other names for tools, each -> Claude Code's names for
    it (read, never written); `mcp_tool`:
    how a matcher names an MCP server's tool, a template of ``{server}`` and ``{tool}``
    (None: not known); `plugin_mcp_tool`: how it names the tool of a server the
    plugin itself declares, when that differs, a template of ``{plugin}``,
    ``{server}`` and ``{tool}`` (Claude Code's ``mcp__plugin_{plugin}_{server}__{tool}``;
    None: as `mcp_tool`); `answers`: the answers by which a hook refuses a tool call
    that the host reads (``exit-2``: exit 2, the reason on stderr; ``decision``:
    ``{"decision": "block", "reason": ...}``; ``permission-decision``: Claude Code's
    ``hookSpecificOutput.permissionDecision: "deny"``) [None: not known, the host
    is not run here];
    `handlers`: the handler types the host runs (``command``,
    ``http``, ``prompt``, ``agent``, ``mcp_tool``); `milliseconds`: timeouts are written
    in milliseconds; `description`: the handler keeps its ``description``;
    `reads_in_place`: the plugin format whose ``hooks/hooks.json`` the host reads as
    its own hooks file, where it is (a hook there whose event the host fires as
    written needs nothing); `adds_keys`: when that file is one of the source's own,
    port adds this host's event keys to it, keeping every key and value the source
    wrote, because the source's host reads the file too and ignores event keys it does
    not fire (Claude Code 2.1.332, observed: tests/port/test_hooks_shared_file.py),
    instead of leaving the hooks out; `globs`: a matcher is Mistral Vibe's, a
    case-insensitive shell glob or ``re:`` and a regex matched whole (else Claude
    Code's); `timeouts`: the range of seconds a hook's timeout may take
    (a hook outside it is not written) [None: any]."""

    full: bool = False
    events: Mapping[str, str] | None = None
    tools: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tool_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    mcp_tool: str | None = None
    plugin_mcp_tool: str | None = None
    answers: tuple[str, ...] | None = None
    handlers: tuple[str, ...] = ("command",)
    milliseconds: bool = False
    description: bool = False
    reads_in_place: Format | None = None
    adds_keys: bool = False
    globs: bool = False
    timeouts: tuple[float, float] | None = None


@model
class PluginNameRule:
    """The names the host gives a plugin: `pattern` (matched whole), `says` what it
    allows (for the message), and `namespaces`: the TypeScript namespace derived from
    the name may not be a reserved one (Agent Plugins 1.0)."""

    pattern: re.Pattern[str]
    says: str
    namespaces: bool = False


@model
class PortSpec:
    """What `satchel port --to <name>` writes: `name` (``--to``) and `title`; the
    `manifest` (plugin-relative) in `format`; the spellings of ``${PLUGIN_ROOT}`` and
    ``${PLUGIN_DATA}`` in its MCP entries and hook commands (None: kept as written;
    `hook_root`: the root in hook commands only, when it differs); `root_skills`:
    a skill at the plugin root can be listed (``./``); `extension`: the host's own
    extension of the format that carries its hooks (Mistral Vibe's
    ``ai.mistral.vibe``; None: the format's own hooks, if any); `names`: the host's
    rule for a plugin's name (None: any); `mcp` and `hooks` its dialects; `standard`:
    the target is a format's standard rather than the host's own reading of it (Agent
    Plugins 1.0, satchel's own), listed after the hosts; `version`: the version
    written when the source has none, for a host that refuses a manifest without one
    (Gemini CLI) [None: none written]."""

    name: str
    title: str
    manifest: str
    format: Format
    root: str | None = None
    data: str | None = None
    hook_root: str | None = None
    root_skills: bool = True
    extension: str | None = None
    names: PluginNameRule | None = None
    mcp: McpDialect = field(default_factory=McpDialect)
    hooks: PortHooks = field(default_factory=PortHooks)
    standard: bool = False
    version: str | None = None


# Agent Plugins 1.0 names a plugin with a-z, 0-9, '-' and '.' (64 at most)
AGENT_PLUGINS_NAMES = PluginNameRule(
    re.compile(r"(?=.{1,64}\Z)(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\Z"),
    "with a-z, 0-9, '-' and '.', alphanumeric at both ends, no '--' or '..'",
    namespaces=True,
)
AGENT_PLUGINS_MCP = McpDialect(
    closed=True,
    stdio_type="stdio",
    rooted=False,
    remote=MappingProxyType({"streamable-http": ("streamable-http", "url"), "sse": ("sse", "url")}),
)

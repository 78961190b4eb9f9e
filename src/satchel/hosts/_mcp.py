"""Where each host keeps its MCP servers: one small table per host (`McpFile` rows,
strongest first), which its profile names (`satchel.hosts.Host.mcp_files`), and
`SATCHEL_MCP`, what a load under satchel's own rules reads: a project's ``.mcp.json``
and the user's files of every host in `EVERY_HOST_MCP`. A host whose servers satchel
reads adds its table there. Kept apart from the profiles so that a load without a
profile reads them without importing the profiles.
"""

from __future__ import annotations

from typing import Literal

from satchel.core._model import model

__all__ = [
    "McpApproval",
    "McpFile",
    "McpLists",
    "McpOff",
    "McpPolicy",
    "McpShape",
    "CLAUDE_MCP",
    "CLAUDE_MCP_APPROVAL",
    "CLAUDE_MCP_OFF",
    "CODEX_MCP",
    "EVERY_HOST_MCP",
    "EVERY_HOST_MCP_OFF",
    "GEMINI_MCP",
    "GEMINI_MCP_POLICY",
    "MCP_JSON",
    "SATCHEL_MCP",
]

McpShape = Literal["standard", "httpUrl"]
Owner = Literal["user", "project", "managed"]


@model
class McpFile:
    """One file a host keeps MCP servers in (see the module docstring): `path` a
    template, `keys` the way to the server map in it, `shape` how an entry reads,
    `owner` whose file it is (``project``: read only in a trusted project;
    ``managed``: an organisation's, read as the user's), `label`
    the host's word for that scope (``local``, ``managed`` ...), `exclusive` whether
    its presence replaces every other file of the table, `bare` whether a file without
    those keys is itself the server map (satchel reads a project's ``.mcp.json`` so)."""

    path: str
    keys: tuple[str, ...] = ("mcpServers",)
    shape: McpShape = "standard"
    owner: Owner = "user"
    label: str = "user"
    exclusive: bool = False
    bare: bool = False


@model
class McpOff:
    """A list of server names a host turns off in the project: a JSON file (`path`, a
    template as `McpFile`'s) and the `keys` to the list (Claude Code:
    ``projects["<project root>"].disabledMcpServers`` in ``~/.claude.json``)."""

    path: str
    keys: tuple[str, ...]


@model
class McpApproval:
    """How a host approves the servers of a project's own files (its ``project``
    `McpFile` rows) before it starts them: only in a project whose `trust` flag (a
    JSON file, a template as `McpFile`'s, and the keys to a boolean) is true, and only
    a server its `settings` files (templates, JSON) approve: `every` true approves
    all, a name in a `named` list approves that one, a name in a `refused` list
    refuses it (it is not started, nor offered)."""

    settings: tuple[str, ...]
    every: str
    named: str
    refused: str
    trust: tuple[str, tuple[str, ...]]


McpLists = Literal["intersection", "union"]


@model
class McpPolicy:
    """The lists in a host's settings that block servers by name, in each JSON file of
    `files` (templates as `McpFile`'s): `allowed` (once any file sets it, a server not
    allowed is blocked) and `excluded` (a server any file's list names is blocked).
    `allowed_lists`: how several files' allowed lists combine: ``intersection`` a
    server must be named in each, ``union`` in one."""

    files: tuple[str, ...]
    allowed: tuple[str, ...]
    excluded: tuple[str, ...]
    allowed_lists: McpLists = "union"


MCP_JSON = McpFile("{project}/.mcp.json", owner="project", label="project", bare=True)
"""A project's ``.mcp.json``: read by every profile that names no MCP files of its own."""

# Where each host keeps its MCP servers, strongest first (observed with `claude mcp list`
# and `claude mcp get` 2.1.332 and 2.1.337, `gemini mcp list` 0.61.0). Claude Code: a
# managed-mcp.json takes the place of every other file; else local (the project's
# entry in ~/.claude.json, keyed by the project root), then the project's .mcp.json (in
# every folder from cwd up to the root), then the user's.
CLAUDE_MCP = (
    # an organisation's file: not the user's, never read by satchel's own profile
    McpFile("{managed}/managed-mcp.json", owner="managed", label="managed", exclusive=True),
    McpFile("{home}/.claude.json", keys=("projects", "{project}", "mcpServers"), label="local"),
    MCP_JSON,
    McpFile("{home}/.claude.json", label="user"),
)
# Gemini CLI: the workspace's settings.json over the user's, server by server; the
# workspace's only in a trusted folder.
GEMINI_MCP = (
    McpFile("{cwd}/.gemini/settings.json", shape="httpUrl", owner="project", label="workspace"),
    McpFile("{home}/.gemini/settings.json", shape="httpUrl", label="user"),
)
# Gemini CLI 0.61.0 (observed with `gemini mcp list`: "⛔ <name>: ... - Blocked"): a server
# named in mcp.excluded, or not named in an mcp.allowed list, of its settings is not started.
# It does not merge these lists as other settings (a workspace's list does not replace the
# user's): the excluded lists of every file count, and a server must be in each allowed list
# that is set (its getConsolidatedExcludedMcpServers / getConsolidatedAllowedMcpServers;
# observed: a workspace's "excluded": [] leaves the user's exclusion in force, and a
# workspace's "allowed" list blocks a server only the user's allows).
GEMINI_MCP_POLICY = McpPolicy(
    files=("{home}/.gemini/settings.json", "{cwd}/.gemini/settings.json"),
    allowed=("mcp", "allowed"),
    excluded=("mcp", "excluded"),
    allowed_lists="intersection",
)
# Codex: the user's ~/.codex/config.toml `[mcp_servers.<name>]` (its profile reads
# Codex's config files through its own state, trusted projects' too: `Host.state`);
# satchel's own profile lists the user's.
CODEX_MCP = (McpFile("{home}/.codex/config.toml", keys=("mcp_servers",), label="user"),)
# The hosts whose user files satchel's own profile reads, in this order (a host whose
# servers satchel reads adds its table here).
EVERY_HOST_MCP = (CLAUDE_MCP, GEMINI_MCP, CODEX_MCP)
SATCHEL_MCP: tuple[McpFile, ...] = (
    MCP_JSON,
    *(
        row
        for table in EVERY_HOST_MCP
        for row in table
        if row.owner == "user" and not row.exclusive
    ),
)

# The servers a host turns off in one project (observed: `claude mcp list` shows a
# server named in projects["<project root>"].disabledMcpServers as "Disabled for this
# project"); satchel's own profile honours every host's.
CLAUDE_MCP_OFF = (McpOff("{home}/.claude.json", ("projects", "{project}", "disabledMcpServers")),)
EVERY_HOST_MCP_OFF: tuple[McpOff, ...] = CLAUDE_MCP_OFF

# Claude Code 2.1.332 (observed with `claude mcp list`): a project's .mcp.json server is
# "Pending approval" and not started until the project's trust dialog was accepted
# (hasTrustDialogAccepted in ~/.claude.json) and a settings file approves it
# (enableAllProjectMcpServers, or its name in enabledMcpjsonServers; a name in
# disabledMcpjsonServers is refused and not listed). The same keys kept in the project's
# entry of ~/.claude.json approve nothing.
CLAUDE_MCP_APPROVAL = McpApproval(
    settings=(
        "{home}/.claude/settings.json",
        "{project}/.claude/settings.json",
        "{project}/.claude/settings.local.json",
    ),
    every="enableAllProjectMcpServers",
    named="enabledMcpjsonServers",
    refused="disabledMcpjsonServers",
    trust=("{home}/.claude.json", ("projects", "{project}", "hasTrustDialogAccepted")),
)

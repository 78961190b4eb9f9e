"""Mistral Vibe: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER
from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect, reverse
from satchel.hosts._model import Host
from satchel.hosts._port import (
    AGENT_PLUGINS_MCP,
    AGENT_PLUGINS_NAMES,
    McpDialect,
    PortHooks,
    PortSpec,
)

__all__ = [
    "VIBE",
    "VIBE_EVENTS",
    "VIBE_HOOKS",
    "VIBE_HOOK_EVENTS",
    "VIBE_PORT_EVENTS",
    "VIBE_TOOLS",
]

VIBE_EVENTS = ("pre_tool", "post_tool", "post_agent")

# Vibe's hooks.toml types -> satchel's (post_agent is Claude Code's Stop).
VIBE_HOOK_EVENTS: Mapping[str, str] = MappingProxyType(
    {"pre_tool": "before_tool_use", "post_tool": "after_tool_use", "post_agent": "stop"}
)

# A matcher: `*` or none is everything, `re:<regex>` a case-insensitive full match,
# anything else a case-insensitive shell glob; answers in snake_case.
VIBE_HOOKS = HookDialect(
    format="vibe",
    events=VIBE_HOOK_EVENTS,
    matcher="glob-or-regex",
    answer_fields="snake-case",
    sources=("https://docs.mistral.ai/vibe/plugins",),
)

# Mistral Vibe's tools, by Claude Code's name for the same tool: each builtin's class
# name in snake_case (mistralai/mistral-vibe 2.18.4 vibe/core/tools/base.py get_name,
# vibe/core/tools/builtins/); it has no Glob
VIBE_TOOLS: Mapping[str, str] = MappingProxyType({
    "Agent": "task", "Task": "task", "AskUserQuestion": "ask_user_question", "Bash": "bash",
    "Edit": "edit", "MultiEdit": "edit", "Grep": "grep", "Read": "read", "Skill": "skill",
    "TodoWrite": "todo", "WebFetch": "web_fetch", "WebSearch": "web_search",
    "Write": "write_file",
})  # fmt: skip

# satchel's event -> Mistral Vibe's hooks.toml type
VIBE_PORT_EVENTS: Mapping[str, str] = reverse(VIBE_HOOK_EVENTS)

VIBE = Host(
    name="vibe",
    title="Mistral Vibe",
    sources=(
        "https://docs.mistral.ai/vibe/plugins",
        "https://docs.mistral.ai/vibe/code/cli/hooks",
        "mistralai/mistral-vibe 2.18.4 (tool names, MCP tool names, hook answers)",
        "https://agent-plugins.org/spec/1.0",
        "docs/plugins.md (Vibe's rules as implemented)",
    ),
    skills=(
        *rows(
            PROJECT, (".vibe", "{project}/.vibe/skills"), (".agents", "{project}/.agents/skills")
        ),
        *rows(USER, (".vibe", "{home}/.vibe/skills"), (".agents", "{home}/.agents/skills")),
    ),
    plugins=(
        *rows(PROJECT, (".vibe", "{project}/.vibe/plugins")),
        *rows(USER, (".vibe", "{home}/.vibe/plugins")),
    ),
    plugin_formats=("agent-plugins", "claude", "codex", "cursor", "kimi"),
    ambiguous_plugins="refuse",
    plugin_skill_rule="vibe",
    strict_plugins=True,
    instructions="satchel",
    events=VIBE_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    hooks=VIBE_HOOKS,
    # Vibe's compatibility table: what it adapts of another host's plugin
    carries=MappingProxyType(
        {
            "claude": ("skills", "mcp_servers", "hooks"),
            "codex": ("skills", "mcp_servers"),
            "kimi": ("skills", "mcp_servers", "hooks"),
        }
    ),
    port=PortSpec(
        "vibe",
        "Mistral Vibe",
        "plugin.json",
        "agent-plugins",
        root="${PLUGIN_ROOT}",
        data="${PLUGIN_DATA}",
        extension="ai.mistral.vibe",
        names=AGENT_PLUGINS_NAMES,
        mcp=McpDialect(
            closed=AGENT_PLUGINS_MCP.closed,
            stdio_type=AGENT_PLUGINS_MCP.stdio_type,
            remote=AGENT_PLUGINS_MCP.remote,
            refused=("sse",),  # Mistral Vibe refuses the sse transport
            rooted=False,
        ),
        hooks=PortHooks(
            events=VIBE_PORT_EVENTS,
            tools=VIBE_TOOLS,
            # an MCP tool is <server>_<tool> (vibe/core/tools/mcp/tools.py
            # published_name, the server's name as its alias, 2.18.4)
            mcp_tool="{server}_{tool}",
            # a hook refuses a call by {"decision": "deny", "reason": ...} on stdout
            # with exit 0; a non-zero exit is the hook failing, which refuses only when
            # the hook is `strict` (vibe/core/hooks/manager.py, 2.18.4)
            answers=("decision-deny",),
            globs=True,
        ),
    ),
    found_by=("{home}/.vibe", "{project}/.vibe"),
)

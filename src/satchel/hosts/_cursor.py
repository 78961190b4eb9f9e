"""Cursor: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER
from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect
from satchel.hosts._instructions import InstructionRule, InstructionSource, RuleFiles
from satchel.hosts._model import Host
from satchel.hosts._port import PortHooks, PortSpec

__all__ = [
    "CURSOR",
    "CURSOR_EVENTS",
    "CURSOR_HOOKS",
    "CURSOR_HOOK_EVENTS",
    "CURSOR_INSTRUCTIONS",
    "CURSOR_ONLY",
    "CURSOR_TOOLS",
]

CURSOR_EVENTS = (
    "sessionStart", "sessionEnd", "preToolUse", "postToolUse", "postToolUseFailure",
    "subagentStart", "subagentStop", "beforeShellExecution", "afterShellExecution",
    "beforeMCPExecution", "afterMCPExecution", "beforeReadFile", "afterFileEdit",
    "beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought",
)  # fmt: skip

# .cursorrules at the root (legacy), then every folder's .cursor/rules (.mdc; a plain .md
# there is ignored), then every folder's AGENTS.md, root down to cwd; user rules live in
# Cursor's settings, not in files. The order between the three is not documented
CURSOR_INSTRUCTIONS = InstructionRule(
    mode="cursor",
    host="Cursor",
    source="cursor.com/docs/context/rules",
    project=(InstructionSource(".cursorrules", "legacy", root_only=True),),
    project_passes=(
        (InstructionSource(".cursor/rules", "rule", RuleFiles(".mdc", "always-apply")),),
        (InstructionSource("AGENTS.md", "agents"),),
    ),
)

# Cursor's camelCase events -> satchel's (https://cursor.com/docs/agent/hooks, read from
# the documentation, not from running Cursor). The shell, MCP, read and edit events are
# tool events of one kind of tool (`CURSOR_TOOLS`); the first name of an event is the
# one that carries it in general (``preToolUse`` for every tool).
CURSOR_HOOK_EVENTS: Mapping[str, str] = MappingProxyType({
    "preToolUse": "before_tool_use", "beforeShellExecution": "before_tool_use",
    "beforeMCPExecution": "before_tool_use", "beforeReadFile": "before_tool_use",
    "postToolUse": "after_tool_use", "afterShellExecution": "after_tool_use",
    "afterMCPExecution": "after_tool_use", "afterFileEdit": "after_tool_use",
    "postToolUseFailure": "after_tool_failure", "beforeSubmitPrompt": "user_prompt_submit",
    "sessionStart": "session_start", "sessionEnd": "session_end", "stop": "stop",
    "subagentStop": "subagent_stop", "preCompact": "pre_compact",
})  # fmt: skip
# The tools a Cursor event of one kind of tool stands for, as a matcher on satchel's
# (Claude Code's) tool names.
CURSOR_TOOLS: Mapping[str, str] = MappingProxyType(
    {
        "beforeShellExecution": "Bash",
        "afterShellExecution": "Bash",
        "beforeMCPExecution": "mcp__.*",
        "afterMCPExecution": "mcp__.*",
        "beforeReadFile": "Read",
        "afterFileEdit": "Edit|MultiEdit|Write",
    }
)
# Cursor's events with no satchel event: kept by name.
CURSOR_ONLY = ("subagentStart", "afterAgentResponse", "afterAgentThought",
               "beforeTabFileRead", "afterTabFileEdit")  # fmt: skip

# preToolUse's matcher: Cursor's tool types, by Claude Code's name (Cursor's hooks
# reference; an MCP tool is ``MCP:<tool>``, without its server). Not run here.
CURSOR_PORT_TOOLS: Mapping[str, str] = MappingProxyType(
    {"Bash": "Shell", "Read": "Read", "Write": "Write", "Grep": "Grep", "WebFetch": "WebFetch",
     "Task": "Task", "Agent": "Task"}
)  # fmt: skip

CURSOR_HOOKS = HookDialect(
    format="cursor",
    events=CURSOR_HOOK_EVENTS,
    kept=CURSOR_ONLY,
    tools=CURSOR_TOOLS,
    named=False,
    tells_declared=True,  # several of its events stand for one of satchel's
    answer_fields="permission",
    sources=("https://cursor.com/docs/agent/hooks",),
)

CURSOR = Host(
    name="cursor",
    title="Cursor",
    sources=(
        "https://cursor.com/docs/context/skills",
        "https://cursor.com/docs/context/rules",
        "https://cursor.com/docs/reference/plugins",
        "https://cursor.com/docs/agent/hooks",
    ),
    skills=(
        *rows(
            PROJECT,
            (".agents", "{project}/.agents/skills"),
            (".cursor", "{project}/.cursor/skills"),
            (".claude", "{project}/.claude/skills"),
            (".codex", "{project}/.codex/skills"),
        ),
        *rows(
            USER,
            (".cursor", "{home}/.cursor/skills"),
            (".claude", "{home}/.claude/skills"),
            (".codex", "{home}/.codex/skills"),
        ),
    ),
    commands=(
        *rows(PROJECT, (".cursor", "{project}/.cursor/commands")),
        *rows(USER, (".cursor", "{home}/.cursor/commands")),
    ),
    agents=(
        *rows(
            PROJECT,
            (".cursor", "{project}/.cursor/agents"),
            (".claude", "{project}/.claude/agents"),
        ),
        *rows(USER, (".cursor", "{home}/.cursor/agents"), (".claude", "{home}/.claude/agents")),
    ),
    plugin_formats=("agent-plugins", "cursor"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    instructions="cursor",
    events=CURSOR_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    instruction_rule=CURSOR_INSTRUCTIONS,
    hooks=CURSOR_HOOKS,
    # of an Agent Plugins 1.0 plugin Cursor reads skills and MCP servers (not Mistral
    # Vibe's extension)
    carries=MappingProxyType({"agent-plugins": ("skills", "mcp_servers")}),
    port=PortSpec(
        "cursor",
        "Cursor",
        ".cursor-plugin/plugin.json",
        "cursor",
        hooks=PortHooks(
            events=CURSOR_HOOKS.spelling(),
            tools=CURSOR_PORT_TOOLS,
            mcp_tool="MCP:{tool}",
            handlers=("command", "prompt"),
        ),
    ),
    found_by=("{home}/.cursor", "{project}/.cursor", "{project}/.cursorrules"),
)

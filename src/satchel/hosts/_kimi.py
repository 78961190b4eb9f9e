"""Kimi Code: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER
from satchel.hosts._claude_code import CLAUDE_HOOK_EVENTS
from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect, HookVariables
from satchel.hosts._model import Host
from satchel.hosts._port import McpDialect, PluginNameRule, PortHooks, PortSpec

__all__ = [
    "KIMI",
    "KIMI_EVENTS",
    "KIMI_FIELDS",
    "KIMI_HOOKS",
    "KIMI_HOOK_EVENTS",
    "KIMI_NAME",
    "KIMI_TOOLS",
]

KIMI_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptQueued",
    "TurnStarted", "Stop", "StopFailure", "PermissionRequest", "PermissionResult",
    "SessionStart", "SessionEnd", "SessionHeartbeat", "SubagentStart", "SubagentStop",
    "TaskStarted", "Interrupt", "PreCompact", "PostCompact", "Notification",
)  # fmt: skip

# Kimi's hook events -> satchel's: Claude Code's names, and a few of its own
# (MoonshotAI/kimi-code docs/en/customization/hooks.md).
KIMI_HOOK_EVENTS: Mapping[str, str] = MappingProxyType({
    **{name: CLAUDE_HOOK_EVENTS[name] for name in KIMI_EVENTS if name in CLAUDE_HOOK_EVENTS},
    "UserPromptQueued": "user_prompt_queued", "TurnStarted": "turn_started",
    "PermissionResult": "permission_result", "SessionHeartbeat": "session_heartbeat",
    "TaskStarted": "task_started",
})  # fmt: skip

KIMI_HOOKS = HookDialect(
    format="kimi",
    events=KIMI_HOOK_EVENTS,
    also=CLAUDE_HOOK_EVENTS,  # a Kimi file may name any of Claude Code's events
    variables=HookVariables(plugin_root=("KIMI_PLUGIN_ROOT",)),
    sources=("MoonshotAI/kimi-code docs/en/customization/hooks.md",),
)

# Kimi Code's tools, by Claude Code's name for the same tool: its own names are Claude
# Code's, but for FetchURL (MoonshotAI/kimi-code packages/agent-core-v2/src/agent/tools:
# each tool's `name`, which a hook's matcher is tested against); one Edit tool
KIMI_TOOLS: Mapping[str, str] = MappingProxyType({
    "Agent": "Agent", "Task": "Agent", "AskUserQuestion": "AskUserQuestion", "Bash": "Bash",
    "Edit": "Edit", "MultiEdit": "Edit", "Glob": "Glob", "Grep": "Grep", "Read": "Read",
    "Skill": "Skill", "WebFetch": "FetchURL", "WebSearch": "WebSearch", "Write": "Write",
})  # fmt: skip

KIMI_FIELDS = (
    "name", "description", "type", "whenToUse", "when-to-use", "when_to_use",
    "disableModelInvocation", "disable-model-invocation", "disable_model_invocation",
    "arguments",
)  # fmt: skip

# a Kimi Code plugin's name (its plugins.md)
KIMI_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\Z")

KIMI = Host(
    name="kimi",
    title="Kimi Code",
    sources=(
        "MoonshotAI/kimi-code docs/en/customization/skills.md",
        "MoonshotAI/kimi-code packages/agent-core-v2 (tool names, MCP tool names, hook answers)",
        "MoonshotAI/kimi-code docs/en/customization/plugins.md",
        "MoonshotAI/kimi-code docs/en/customization/hooks.md",
    ),
    # Project > User; $KIMI_CODE_HOME is ~/.kimi-code
    skills=(
        *rows(
            PROJECT,
            (".kimi-code", "{project}/.kimi-code/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *rows(
            USER, (".kimi-code", "{home}/.kimi-code/skills"), (".agents", "{home}/.agents/skills")
        ),
    ),
    plugins=rows(USER, (".kimi-code", "{home}/.kimi-code/plugins/managed")),
    plugin_formats=("kimi",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    argument_numbering=0,
    instructions="satchel",
    skill_fields=KIMI_FIELDS,
    events=KIMI_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    hooks=KIMI_HOOKS,
    port=PortSpec(
        "kimi",
        "Kimi Code",
        "kimi.plugin.json",
        "kimi",
        hook_root="${KIMI_PLUGIN_ROOT}",  # in a hook's environment (its hooks.md)
        names=PluginNameRule(KIMI_NAME, "[a-z0-9][a-z0-9_-]{0,63}"),
        mcp=McpDialect(relative=True),  # `cwd` must start with ./ (its plugins.md)
        hooks=PortHooks(
            tools=KIMI_TOOLS,
            # mcpCore/tool-naming.ts: mcp__<server>__<tool>, each part's characters
            # outside [A-Za-z0-9_-] as _; a plugin's server is plugin-<plugin>:<server>
            # (app/plugin/manager.ts pluginMcpRuntimeName)
            mcp_tool="mcp__{server}__{tool}",
            plugin_mcp_tool="mcp__plugin-{plugin}_{server}__{tool}",
            # exit 2, or hookSpecificOutput.permissionDecision "deny" (its hooks.md;
            # externalHooks/internal/runHook.ts reads no top-level decision)
            answers=("exit-2", "permission-decision"),
            timeouts=(1.0, 600.0),  # 1-600 s (its hooks.md)
        ),
    ),
    found_by=("{home}/.kimi-code", "{project}/.kimi-code"),
)

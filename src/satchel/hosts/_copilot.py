"""GitHub Copilot: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect
from satchel.hosts._model import Host
from satchel.layout import PROJECT, USER

__all__ = ["COPILOT", "COPILOT_HOOKS", "COPILOT_HOOK_EVENTS"]

# GitHub Copilot's hook events -> satchel's (camelCase;
# https://docs.github.com/en/copilot/reference/hooks-configuration, read from the
# documentation, not run). satchel reads no Copilot hook file.
COPILOT_HOOK_EVENTS: Mapping[str, str] = MappingProxyType({
    "preToolUse": "before_tool_use", "postToolUse": "after_tool_use",
    "userPromptSubmitted": "user_prompt_submit", "sessionStart": "session_start",
    "sessionEnd": "session_end", "agentStop": "stop", "subagentStop": "subagent_stop",
})  # fmt: skip

COPILOT_HOOKS = HookDialect(
    events=COPILOT_HOOK_EVENTS,
    named=False,
    sources=("https://docs.github.com/en/copilot/reference/hooks-configuration",),
)

COPILOT = Host(
    name="copilot",
    title="GitHub Copilot",
    sources=(
        "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/add-skills",
        "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions",
        "https://code.visualstudio.com/docs/agent-customization/agent-skills",
    ),
    skills=(
        *rows(
            PROJECT,
            (".github", "{project}/.github/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *rows(USER, (".copilot", "{home}/.copilot/skills"), (".agents", "{home}/.agents/skills")),
    ),
    plugin_formats=("claude", "agent-plugins"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    instructions="copilot",
    hook_files=False,
    include_workspace_plugin=False,
    hooks=COPILOT_HOOKS,
)

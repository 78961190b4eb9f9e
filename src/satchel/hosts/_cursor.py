"""Cursor: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import rows
from satchel.hosts._instructions import InstructionRule, InstructionSource, RuleFiles
from satchel.hosts._model import Host
from satchel.layout import PROJECT, USER

__all__ = ["CURSOR", "CURSOR_EVENTS", "CURSOR_INSTRUCTIONS"]

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
)

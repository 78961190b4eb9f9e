"""Claude Code: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import SPEC_FIELDS, rows
from satchel.hosts._instructions import (
    InstructionRule,
    InstructionSource,
    InstructionText,
    RuleFiles,
)
from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CLAUDE_CODE_MODELS
from satchel.layout import PROJECT, USER

__all__ = [
    "CLAUDE_CODE",
    "CLAUDE_CODE_INSTRUCTIONS",
    "CLAUDE_EVENTS",
    "CLAUDE_FIELDS",
    "CLAUDE_MEMORY_HEAD",
]

# Claude Code 2.1.337: the hook events of its settings schema (35). The profile speaks
# for the newest Claude Code; 2.1.332 has the same but `Interrupt` (its 34), and its
# validator warns that a hook on `Interrupt` is an unknown event.
CLAUDE_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "Interrupt", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PermissionRequest", "PermissionDenied", "Setup", "TeammateIdle", "TaskCreated",
    "TaskCompleted", "Elicitation", "ElicitationResult", "ConfigChange", "WorktreeCreate",
    "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded",
    "MessageDisplay", "PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand",
)  # fmt: skip

CLAUDE_FIELDS = (
    *SPEC_FIELDS, "when_to_use", "argument-hint", "arguments", "disable-model-invocation",
    "user-invocable", "disallowed-tools", "model", "effort", "context", "agent", "background",
    "hooks", "paths", "shell", "version",
)  # fmt: skip

CLAUDE_MEMORY_HEAD = (
    "Codebase and user instructions are shown below. Be sure to adhere to these "
    "instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you "
    "MUST follow them exactly as written."
)
# Claude Code 2.1.332 (its memory loader): CLAUDE.md and the rules, never AGENTS.md; an
# @path line imports a file; a rule's `paths:` makes it conditional. 2.1.332 and 2.1.337
# send the files in one <system-reminder> block, each labelled
CLAUDE_CODE_INSTRUCTIONS = InstructionRule(
    mode="claude-code",
    host="Claude Code",
    source="Claude Code 2.1.332 (its memory loader); code.claude.com/docs/en/memory",
    user_folder="~/.claude",
    user=(
        InstructionSource("CLAUDE.md", "claude", imports="at-files"),
        InstructionSource(
            "rules", "rule", RuleFiles(".md", "paths", base="cwd"), imports="at-files"
        ),
    ),
    project=(
        InstructionSource("CLAUDE.md", "claude", imports="at-files"),
        InstructionSource(".claude/CLAUDE.md", "claude", imports="at-files"),
        InstructionSource(".claude/rules", "rule", RuleFiles(".md", "paths"), imports="at-files"),
        InstructionSource("CLAUDE.local.md", "local", imports="at-files"),
    ),
    text=InstructionText(
        file="Contents of {path} ({label}):\n\n{text}",
        labels=(
            ("user", "user's private global instructions for all projects"),
            ("local", "user's private project instructions, not checked in"),
            ("project", "project instructions, checked into the codebase"),
        ),
        block=CLAUDE_MEMORY_HEAD + "\n\n{files}",
    ),
)

CLAUDE_CODE = Host(
    name="claude-code",
    title="Claude Code",
    sources=(
        "https://code.claude.com/docs/en/skills",
        "https://code.claude.com/docs/en/slash-commands",
        "https://code.claude.com/docs/en/sub-agents",
        "https://code.claude.com/docs/en/plugins-reference",
        "https://code.claude.com/docs/en/memory",
        "https://code.claude.com/docs/en/hooks",
        "claude plugin validate --json (2.1.332 and 2.1.337, observed)",
    ),
    # enterprise > personal > project: the user's skills win a clash with the project's
    skills=(
        *rows(USER, (".claude", "{home}/.claude/skills")),
        *rows(PROJECT, (".claude", "{project}/.claude/skills")),
    ),
    # a project command hides the user's of the same name
    commands=(
        *rows(PROJECT, (".claude", "{project}/.claude/commands")),
        *rows(USER, (".claude", "{home}/.claude/commands")),
    ),
    agents=(
        *rows(PROJECT, (".claude", "{project}/.claude/agents")),
        *rows(USER, (".claude", "{home}/.claude/agents")),
    ),
    ancestors=True,  # project skills from the working directory up to the repository root
    plugin_formats=("claude",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    command_naming="path",
    argument_numbering=0,
    instructions="claude-code",
    skill_fields=CLAUDE_FIELDS,
    index=Index(fraction=0.01, description=1536, overflow="least-used", style="claude-code"),
    models=CLAUDE_CODE_MODELS,
    limits=Limits(description=1536),
    events=CLAUDE_EVENTS,
    hook_files=False,
    claude_settings_hooks=True,
    include_workspace_plugin=False,
    claude_installed_plugins=True,  # ~/.claude/plugins, enabled by settings (observed)
    instruction_rule=CLAUDE_CODE_INSTRUCTIONS,
)

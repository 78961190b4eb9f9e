"""Claude Code: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER
from satchel.foundations.policy._export import to_claude_code
from satchel.hosts._common import SPEC_FIELDS, rows
from satchel.hosts._hooks import HookDialect, HookSwitch, HookVariables
from satchel.hosts._installs import Installs
from satchel.hosts._instructions import (
    InstructionRule,
    InstructionSource,
    InstructionText,
    RuleFiles,
)
from satchel.hosts._mcp import CLAUDE_MCP, CLAUDE_MCP_APPROVAL, CLAUDE_MCP_OFF
from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CLAUDE_CODE_MODELS
from satchel.hosts._port import McpDialect, PortHooks, PortSpec
from satchel.hosts._rules import TrustSource

__all__ = [
    "CLAUDE_BARE_SOURCE",
    "CLAUDE_CODE",
    "CLAUDE_CODE_HOOKS",
    "CLAUDE_CODE_INSTRUCTIONS",
    "CLAUDE_EVENTS",
    "CLAUDE_FIELDS",
    "CLAUDE_HOOK_EVENTS",
    "CLAUDE_IN_PLACE_SOURCES",
    "CLAUDE_MARKETPLACES",
    "CLAUDE_MARKETPLACE_MANIFEST",
    "CLAUDE_MEMORY_HEAD",
    "INVOKED_BY",
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

# Claude Code's hook event names -> satchel's (the 2.1.332 binary's event schemas, and
# 2.1.337's Interrupt; satchel.hooks._events has each event's shape). Codex's events are
# a subset, written in the same files.
CLAUDE_HOOK_EVENTS: Mapping[str, str] = MappingProxyType({
    "PreToolUse": "before_tool_use", "PostToolUse": "after_tool_use",
    "PostToolUseFailure": "after_tool_failure", "PostToolBatch": "after_tool_batch",
    "Notification": "notification", "UserPromptSubmit": "user_prompt_submit",
    "UserPromptExpansion": "user_prompt_expansion", "SessionStart": "session_start",
    "PreSkillShellCommand": "pre_skill_shell_command", "SessionEnd": "session_end",
    "Stop": "stop", "StopFailure": "stop_failure", "Interrupt": "interrupt",
    "SubagentStart": "subagent_start", "SubagentStop": "subagent_stop",
    "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "PreModelSwitch": "pre_model_switch", "PostModelSwitch": "post_model_switch",
    "PermissionRequest": "permission_request", "PermissionDenied": "permission_denied",
    "Setup": "setup", "TeammateIdle": "teammate_idle", "TaskCreated": "task_created",
    "TaskCompleted": "task_completed", "Elicitation": "elicitation",
    "ElicitationResult": "elicitation_result", "ConfigChange": "config_change",
    "WorktreeCreate": "worktree_create", "WorktreeRemove": "worktree_remove",
    "InstructionsLoaded": "instructions_loaded", "CwdChanged": "cwd_changed",
    "FileChanged": "file_changed", "DirectoryAdded": "directory_added",
    "MessageDisplay": "message_display",
})  # fmt: skip

# PreSkillShellCommand's ``invoked_by``: how the skill was activated -> Claude Code's
# word (``user``: typed or sent by the host; ``claude``: the model's tool call).
INVOKED_BY: Mapping[str, str] = MappingProxyType(
    {"explicit": "user", "tool": "claude", "resume": "other"}
)

_MODE_EFFORT = ("permission_mode", "effort")
# Claude Code 2.1.332 / 2.1.337: which events add permission_mode and effort to the base
# input. Observed in print mode for the events it fires; read from the binary's calls
# of its base-input builder (the permission mode it is given, and the tool-use context
# that brings the effort) for the others.
_CLAUDE_EXTRAS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "PreToolUse": _MODE_EFFORT,
        "PostToolUse": _MODE_EFFORT,
        "PostToolUseFailure": _MODE_EFFORT,
        "PostToolBatch": _MODE_EFFORT,
        "PermissionRequest": _MODE_EFFORT,
        "PermissionDenied": _MODE_EFFORT,
        "PreSkillShellCommand": _MODE_EFFORT,
        "Stop": _MODE_EFFORT,
        "SubagentStop": _MODE_EFFORT,
        "Interrupt": _MODE_EFFORT,  # 2.1.337
        "StopFailure": ("effort",),
        "UserPromptSubmit": ("permission_mode",),
        "UserPromptExpansion": ("permission_mode",),
        "Elicitation": ("permission_mode",),
        "ElicitationResult": ("permission_mode",),
        "TeammateIdle": ("permission_mode",),
        "TaskCreated": ("permission_mode",),
        "TaskCompleted": ("permission_mode",),
    }
)

# Claude Code 2.1.332 and 2.1.337 (the same dialect; observed by running each with every
# event's hook writing its stdin to a file, tests/hooks/test_claude_hook_loop.py, and
# read from the binaries' base-input builder for the events print mode does not fire):
# the common fields, in this order, are session_id, transcript_path, cwd, prompt_id (a
# uuid per user prompt, absent before the first), permission_mode, agent_id,
# agent_type, effort ({"level": ...}). The transcript is ~/.claude/projects/<cwd, every
# character not a letter or digit made "-">/<session_id>.jsonl.
# Claude Code's tools a hook's matcher names (code.claude.com/docs/en/hooks, "Matcher
# patterns", and the tools reference); an MCP server's tool is mcp__<server>__<tool>
CLAUDE_TOOL_NAMES = ("Agent", "AskUserQuestion", "Bash", "Edit", "Glob", "Grep", "LS",
                     "MultiEdit", "NotebookEdit", "Read", "Skill", "Task", "TodoWrite",
                     "WebFetch", "WebSearch", "Write")  # fmt: skip

CLAUDE_TOOLS_OF: Mapping[str, str] = MappingProxyType({
    "read_file": "Read", "execute_command": "Bash", "edit_file": "Edit",
    "apply_patch": "Edit", "write_file": "Write", "create_directory": "Write",
    "web_fetch": "WebFetch", "web_search": "WebSearch",
})  # fmt: skip
"""satchel's canonical tool names -> Claude Code's, for an agent type written in another
host's format (``mcp``, every MCP tool, has no one name there)."""


def claude_agent_tools(
    file_format: str,
    written: tuple[tuple[str, ...] | None, tuple[str, ...]],
    canonical: tuple[tuple[str, ...] | None, tuple[str, ...]],
) -> tuple[list[str] | None, list[str]]:
    """An agent type's tools and disallowed tools in Claude Code's names (None: every
    tool): a Claude Code file's as `written` (canonical names would widen ``Grep`` to
    ``Read`` and ``Bash``), another format's from its `canonical` names."""
    if file_format == "claude":
        given, refused = written
        kept = None if given is None else [t for t in given if t not in refused]
        return kept, list(refused)
    tools, refused = canonical
    return (None if tools is None else claude_tool_names(tools)), claude_tool_names(refused)


def claude_tool_names(names: Iterable[str]) -> list[str]:
    """Canonical tool names in Claude Code's (any other name as it is)."""
    return list(dict.fromkeys(CLAUDE_TOOLS_OF.get(n, n) for n in names if n != "mcp"))


CLAUDE_CODE_HOOKS = HookDialect(
    format="claude",
    server_format="claude",
    events=CLAUDE_HOOK_EVENTS,
    variables=HookVariables(
        project=("CLAUDE_PROJECT_DIR",),
        plugin_root=("CLAUDE_PLUGIN_ROOT",),
        plugin_data=("CLAUDE_PLUGIN_DATA",),
    ),
    when_known=("prompt_id", "agent_id", "agent_type"),
    extras=_CLAUDE_EXTRAS,
    defaults=MappingProxyType({"permission_mode": "default", "effort": "medium"}),
    # code.claude.com/docs/en/settings: disableAllHooks turns every hook off
    switches=(
        HookSwitch(
            (
                "{home}/.claude/settings.json",
                "{project}/.claude/settings.json",
                "{project}/.claude/settings.local.json",
            ),
            "disableAllHooks",
            off=True,
        ),
    ),
    # code.claude.com/docs/en/hooks: identical hook commands are deduplicated; 2.1.332
    # runs once a command the user's and the project's settings both register, and
    # once more a plugin's copy of it, with the plugin's CLAUDE_PLUGIN_ROOT (observed:
    # tests/checkup/test_hooks.py)
    same_hook="per-plugin",
    waits_declared_timeout=True,  # timeout * 1000 ms, no ceiling (the binaries)
    transcript="{home}/.claude/projects/{cwd_dashed}/{session_id}.jsonl",
    sources=(
        "claude -p with a hook on every event (2.1.332, 2.1.337, observed)",
        "the binaries' hook input schemas and base-input builder",
    ),
)

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

# Claude Code 2.1.332 (observed: tests/plugins/test_claude_marketplace_source.py): where
# it reads an installed plugin's files depends on its marketplace's source type in
# ~/.claude/plugins/known_marketplaces.json. A "directory" marketplace (`claude plugin
# marketplace add <folder>`, a folder holding a git repository too) has its plugins read
# in place, from the marketplace folder joined with the entry's relative `source` in its
# .claude-plugin/marketplace.json: skills, commands, agents and hooks alike (its hooks'
# CLAUDE_PLUGIN_ROOT is that folder), the installPath copy is not read, and a missing
# folder fails the plugin ("Plugin directory not found at path"), with no fall back to the copy. Any
# other source type ("git": a clone in ~/.claude/plugins/marketplaces/<name>) is read
# from the installPath copy in ~/.claude/plugins/cache.
# An entry's `source` that is a bare name (CLAUDE_BARE_SOURCE, no "..") resolves below
# the marketplace's metadata.pluginRoot (a relative folder: no "/" first, no backslash
# or ":", no empty, "." or ".." part; "./" and trailing "/" dropped), as its catalogue
# loader does (2.1.332's bundle; "Bare source names resolve under metadata.pluginRoot").
CLAUDE_MARKETPLACES = "known_marketplaces.json"
CLAUDE_IN_PLACE_SOURCES = ("directory",)
CLAUDE_MARKETPLACE_MANIFEST = ".claude-plugin/marketplace.json"
CLAUDE_BARE_SOURCE = r"[A-Za-z0-9][-A-Za-z0-9._]*"

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
    index=Index(
        fraction=0.01,
        description=1536,
        overflow="least-used",
        style="claude-code",
        bounds=frozenset({"chars", "description"}),
        bounds_why="Claude Code bounds its listing in characters only (as its "
        "SLASH_COMMAND_TOOL_CHAR_BUDGET does)",
        lists_commands=True,  # its listing holds the slash commands too
        budget_setting="skillListingBudgetFraction in ~/.claude/settings.json",
        description_setting="skillListingMaxDescChars in ~/.claude/settings.json",
    ),
    models=CLAUDE_CODE_MODELS,
    limits=Limits(description=1536),
    events=CLAUDE_EVENTS,
    hook_files=False,
    claude_settings_hooks=True,
    include_workspace_plugin=False,
    claude_installed_plugins=True,  # ~/.claude/plugins, enabled by settings (observed)
    instruction_rule=CLAUDE_CODE_INSTRUCTIONS,
    hooks=CLAUDE_CODE_HOOKS,
    port=PortSpec(
        "claude-code",
        "Claude Code",
        ".claude-plugin/plugin.json",
        "claude",
        root="${CLAUDE_PLUGIN_ROOT}",
        data="${CLAUDE_PLUGIN_DATA}",
        # a plugin's server starts in the session's folder whatever its cwd (observed:
        # tests/port/test_hooks_in_hosts.py)
        mcp=McpDialect(ignores_cwd=True),
        hooks=PortHooks(
            full=True,
            tools=MappingProxyType({t: t for t in CLAUDE_TOOL_NAMES}),
            mcp_tool="mcp__{server}__{tool}",
            # a plugin's own server is registered as plugin:<plugin>:<server> (observed:
            # tests/port/test_hooks_in_hosts.py)
            plugin_mcp_tool="mcp__plugin_{plugin}_{server}__{tool}",
            answers=("exit-2", "decision", "permission-decision"),
            handlers=("command", "http", "mcp_tool", "prompt", "agent"),
        ),
    ),
    policy_export=to_claude_code,  # managed-settings.json
    mcp_files=CLAUDE_MCP,
    mcp_off=CLAUDE_MCP_OFF,
    mcp_approval=CLAUDE_MCP_APPROVAL,
    trust_source=TrustSource("{home}/.claude.json", ("projects",), "hasTrustDialogAccepted"),
    found_by=("{home}/.claude", "{home}/.claude.json", "{project}/.claude", "{project}/CLAUDE.md"),
    # `claude plugin marketplace add` and `claude plugin install` (2.1.332, observed):
    # installed_plugins.json, and known_marketplaces.json ({"<name>": {"source",
    # "installLocation", "lastUpdated"}}) whose installLocation is the clone or folder;
    # a plugin folder's own .git is not copied into the cache (observed), and Claude Code
    # marks a cached copy with files of its own (.in_use for one cloned from git,
    # observed; the others named beside it in the 2.1.332 binary)
    installs=Installs(
        "records",
        folder="{home}/.claude/plugins",
        records="installed_plugins.json",
        marketplaces="known_marketplaces.json",
        skipped=(
            ".git",
            ".in_use",
            ".in_use-links",
            ".orphaned_at",
            ".gcs-sha",
            ".links_materialized",
        ),
    ),
)

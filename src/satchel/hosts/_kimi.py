"""Kimi Code: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import rows
from satchel.hosts._model import Host
from satchel.layout import PROJECT, USER

__all__ = ["KIMI", "KIMI_EVENTS", "KIMI_FIELDS"]

KIMI_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptQueued",
    "TurnStarted", "Stop", "StopFailure", "PermissionRequest", "PermissionResult",
    "SessionStart", "SessionEnd", "SessionHeartbeat", "SubagentStart", "SubagentStop",
    "TaskStarted", "Interrupt", "PreCompact", "PostCompact", "Notification",
)  # fmt: skip

KIMI_FIELDS = (
    "name", "description", "type", "whenToUse", "when-to-use", "when_to_use",
    "disableModelInvocation", "disable-model-invocation", "disable_model_invocation",
    "arguments",
)  # fmt: skip

KIMI = Host(
    name="kimi",
    title="Kimi Code",
    sources=(
        "MoonshotAI/kimi-code docs/en/customization/skills.md",
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
)

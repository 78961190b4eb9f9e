"""GitHub Copilot: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER
from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect
from satchel.hosts._instructions import InstructionRule, InstructionSource, RuleFiles
from satchel.hosts._model import Host

__all__ = ["COPILOT", "COPILOT_HOOKS", "COPILOT_HOOK_EVENTS", "COPILOT_INSTRUCTIONS"]

_APPLY_TO = RuleFiles(".instructions.md", "apply-to", base="root")
# the user's copilot-instructions.md and instructions/; in every folder from the root down
# to cwd .github/copilot-instructions.md and AGENTS.md (CLAUDE.md and GEMINI.md at the
# root only), then every folder's .github/instructions (applyTo globs, from the root)
COPILOT_INSTRUCTIONS = InstructionRule(
    mode="copilot",
    host="GitHub Copilot",
    source="docs.github.com/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions",
    user_folder="~/.copilot",
    user=(
        InstructionSource("copilot-instructions.md", "copilot"),
        InstructionSource("instructions", "rule", _APPLY_TO),
    ),
    project=(
        InstructionSource(".github/copilot-instructions.md", "copilot", speaks_for_folder=True),
        InstructionSource("AGENTS.md", "agents"),
        InstructionSource("CLAUDE.md", "claude", root_only=True),
        InstructionSource("GEMINI.md", "gemini", root_only=True),
    ),
    project_passes=((InstructionSource(".github/instructions", "rule", _APPLY_TO),),),
)


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
    instruction_rule=COPILOT_INSTRUCTIONS,
    hooks=COPILOT_HOOKS,
    found_by=("{home}/.copilot", "{project}/.github/copilot-instructions.md"),
)

"""GitHub Copilot: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.hosts._common import rows
from satchel.hosts._model import Host
from satchel.layout import PROJECT, USER

__all__ = ["COPILOT"]

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
)

"""OpenCode: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.core.layout import PROJECT, USER
from satchel.hosts._common import rows
from satchel.hosts._model import Host, Limits

__all__ = ["OPENCODE"]

OPENCODE = Host(
    name="opencode",
    title="OpenCode",
    sources=(
        "https://opencode.ai/docs/skills",
        "https://opencode.ai/docs/commands",
        "https://opencode.ai/docs/agents",
        "https://opencode.ai/docs/plugins",
        "https://opencode.ai/docs/rules",
    ),
    # project folders from the working directory up to the git worktree
    skills=(
        *rows(
            PROJECT,
            (".opencode", "{project}/.opencode/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *rows(
            USER,
            (".opencode", "{config}/opencode/skills"),
            (".claude", "{home}/.claude/skills"),
            (".agents", "{home}/.agents/skills"),
        ),
    ),
    commands=(
        *rows(PROJECT, (".opencode", "{project}/.opencode/commands")),
        *rows(USER, (".opencode", "{config}/opencode/commands")),
    ),
    agents=(
        *rows(PROJECT, (".opencode", "{project}/.opencode/agents")),
        *rows(USER, (".opencode", "{config}/opencode/agents")),
    ),
    ancestors=True,
    plugin_formats=("opencode",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="vibe",
    limits=Limits(name=64, description=1024),
    instructions="satchel",
    skill_fields=("name", "description", "license", "compatibility", "metadata"),
    hook_files=False,
    include_workspace_plugin=False,
    found_by=("{config}/opencode", "{project}/.opencode", "{project}/opencode.json"),
)

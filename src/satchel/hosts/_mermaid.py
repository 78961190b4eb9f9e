"""the mermaid coding agent: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.core.layout import PROJECT, USER, default_roots
from satchel.hosts._common import rows
from satchel.hosts._model import Host, Index
from satchel.hosts._satchel import SATCHEL_EVENTS

__all__ = ["MERMAID"]

MERMAID = Host(
    name="mermaid",
    title="mermaid",
    client="mermaid",
    sources=("docs/layout.md (mermaid's table)", "docs/hooks.md", "docs/plugins.md"),
    skills=(
        *rows(
            PROJECT,
            (".mermaid", "{project}/.mermaid/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *rows(
            USER,
            (".mermaid", "{config}/mermaid/skills"),
            (".claude", "{home}/.claude/skills"),
            (".agents", "{home}/.agents/skills"),
        ),
    ),
    commands=default_roots("mermaid", "commands"),
    agents=default_roots("mermaid", "agents"),
    plugins=default_roots("mermaid", "plugins"),
    plugin_formats=None,
    ambiguous_plugins=None,
    plugin_skill_rule=None,
    plugin_skill_names="bare",
    index=Index(chars=8 * 1024, entries=64, overflow="last", bytes=8 * 1024),
    events=SATCHEL_EVENTS,
    include_workspace_plugin=False,
    found_by=("{config}/mermaid", "{project}/.mermaid"),
)

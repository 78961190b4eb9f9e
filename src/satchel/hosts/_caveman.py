"""the caveman agent SDK: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.core.layout import PROJECT, USER, RootSpec
from satchel.hosts._model import Host, Index

__all__ = ["CAVEMAN"]

CAVEMAN = Host(
    name="caveman",
    title="caveman",
    client="caveman",
    sources=("docs/layout.md (caveman's table)", "docs/plugins.md (declarative-only loading)"),
    skills=(
        RootSpec(PROJECT, ".agents", "{project}/.agents/skills"),
        RootSpec(USER, ".agents", "{home}/.agents/skills"),
    ),
    plugin_formats=None,
    ambiguous_plugins=None,
    plugin_skill_rule=None,
    instructions=None,
    index=Index(chars=8 * 1024, entries=64, overflow="last", bytes=8 * 1024),
    hook_files=False,
    executable=False,
)

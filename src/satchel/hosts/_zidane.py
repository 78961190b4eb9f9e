"""the zidane library: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from satchel.core.layout import PROJECT, USER, RootSpec
from satchel.hosts._model import Host
from satchel.hosts._rules import MetadataRule

__all__ = ["ZIDANE"]

_ZIDANE_ROOT = "{cwd}"  # the library's <root>; its apps use the git root
ZIDANE = Host(
    name="zidane",
    title="zidane",
    client="zidane",
    sources=("docs/layout.md (zidane's table)", "https://zidane.si/docs/skills.md"),
    skills=(
        RootSpec(PROJECT, ".agents", _ZIDANE_ROOT + "/.agents/skills"),
        RootSpec(PROJECT, ".zidane", _ZIDANE_ROOT + "/.zidane/skills"),
        RootSpec(USER, ".agents", "{home}/.agents/skills"),
        RootSpec(USER, ".zidane", "{home}/.zidane/skills"),
        # the apps' "import configurations from other agents" setting
        RootSpec(PROJECT, ".claude", _ZIDANE_ROOT + "/.claude/skills"),
        RootSpec(PROJECT, ".codex", _ZIDANE_ROOT + "/.codex/skills"),
        RootSpec(PROJECT, ".pi", _ZIDANE_ROOT + "/.pi/skills"),
        RootSpec(USER, ".claude", "{home}/.claude/skills"),
        RootSpec(USER, ".codex", "{home}/.codex/skills"),
        RootSpec(USER, ".pi", "{home}/.pi/agent/skills"),
        # the apps' Ruler setting
        RootSpec(PROJECT, ".ruler", _ZIDANE_ROOT + "/.ruler/skills"),
        RootSpec(USER, ".ruler", "{config}/ruler/skills"),
    ),
    plugin_formats=None,
    ambiguous_plugins=None,
    plugin_skill_rule=None,
    instructions=None,
    hook_files=False,
    include_workspace_plugin=False,
    # zidane deprecates the top-level model, thinking and paths (moved into metadata)
    skill_metadata=MetadataRule(deprecated=("model", "thinking", "paths")),
)

"""Subagent types: Claude Code ``agents/*.md``, Vibe TOML agents, bundle and config
``types`` tables, mapped to one `AgentType` and settled by precedence.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.agents._bundle import config_agents, load_bundle, parse_bundle
    from satchel.agents._claude import parse_claude
    from satchel.agents._discover import (
        BUILTIN_TYPES,
        MAX_AGENTS,
        MAX_CLAUDE_AGENTS,
        AgentSet,
        DirScan,
        ShadowedAgent,
        load_agents,
        parse_agent,
        scan_agent_dir,
    )
    from satchel.agents._fields import cap_safety
    from satchel.agents._model import FORMATS, SAFETY_LEVELS, AgentType, ToolRule
    from satchel.agents._read import MAX_AGENT_FILE
    from satchel.agents._spawn import PreloadedSkill, SkillSource, SpawnSpec
    from satchel.agents._spawnfields import (
        AGENT_COLORS,
        EFFORT_LEVELS,
        ISOLATION_MODES,
        MEMORY_SCOPES,
        PERMISSION_MODES,
    )
    from satchel.agents._tools import (
        CANONICAL_TOOLS,
        DEFAULT_TOOL_MAP,
        VIBE_KNOWN,
        VIBE_TOOLS,
        WRITE_TOOLS,
        can_write,
        map_tools,
        safety_ceiling,
    )
    from satchel.agents._vibe import parse_vibe, vibe_agent
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.agents._bundle": ("config_agents", "load_bundle", "parse_bundle"),
            "satchel.agents._claude": ("parse_claude",),
            "satchel.agents._discover": (
                "BUILTIN_TYPES",
                "MAX_AGENTS",
                "MAX_CLAUDE_AGENTS",
                "AgentSet",
                "DirScan",
                "ShadowedAgent",
                "load_agents",
                "parse_agent",
                "scan_agent_dir",
            ),
            "satchel.agents._fields": ("cap_safety",),
            "satchel.agents._model": ("FORMATS", "SAFETY_LEVELS", "AgentType", "ToolRule"),
            "satchel.agents._read": ("MAX_AGENT_FILE",),
            "satchel.agents._spawn": ("PreloadedSkill", "SkillSource", "SpawnSpec"),
            "satchel.agents._spawnfields": (
                "AGENT_COLORS",
                "EFFORT_LEVELS",
                "ISOLATION_MODES",
                "MEMORY_SCOPES",
                "PERMISSION_MODES",
            ),
            "satchel.agents._tools": (
                "CANONICAL_TOOLS",
                "DEFAULT_TOOL_MAP",
                "VIBE_KNOWN",
                "VIBE_TOOLS",
                "WRITE_TOOLS",
                "can_write",
                "map_tools",
                "safety_ceiling",
            ),
            "satchel.agents._vibe": ("parse_vibe", "vibe_agent"),
        },
    )

__all__ = [
    "AGENT_COLORS",
    "AgentSet",
    "AgentType",
    "BUILTIN_TYPES",
    "can_write",
    "CANONICAL_TOOLS",
    "cap_safety",
    "config_agents",
    "DEFAULT_TOOL_MAP",
    "DirScan",
    "EFFORT_LEVELS",
    "FORMATS",
    "ISOLATION_MODES",
    "load_agents",
    "load_bundle",
    "map_tools",
    "MAX_AGENT_FILE",
    "MAX_AGENTS",
    "MAX_CLAUDE_AGENTS",
    "MEMORY_SCOPES",
    "parse_agent",
    "parse_bundle",
    "parse_claude",
    "parse_vibe",
    "PERMISSION_MODES",
    "PreloadedSkill",
    "safety_ceiling",
    "SAFETY_LEVELS",
    "scan_agent_dir",
    "ShadowedAgent",
    "SkillSource",
    "SpawnSpec",
    "ToolRule",
    "vibe_agent",
    "VIBE_KNOWN",
    "VIBE_TOOLS",
    "WRITE_TOOLS",
]

"""satchel: skills, plugins, hooks, commands, subagents and MCP servers for any agent.

env = satchel.load()                      # discover everything for the cwd
print(satchel.render_index(env.skills))   # the index for the system prompt
session = satchel.Session(env)            # one conversation: tools, gate, resume
for d in env.diagnostics: ...             # what was wrong, never an exception
"""

import typing as _typing

from satchel.foundations._version import __version__

if _typing.TYPE_CHECKING:
    from satchel.agents import AgentSet, AgentType
    from satchel.assembly._environment import (
        Environment,
        LoadOverrides,
        Options,
        RootReport,
        Shadowed,
        WrittenSkills,
        load,
        write_skills,
    )
    from satchel.core.diagnostics import CODES, Diagnostic
    from satchel.core.errors import (
        Collision,
        CommandBodyError,
        ForkFailed,
        ForkUnavailable,
        HttpRefused,
        InstallError,
        MaxActiveReached,
        McpUnavailable,
        Refused,
        ResourceError,
        SatchelError,
        SessionError,
        SkillBodyError,
        SkillDefinitionError,
        SkillInactive,
        SkillsOff,
        ToolNotAllowed,
        TrustStoreError,
        UnknownHost,
        UnknownOutputStyle,
        UnknownSkill,
    )
    from satchel.core.layout import (
        Layout,
        Root,
        RootSpec,
        WalkBounds,
        default_roots,
        find_project_root,
    )
    from satchel.foundations.tokens import approx_tokens, token_bill, truncate
    from satchel.hosts._ranking import rank_skills
    from satchel.index._budget import Budget
    from satchel.index._render import Index, IndexEntry, build_index, render_index
    from satchel.kinds._instructions import InstructionFile
    from satchel.kinds.commands import Command, CommandSet
    from satchel.plugins import Plugin, PluginSet
    from satchel.session import (
        ContextSegment,
        Session,
        SessionOptions,
        SessionOverrides,
        SkillEvent,
        Tool,
        ToolResult,
    )
    from satchel.skills._authoring import define_skill, render_skill_md, write_skill
    from satchel.skills._model import Skill
    from satchel.skills._read import parse_skill
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.agents": ("AgentSet", "AgentType"),
            "satchel.skills._authoring": ("define_skill", "render_skill_md", "write_skill"),
            "satchel.kinds.commands": ("Command", "CommandSet"),
            "satchel.core.diagnostics": ("CODES", "Diagnostic"),
            "satchel.assembly._environment": (
                "Environment",
                "LoadOverrides",
                "Options",
                "RootReport",
                "Shadowed",
                "WrittenSkills",
                "load",
                "write_skills",
            ),
            "satchel.core.errors": (
                "Collision",
                "CommandBodyError",
                "ForkFailed",
                "ForkUnavailable",
                "HttpRefused",
                "InstallError",
                "MaxActiveReached",
                "McpUnavailable",
                "Refused",
                "ResourceError",
                "SatchelError",
                "SessionError",
                "SkillBodyError",
                "SkillDefinitionError",
                "SkillInactive",
                "SkillsOff",
                "ToolNotAllowed",
                "TrustStoreError",
                "UnknownHost",
                "UnknownOutputStyle",
                "UnknownSkill",
            ),
            "satchel.kinds._instructions": ("InstructionFile",),
            "satchel.core.layout": (
                "Layout",
                "Root",
                "RootSpec",
                "WalkBounds",
                "default_roots",
                "find_project_root",
            ),
            "satchel.plugins": ("Plugin", "PluginSet"),
            "satchel.index._budget": ("Budget",),
            "satchel.index._render": ("Index", "IndexEntry", "build_index", "render_index"),
            "satchel.hosts._ranking": ("rank_skills",),
            "satchel.session": (
                "ContextSegment",
                "Session",
                "SessionOptions",
                "SessionOverrides",
                "SkillEvent",
                "Tool",
                "ToolResult",
            ),
            "satchel.skills._model": ("Skill",),
            "satchel.skills._read": ("parse_skill",),
            "satchel.foundations.tokens": ("approx_tokens", "token_bill", "truncate"),
        },
    )

__all__ = [
    "__version__",
    "AgentSet",
    "AgentType",
    "approx_tokens",
    "Budget",
    "build_index",
    "CODES",
    "Collision",
    "Command",
    "CommandBodyError",
    "CommandSet",
    "ContextSegment",
    "default_roots",
    "define_skill",
    "Diagnostic",
    "Environment",
    "find_project_root",
    "ForkFailed",
    "ForkUnavailable",
    "HttpRefused",
    "Index",
    "IndexEntry",
    "InstallError",
    "InstructionFile",
    "Layout",
    "load",
    "LoadOverrides",
    "MaxActiveReached",
    "McpUnavailable",
    "Options",
    "parse_skill",
    "Plugin",
    "PluginSet",
    "rank_skills",
    "Refused",
    "render_index",
    "render_skill_md",
    "ResourceError",
    "Root",
    "RootReport",
    "RootSpec",
    "SatchelError",
    "Session",
    "SessionError",
    "SessionOptions",
    "SessionOverrides",
    "Shadowed",
    "Skill",
    "SkillBodyError",
    "SkillDefinitionError",
    "SkillEvent",
    "SkillInactive",
    "SkillsOff",
    "token_bill",
    "Tool",
    "ToolNotAllowed",
    "ToolResult",
    "truncate",
    "TrustStoreError",
    "UnknownHost",
    "UnknownOutputStyle",
    "UnknownSkill",
    "WalkBounds",
    "write_skill",
    "write_skills",
    "WrittenSkills",
]

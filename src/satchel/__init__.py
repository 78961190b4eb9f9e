"""satchel: skills, plugins, hooks, commands, subagents and MCP servers for any agent.

env = satchel.load()                      # discover everything for the cwd
print(satchel.render_index(env.skills))   # the index for the system prompt
session = satchel.Session(env)            # one conversation: tools, gate, resume
for d in env.diagnostics: ...             # what was wrong, never an exception
"""

from satchel._authoring import define_skill, render_skill_md, write_skill
from satchel._environment import Environment, Options, RootReport, Shadowed, load
from satchel._instructions import InstructionFile
from satchel._render import Index, build_index, render_index
from satchel._version import __version__
from satchel.agents import AgentSet, AgentType
from satchel.commands import Command, CommandSet
from satchel.diagnostics import CODES, Diagnostic
from satchel.errors import (
    Collision,
    CommandBodyError,
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
    UnknownSkill,
)
from satchel.layout import Layout, Root, RootSpec, WalkBounds, default_roots, find_project_root
from satchel.plugins import Plugin, PluginSet
from satchel.session import ContextSegment, Session, SessionOptions, SkillEvent, Tool, ToolResult
from satchel.skills._model import Skill
from satchel.skills._read import parse_skill
from satchel.tokens import approx_tokens, token_bill, truncate

__all__ = [
    "__version__",
    "AgentSet",
    "AgentType",
    "approx_tokens",
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
    "HttpRefused",
    "Index",
    "InstallError",
    "InstructionFile",
    "Layout",
    "load",
    "MaxActiveReached",
    "McpUnavailable",
    "Options",
    "parse_skill",
    "Plugin",
    "PluginSet",
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
    "UnknownSkill",
    "WalkBounds",
    "write_skill",
]

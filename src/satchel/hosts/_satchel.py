"""satchel's own rules, the profile every option defaults to (docs/hosts.md has every
host side by side)."""

from __future__ import annotations

from satchel.core.layout import default_roots
from satchel.hosts._hooks import HookDialect, reverse
from satchel.hosts._instructions import InstructionRule, InstructionSource
from satchel.hosts._kimi import KIMI_HOOKS
from satchel.hosts._model import Host, Index
from satchel.hosts._port import AGENT_PLUGINS_MCP, AGENT_PLUGINS_NAMES, PortHooks, PortSpec
from satchel.hosts._vibe import VIBE_PORT_EVENTS
from satchel.skills._names import NameRule

__all__ = ["SATCHEL", "SATCHEL_EVENTS", "SATCHEL_HOOKS", "SATCHEL_INSTRUCTIONS"]

SATCHEL_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Notification",
    "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact",
    "InstructionsLoaded", "UserPromptExpansion", "ConfigChange",  # the session fires these
)  # fmt: skip

# AGENTS.md, else a Claude file, at each level; the client's own file (SATCHEL.md) of
# every level last
SATCHEL_INSTRUCTIONS = InstructionRule(
    mode="satchel",
    host="satchel",
    source="satchel's own rule: AGENTS.md, else a Claude file; the client's file last",
    user_folder="{config}/{client}",
    user=(
        InstructionSource("AGENTS.md", "agents"),
        InstructionSource("CLAUDE.md", "claude"),
        InstructionSource("~/.claude/CLAUDE.md", "claude"),
        InstructionSource("{client}", "client"),
    ),
    project=(
        InstructionSource("AGENTS.md", "agents"),
        InstructionSource("CLAUDE.md", "claude"),
        InstructionSource(".claude/CLAUDE.md", "claude"),
        InstructionSource("{client}", "client"),
    ),
    reader="agents-else-claude",
    walk="root-or-ancestors",
)

# satchel's own hooks.toml names events as satchel does (`satchel.hooks.EVENTS`); a hook
# is told Claude Code's name for its event (Kimi's for the events only Kimi has), as is
# a hook of any format with no name of its own for the event. A format satchel does not
# know is read in this dialect.
SATCHEL_HOOKS = HookDialect(
    format="satchel",
    events=None,
    told=reverse(KIMI_HOOKS.names()),
    sources=("docs/hooks.md",),
)

SATCHEL = Host(
    name="satchel",
    title="satchel",
    sources=("docs/layout.md", "docs/plugins.md", "docs/commands-and-agents.md"),
    skills=default_roots("satchel", "skills"),
    commands=default_roots("satchel", "commands"),
    agents=default_roots("satchel", "agents"),
    plugins=default_roots("satchel", "plugins"),
    plugin_formats=None,
    ambiguous_plugins=None,
    plugin_skill_rule=None,
    index=Index(chars=8 * 1024, entries=64, overflow="last", bytes=8 * 1024),
    events=SATCHEL_EVENTS,
    claude_installed_plugins=True,
    instruction_rule=SATCHEL_INSTRUCTIONS,
    hooks=SATCHEL_HOOKS,
    port=PortSpec(
        "agent-plugins",
        "Agent Plugins 1.0",
        "plugin.json",
        "agent-plugins",
        root="${PLUGIN_ROOT}",
        data="${PLUGIN_DATA}",
        names=AGENT_PLUGINS_NAMES,
        mcp=AGENT_PLUGINS_MCP,
        hooks=PortHooks(events=VIBE_PORT_EVENTS),
        standard=True,
    ),
    mcp_files=None,  # SATCHEL_MCP, as load() without a profile reads
    mcp_off=None,  # every host's
    names=NameRule(note_hosts=True),  # the spec's rule, saying what Codex and Gemini CLI do
)

"""The built-in host profiles, one per host, each with its sources (docs/hosts.md has
them side by side). Facts marked *observed* were read off the released program run
offline (tests/hosts/ checks them against it where the program installs from npm);
the rest come from the host's documentation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from satchel.hooks._events import CURSOR_NAMES
from satchel.hooks._events import GEMINI_EVENTS as GEMINI_NAMES
from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CLAUDE_CODE_MODELS, CODEX_MODELS, GEMINI_MODELS
from satchel.hosts._port import HookDialect, McpDialect, NameRule, PortSpec
from satchel.layout import PROJECT, USER, RootSpec, WalkBounds, default_roots
from satchel.plugins._carry import Part
from satchel.plugins.formats._kimi import NAME as KIMI_NAME
from satchel.policy._export import to_claude_code, to_codex

__all__ = ["PROFILES", "SATCHEL"]


def _rows(scope: str, *rows: tuple[str, str]) -> tuple[RootSpec, ...]:
    return tuple(RootSpec(scope, family, template) for family, template in rows)


# Claude Code 2.1.337: the hook events of its settings schema (35). The profile speaks
# for the newest Claude Code; 2.1.332 has the same but `Interrupt` (its 34), and its
# validator warns that a hook on `Interrupt` is an unknown event.
CLAUDE_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "Interrupt", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PermissionRequest", "PermissionDenied", "Setup", "TeammateIdle", "TaskCreated",
    "TaskCompleted", "Elicitation", "ElicitationResult", "ConfigChange", "WorktreeCreate",
    "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded",
    "MessageDisplay", "PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand",
)  # fmt: skip
CODEX_EVENTS = (
    "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
    "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionStart",
    "SessionEnd", "Interrupt",
)  # fmt: skip
GEMINI_EVENTS = (
    "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "SessionStart", "SessionEnd", "PreCompress", "Notification",
)  # fmt: skip
CURSOR_EVENTS = (
    "sessionStart", "sessionEnd", "preToolUse", "postToolUse", "postToolUseFailure",
    "subagentStart", "subagentStop", "beforeShellExecution", "afterShellExecution",
    "beforeMCPExecution", "afterMCPExecution", "beforeReadFile", "afterFileEdit",
    "beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought",
)  # fmt: skip
KIMI_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptQueued",
    "TurnStarted", "Stop", "StopFailure", "PermissionRequest", "PermissionResult",
    "SessionStart", "SessionEnd", "SessionHeartbeat", "SubagentStart", "SubagentStop",
    "TaskStarted", "Interrupt", "PreCompact", "PostCompact", "Notification",
)  # fmt: skip
VIBE_EVENTS = ("pre_tool", "post_tool", "post_agent")
SATCHEL_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Notification",
    "Stop", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact",
    "InstructionsLoaded", "UserPromptExpansion", "ConfigChange",  # the session fires these
)  # fmt: skip

SPEC_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
CLAUDE_FIELDS = (
    *SPEC_FIELDS, "when_to_use", "argument-hint", "arguments", "disable-model-invocation",
    "user-invocable", "disallowed-tools", "model", "effort", "context", "agent", "background",
    "hooks", "paths", "shell", "version",
)  # fmt: skip
KIMI_FIELDS = (
    "name", "description", "type", "whenToUse", "when-to-use", "when_to_use",
    "disableModelInvocation", "disable-model-invocation", "disable_model_invocation",
    "arguments",
)  # fmt: skip

# -- what each host keeps of a plugin (`Host.carries`) and how port writes one ----------

# Codex 0.171.0 keeps these of a plugin whatever its manifest (.codex-plugin,
# .claude-plugin, a root plugin.json): observed, an installed plugin's skills are listed,
# its hooks/hooks.json runs and its .mcp.json servers start; commands/ and agents/ are
# never read (openai/codex codex-rs/core-plugins/src/manifest.rs reads only skills,
# mcpServers, apps, hooks and interface; loader.rs: skills/, .mcp.json, .app.json and
# hooks/hooks.json by default).
CODEX_KEEPS: tuple[Part, ...] = ("skills", "hooks", "mcp_servers", "apps")
# of an Agent Plugins 1.0 plugin satchel reads hooks only from Mistral Vibe's extension,
# which Codex does not read
CODEX_KEEPS_NATIVE: tuple[Part, ...] = ("skills", "mcp_servers", "apps")
# Agent Plugins 1.0 names a plugin with a-z, 0-9, '-' and '.' (64 at most)
AGENT_PLUGINS_NAMES = NameRule(
    re.compile(r"(?=.{1,64}\Z)(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\Z"),
    "with a-z, 0-9, '-' and '.', alphanumeric at both ends, no '--' or '..'",
    namespaces=True,
)
AGENT_PLUGINS_MCP = McpDialect(
    closed=True,
    stdio_type="stdio",
    rooted=False,
    remote=MappingProxyType({"streamable-http": ("streamable-http", "url"), "sse": ("sse", "url")}),
)
# satchel's event -> Mistral Vibe's hooks.toml type
VIBE_NAMES: Mapping[str, str] = MappingProxyType(
    {"before_tool_use": "pre_tool", "after_tool_use": "post_tool", "stop": "post_agent"}
)
# Claude Code's tool -> Gemini CLI's (gemini-cli 0.61.0, packages/cli/src/commands/hooks/
# migrate.ts, TOOL_NAME_MAPPING)
GEMINI_TOOLS: Mapping[str, str] = MappingProxyType(
    {"Edit": "replace", "Bash": "run_shell_command", "Read": "read_file",
     "Write": "write_file", "Glob": "glob", "Grep": "grep", "LS": "ls"}
)  # fmt: skip

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
    port=PortSpec(
        "agent-plugins",
        "Agent Plugins 1.0",
        "plugin.json",
        "agent-plugins",
        root="${PLUGIN_ROOT}",
        data="${PLUGIN_DATA}",
        names=AGENT_PLUGINS_NAMES,
        mcp=AGENT_PLUGINS_MCP,
        hooks=HookDialect(events=VIBE_NAMES),
        standard=True,
    ),
)

CLAUDE_CODE = Host(
    name="claude-code",
    title="Claude Code",
    sources=(
        "https://code.claude.com/docs/en/skills",
        "https://code.claude.com/docs/en/slash-commands",
        "https://code.claude.com/docs/en/sub-agents",
        "https://code.claude.com/docs/en/plugins-reference",
        "https://code.claude.com/docs/en/memory",
        "https://code.claude.com/docs/en/hooks",
        "claude plugin validate --json (2.1.332 and 2.1.337, observed)",
    ),
    # enterprise > personal > project: the user's skills win a clash with the project's
    skills=(
        *_rows(USER, (".claude", "{home}/.claude/skills")),
        *_rows(PROJECT, (".claude", "{project}/.claude/skills")),
    ),
    # a project command hides the user's of the same name
    commands=(
        *_rows(PROJECT, (".claude", "{project}/.claude/commands")),
        *_rows(USER, (".claude", "{home}/.claude/commands")),
    ),
    agents=(
        *_rows(PROJECT, (".claude", "{project}/.claude/agents")),
        *_rows(USER, (".claude", "{home}/.claude/agents")),
    ),
    ancestors=True,  # project skills from the working directory up to the repository root
    plugin_formats=("claude",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    command_naming="path",
    argument_numbering=0,
    instructions="claude-code",
    skill_fields=CLAUDE_FIELDS,
    index=Index(fraction=0.01, description=1536, overflow="least-used", style="claude-code"),
    models=CLAUDE_CODE_MODELS,
    limits=Limits(description=1536),
    events=CLAUDE_EVENTS,
    hook_files=False,
    claude_settings_hooks=True,
    include_workspace_plugin=False,
    claude_installed_plugins=True,  # ~/.claude/plugins, enabled by settings (observed)
    port=PortSpec(
        "claude-code",
        "Claude Code",
        ".claude-plugin/plugin.json",
        "claude",
        root="${CLAUDE_PLUGIN_ROOT}",
        data="${CLAUDE_PLUGIN_DATA}",
        hooks=HookDialect(full=True),
    ),
    policy_export=to_claude_code,  # managed-settings.json
)

CODEX = Host(
    name="codex",
    title="Codex",
    sources=(
        "https://developers.openai.com/codex/skills",
        "https://developers.openai.com/codex/guides/agents-md",
        "https://developers.openai.com/codex/plugins/build",
        "https://developers.openai.com/codex/hooks",
        "openai/codex codex-rs/core-skills/src/loader.rs",
        "codex debug prompt-input (0.171.0, observed)",
    ),
    # .agents/skills and .codex/skills in every folder from the git root down to cwd
    # (observed: the docs say .codex/skills at the root only), then the user's; every
    # copy of a name is listed (no winner)
    skills=(
        *_rows(
            PROJECT, (".agents", "{project}/.agents/skills"), (".codex", "{project}/.codex/skills")
        ),
        *_rows(USER, (".agents", "{home}/.agents/skills"), (".codex", "{home}/.codex/skills")),
    ),
    commands=_rows(USER, (".codex", "{home}/.codex/prompts")),
    ancestors=True,
    walk=WalkBounds(nested=True, max_depth=6, max_dirs=2000),
    plugin_formats=("agent-plugins", "codex", "claude"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    argument_numbering=1,
    instructions="codex",
    skill_fields=("name", "description", "metadata"),
    # 2% of the model's window in tokens (8,000 characters only when the window is not
    # known); src/satchel/hosts/_listing_codex.py renders the listing as Codex sends it
    index=Index(fraction=0.02, description=1024, overflow="shorten", style="codex"),
    models=CODEX_MODELS,
    limits=Limits(name=64, description=1024),
    events=CODEX_EVENTS,
    clash="every",
    hook_files=False,
    include_workspace_plugin=False,
    carries=MappingProxyType(
        {"agent-plugins": CODEX_KEEPS_NATIVE, "codex": CODEX_KEEPS, "claude": CODEX_KEEPS}
    ),
    # Codex refuses a manifest path that is not below the root (`./` alone included); it
    # gives a hook PLUGIN_ROOT and CLAUDE_PLUGIN_ROOT in its environment (observed), so
    # ${PLUGIN_ROOT} is kept as written
    port=PortSpec("codex", "Codex", ".codex-plugin/plugin.json", "codex", root_skills=False),
    policy_export=to_codex,  # requirements.toml
)

GEMINI = Host(
    name="gemini",
    title="Gemini CLI",
    sources=(
        "https://geminicli.com/docs/cli/using-agent-skills",
        "https://geminicli.com/docs/extensions/reference",
        "https://geminicli.com/docs/cli/gemini-md",
        "https://geminicli.com/docs/hooks",
        "gemini skills list (0.61.0, observed)",
    ),
    # weakest first in Gemini's words: extension < ~/.gemini < ~/.agents < .gemini < .agents
    skills=(
        *_rows(PROJECT, (".agents", "{cwd}/.agents/skills"), (".gemini", "{cwd}/.gemini/skills")),
        *_rows(USER, (".agents", "{home}/.agents/skills"), (".gemini", "{home}/.gemini/skills")),
    ),
    commands=(
        *_rows(PROJECT, (".gemini", "{cwd}/.gemini/commands")),
        *_rows(USER, (".gemini", "{home}/.gemini/commands")),
    ),
    plugins=_rows(USER, (".gemini", "{home}/.gemini/extensions")),
    ancestors=True,  # GEMINI.md from cwd up to the git root (the skill rows name {cwd})
    plugin_formats=("gemini",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    plugin_skill_names="bare",  # an extension's skills dedupe with the others, weakest
    command_naming="path",
    instructions="gemini",
    skill_fields=("name", "description"),
    index=Index(overflow="none", style="gemini"),
    models=GEMINI_MODELS,
    events=GEMINI_EVENTS,
    untrusted="skip-project",
    trust_list="gemini",
    hook_files=False,
    include_workspace_plugin=False,
    port=PortSpec(
        "gemini",
        "Gemini CLI",
        "gemini-extension.json",
        "gemini",
        root="${extensionPath}",
        version="0.0.0",  # Gemini CLI refuses an extension without a version
        mcp=McpDialect(
            closed=True,
            remote=MappingProxyType({"streamable-http": (None, "httpUrl"), "sse": (None, "url")}),
        ),
        # agrees with Gemini CLI's own `gemini hooks migrate` (0.61.0, migrate.ts,
        # EVENT_MAPPING) for Claude Code's events; timeouts in milliseconds (its runner:
        # "Hook timed out after ${timeout}ms"); it reads a Claude Code plugin's
        # hooks/hooks.json where it is, in its own event names
        hooks=HookDialect(
            events=MappingProxyType({event: name for name, event in GEMINI_NAMES.items()}),
            tools=GEMINI_TOOLS,
            milliseconds=True,
            description=True,
            reads_in_place="claude",
        ),
    ),
)

CURSOR = Host(
    name="cursor",
    title="Cursor",
    sources=(
        "https://cursor.com/docs/context/skills",
        "https://cursor.com/docs/context/rules",
        "https://cursor.com/docs/reference/plugins",
        "https://cursor.com/docs/agent/hooks",
    ),
    skills=(
        *_rows(
            PROJECT,
            (".agents", "{project}/.agents/skills"),
            (".cursor", "{project}/.cursor/skills"),
            (".claude", "{project}/.claude/skills"),
            (".codex", "{project}/.codex/skills"),
        ),
        *_rows(
            USER,
            (".cursor", "{home}/.cursor/skills"),
            (".claude", "{home}/.claude/skills"),
            (".codex", "{home}/.codex/skills"),
        ),
    ),
    commands=(
        *_rows(PROJECT, (".cursor", "{project}/.cursor/commands")),
        *_rows(USER, (".cursor", "{home}/.cursor/commands")),
    ),
    agents=(
        *_rows(
            PROJECT,
            (".cursor", "{project}/.cursor/agents"),
            (".claude", "{project}/.claude/agents"),
        ),
        *_rows(USER, (".cursor", "{home}/.cursor/agents"), (".claude", "{home}/.claude/agents")),
    ),
    plugin_formats=("agent-plugins", "cursor"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    instructions="cursor",
    events=CURSOR_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    # of an Agent Plugins 1.0 plugin Cursor reads skills and MCP servers (not Mistral
    # Vibe's extension)
    carries=MappingProxyType({"agent-plugins": ("skills", "mcp_servers")}),
    port=PortSpec(
        "cursor",
        "Cursor",
        ".cursor-plugin/plugin.json",
        "cursor",
        hooks=HookDialect(events=CURSOR_NAMES),
    ),
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
        *_rows(
            PROJECT,
            (".github", "{project}/.github/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *_rows(USER, (".copilot", "{home}/.copilot/skills"), (".agents", "{home}/.agents/skills")),
    ),
    plugin_formats=("claude", "agent-plugins"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    instructions="copilot",
    hook_files=False,
    include_workspace_plugin=False,
)

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
        *_rows(
            PROJECT,
            (".opencode", "{project}/.opencode/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *_rows(
            USER,
            (".opencode", "{config}/opencode/skills"),
            (".claude", "{home}/.claude/skills"),
            (".agents", "{home}/.agents/skills"),
        ),
    ),
    commands=(
        *_rows(PROJECT, (".opencode", "{project}/.opencode/commands")),
        *_rows(USER, (".opencode", "{config}/opencode/commands")),
    ),
    agents=(
        *_rows(PROJECT, (".opencode", "{project}/.opencode/agents")),
        *_rows(USER, (".opencode", "{config}/opencode/agents")),
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
)

KIMI = Host(
    name="kimi",
    title="Kimi Code",
    sources=(
        "MoonshotAI/kimi-code docs/en/customization/skills.md",
        "MoonshotAI/kimi-code docs/en/customization/plugins.md",
        "MoonshotAI/kimi-code docs/en/customization/hooks.md",
    ),
    # Project > User; $KIMI_CODE_HOME is ~/.kimi-code
    skills=(
        *_rows(
            PROJECT,
            (".kimi-code", "{project}/.kimi-code/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *_rows(
            USER, (".kimi-code", "{home}/.kimi-code/skills"), (".agents", "{home}/.agents/skills")
        ),
    ),
    plugins=_rows(USER, (".kimi-code", "{home}/.kimi-code/plugins/managed")),
    plugin_formats=("kimi",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    argument_numbering=0,
    instructions="satchel",
    skill_fields=KIMI_FIELDS,
    events=KIMI_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    port=PortSpec(
        "kimi",
        "Kimi Code",
        "kimi.plugin.json",
        "kimi",
        hook_root="${KIMI_PLUGIN_ROOT}",  # in a hook's environment (its hooks.md)
        names=NameRule(KIMI_NAME, "[a-z0-9][a-z0-9_-]{0,63}"),
        mcp=McpDialect(relative=True),  # `cwd` must start with ./ (its plugins.md)
        hooks=HookDialect(timeouts=(1.0, 600.0)),  # 1-600 s (its hooks.md)
    ),
)

VIBE = Host(
    name="vibe",
    title="Mistral Vibe",
    sources=(
        "https://docs.mistral.ai/vibe/plugins",
        "https://agent-plugins.org/spec/1.0",
        "docs/plugins.md (Vibe's rules as implemented)",
    ),
    skills=(
        *_rows(
            PROJECT, (".vibe", "{project}/.vibe/skills"), (".agents", "{project}/.agents/skills")
        ),
        *_rows(USER, (".vibe", "{home}/.vibe/skills"), (".agents", "{home}/.agents/skills")),
    ),
    plugins=(
        *_rows(PROJECT, (".vibe", "{project}/.vibe/plugins")),
        *_rows(USER, (".vibe", "{home}/.vibe/plugins")),
    ),
    plugin_formats=("agent-plugins", "claude", "codex", "cursor", "kimi"),
    ambiguous_plugins="refuse",
    plugin_skill_rule="vibe",
    strict_plugins=True,
    instructions="satchel",
    events=VIBE_EVENTS,
    hook_files=False,
    include_workspace_plugin=False,
    # Vibe's compatibility table: what it adapts of another host's plugin
    carries=MappingProxyType(
        {
            "claude": ("skills", "mcp_servers", "hooks"),
            "codex": ("skills", "mcp_servers"),
            "kimi": ("skills", "mcp_servers", "hooks"),
        }
    ),
    port=PortSpec(
        "vibe",
        "Mistral Vibe",
        "plugin.json",
        "agent-plugins",
        root="${PLUGIN_ROOT}",
        data="${PLUGIN_DATA}",
        extension="ai.mistral.vibe",
        names=AGENT_PLUGINS_NAMES,
        mcp=McpDialect(
            closed=AGENT_PLUGINS_MCP.closed,
            stdio_type=AGENT_PLUGINS_MCP.stdio_type,
            remote=AGENT_PLUGINS_MCP.remote,
            refused=("sse",),  # Mistral Vibe refuses the sse transport
            rooted=False,
        ),
        hooks=HookDialect(events=VIBE_NAMES),
    ),
)

MERMAID = Host(
    name="mermaid",
    title="mermaid",
    client="mermaid",
    sources=("docs/layout.md (mermaid's table)", "docs/hooks.md", "docs/plugins.md"),
    skills=(
        *_rows(
            PROJECT,
            (".mermaid", "{project}/.mermaid/skills"),
            (".claude", "{project}/.claude/skills"),
            (".agents", "{project}/.agents/skills"),
        ),
        *_rows(
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
)

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
)

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

PROFILES: Mapping[str, Host] = MappingProxyType(
    {
        host.name: host
        for host in (
            SATCHEL,
            CLAUDE_CODE,
            CODEX,
            GEMINI,
            CURSOR,
            COPILOT,
            OPENCODE,
            KIMI,
            VIBE,
            MERMAID,
            ZIDANE,
            CAVEMAN,
        )
    }
)

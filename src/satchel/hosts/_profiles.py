"""The built-in host profiles, one per host, each with its sources (docs/hosts.md has
them side by side). Facts marked *observed* were read off the released program run
offline (tests/hosts/ checks them against it where the program installs from npm);
the rest come from the host's documentation.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CLAUDE_CODE_MODELS, CODEX_MODELS, GEMINI_MODELS
from satchel.layout import PROJECT, USER, RootSpec, WalkBounds, default_roots
from satchel.skills._names import HostNaming, NameRule

__all__ = ["PROFILES", "SATCHEL", "name_rules"]


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
    names=NameRule(note_hosts=True),  # the spec's rule, saying what Codex and Gemini CLI do
    index=Index(chars=8 * 1024, entries=64, overflow="last", bytes=8 * 1024),
    events=SATCHEL_EVENTS,
    claude_installed_plugins=True,
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
        # the skills Codex bundles and writes itself: a root of their own, as the walk
        # of $CODEX_HOME/skills skips dot folders (observed)
        *_rows(USER, (".codex", "{home}/.codex/skills/.system")),
    ),
    commands=_rows(USER, (".codex", "{home}/.codex/prompts")),
    ancestors=True,
    # codex-rs/core-skills loader, observed on 0.171.0: breadth-first to 6 levels, 2,000
    # folders (the root counted) and 20,000 entries (files too), into symlinked folders
    # wherever they point (each real folder once: the shallowest path), inside skills
    # too, a SKILL.md in the root itself; no dot folders, `node_modules` read, a
    # symlinked SKILL.md left out; a symlinked root read at its real path
    walk=WalkBounds(
        nested=True,
        max_depth=6,
        max_dirs=2000,
        max_entries=20_000,
        follow_symlinked_dirs=True,
        hidden_dirs=False,
        skip_dirs=(),
        skills_in_skills=True,
        root_skill=True,
        linked_skill_files=False,
        resolve_root=True,
    ),
    names=NameRule(spec=False, collapse_spaces=True),  # as written, on one line
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
    # skillLoader's glob ["SKILL.md", "*/SKILL.md"], ignoring **/node_modules/** and
    # **/.git/**, no dot folders (observed on 0.61.0): the root and its child folders,
    # symlinked ones too
    walk=WalkBounds(hidden_dirs=False, root_skill=True),
    # the name as written, each of : \ / < > * ? " | made a hyphen (skillLoader)
    names=NameRule(spec=False, replace=':\\/<>*?"|'),
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
    deprecated_skill_fields=("model", "thinking", "paths"),
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


def name_rules() -> tuple[HostNaming, ...]:
    """Every profile whose name rule is not the Agent Skills one, with its name limit,
    in the profiles' order (the ``skill.name.hosts`` note says what each does)."""
    return tuple(
        HostNaming(host.title, host.names, host.limits.name)
        for host in PROFILES.values()
        if not host.names.spec
    )

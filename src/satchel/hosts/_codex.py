"""Codex: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER, WalkBounds
from satchel.foundations._host_state import HostState
from satchel.foundations.policy._export import to_codex
from satchel.hosts._claude_code import CLAUDE_HOOK_EVENTS
from satchel.hosts._common import rows
from satchel.hosts._hooks import HookDialect, HookSwitch, Words
from satchel.hosts._installs import Installs
from satchel.hosts._instructions import InstructionRule, InstructionSource, InstructionText
from satchel.hosts._model import Host, Index, Limits
from satchel.hosts._models import CODEX_MODELS
from satchel.hosts._parts import Part
from satchel.hosts._port import McpDialect, PortHooks, PortSpec
from satchel.skills._names import NameRule

__all__ = [
    "CODEX_HOOK_LABELS",
    "CODEX_STATE",
    "CODEX",
    "CODEX_EVENTS",
    "CODEX_HOOKS",
    "CODEX_HOOK_EVENTS",
    "CODEX_INSTRUCTIONS",
    "CODEX_KEEPS",
    "CODEX_KEEPS_NATIVE",
    "CODEX_SEPARATOR",
]

CODEX_EVENTS = (
    "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
    "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionStart",
    "SessionEnd", "Interrupt",
)  # fmt: skip

_AGENTS_FILES = (
    InstructionSource("AGENTS.override.md", "override"),
    InstructionSource("AGENTS.md", "agents"),
)
CODEX_SEPARATOR = "\n\n--- project-doc ---\n\n"
# the first of AGENTS.override.md and AGENTS.md in ~/.codex and in every folder from the
# root down to cwd; the project's share 32 KiB (project_doc_max_bytes). Codex 0.171.0
# sends them as one user message: the global file's text stripped, then the project's
CODEX_INSTRUCTIONS = InstructionRule(
    mode="codex",
    host="Codex",
    source="Codex 0.171.0 as run; developers.openai.com/codex",
    user_folder="~/.codex",
    user=_AGENTS_FILES,
    project=_AGENTS_FILES,
    reader="first-file",
    max_total=32 * 1024,
    skip_empty_user=True,
    text=InstructionText(
        strip=("user",),
        user_join="",
        block="# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{files}\n</INSTRUCTIONS>",
        between=CODEX_SEPARATOR,
    ),
)

# Codex's hook events -> satchel's: Claude Code's names, in the same hooks.json shape
# (https://developers.openai.com/codex/hooks).
CODEX_HOOK_EVENTS: Mapping[str, str] = MappingProxyType(
    {name: CLAUDE_HOOK_EVENTS[name] for name in CODEX_EVENTS}
)

_TURN = ("turn_id", "model", "permission_mode")
_REQUEST = ("kind", "request_id", "attempt_number")  # Codex's model request events
_TOOL = ("tool_name", "tool_input", "tool_use_id")
# Codex 0.171.0 (`codex exec` with a hook on every event writing its stdin, observed:
# tests/hooks/test_codex_hook_loop.py; Interrupt on a SIGINT during a tool call):
# which context fields each event carries (the turn's id is the prompt's), and the
# event's own fields. PermissionRequest (never in exec mode, whose approval policy is
# "never") is read from its input schema. Its answers: openai/codex codex-rs/hooks
# output_parser.rs (satchel.runtime.hooks._answers has the rules). The rollout is
# ~/.codex/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<session_id>.jsonl, dated
# when the session starts.
# The tools a Codex hook's matcher names, by Claude Code's name (0.171.0: its shell
# calls are ``Bash`` in a hook's tool_name, observed: tests/hooks/test_codex_hook_loop.py;
# file edits are ``apply_patch``, which a matcher also finds as ``Write`` or ``Edit``,
# codex-rs hook_names.rs, so port writes those; an MCP tool is mcp__<server>__<tool>).
# Codex fires no hook for any other tool.
CODEX_TOOLS: Mapping[str, str] = MappingProxyType(
    {"Bash": "Bash", "Edit": "Edit", "MultiEdit": "Edit", "Write": "Write"}
)

CODEX_HOOKS = HookDialect(
    events=CODEX_HOOK_EVENTS,
    # `codex features list` (0.171.0): the stable feature `hooks`, on unless a config
    # file sets it false; `codex_hooks` is its old name, still read. Every config file
    # Codex reads counts, a trusted project's in each folder down to cwd too (observed:
    # sub/.codex/config.toml turns off the user's hooks, tests/checkup/test_hooks.py)
    switches=(
        HookSwitch((), "features.hooks", off=False, in_config=True),
        HookSwitch((), "features.codex_hooks", off=False, in_config=True),
    ),
    # 0.171.0 runs every copy of a hook two of its files register (observed:
    # tests/checkup/test_hooks.py)
    same_hook="each",
    answers="strict-json",
    # a refused PostToolUse replaces the tool's result by the reason; no hook stops a
    # compaction
    blocking=frozenset(("before_tool_use", "after_tool_use", "user_prompt_submit", "stop",
                        "permission_request")),
    stricter=(
        "a deny or block without a reason and an exit 2 with nothing on stderr refuse, "
        "and an ask asks; Codex 0.171.0 runs the call or takes the prompt"
    ),
    order=("session_id", "thread_id", "turn_id", "transcript_path", "cwd", "model",
           "permission_mode"),
    late=("model", "permission_mode"),
    extras=MappingProxyType(
        {
            "SessionStart": ("model", "permission_mode"),
            "UserPromptSubmit": _TURN,
            "PreToolUse": _TURN,
            "PermissionRequest": _TURN,
            "PostToolUse": _TURN,
            "Stop": _TURN,
            "PreCompact": ("turn_id", "model"),
            "PostCompact": ("turn_id", "model"),
            "Interrupt": _TURN,
            "PreModelRequest": ("thread_id", "turn_id", "model"),
            "PostModelRequest": ("thread_id", "turn_id", "model"),
        }
    ),
    only=MappingProxyType(
        {
            "Interrupt": (),
            "PreModelRequest": _REQUEST,
            "PostModelRequest": (*_REQUEST, "status", "error", "token_usage", "response_id"),
            "SessionStart": ("source",),
            "UserPromptSubmit": ("prompt",),
            "PreToolUse": _TOOL,
            "PermissionRequest": ("tool_name", "tool_input"),
            "PostToolUse": (*_TOOL, "tool_response"),
            "Stop": ("stop_hook_active", "last_assistant_message"),
            "PreCompact": ("trigger",),
            "PostCompact": ("trigger",),
            "SessionEnd": ("reason",),
        }
    ),
    defaults=MappingProxyType({"permission_mode": "default", "model": "gpt-6.2-sol"}),
    waits_declared_timeout=True,  # timeout_sec, 600 when unset, no ceiling (discovery.rs)
    # a refused call: what Codex sent its model next (a developer message for a context)
    words=Words(blocked="Command blocked by PreToolUse hook: {reason}. Command: {command}",
                blocked_by_exit=None, blocked_after="{reason}", asked=None,
                context="{text}", tool_context="{text}"),
    transcript=(
        "{home}/.codex/sessions/{now:%Y}/{now:%m}/{now:%d}/"
        "rollout-{now:%Y-%m-%dT%H-%M-%S}-{session_id}.jsonl"
    ),
    sources=("codex exec with a hook on every event (0.171.0, observed)",
             "openai/codex codex-rs/hooks/schema/generated/*.command.input.schema.json"),
)  # fmt: skip

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


# the label of each Codex event in its hook state keys (codex-rs/hooks/src/lib.rs)
CODEX_HOOK_LABELS = (
    ("PreToolUse", "pre_tool_use"), ("PermissionRequest", "permission_request"),
    ("PostToolUse", "post_tool_use"), ("PreCompact", "pre_compact"),
    ("PostCompact", "post_compact"), ("SessionStart", "session_start"),
    ("SessionEnd", "session_end"), ("UserPromptSubmit", "user_prompt_submit"),
    ("SubagentStart", "subagent_start"), ("SubagentStop", "subagent_stop"),
    ("Stop", "stop"), ("Interrupt", "interrupt"),
)  # fmt: skip

# Codex 0.171.0's own state (openai/codex codex-rs/core-plugins/src/loader.rs and store.rs,
# codex-rs/core-skills/src/config_rules.rs, codex-rs/hooks/src/engine/discovery.rs; each
# observed with codex debug prompt-input and codex mcp list --json)
CODEX_STATE = HostState(
    title="Codex",
    home="{home}/.codex",
    config="config.toml",
    project_config=".codex/config.toml",
    projects="projects",
    trust_key="trust_level",
    trusted="trusted",
    plugins="plugins",
    plugin_cache="plugins/cache",
    enabled_default=True,  # [plugins."a@m"] with no enabled key loads (observed)
    default_version="local",
    manifests=(
        ".codex-plugin/plugin.json",
        ".claude-plugin/plugin.json",
        ".cursor-plugin/plugin.json",
    ),
    plugin_servers="mcp_servers",  # [plugins."a@m".mcp_servers.s] enabled = false (observed)
    schema_manifest="plugin.json",
    schema_prefix="https://agent-plugins.org/schemas/",
    mcp_servers="mcp_servers",
    skill_rules="skills.config",
    doc_fallback="project_doc_fallback_filenames",
    doc_max_bytes="project_doc_max_bytes",
    hooks_file="hooks.json",
    hooks_table="hooks",
    hook_state="hooks.state",
    hook_events=CODEX_HOOK_LABELS,
    # observed with the app server's hooks/list: these keep no matcher; SessionEnd and
    # Interrupt hooks get 1 second unless given, at most 3; prompt and agent hooks are
    # skipped with a warning
    hook_unmatched=("UserPromptSubmit", "Stop", "Interrupt"),
    hook_timeout=600,
    hook_short=("SessionEnd", "Interrupt"),
    hook_short_cap=3,
    hook_skipped_types=("prompt", "agent"),
    hook_trusted="trusted_hash",
    hook_enabled="enabled",
    # the 0.171.0 TUI's words: at start "Hooks need review ... Trust all and continue",
    # and /hooks "view and manage lifecycle hooks"; `codex exec` never asks
    hook_trust=(
        'start codex and choose "Trust all and continue" when it says "Hooks need '
        'review", or trust it in /hooks; codex exec never asks'
    ),
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
        *rows(
            PROJECT, (".agents", "{project}/.agents/skills"), (".codex", "{project}/.codex/skills")
        ),
        *rows(USER, (".agents", "{home}/.agents/skills"), (".codex", "{home}/.codex/skills")),
        # the skills Codex bundles and writes itself: a root of their own, as the walk
        # of $CODEX_HOME/skills skips dot folders (observed)
        *rows(USER, (".codex", "{home}/.codex/skills/.system")),
    ),
    commands=rows(USER, (".codex", "{home}/.codex/prompts")),
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
    # a root plugin.json with an Agent Plugins $schema, then .codex-plugin, .claude-plugin
    # and .cursor-plugin (observed: an installed plugin of each loads)
    plugin_formats=("agent-plugins", "codex", "claude", "cursor"),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    argument_numbering=1,
    instructions="codex",
    skill_fields=("name", "description", "metadata"),
    # 2% of the model's window in tokens (8,000 characters only when the window is not
    # known); src/satchel/assembly/listings/_listing_codex.py renders the listing as Codex sends it
    index=Index(
        fraction=0.02,
        description=1024,
        overflow="shorten",
        style="codex",
        bounds_why="Codex budgets its listing itself, at 2% of the model's context window "
        "in tokens",
    ),
    models=CODEX_MODELS,
    limits=Limits(name=64, description=1024),
    events=CODEX_EVENTS,
    clash="every",
    hook_files=False,
    include_workspace_plugin=False,
    instruction_rule=CODEX_INSTRUCTIONS,
    hooks=CODEX_HOOKS,
    carries=MappingProxyType(
        {
            "agent-plugins": CODEX_KEEPS_NATIVE,
            "codex": CODEX_KEEPS,
            "claude": CODEX_KEEPS,
            "cursor": CODEX_KEEPS,
        }
    ),
    # Codex refuses a manifest path that is not below the root (`./` alone included); it
    # gives a hook PLUGIN_ROOT and CLAUDE_PLUGIN_ROOT in its environment (observed), so
    # ${PLUGIN_ROOT} is kept as written
    port=PortSpec(
        "codex",
        "Codex",
        ".codex-plugin/plugin.json",
        "codex",
        root_skills=False,
        # a plugin's server starts in the session's folder with no PLUGIN_ROOT, and a
        # relative cwd is the plugin's (observed: tests/port/test_hooks_in_hosts.py)
        mcp=McpDialect(starts_in_project=True),
        hooks=PortHooks(
            tools=CODEX_TOOLS,
            tool_aliases=MappingProxyType({"apply_patch": ("Edit", "Write")}),
            mcp_tool="mcp__{server}__{tool}",
            answers=("exit-2", "decision", "permission-decision"),
            handlers=("command",),  # prompt and agent hooks are skipped (hook_skipped_types)
        ),
    ),
    policy_export=to_codex,  # requirements.toml
    state=CODEX_STATE,
    # Codex reads no .mcp.json: its servers are its config files' (`state`)
    mcp_files=(),
    found_by=("{home}/.codex", "{project}/.codex"),
    # `codex plugin marketplace add` and `codex plugin add` (0.171.0, observed): the
    # marketplaces in [marketplaces.<name>] (source_type, source, ref) of config.toml, a
    # git one cloned into ~/.codex/.tmp/marketplaces/<name> (`marketplace upgrade`
    # refreshes the clone and the installed plugins' copies with it, observed)
    installs=Installs("config", marketplaces="marketplaces", clones=".tmp/marketplaces"),
)

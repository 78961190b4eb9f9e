"""Gemini CLI: everything satchel knows of this host, as data (docs/hosts.md has
every host side by side)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core.layout import PROJECT, USER, WalkBounds
from satchel.foundations._host_settings import HostSettings, PluginLink, SettingsFile
from satchel.hosts._common import rows
from satchel.hosts._hooks import (
    COMMON,
    HookDialect,
    HookOffList,
    HookSwitch,
    HookVariables,
    Words,
)
from satchel.hosts._installs import Installs
from satchel.hosts._instructions import InstructionRule, InstructionSource, InstructionText
from satchel.hosts._mcp import GEMINI_MCP, GEMINI_MCP_POLICY
from satchel.hosts._model import Host, Index
from satchel.hosts._models import GEMINI_MODELS
from satchel.hosts._port import McpDialect, PortHooks, PortSpec
from satchel.skills._names import NameRule

__all__ = [
    "GEMINI",
    "GEMINI_EVENTS",
    "GEMINI_EXTENSION_NAMES",
    "GEMINI_HOOKS",
    "GEMINI_HOOK_EVENTS",
    "GEMINI_INSTRUCTIONS",
    "GEMINI_ONLY",
    "GEMINI_TOOLS",
]

GEMINI_EVENTS = (
    "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "SessionStart", "SessionEnd", "PreCompress", "Notification",
)  # fmt: skip

_CONTEXT = InstructionSource("{context}", "gemini", imports="at-inline")
# GEMINI.md (or the names context.fileName gives) in ~/.gemini and in every folder from
# the root down to cwd, @file.md inlined. Gemini CLI 0.61.0 sends the user's files at the
# end of the system instruction and the project's in the first user message
GEMINI_INSTRUCTIONS = InstructionRule(
    mode="gemini",
    host="Gemini CLI",
    source="geminicli.com/docs/cli/gemini-md; Gemini CLI 0.61.0 as run",
    user_folder="~/.gemini",
    user=(_CONTEXT,),
    project=(_CONTEXT,),
    text=InstructionText(
        file="--- Context from: {path} ---\n{text}\n--- End of Context from: {path} ---",
        user_block="<loaded_context>\n{files}\n</loaded_context>",
        project_block=(
            "<loaded_context>\n<project_context>\n{files}\n</project_context>\n</loaded_context>"
        ),
    ),
)
# Gemini CLI's names -> satchel's (its HookEventName enum in google-gemini/gemini-cli
# packages/core/src/hooks/types.ts, mapped by what docs/hooks/reference.md says each one
# does). BeforeAgent fires after the prompt is submitted, before planning
# (UserPromptSubmit); AfterAgent once a turn ends, and can send the agent back to work
# (Stop); PreCompress is PreCompact.
GEMINI_HOOK_EVENTS: Mapping[str, str] = MappingProxyType({
    "BeforeTool": "before_tool_use", "AfterTool": "after_tool_use",
    "Notification": "notification", "BeforeAgent": "user_prompt_submit",
    "SessionStart": "session_start", "SessionEnd": "session_end", "AfterAgent": "stop",
    "PreCompress": "pre_compact",
})  # fmt: skip
# Gemini CLI's events with no satchel event: kept by name.
GEMINI_ONLY = ("BeforeModel", "AfterModel", "BeforeToolSelection")

# Gemini CLI 0.61.0 (`gemini -p` with a hook on every event writing its stdin, observed:
# tests/hooks/test_gemini_hook_loop.py; its bundle's hookEventHandler for the fields of
# the events print mode fires without a model of its own): every payload has the three
# common fields, ``hook_event_name`` and a ``timestamp``, then the event's fields.
_GEMINI_PAYLOAD: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "SessionStart": ("source",),
        "SessionEnd": ("reason",),
        "BeforeAgent": ("prompt",),
        "AfterAgent": ("prompt", "prompt_response", "stop_hook_active"),
        "BeforeTool": ("tool_name", "tool_input", "mcp_context", "original_request_name"),
        "AfterTool": ("tool_name", "tool_input", "tool_response", "mcp_context",
                      "original_request_name"),
        "PreCompress": ("trigger",),
        "Notification": ("notification_type", "message", "details"),
        "BeforeModel": ("llm_request",),
        "AfterModel": ("llm_request", "llm_response"),
        "BeforeToolSelection": ("llm_request",),
    }
)  # fmt: skip

_GEMINI_SETTINGS = ("{home}/.gemini/settings.json", "{cwd}/.gemini/settings.json")
GEMINI_HOOKS = HookDialect(
    format="gemini",
    events=GEMINI_HOOK_EVENTS,
    kept=GEMINI_ONLY,
    answer_fields="top-level-decision",
    variables=HookVariables(
        # docs/hooks/index.md: GEMINI_PROJECT_DIR and its alias CLAUDE_PROJECT_DIR
        project=("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
        # a command's own words, as satchel writes them when it reads the file
        placeholders=MappingProxyType({
            "${extensionPath}": "${PLUGIN_ROOT}",
            "${workspacePath}": "${GEMINI_PROJECT_DIR}",
            "${/}": "/",
            "${pathSeparator}": "/",
        }),
        # what 0.61.0 sets for every hook from its session (observed)
        session=MappingProxyType({
            "GEMINI_PROJECT_DIR": "{cwd}",
            "GEMINI_CWD": "{cwd}",
            "CLAUDE_PROJECT_DIR": "{cwd}",
            "GEMINI_SESSION_ID": "{session_id}",
            "GEMINI_PLANS_DIR": "{home}/.gemini/tmp/{cwd_name}/{session_id}/plans",
        }),
    ),
    # its settings schema (0.61.0): hooksConfig.enabled, "when disabled, no hooks will
    # be executed"
    switches=(HookSwitch(_GEMINI_SETTINGS, "hooksConfig.enabled", off=False),),
    # and hooksConfig.disabled, the hooks it does not run by name, else by command
    # (its hook registry's getHookName; the lists of both files count, "union")
    off_lists=(HookOffList(_GEMINI_SETTINGS, "hooksConfig.disabled"),),
    # its hook planner's deduplicateHooks (0.61.0): of the hooks matching an event, one
    # per getHookKey (``<name>:<command>``, the matcher not in it) runs, the first; two
    # names run twice (observed: tests/checkup/test_hooks.py)
    same_hook="once",
    same_key=("name",),
    answers="stdout-or-stderr",
    # a refused AfterTool replaces the tool's result by the reason; no hook stops a
    # compaction
    blocking=frozenset(("before_tool_use", "after_tool_use", "user_prompt_submit", "stop")),
    stricter=(
        "an exit 2 refuses whatever the hook printed; Gemini CLI 0.61.0 runs the call "
        "or takes the prompt when the hook printed nothing, or JSON that does not refuse"
    ),
    always=(*COMMON, "timestamp"),
    order=(*COMMON, "timestamp"),
    late=("timestamp",),
    only=_GEMINI_PAYLOAD,
    renames=MappingProxyType({"AfterAgent": {"last_assistant_message": "prompt_response"}}),
    objects=MappingProxyType({"AfterTool": {"tool_response": ("llmContent", "returnDisplay")}}),
    waits_declared_timeout=True,  # the hook's timeout in ms, 60 s when unset, no ceiling
    words=Words(blocked="Tool execution blocked: {reason}", blocked_by_exit=None,
                blocked_after="{reason}", asked=None,
                context="<hook_context>{text}</hook_context>",
                tool_context="<hook_context>{text}</hook_context>"),
    # ~/.gemini/tmp/<project folder's name>/chats/session-YYYY-MM-DDTHH-MM-<id[:8]>.jsonl
    transcript=(
        "{home}/.gemini/tmp/{cwd_name}/chats/session-{now:%Y-%m-%dT%H-%M}-{session_short}.jsonl"
    ),
    sources=("gemini -p with a hook on every event (0.61.0, observed)",
             "the bundle's hookEventHandler (packages/core/src/hooks)"),
)  # fmt: skip

# Claude Code's tool -> Gemini CLI's: `gemini hooks migrate`'s TOOL_NAME_MAPPING
# (0.61.0, migrate.ts) for Edit, Bash, Read, Write and Glob; the names its tool registry
# gives the others (the bundle's *_TOOL_NAME constants: grep_search, list_directory...,
# where migrate.ts still writes "grep" and "ls", which name no tool of 0.61.0)
GEMINI_TOOLS: Mapping[str, str] = MappingProxyType(
    {"Edit": "replace", "MultiEdit": "replace", "Bash": "run_shell_command",
     "Read": "read_file", "Write": "write_file", "Glob": "glob", "Grep": "grep_search",
     "LS": "list_directory", "WebFetch": "web_fetch", "WebSearch": "google_web_search",
     "TodoWrite": "write_todos", "Agent": "invoke_agent", "Task": "invoke_agent",
     "AskUserQuestion": "ask_user", "Skill": "activate_skill"}
)  # fmt: skip

# the name as written, each of : \ / < > * ? " | made a hyphen (skillLoader); a skill with
# no `name:` is one satchel names by its folder in a skills root (its Agent Skills rule,
# tests/hosts/test_gemini_differential.py's READER_RULES)
_NAMES = NameRule(spec=False, replace=':\\/<>*?"|')
# an extension's skills as Gemini CLI 0.61.0 lists them (`gemini extensions list`,
# observed: tests/port/test_examples_round_trip.py): the same rule, and a skill with no
# `name:` is not listed, as port reports it
GEMINI_EXTENSION_NAMES = NameRule(spec=False, replace=_NAMES.replace, required=True)

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
        *rows(PROJECT, (".agents", "{cwd}/.agents/skills"), (".gemini", "{cwd}/.gemini/skills")),
        *rows(USER, (".agents", "{home}/.agents/skills"), (".gemini", "{home}/.gemini/skills")),
    ),
    commands=(
        *rows(PROJECT, (".gemini", "{cwd}/.gemini/commands")),
        *rows(USER, (".gemini", "{home}/.gemini/commands")),
    ),
    plugins=rows(USER, (".gemini", "{home}/.gemini/extensions")),
    ancestors=True,  # GEMINI.md from cwd up to the git root (the skill rows name {cwd})
    plugin_formats=("gemini",),
    ambiguous_plugins="prefer",
    plugin_skill_rule="claude-code",
    plugin_skill_names="bare",  # an extension's skills dedupe with the others, weakest
    command_naming="path",
    instructions="gemini",
    skill_fields=("name", "description"),
    index=Index(
        overflow="none",
        style="gemini",
        bounds_why="Gemini CLI lists every skill whole, with no budget",
    ),
    models=GEMINI_MODELS,
    events=GEMINI_EVENTS,
    untrusted="skip-project",
    trust_list="gemini",
    hook_files=False,
    include_workspace_plugin=False,
    instruction_rule=GEMINI_INSTRUCTIONS,
    hooks=GEMINI_HOOKS,
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
        # hooks/hooks.json where it is, in its own event names, and only that file
        # (its extension manager's loadExtensionHooks); Claude Code reads the same file
        # and ignores Gemini's event keys there, so port adds them to it
        hooks=PortHooks(
            events=MappingProxyType({event: name for name, event in GEMINI_HOOK_EVENTS.items()}),
            tools=GEMINI_TOOLS,
            # MCP_TOOL_PREFIX "mcp_" and MCP_QUALIFIED_NAME_SEPARATOR "_" (0.61.0 bundle)
            mcp_tool="mcp_{server}_{tool}",
            # 0.61.0 reads no hookSpecificOutput.permissionDecision: the call runs
            # (observed: tests/port/test_hooks_in_hosts.py)
            answers=("exit-2", "decision"),
            milliseconds=True,
            description=True,
            reads_in_place="claude",
            adds_keys=True,
        ),
    ),
    mcp_files=GEMINI_MCP,
    mcp_policy=GEMINI_MCP_POLICY,
    untrusted_servers=False,  # observed: gemini mcp list, every server "Disabled"
    # observed (gemini skills list, extensions list 0.61.0): skills.disabled of both
    # files count, a workspace's context.fileName replaces the user's, and of two
    # extensions holding one skill the later folder (in name order) wins
    settings=HostSettings(
        files=(
            SettingsFile("{home}/.gemini/settings.json"),
            SettingsFile("{cwd}/.gemini/settings.json", owner="project"),
        ),
        disabled_skills=("skills", "disabled"),
        context_names=("context", "fileName"),
        plugin_enablement="{home}/.gemini/extensions/extension-enablement.json",
        # `gemini extensions link <folder>` (0.61.0, observed) writes only this record,
        # {"source": "<folder>", "type": "link"}: Gemini CLI loads the extension from
        # the folder it names (its loader's effectiveExtensionPath) and skips it when
        # that folder holds no gemini-extension.json; a "local" or "git" install is
        # the copied folder itself, loaded where it is
        plugin_link=PluginLink(".gemini-extension-install.json"),
    ),
    plugin_skill_clash="last",
    # skillLoader's glob ["SKILL.md", "*/SKILL.md"], ignoring **/node_modules/** and
    # **/.git/**, no dot folders (observed on 0.61.0): the root and its child folders,
    # symlinked ones too
    walk=WalkBounds(hidden_dirs=False, root_skill=True),
    names=_NAMES,
    found_by=("{home}/.gemini", "{project}/.gemini", "{project}/GEMINI.md"),
    # `gemini extensions install PATH` (0.61.0, observed): a copy in extensions/<name>/
    # with .gemini-extension-install.json ({"source", "type": local | link | git |
    # github-release, "ref"}); a linked extension's folder is its source; one installed
    # from git is a clone holding its .git (observed)
    installs=Installs(
        "folders",
        folder="{home}/.gemini/extensions",
        metadata=".gemini-extension-install.json",
        linked="link",
        skipped=(".git",),
    ),
)

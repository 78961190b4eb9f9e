"""satchel for the Claude Agent SDK: Claude Code runs the loop, satchel says what it gets.

`options(session)` turns satchel's view of the project into `ClaudeAgentOptions`:

* the enabled plugins Claude Code can read as they are (its own format), whose every
  hook and MCP server satchel's trust and policy let run, as local plugin directories
  (``plugins``): Claude Code runs their hooks and starts their servers itself, so
  satchel's own hooks leave theirs out (each fires once); a plugin satchel holds back
  in part (a hook, server, language server, monitor, ``bin/`` or skill's or agent's
  own hook changed since ``satchel trust``, a server the policy refuses) is not
  handed over, and nothing of an untrusted project is;
* satchel's hooks as SDK hook callbacks: ``PreToolUse`` (the hooks, then the active
  skills' ``allowed-tools`` / ``disallowed-tools``, then the developer's `ask`
  callback: ``permissionDecision``, ``updatedInput``, ``additionalContext``),
  ``PostToolUse``, ``UserPromptSubmit`` and ``Stop``, for every tool Claude Code
  calls, its own included; ``SessionStart`` fires before the first prompt (the SDK's
  callbacks do not include it), its context going with that prompt;
* the session's own tools (`tools`) as an in-process MCP server, allowed without a
  prompt (``skills_run_script`` only where the project runs), and the other MCP
  servers satchel allows as Claude Code server entries, under the names satchel's
  rules use (``plugin_<plugin>_<server>``; one named as satchel's own is left out);
* the agent types as ``agents`` (their tools in Claude Code's names, their preloaded
  skills' bodies in the prompt);
* the skills index and the instruction files satchel loaded (``AGENTS.md`` and the
  others its profile reads) appended to Claude Code's system prompt.

Claude Code's own project and user settings are not read (``setting_sources=[]``):
what the project holds reaches Claude Code through satchel, once. A user's ``/command``
or ``/skill`` is expanded by `prompt` before it is sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claude_agent_sdk import (
    AgentDefinition,
    ClaudeAgentOptions,
    HookMatcher,
    SdkMcpTool,
    create_sdk_mcp_server,
)

from satchel.assembly._policed import mcp_refusal
from satchel.core.diagnostics import diagnostic
from satchel.hooks._scoped import agent_owner, skill_owner
from satchel.hosts._claude_code import CLAUDE_CODE, claude_agent_tools
from satchel.integrations._bridge import Before, Bridge
from satchel.mcp._names import server_key
from satchel.runtime.mcp._launch import LaunchRefused, launch_spec
from satchel.trust._approval import programs_key

if TYPE_CHECKING:
    from claude_agent_sdk.types import (
        HookCallback,
        HookContext,
        HookEvent,
        HookInput,
        HookJSONOutput,
        McpSdkServerConfig,
        McpServerConfig,
        SdkPluginConfig,
    )

    from satchel.assembly._environment import Environment
    from satchel.integrations._bridge import Ask
    from satchel.mcp._spec import McpServer
    from satchel.plugins._model import Plugin
    from satchel.session import Session
    from satchel.session._model import Tool

__all__ = ["SERVER", "agents", "handed_plugins", "options", "prompt", "tools"]

SERVER = "satchel"
"""The name of the MCP server `tools` makes: Claude Code calls its tools
``mcp__satchel__<tool>``."""


# -- the session's tools ------------------------------------------------------------


def tools(session_or_bridge: Session | Bridge, *, name: str = SERVER) -> McpSdkServerConfig:
    """The session's own tools (``load_skill``, ``skills_use``... and, for a `Bridge`
    with a supervisor, its MCP tools) as an in-process MCP server for
    ``ClaudeAgentOptions.mcp_servers``. A call runs the tool and nothing else: the
    gate is the ``PreToolUse`` callback `options` installs."""
    made = [_sdk_tool(t) for t in Bridge.of(session_or_bridge).tools()]
    return create_sdk_mcp_server(name, tools=made)


def _sdk_tool(tool: Tool) -> SdkMcpTool[Any]:
    async def handler(arguments: Any) -> dict[str, Any]:
        result = await asyncio.to_thread(tool.call, dict(arguments or {}))
        return {"content": [{"type": "text", "text": result.text}], "is_error": result.is_error}

    schema = dict(tool.input_schema) or {"type": "object", "properties": {}}
    return SdkMcpTool(tool.name, tool.description, schema, handler)


# -- plugins and MCP servers --------------------------------------------------------


def handed_plugins(environment: Environment) -> tuple[Plugin, ...]:
    """The plugins Claude Code loads from their own directory: enabled, in Claude
    Code's format, and nothing of theirs held back by trust or policy (none, when the
    environment was loaded declarative-only)."""
    if not environment.options.executable:
        return ()
    formats = CLAUDE_CODE.plugin_formats or ()
    return tuple(
        p for p in environment.plugins.enabled() if p.format in formats and _whole(environment, p)
    )


def _whole(env: Environment, plugin: Plugin) -> bool:
    """Every hook of `plugin` loaded, every server of it one satchel would start, every
    skill of it loaded, and nothing else of it held back since ``satchel trust``:
    Claude Code may have it all."""
    if any(h.status != "loaded" for h in env.hooks.hooks if h.origin.plugin == plugin.name):
        return False
    started = {
        s.name
        for s in env.mcp_servers.enabled()
        if s.origin.plugin == plugin.name and mcp_refusal(s, env.policy) is None
    }
    if any(s.name not in started for s in plugin.mcp_servers):
        return False
    loaded = {s.path for s in env.skills.values()}
    return all(s.path in loaded for s in plugin.skills) and not _held(env, plugin)


def _held(env: Environment, plugin: Plugin) -> bool:
    """Whether satchel holds back something of `plugin` that Claude Code would run from
    its directory unasked: its language servers, monitors and ``bin/``
    (``plugin-programs``), a hook its skills' or agent types' frontmatter declares, a
    ``!`cmd``` line of its skills (`Environment.held_keys`)."""
    held = env.held_keys()
    if not held:
        return False
    skills = [s.name for s in env.skills.values() if s.origin.plugin == plugin.name]
    kinds = [a.name for a in env.agents.agents.values() if a.origin.plugin == plugin.name]
    theirs = (
        *(f"hook {skill_owner(n)}/" for n in skills),
        *(f"shell {skill_owner(n)}#" for n in skills),
        *(f"hook {agent_owner(n)}/" for n in kinds),
    )
    return programs_key(plugin.name) in held or any(k.startswith(theirs) for k in held)


def _plugin_dirs(handed: Iterable[Plugin]) -> list[SdkPluginConfig]:
    return [{"type": "local", "path": str(p.root)} for p in handed]


def _servers(
    environment: Environment, handed: frozenset[str], environ: Mapping[str, str]
) -> dict[str, McpServerConfig]:
    """The MCP servers satchel starts that no handed plugin brings, as Claude Code
    entries (a stdio server's command, arguments and scrubbed environment as satchel
    would start it; one satchel refuses to start is left out), each under the name
    satchel's rules use (`server_key`: a plugin's ``plugin_<plugin>_<server>``, so
    Claude Code calls its tools ``mcp__plugin_<plugin>_<server>__<tool>``)."""
    found: dict[str, McpServerConfig] = {}
    if not environment.options.executable:
        return found
    for server in environment.mcp_servers.enabled():
        owner = server.origin.plugin
        if owner in handed or mcp_refusal(server, environment.policy) is not None:
            continue
        plugin = environment.plugins.plugins.get(owner or "")
        entry = _server(environment, server, plugin, environ)
        if entry is not None:
            found[server_key(server)] = entry
    return found


def _without(
    servers: dict[str, McpServerConfig], own: str, session: Session
) -> dict[str, McpServerConfig]:
    """`servers` less the one named as satchel's own server `own` (its tools are
    satchel's, allowed without a prompt): that one is left out, with
    ``mcp.server.shadowed`` in the session's diagnostics."""
    if own not in servers:
        return servers
    message = (
        f"MCP server {own!r} is left out of Claude Code's servers: satchel's own tools "
        f"are served under that name (mcp__{own}__<tool>)"
    )
    session.note(diagnostic("mcp.server.shadowed", message))
    return {k: v for k, v in servers.items() if k != own}


def _server(
    env: Environment, server: McpServer, plugin: Plugin | None, environ: Mapping[str, str]
) -> McpServerConfig | None:
    if server.url is not None:
        headers = dict(server.headers)
        if server.transport == "sse":
            return {"type": "sse", "url": server.url, "headers": headers}
        return {"type": "http", "url": server.url, "headers": headers}
    try:
        launch = launch_spec(
            server,
            plugin=plugin,
            project=env.layout.project,
            environ=environ,
            failed="mcp.server.connection_failed",
        )
    except LaunchRefused:
        return None
    command, *args = launch.argv
    return {"type": "stdio", "command": command, "args": args, "env": dict(launch.env)}


def _leave_to_claude_code(bridge: Bridge, handed: frozenset[str]) -> None:
    """What Claude Code loads from the handed plugins' directories is its own: the
    session's environment keeps every other hook (each hook fires once) and no longer
    offers those plugins' skills (each skill is listed once)."""
    session = bridge.session
    env = session.environment
    kept = tuple(h for h in env.hooks.hooks if h.origin.plugin not in handed)
    theirs = [n for n, s in env.skills.items() if s.origin.plugin in handed]
    if len(kept) == len(env.hooks.hooks) and not theirs:
        return
    off = {**env.skill_overrides, **dict.fromkeys(theirs, "off")}
    session.adopt(
        dataclasses.replace(
            env, hooks=dataclasses.replace(env.hooks, hooks=kept), skill_overrides=off
        )
    )


# -- agents -------------------------------------------------------------------------


def agents(session_or_bridge: Session | Bridge) -> dict[str, AgentDefinition]:
    """The agent types (but a handed plugin's: Claude Code has those) as
    ``ClaudeAgentOptions.agents``: the prompt followed by each preloaded skill's
    body, the tools and disallowed tools in Claude Code's names (None: every tool),
    the model, turn limit, effort and permission mode as written."""
    session = Bridge.of(session_or_bridge).session
    env = session.environment
    handed = {p.name for p in handed_plugins(env)}
    found: dict[str, AgentDefinition] = {}
    for kind in env.agents.agents.values():
        if kind.origin.plugin in handed:
            continue
        spec = kind.spawn_spec(env)
        tools, refused = claude_agent_tools(
            kind.format,
            (kind.tools_as_written, kind.disabled_tools_as_written),
            (spec.tools, spec.disallowed_tools),
        )
        found[spec.name] = AgentDefinition(
            description=kind.description,
            prompt=spec.prompt(),
            tools=tools,
            disallowedTools=refused or None,
            model=spec.model,
            maxTurns=spec.max_turns,
            effort=spec.effort,  # type: ignore[arg-type]
            permissionMode=spec.permission_mode,  # type: ignore[arg-type]
        )
    return found


# -- hooks --------------------------------------------------------------------------


def _own_name(tool_name: str, server: str) -> str:
    """The name satchel knows a call by: its own tools without Claude Code's MCP prefix."""
    prefix = f"mcp__{server}__"
    return tool_name[len(prefix) :] if tool_name.startswith(prefix) else tool_name


def _pre_answer(verdict: Before) -> HookJSONOutput:
    out: dict[str, Any] = {"hookEventName": "PreToolUse"}
    decision = verdict.decision
    if not verdict.run:
        out["permissionDecision"] = "deny"
        out["permissionDecisionReason"] = verdict.refusal or ""
    elif decision is not None and _said_allow(decision):
        out["permissionDecision"] = "allow"
    if verdict.run and decision is not None and decision.updated_input is not None:
        out["updatedInput"] = dict(decision.updated_input)
    if verdict.context:
        out["additionalContext"] = verdict.context
    return {"hookSpecificOutput": out}  # type: ignore[typeddict-item]


def _said_allow(decision: Any) -> bool:
    """A hook allowed the call, or the developer's `ask` callback approved it: Claude
    Code asks nobody else. Otherwise its own permission rules stand."""
    if decision.behavior == "ask":
        return True
    ran = decision.hooks
    return ran is not None and any(r.decision == "allow" for r in ran.results)


def _hooks(bridge: Bridge, server: str) -> dict[HookEvent, list[HookMatcher]]:
    session = bridge.session

    async def pre(data: HookInput, call_id: str | None, _: HookContext) -> HookJSONOutput:
        name = _own_name(str(data.get("tool_name")), server)
        verdict = await bridge.abefore(name, data.get("tool_input"), call_id)  # type: ignore[arg-type]
        return _pre_answer(verdict)

    async def post(data: HookInput, call_id: str | None, _: HookContext) -> HookJSONOutput:
        name = _own_name(str(data.get("tool_name")), server)
        got = data.get("tool_response")
        after = await bridge.aafter(name, data.get("tool_input"), got, call_id)  # type: ignore[arg-type]
        outcome = after.outcome
        answer: dict[str, Any] = {}
        extra = after.context
        if outcome is not None and outcome.behavior == "deny":
            answer = {"decision": "block", "reason": outcome.reason or ""}
            extra = outcome.additional_context
        if extra:
            answer["hookSpecificOutput"] = {
                "hookEventName": "PostToolUse",
                "additionalContext": extra,
            }
        return answer  # type: ignore[return-value]

    started: list[str | None] = []

    async def prompt_submit(data: HookInput, _id: str | None, _: HookContext) -> HookJSONOutput:
        if not started:  # no SessionStart callback in the SDK: it fires before the first turn
            started.append(await asyncio.to_thread(bridge.started, "startup"))
        said = {"prompt": data.get("prompt", "")}
        outcome = await asyncio.to_thread(session.hooks.fire, "user_prompt_submit", said)
        return _answer("UserPromptSubmit", outcome, started[0])

    async def stop(data: HookInput, _id: str | None, _: HookContext) -> HookJSONOutput:
        said = {
            "stop_hook_active": bool(data.get("stop_hook_active")),
            "last_assistant_message": data.get("last_assistant_message", ""),
        }
        outcome = await asyncio.to_thread(session.hooks.fire, "stop", said)
        if outcome is None or outcome.behavior != "deny":
            return {}
        return {"decision": "block", "reason": outcome.reason or "a Stop hook asked to go on"}

    events: dict[HookEvent, HookCallback] = {
        "PreToolUse": pre,
        "PostToolUse": post,
        "UserPromptSubmit": prompt_submit,
        "Stop": stop,
    }
    return {event: [HookMatcher(hooks=[call])] for event, call in events.items()}


def _answer(event: str, outcome: Any, before: str | None = None) -> HookJSONOutput:
    if outcome is not None and outcome.behavior == "deny":
        return {"decision": "block", "reason": outcome.reason or "blocked by a hook"}
    said = (before, None if outcome is None else outcome.additional_context)
    context = "\n\n".join(s for s in said if s)
    if not context:
        return {}
    specific = {"hookEventName": event, "additionalContext": context}
    return {"hookSpecificOutput": specific}  # type: ignore[typeddict-item]


# -- the options --------------------------------------------------------------------


def _unasked(env: Environment, own: list[str]) -> list[str]:
    """Which of satchel's own tools (`own`, in Claude Code's names) run without a
    prompt: all of them, but ``skills_run_script`` only where the project runs
    (`Trust.run_project`: trusted, and not loaded declarative-only); elsewhere Claude
    Code's own permission rules (and `can_use_tool`) say whether a skill's script runs."""
    runs = env.trust.run_project and env.options.executable
    return [n for n in own if runs or not n.endswith("__skills_run_script")]


def prompt(session_or_bridge: Session | Bridge, text: str) -> str:
    """The user's message as Claude Code should get it: a ``/command`` or ``/skill``
    of the project expanded (Claude Code does not read the project's own files)."""
    return Bridge.of(session_or_bridge).session.expand(text)


def options(
    session_or_bridge: Session | Bridge,
    *,
    ask: Ask | None = None,
    system_prompt: str = "",
    server: str = SERVER,
    **overrides: Any,
) -> ClaudeAgentOptions:
    """`ClaudeAgentOptions` holding satchel's view of the project (see the module).

    `ask` answers a hook's ``ask`` (without one such a call is refused). `system_prompt`
    goes before satchel's instructions, appended to Claude Code's own. `overrides` are
    more `ClaudeAgentOptions` fields: ``allowed_tools`` and ``mcp_servers`` are added to
    satchel's, ``hooks`` run next to satchel's, any other field replaces satchel's."""
    bridge = Bridge.of(session_or_bridge, ask=ask)
    env = bridge.session.environment
    handed = handed_plugins(env)
    names = frozenset(p.name for p in handed)
    _leave_to_claude_code(bridge, names)
    # the session's own tools only: Claude Code reaches the MCP servers itself
    own = [f"mcp__{server}__{t.name}" for t in bridge.session.tools()]
    servers = _without(
        _servers(env, names, bridge.session.activation.runner.environ), server, bridge.session
    )
    hooks = _hooks(bridge, server)
    for event, matchers in (overrides.pop("hooks", None) or {}).items():
        hooks[event] = [*hooks.get(event, []), *matchers]
    append = bridge.instructions(system_prompt)
    fields: dict[str, Any] = {
        "cwd": str(env.layout.cwd),
        "setting_sources": [],
        "plugins": _plugin_dirs(handed),
        "mcp_servers": {
            **({server: tools(bridge.session, name=server)} if own else {}),
            **servers,
            **(overrides.pop("mcp_servers", None) or {}),
        },
        "allowed_tools": [*_unasked(env, own), *overrides.pop("allowed_tools", [])],
        "hooks": hooks,
        "agents": agents(bridge),
        "system_prompt": {"type": "preset", "preset": "claude_code", "append": append},
    }
    return ClaudeAgentOptions(**{**fields, **overrides})

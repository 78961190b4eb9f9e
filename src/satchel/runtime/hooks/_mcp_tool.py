"""``type: "mcp_tool"`` hooks: a tool of a running MCP server called with the event
(code.claude.com/docs/en/hooks, "MCP tool hooks": ``server``, ``tool``, ``input``).

The call goes through the supervisor the host hands the runner
(`satchel.runtime.mcp.BlockingSupervisor`, or anything with its ``tools`` and
``call_tool``). ``server`` names a configured server, or a plugin's as Claude Code
scopes it (``plugin:<plugin>:<server>``). ``input``'s string values may hold
``${path}`` placeholders filled from the event's JSON (``${tool_input.file_path}``);
a path that leads nowhere is the empty string. A hook without ``input`` gets the
event's JSON itself as its arguments (satchel's choice; Claude Code's docs do not say
what it sends then, unverified). The result's text is read as a command hook's
stdout; an error result is ``hook.mcp_tool.failed``; no supervisor is
``hook.mcp_tool.unavailable``, and the hook gives no opinion. The hook's timeout bounds
the wait (``hook.timeout``; the call itself runs on until the supervisor's own call
timeout).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from satchel.core.diagnostics import diagnostic
from satchel.foundations.process import ProcessResult
from satchel.hooks._model import Hook, HookResult
from satchel.runtime.hooks._output import failure_result, read_result
from satchel.runtime.hooks._python import HookTimeout, call_within
from satchel.runtime.mcp._catalog import McpTool, ToolResult

__all__ = ["McpCaller", "arguments_for", "run_mcp_tool"]

_PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")


class McpCaller(Protocol):
    """What an mcp_tool hook needs of a supervisor: its tools and a waiting call."""

    @property
    def tools(self) -> tuple[McpTool, ...]: ...

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolResult: ...


def arguments_for(hook: Hook, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The tool's arguments: the hook's ``input`` with its placeholders filled from
    `payload`, or `payload` itself when the hook has no ``input``."""
    given = hook.spec.params.get("input")
    if not given:
        return dict(payload)
    return {key: _filled(value, payload) for key, value in given.items()}


def _filled(value: Any, payload: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: _text(_lookup(payload, m.group(1))), value)
    if isinstance(value, dict):
        return {k: _filled(v, payload) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, payload) for v in value]
    return value


def _lookup(payload: Mapping[str, Any], path: str) -> Any:
    value: Any = payload
    for part in path.strip().split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def run_mcp_tool(
    hook: Hook, event: str, payload: Mapping[str, Any], mcp: McpCaller | None, timeout: float
) -> HookResult:
    """Call the hook's tool with the event and read its answer."""
    params = hook.spec.params
    server, tool = str(params["server"]), str(params["tool"])
    if mcp is None:
        return _unavailable(hook, event, server, tool)
    found = _find(mcp.tools, server, tool)
    if found is None:
        why = f"calls {tool!r} of MCP server {server!r}, which no running server offers"
        return failure_result(hook, event, "hook.mcp_tool.failed", why)
    try:
        result = call_within(mcp.call_tool, (found.name, arguments_for(hook, payload)), timeout)
    except HookTimeout:
        why = f"timed out after {timeout:g} s calling {tool!r} of {server!r}; its answer is dropped"
        return failure_result(hook, event, "hook.timeout", why, timed_out=True)
    except Exception as e:  # noqa: BLE001 - the supervisor's failure is the hook's
        why = f"could not call {tool!r} of {server!r}: {type(e).__name__}: {e}"
        return failure_result(hook, event, "hook.mcp_tool.failed", why)
    if result.is_error:
        said = result.reason or result.text.strip() or "an error result"
        return failure_result(hook, event, "hook.mcp_tool.failed", f"got an error: {said}")
    run = ProcessResult(("mcp_tool", server, tool), 0, result.text, "")
    return read_result(hook, event, run)


def _find(tools: Sequence[McpTool], server: str, tool: str) -> McpTool | None:
    for candidate in tools:
        scoped = f"plugin:{candidate.plugin}:{candidate.server}" if candidate.plugin else None
        if candidate.tool == tool and server in (candidate.server, scoped):
            return candidate
    return None


def _unavailable(hook: Hook, event: str, server: str, tool: str) -> HookResult:
    message = (
        f"hook {hook.name!r} calls {tool!r} of MCP server {server!r}, but the runner has "
        "no MCP supervisor; the hook is skipped"
    )
    hint = "HookRunner(environment, mcp=supervisor.blocking()) hands it one"
    problem = diagnostic("hook.mcp_tool.unavailable", message, hook.spec.path, hint=hint)
    return replace(HookResult(hook, None, "", ""), diagnostics=(problem,))

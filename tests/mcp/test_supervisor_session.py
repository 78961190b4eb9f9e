"""An MCP tool call gated by a real `Session.before_tool_use`: a hook matched on the
Claude Code name of the tool, and an active skill's allowed-tools (issue: calls go
through ``Session.before_tool_use``)."""

from __future__ import annotations

import json
import os
from typing import Any

import anyio

from satchel.session import Session
from tests.hooks.support import hooks_toml, py_hook, write_hooks
from tests.support import put

from .supervisor_support import SERVERS, load, script, stdio, supervisor, write_plugin

ECHO = "mcp__plugin_kit_api__echo"
CALLS = "mcp__plugin_kit_api__calls"
GUARD = """\
import json, sys
call = json.load(sys.stdin)
if call["tool_input"].get("text") == "secret":
    print("no secrets over MCP", file=sys.stderr)
    sys.exit(2)
if call["tool_input"].get("text") == "shout":
    out = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
           "updatedInput": {"text": "SHOUT"}}
    print(json.dumps({"hookSpecificOutput": out}))
"""
ONLY_ECHO = f"---\nname: echo-only\ndescription: Echo.\nallowed-tools: {ECHO}\n---\nEcho.\n"


def test_a_hook_and_the_allowed_tools_gate_decide_mcp_calls(layout, project, tmp_path):
    root = write_plugin(project, "kit", {})
    write_plugin(project, "kit", {"api": stdio(script(root, "server", SERVERS / "sdk_server.py"))})
    guard = {"command": py_hook(tmp_path, "guard", GUARD)}
    write_hooks(project, hooks_toml(("before_tool_use", "mcp__plugin_kit_.*", [guard])))
    put(project / ".agents" / "skills" / "echo-only" / "SKILL.md", ONLY_ECHO)
    env = load(layout)
    session = Session(env, environ={"PATH": os.environ["PATH"]}, enforce_allowed_tools="on")
    session.activate("echo-only")
    sup = supervisor(env)

    async def run() -> tuple[Any, ...]:
        async with sup:
            secret = await sup.call_tool(ECHO, {"text": "secret"}, session)
            shout = await sup.call_tool(ECHO, {"text": "shout"}, session)
            calls = await sup.call_tool(CALLS, {}, session)  # outside allowed-tools
            session.activation.deactivate("echo-only")
            seen = await sup.call_tool(CALLS, {}, session)
            return secret, shout, calls, seen

    secret, shout, calls, seen = anyio.run(run)
    assert (secret.denied, secret.text) == (
        True,
        f"the call to {ECHO} was denied: no secrets over MCP",
    )
    assert (shout.denied, shout.text) == (False, "SHOUT")
    assert calls.denied
    assert calls.text.startswith(
        f"the call to {CALLS} was denied: tool {CALLS!r} is not allowed: skill 'echo-only'"
    )
    assert json.loads(seen.text) == ["SHOUT"]  # only the rewritten call reached the server

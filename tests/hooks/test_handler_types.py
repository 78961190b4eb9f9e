"""Handler types beyond ``command`` (http, mcp_tool, prompt, agent) and Python hooks
registered in code, run by the real runner: a real HTTP server on 127.0.0.1, a real
stdio MCP server, real command hooks beside them."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

import satchel
from satchel.hooks import HookMatcher
from satchel.runtime.hooks import HookRunner
from tests.hooks.support import fire, pre_tool, reply
from tests.mcp.supervisor_support import SERVERS, script, stdio, supervisor, write_plugin
from tests.support import codes

LAUNCH = SERVERS / "launch_server.py"
BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


class _Server:
    """A loopback HTTP server that records each request and answers `body` with
    `status`."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self.status = 200
        self.body = ""
        self.delay = 0.0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                data = json.loads(self.rfile.read(length))
                outer.requests.append((self.path, dict(self.headers), data))
                time.sleep(outer.delay)
                payload = outer.body.encode()
                self.send_response(outer.status)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.handle_error = lambda *_: None  # type: ignore[method-assign]  # a client gone
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    # polled every 0.05 s, not the default 0.5 s: shutdown() waits for the next poll
    thread = threading.Thread(target=srv.httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.httpd.shutdown()
        srv.httpd.server_close()


def settings(layout: satchel.Layout, hooks: dict[str, Any], **more: Any) -> satchel.Environment:
    """The environment with `hooks` in the project's Claude Code settings.json."""
    path = layout.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, **more.pop("keys", {})}))
    return satchel.load(layout=layout, claude_settings_hooks=True, **more)


def pre(*handlers: dict[str, Any], matcher: str = "Bash") -> dict[str, Any]:
    return {"PreToolUse": [{"matcher": matcher, "hooks": list(handlers)}]}


def test_http_hook_posts_the_event_and_its_answer_decides(layout, server):
    server.body = json.dumps(pre_tool("deny", "no ls over http"))
    hook = {"type": "http", "url": f"{server.url}/gate"}
    env = settings(layout, pre(hook), keys={"allowedHttpHookUrls": [f"{server.url}/*"]})
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert (outcome.behavior, outcome.reason) == ("deny", "no ls over http")
    ((path, _, sent),) = server.requests
    assert path == "/gate"
    assert (sent["hook_event_name"], sent["tool_name"], sent["tool_input"]) == (
        "PreToolUse", "Bash", {"command": "ls"})  # fmt: skip


def test_http_hook_to_a_url_not_allowed_is_refused_and_never_sent(layout, server):
    hook = {"type": "http", "url": f"{server.url}/gate"}
    env = settings(layout, pre(hook), keys={"allowedHttpHookUrls": ["https://hooks.example/*"]})
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert server.requests == []
    assert codes(outcome.diagnostics) == ["hook.http.refused"]
    assert outcome.diagnostics[0].message == (
        f"hook '{server.url}/gate' posts to {server.url}/gate, which no allowed URL "
        "pattern lists; not sent"
    )


def test_http_hook_with_no_allow_list_sends_nothing_unlike_claude_code(layout, server):
    """Rule: satchel sends nothing until a pattern allows the URL (Claude Code posts
    anywhere when allowedHttpHookUrls is absent)."""
    env = settings(layout, pre({"type": "http", "url": server.url}))
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert server.requests == [] and codes(outcome.diagnostics) == ["hook.http.refused"]


def test_http_hook_allowed_by_the_load_option(layout, server):
    env = settings(layout, pre({"type": "http", "url": server.url}),
                   allowed_http_hook_urls=[server.url])  # fmt: skip
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert len(server.requests) == 1 and outcome.diagnostics == ()


def test_http_header_fills_only_the_env_vars_the_hook_allows(layout, server):
    hook = {
        "type": "http",
        "url": server.url,
        "headers": {"Authorization": "Bearer $TOKEN", "X-Other": "${SECRET}-x"},
        "allowedEnvVars": ["TOKEN"],
    }
    env = settings(layout, pre(hook), allowed_http_hook_urls=[server.url])
    environ = {"TOKEN": "t0k", "SECRET": "s3cret", "PATH": "/usr/bin"}
    HookRunner(env, environ=environ).run("before_tool_use", BASH)
    ((_, headers, _),) = server.requests
    assert headers["Authorization"] == "Bearer t0k"
    assert headers["X-Other"] == "-x"  # not listed: the empty string, as Claude Code


def test_http_header_env_vars_are_cut_to_the_settings_policy(layout, server):
    hook = {
        "type": "http",
        "url": server.url,
        "headers": {"A": "$TOKEN", "B": "$TEAM"},
        "allowedEnvVars": ["TOKEN", "TEAM"],
    }
    keys = {"allowedHttpHookUrls": [server.url], "httpHookAllowedEnvVars": ["TEAM"]}
    env = settings(layout, pre(hook), keys=keys)
    assert env.hooks.http_env_vars == ("TEAM",)
    HookRunner(env, environ={"TOKEN": "t0k", "TEAM": "core"}).run("before_tool_use", BASH)
    ((_, headers, _),) = server.requests
    assert (headers["A"], headers["B"]) == ("", "core")


def test_http_hook_non_2xx_is_a_non_blocking_error(layout, server):
    server.status = 500
    env = settings(layout, pre({"type": "http", "url": server.url}),
                   allowed_http_hook_urls=[server.url])  # fmt: skip
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert [d.message for d in outcome.diagnostics] == [
        f"hook {server.url!r} answered HTTP 500 from {server.url}"
    ]
    assert codes(outcome.diagnostics) == ["hook.http.failed"]


def test_prompt_and_agent_hooks_without_a_callback_are_skipped_with_a_code(layout):
    env = settings(layout, pre({"type": "prompt", "prompt": "safe?"},
                               {"type": "agent", "prompt": "verify"}))  # fmt: skip
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.model.unavailable"] * 2
    assert outcome.diagnostics[0].message == (
        "prompt hook 'safe?' needs a model, and no model_hook callback is registered; "
        "the hook is skipped"
    )
    assert [r.decision for r in outcome.results] == [None, None]


def test_prompt_hook_is_handed_to_the_host_callback(layout):
    env = settings(layout, pre({"type": "prompt", "prompt": "safe?", "model": "small"}))
    seen: list[tuple[str, str, str]] = []

    def model_hook(hook, payload):
        seen.append((hook.spec.type, hook.spec.params["prompt"], payload["tool_name"]))
        return pre_tool("ask", "the model is unsure")

    outcome = HookRunner(env, model_hook=model_hook).run("before_tool_use", BASH)
    assert seen == [("prompt", "safe?", "Bash")]
    assert (outcome.behavior, outcome.reason) == ("ask", "the model is unsure")


def test_mcp_tool_hook_calls_a_real_stdio_server(layout):
    root = write_plugin(layout.project, "kit", {})
    write_plugin(layout.project, "kit", {"fixture": stdio(script(root, "server", LAUNCH))})
    answer = json.dumps(pre_tool("deny", "the server says no to ${tool_input.command}"))
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "mcp_tool", "server": "fixture", "tool": "echo", "input": {"text": answer}},
            {"type": "mcp_tool", "server": "fixture", "tool": "nope"},
        ]}],
        "UserPromptSubmit": [{"hooks": [
            {"type": "mcp_tool", "server": "plugin:kit:fixture", "tool": "echo",
             "input": {"text": "prompt was ${prompt}"}},
        ]}],
    }  # fmt: skip
    env = settings(layout, hooks)
    with supervisor(env).blocking() as mcp:
        runner = HookRunner(env, mcp=mcp)
        gate = runner.run("before_tool_use", BASH)
        prompt = runner.run("user_prompt_submit", {"prompt": "hello"})
    assert (gate.behavior, gate.reason) == ("deny", "the server says no to ls")
    assert [(d.code, d.message) for d in gate.diagnostics] == [
        (
            "hook.mcp_tool.failed",
            "hook 'fixture/nope' calls 'nope' of MCP server 'fixture', which no running "
            "server offers",
        )
    ]
    assert prompt.additional_context == "prompt was hello"


def test_mcp_tool_hook_without_a_supervisor_is_skipped_with_a_code(layout):
    hook = {"type": "mcp_tool", "server": "fixture", "tool": "echo"}
    outcome = HookRunner(settings(layout, pre(hook))).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.mcp_tool.unavailable"]


def test_python_hooks_sync_and_async_answer_like_command_hooks(layout):
    env = satchel.load(layout=layout)
    calls: list[tuple[str, str | None]] = []

    def sync_hook(data, tool_use_id, context):
        calls.append((data["tool_name"], tool_use_id))
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "additionalContext": "from sync"}}  # fmt: skip

    async def async_hook(data, tool_use_id, context):
        await asyncio.sleep(0)
        return pre_tool("deny", f"async saw {context.event}")

    runner = HookRunner(env, hooks={"PreToolUse": [HookMatcher("Bash", [sync_hook, async_hook])]})
    outcome = runner.run("before_tool_use", {**BASH, "tool_use_id": "t1"})
    assert calls == [("Bash", "t1")]
    assert (outcome.behavior, outcome.reason) == ("deny", "async saw before_tool_use")
    assert outcome.additional_context == "from sync"
    assert {r.hook.source for r in outcome.results} == {"code"}
    other = runner.run("before_tool_use", {"tool_name": "Edit", "tool_input": {}})
    assert other.results == ()  # the matcher is Bash only


def test_python_hook_that_raises_or_times_out_is_a_non_blocking_error(layout):
    env = satchel.load(layout=layout)

    def broken(data, tool_use_id, context):
        raise RuntimeError("boom")

    def slow(data, tool_use_id, context):
        time.sleep(5)
        return pre_tool("deny")

    runner = HookRunner(env)
    runner.register("before_tool_use", HookMatcher(None, [broken]), HookMatcher(None, [slow], 0.2))
    outcome = runner.run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.python.failed", "hook.timeout"]
    assert [d.message for d in outcome.diagnostics] == [
        "hook 'test_python_hook_that_raises_or_times_out_is_a_non_blocking_error.<locals>."
        "broken' raised RuntimeError: boom",
        "hook 'test_python_hook_that_raises_or_times_out_is_a_non_blocking_error.<locals>."
        "slow' timed out after 0.2 s; its answer is dropped",
    ]


def test_python_hooks_aggregate_after_command_hooks_in_declared_order(layout, tmp_path):
    command = reply(tmp_path, "first", out=pre_tool("allow", updatedInput={"command": "ls -1"}))
    env = settings(layout, pre({"type": "command", "command": command}))

    def second(data, tool_use_id, context):
        return pre_tool("allow", updatedInput={"command": "ls -2"})

    outcome = HookRunner(env, hooks={"PreToolUse": [HookMatcher(None, [second])]}).run(
        "before_tool_use", BASH
    )
    assert [r.hook.source for r in outcome.results] == ["claude-project", "code"]
    assert outcome.updated_input == {"command": "ls -2"}  # the last in declared order
    assert codes(outcome.diagnostics) == ["hook.rewrite.conflict"]


def test_session_registers_python_hooks_on_its_gate(layout):
    session = satchel.Session(satchel.load(layout=layout))
    session.hooks.register_hooks(
        "PreToolUse", HookMatcher("Bash", [lambda d, t, c: pre_tool("deny", "no")])
    )
    decision = session.before_tool_use("Bash", {"command": "ls"})
    assert (decision.behavior, decision.reason) == ("deny", "no")


def test_http_hook_past_its_timeout_is_a_non_blocking_error(layout, server):
    server.delay = 3.0
    hook = {"type": "http", "url": server.url, "timeout": 0.3}
    env = settings(layout, pre(hook), allowed_http_hook_urls=[server.url])
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        ("hook.timeout", f"hook {server.url!r} timed out after 0.3 s posting to {server.url}")
    ]
    assert outcome.results[0].timed_out


def test_prompt_hook_whose_callback_raises_is_a_non_blocking_error(layout):
    env = settings(layout, pre({"type": "agent", "prompt": "verify"}))

    def model_hook(hook, payload):
        raise ConnectionError("model offline")

    outcome = HookRunner(env, model_hook=model_hook).run("before_tool_use", BASH)
    assert outcome.behavior == "allow"
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        (
            "hook.model.failed",
            "hook 'verify' was handed to model_hook, which raised ConnectionError: model offline",
        )
    ]


def test_python_hook_answers_in_the_sdk_spelling(layout):
    def stop(data, tool_use_id, context):
        return {"continue_": False, "stopReason": "enough", "systemMessage": "stopping"}

    runner = HookRunner(satchel.load(layout=layout))
    runner.register("Stop", HookMatcher(hooks=[stop]))
    outcome = runner.run("Stop", {"stop_hook_active": False})
    assert (outcome.stop, outcome.stop_reason) == (True, "enough")
    assert outcome.system_messages == ("stopping",)


def test_session_hands_prompt_hooks_to_its_model_hook(layout):
    env = settings(layout, pre({"type": "prompt", "prompt": "safe?"}))
    session = satchel.Session(env)
    session.hooks.hook_services(
        model_hook=lambda hook, payload: pre_tool("deny", "the model says no")
    )
    decision = session.before_tool_use("Bash", {"command": "ls"})
    assert (decision.behavior, decision.reason) == ("deny", "the model says no")


def test_hooks_toml_declares_an_http_hook_and_strict_denies_when_refused(layout, server):
    """satchel's own hooks.toml takes Claude Code's handler types too; `strict` makes a
    refused URL deny, as it makes any failure of a satchel hook deny."""
    handler = {"type": "http", "url": f"{server.url}/gate", "strict": True, "name": "gate"}
    outcome = fire(layout, ("before_tool_use", "Bash", [handler]))
    assert outcome.behavior == "deny"
    assert outcome.reason == (
        f"hook 'gate' failed (posts to {server.url}/gate; not sent) and is set to deny on failure"
    )
    assert server.requests == [] and codes(outcome.diagnostics) == ["hook.http.refused"]
    [hook] = outcome.results
    assert (hook.hook.spec.type, hook.hook.spec.format, hook.hook.source) == (
        "http", "satchel", "project")  # fmt: skip


def test_each_handler_type_gets_claude_codes_default_timeout(layout):
    """Hooks reference, "timeout": "Defaults: 600 for command, 30 for prompt, 60 for
    agent"; an http hook waits 10 minutes, an mcp_tool hook as long as a command."""
    runner = HookRunner(satchel.load(layout=layout))
    kinds = ("command", "http", "mcp_tool", "prompt", "agent", "python")
    assert [runner.default_timeout(k) for k in kinds] == [600, 600, 600, 30, 60, 60]
    assert HookRunner(satchel.load(layout=layout), timeout=5).default_timeout("prompt") == 5
    assert HookRunner(satchel.load(layout=layout), max_timeout=20).default_timeout("agent") == 20


def test_a_model_hook_past_its_timeout_is_dropped(layout):
    env = settings(layout, pre({"type": "prompt", "prompt": "slow", "timeout": 0.2}))
    release = threading.Event()

    def model_hook(hook, payload):
        release.wait(5)
        return pre_tool("deny", "too late")

    outcome = HookRunner(env, model_hook=model_hook).run("before_tool_use", BASH)
    release.set()
    assert outcome.behavior == "allow"
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        ("hook.timeout", "hook 'slow' timed out after 0.2 s in model_hook; its answer is dropped")
    ]
    assert outcome.results[0].timed_out


@pytest.mark.parametrize(("on_failure", "behavior"), [("continue", "allow"), ("block", "deny")])
def test_an_http_hooks_on_failure_says_whether_a_failed_call_blocks(
    layout, server, on_failure, behavior
):
    """Claude Code 2.1.332's schema: ``onFailure`` ``continue`` (the default) reports
    the failure and goes ahead; ``block`` blocks the action for as long as it fails."""
    server.status = 500
    hook = {"type": "http", "url": server.url, "onFailure": on_failure}
    env = settings(layout, pre(hook), allowed_http_hook_urls=[server.url])
    outcome = HookRunner(env).run("before_tool_use", BASH)
    assert outcome.behavior == behavior
    assert codes(outcome.diagnostics) == ["hook.http.failed"]


def test_an_on_failure_that_is_neither_continue_nor_block_is_refused(layout):
    env = settings(layout, pre({"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": 1}))
    assert [d.message for d in env.diagnostics if d.code == "plugin.hooks.invalid"] == [
        "PreToolUse group #1 handler #1: onFailure must be 'continue' or 'block', not 1; "
        "it is skipped"
    ]

"""A stdio MCP server whose answer nests 100,000 levels deep: the call (or the
handshake) fails at once with a clear error, never waiting for its timeout, and the
server goes on answering."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import anyio

from .supervisor_support import load, script, stdio, supervisor, write_plugin

DEPTH = 100_000
# A raw JSON-RPC server over stdio (no SDK, so it starts quickly): `deep` answers with
# a result nesting DEPTH levels deep, `shallow` with a plain text block. With the
# argument "handshake" it answers initialize itself that way.
SERVER = textwrap.dedent(
    """
    import json, sys

    DEEP = "[" * {depth} + "]" * {depth}
    HANDSHAKE = sys.argv[1:] == ["handshake"]

    def send(request_id, result):
        body = json.dumps({{"jsonrpc": "2.0", "id": request_id, "result": "RESULT"}})
        sys.stdout.write(body.replace('"RESULT"', result) + "\\n")
        sys.stdout.flush()

    TOOL = {{"type": "object", "properties": {{}}}}
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            if HANDSHAKE:
                send(request_id, '{{"deep": ' + DEEP + "}}")
                continue
            send(request_id, json.dumps({{
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {{"tools": {{}}}},
                "serverInfo": {{"name": "deep", "version": "1"}},
            }}))
        elif method == "tools/list":
            tools = [{{"name": n, "inputSchema": TOOL}} for n in ("deep", "shallow")]
            send(request_id, json.dumps({{"tools": tools}}))
        elif method == "tools/call" and message["params"]["name"] == "deep":
            send(request_id, '{{"content": [], "structuredContent": {{"x": ' + DEEP + "}}}}")
        elif method == "tools/call":
            send(request_id, json.dumps({{"content": [{{"type": "text", "text": "fine"}}]}}))
        else:
            send(request_id, "{{}}")
    """
).format(depth=DEPTH)


def _server(tmp_path: Path) -> Path:
    path = tmp_path / "deep_server.py"
    path.write_text(SERVER)
    return path


def test_a_too_deep_answer_fails_its_call_at_once_and_the_server_goes_on(layout, project, tmp_path):
    root = write_plugin(project, "kit", {})
    write_plugin(project, "kit", {"deep": stdio(script(root, "deep", _server(tmp_path)))})
    # the call timeout is long: a call that waited for it would fail this test's bound
    sup = supervisor(load(layout), call_timeout=120)

    async def run() -> tuple[str, str, bool]:
        async with sup:
            with anyio.fail_after(60):  # only a "did not hang" bound
                deep = await sup.call_tool("mcp__plugin_kit_deep__deep", {})
                shallow = await sup.call_tool("mcp__plugin_kit_deep__shallow", {})
            return deep.text, shallow.text, deep.is_error

    deep, shallow, is_error = anyio.run(run)
    message = (
        "MCP server 'deep' of plugin 'kit' answered the call to mcp__plugin_kit_deep__deep "
        "with JSON nesting deeper than 128 levels; the answer was not read"
    )
    assert (deep, is_error) == (message, True)
    assert shallow == "fine"
    assert [(d.code, d.message, d.path) for d in sup.diagnostics] == [
        ("mcp.message.too_deep", message, root / "mcp.json")
    ]
    assert [r.status for r in sup.servers] == ["stopped"]


def test_a_too_deep_handshake_answer_fails_the_server_at_once(layout, project, tmp_path):
    root = write_plugin(project, "kit", {})
    server = stdio(script(root, "deep", _server(tmp_path), "handshake"))
    write_plugin(project, "kit", {"deep": server})
    sup = supervisor(load(layout), timeout=120)

    async def run() -> None:
        with anyio.fail_after(60):  # only a "did not hang" bound
            async with sup:
                pass

    anyio.run(run)
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            "plugin.mcp.connection_failed",
            "MCP server 'deep' of plugin 'kit' failed during the MCP handshake: its answer "
            "nests deeper than 128 levels and was not read",
        )
    ]
    assert json.dumps([r.status for r in sup.servers]) == '["failed"]'

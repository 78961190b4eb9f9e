"""A stdio MCP server with the standard library only, for the supervisor's tests that
need a real server process, not the SDK's own behaviour: the tools, prompt and
resource of ``sdk_server.py`` as that server lists and answers them (``launch``
reports how this process was launched: pid, argv, cwd and the environment, as JSON).
It starts in a few milliseconds, where a server written with the SDK first spends
about a second importing it.

It speaks newline-delimited JSON-RPC 2.0 on stdin/stdout: initialize, ping, the
tools, prompts and resources methods; notifications get no answer, other methods an
error. It writes ``launch fixture starting`` on stderr first.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

CALLS: list[str] = []


def _tool(name: str, description: str, *arguments: str) -> dict[str, Any]:
    properties = {a: {"title": a.title(), "type": "string"} for a in arguments}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if arguments:
        schema["required"] = list(arguments)
    output = {"properties": {"result": {"title": "Result", "type": "string"}}}
    output.update(required=["result"], type="object")
    return {"name": name, "description": description, "inputSchema": schema, "outputSchema": output}


TOOLS = [
    _tool("echo", "Echo the text back.", "text"),
    _tool("calls", "The texts `echo` was called with so far, as JSON."),
    _tool("launch", "How this process was launched: pid, argv, cwd and the environment, as JSON."),
    _tool("lookup", "Look something up.", "query"),
]
GREET = {
    "name": "greet",
    "description": "Greet someone.",
    "arguments": [{"name": "who", "required": True}],
}
README = {
    "name": "readme",
    "uri": "fixture://readme",
    "description": "The readme.",
    "mimeType": "text/plain",
}


def _call(name: str, arguments: dict[str, Any]) -> str:
    if name == "echo":
        CALLS.append(arguments["text"])
        return str(arguments["text"])
    if name == "calls":
        return json.dumps(CALLS)
    if name == "launch":
        here = {"pid": os.getpid(), "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}
        return json.dumps(here)
    if name == "lookup":
        return f"found {arguments['query']}"
    raise LookupError(name)


def handle(method: str, params: dict[str, Any]) -> object:
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
            "serverInfo": {"name": "launch-fixture", "version": "1.0.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        text = _call(str(params.get("name")), params.get("arguments") or {})
        content = [{"type": "text", "text": text}]
        return {"content": content, "structuredContent": {"result": text}, "isError": False}
    if method == "prompts/list":
        return {"prompts": [GREET]}
    if method == "prompts/get" and params.get("name") == "greet":
        text = f"Hello {(params.get('arguments') or {})['who']}"
        message = {"role": "user", "content": {"type": "text", "text": text}}
        return {"description": GREET["description"], "messages": [message]}
    if method == "resources/list":
        return {"resources": [README]}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    if method == "resources/read" and params.get("uri") == README["uri"]:
        text = {"uri": README["uri"], "mimeType": "text/plain", "text": "the fixture readme"}
        return {"contents": [text]}
    raise LookupError(method)


def main() -> None:
    print("launch fixture starting", file=sys.stderr, flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        answer: dict[str, object] = {"jsonrpc": "2.0", "id": message["id"]}
        try:
            answer["result"] = handle(message["method"], message.get("params") or {})
        except LookupError as missing:
            answer["error"] = {"code": -32601, "message": f"unknown: {missing}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

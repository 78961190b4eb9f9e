"""A stdio MCP server with the standard library only, for the supervisor's launch tests:
its one tool, ``launch``, reports how this process was launched (pid, argv, cwd and
the environment, as JSON). It starts in a few milliseconds, where a server written
with the SDK first spends about a second importing it.

It speaks newline-delimited JSON-RPC 2.0 on stdin/stdout: initialize, ping,
tools/list and tools/call; notifications get no answer, other methods an error. It
writes ``launch fixture starting`` on stderr first.
"""

from __future__ import annotations

import json
import os
import sys

LAUNCH = {
    "name": "launch",
    "description": "How this process was launched: pid, argv, cwd and the environment, as JSON.",
    "inputSchema": {"type": "object", "properties": {}},
}


def handle(method: str, params: dict[str, object]) -> object:
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "launch-fixture", "version": "1.0.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [LAUNCH]}
    if method == "tools/call" and params.get("name") == "launch":
        here = {"pid": os.getpid(), "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}
        return {"content": [{"type": "text", "text": json.dumps(here)}], "isError": False}
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

"""A tiny language server for the failure tests, run as ``python fake_server.py MODE``.

Modes: ``error`` answers initialize with a JSON-RPC error; ``nocaps`` answers it with
a result that has no capabilities; ``deaf`` answers initialize, then ignores shutdown
and exit (it is killed at stop); ``garbage`` prints a line that is not a frame;
``silent`` never answers; ``config`` asks for its settings (workspace/configuration)
and reports what it got as its serverInfo version."""

from __future__ import annotations

import json
import sys
import time


def send(message: dict) -> None:
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def receive() -> dict | None:
    length = 0
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        if not line.strip():
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(sys.stdin.buffer.read(length))


def main(mode: str) -> None:
    if mode == "garbage":
        print("hello from a server that does not frame", flush=True)
    if mode in ("garbage", "silent"):
        time.sleep(60)
        return
    while (message := receive()) is not None:
        method, ident = message.get("method"), message.get("id")
        if method == "initialize":
            if mode == "error":
                send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32603, "message": "no"}})
            elif mode == "nocaps":
                send({"jsonrpc": "2.0", "id": ident, "result": {"serverInfo": {"name": "x"}}})
            elif mode == "config":
                item = {"section": "fake.level"}
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": "ask",
                        "method": "workspace/configuration",
                        "params": {"items": [item]},
                    }
                )
                asked = receive() or {}
                info = {"name": "fake", "version": json.dumps(asked.get("result"))}
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": ident,
                        "result": {"capabilities": {}, "serverInfo": info},
                    }
                )
            else:
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": ident,
                        "result": {"capabilities": {"hoverProvider": True}},
                    }
                )
        elif method == "shutdown" and mode != "deaf":
            send({"jsonrpc": "2.0", "id": ident, "result": None})
        elif method == "exit" and mode != "deaf":
            return


if __name__ == "__main__":
    main(sys.argv[1])

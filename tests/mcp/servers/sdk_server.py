"""A small MCP server written with the SDK, for the supervisor's tests.

Run with no argument it serves stdio. ``--http`` serves HTTP on 127.0.0.1 (a real
uvicorn server on a free port, printed as ``port=N`` on stdout): streamable HTTP at
``/mcp``, the legacy SSE transport at ``/sse``, and, with ``--token T``, streamable
HTTP at ``/guarded/mcp`` too, answering 401 to any request there without
``Authorization: Bearer T``.

Its tools report what the process sees (argv, cwd, environment), so the tests can
check how the supervisor launched it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from _loopback import serve_http
from mcp.server.mcpserver import MCPServer

app = MCPServer("fixture", instructions="A fixture server.")


CALLS: list[str] = []


@app.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    CALLS.append(text)
    return text


@app.tool()
def calls() -> str:
    """The texts `echo` was called with so far, as JSON."""
    return json.dumps(CALLS)


@app.tool()
def launch() -> str:
    """How this process was launched: pid, argv, cwd and the environment, as JSON."""
    here = {"pid": os.getpid(), "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    return json.dumps(here)


@app.tool()
def lookup(query: str) -> str:
    """Look something up."""
    return f"found {query}"


@app.prompt()
def greet(who: str) -> str:
    """Greet someone."""
    return f"Hello {who}"


@app.resource("fixture://readme")
def readme() -> str:
    """The readme."""
    return "the fixture readme"


GUARDED = "/guarded"


def _http(token: str | None) -> None:
    streamable, sse = app.streamable_http_app(), app.sse_app()

    async def served(scope, receive, send):  # type: ignore[no-untyped-def]
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith(GUARDED):
            headers = dict(scope.get("headers") or [])
            if token is None or headers.get(b"authorization") != f"Bearer {token}".encode():
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"www-authenticate", b'Bearer realm="fixture"')],
                    }
                )
                await send({"type": "http.response.body", "body": b"unauthorized"})
                return
            scope = {**scope, "path": path.removeprefix(GUARDED)}
        if scope["type"] == "http" and path.startswith(("/sse", "/messages")):
            await sse(scope, receive, send)
            return
        await streamable(scope, receive, send)  # and the lifespan, which runs its sessions

    serve_http(served)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--token")
    args, _ = parser.parse_known_args()
    print("fixture server starting", file=sys.stderr, flush=True)
    if args.http:
        _http(args.token)
    else:
        app.run()


if __name__ == "__main__":
    main()

"""A small MCP server written with the SDK, for the supervisor's tests.

Run with no argument it serves stdio. ``--http`` serves streamable HTTP on
127.0.0.1 (a real uvicorn server on a free port, printed as ``port=N`` on stdout);
``--token T`` makes it answer 401 to any request without ``Authorization: Bearer T``.
``--sse`` serves the legacy SSE transport instead.

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


def _http(sse: bool, token: str | None) -> None:
    inner = app.sse_app() if sse else app.streamable_http_app()

    async def guarded(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and token is not None:
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"www-authenticate", b'Bearer realm="fixture"')],
                    }
                )
                await send({"type": "http.response.body", "body": b"unauthorized"})
                return
        await inner(scope, receive, send)

    serve_http(guarded)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--sse", action="store_true")
    parser.add_argument("--token")
    args, _ = parser.parse_known_args()
    print("fixture server starting", file=sys.stderr, flush=True)
    if args.http or args.sse:
        _http(args.sse, args.token)
    else:
        app.run()


if __name__ == "__main__":
    main()

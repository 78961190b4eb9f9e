"""An MCP server written with the SDK that answers at one protocol revision only.

``--only 2026-07-28`` refuses the ``initialize`` handshake (``Method not found``, as a
server that dropped it does); ``--only 2025-11-25`` refuses ``server/discover`` and any
request in the 2026-07-28 envelope. Run with ``--only`` it serves stdio; with ``--http``
it serves both on 127.0.0.1 (printing ``port=N``): the 2026-07-28 one at
``/modern/mcp``, the 2025-11-25 one at ``/legacy/mcp``, and that one again at
``/status-<N>/mcp``, where a ``server/discover`` is answered with the bare HTTP status N
(as a server of 2025-11-25 that knows nothing of it may answer: 400, 404, 405...).

Its tools ask the user (form and URL elicitation), log, report progress, wait to be
cancelled, and add a tool (the tool list changes: a notification at 2025-11-25, a
``subscriptions/listen`` event at 2026-07-28).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Annotated, Any

import anyio
from _loopback import serve_http
from mcp.server.context import ServerRequestContext
from mcp.server.elicitation import ElicitationResult
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp.server.runner import serve_loop
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND, PROTOCOL_VERSION_META_KEY
from pydantic import BaseModel

MODERN, LEGACY = "2026-07-28", "2025-11-25"
CANCELLED: list[str] = []  # the calls of `wait` that were cancelled


class Colour(BaseModel):
    colour: str


def ask_colour() -> Elicit[Colour]:
    return Elicit("Which colour?", Colour)


def refusing(only: str) -> Any:
    """Middleware that refuses every request of the other revision."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        meta = (ctx.params or {}).get("_meta") if isinstance(ctx.params, dict) else None
        modern = ctx.method == "server/discover" or (
            isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta
        )
        if (only == MODERN and ctx.method == "initialize") or (only == LEGACY and modern):
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=ctx.method)
        return await call_next(ctx)

    return middleware


def build(only: str) -> MCPServer:
    app = MCPServer(f"era-{only}", version="1.0", middleware=[refusing(only)])

    @app.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @app.tool()
    async def colour(answer: Annotated[ElicitationResult[Colour], Resolve(ask_colour)]) -> str:
        """Ask the user for a colour."""
        if answer.action == "accept":
            return f"colour {answer.data.colour}"
        return f"no colour: {answer.action}"

    @app.tool()
    async def visit(ctx: Context) -> str:
        """Ask the user to open a page."""
        answer = await ctx.elicit_url("Sign in, please.", "https://example.test/sign-in", "e-1")
        return f"visit {answer.action}"

    @app.tool()
    async def work(ctx: Context) -> str:
        """Log, and report progress halfway."""
        await ctx.info("working")
        await ctx.report_progress(1, 2, "half way")
        return "worked"

    @app.tool()
    async def wait(label: str) -> str:
        """Wait until cancelled."""
        try:
            await anyio.sleep(60)
        except anyio.get_cancelled_exc_class():
            CANCELLED.append(label)
            raise
        return "waited"

    @app.tool()
    def cancelled() -> str:
        """The labels of the `wait` calls that were cancelled, as JSON."""
        return json.dumps(CANCELLED)

    @app.tool()
    async def grow(name: str, ctx: Context) -> str:
        """Add a tool of this name and say the tools changed."""
        app.add_tool(lambda: name, name=name, description="A grown tool.")
        if ctx.request_context.protocol_version == MODERN:
            await ctx.notify_tools_changed()
        else:
            await ctx.request_context.session.send_tool_list_changed()
        return f"grew {name}"

    return app


def _http() -> None:
    modern, legacy = build(MODERN), build(LEGACY)
    apps = {"/modern": modern.streamable_http_app(), "/legacy": legacy.streamable_http_app()}

    async def served(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            async with contextlib.AsyncExitStack() as stack:
                for app in (modern, legacy):
                    await stack.enter_async_context(app.session_manager.run())
                await receive()
                await send({"type": "lifespan.startup.complete"})
                await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        path = scope.get("path", "")
        if path.startswith("/status-"):
            status, _, rest = path.removeprefix("/status-").partition("/")
            await _refusing_discover(
                int(status), apps["/legacy"], {**scope, "path": "/" + rest}, receive, send
            )
            return
        for prefix, app in apps.items():
            if path.startswith(prefix + "/"):
                await app({**scope, "path": path.removeprefix(prefix)}, receive, send)
                return
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    serve_http(served)


async def _refusing_discover(status: int, app: Any, scope: Any, receive: Any, send: Any) -> None:
    """`app`, but a POST of ``server/discover`` is answered with the bare `status`."""
    if scope["method"] != "POST":
        await app(scope, receive, send)
        return
    messages, body = [], b""
    while True:
        message = await receive()
        messages.append(message)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if b'"server/discover"' in body:
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return

    async def replay() -> Any:
        return messages.pop(0) if messages else await receive()

    await app(scope, replay, send)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=(MODERN, LEGACY))
    parser.add_argument("--http", action="store_true")
    args = parser.parse_args()
    print(f"era server {args.only or 'http'} starting", file=sys.stderr, flush=True)
    if args.http:
        _http()
    elif args.only == LEGACY:
        anyio.run(_handshake_only, build(LEGACY))
    else:
        build(MODERN).run()


async def _handshake_only(app: MCPServer) -> None:
    """stdio as a server of 2025-11-25 runs it: the handshake, and no other era (the
    SDK's own stdio loop would take a ``server/discover`` as the sign of the new one)."""
    server = app._lowlevel_server
    async with stdio_server() as (read, write), server.lifespan(server) as state:
        options = server.create_initialization_options()
        await serve_loop(server, read, write, lifespan_state=state, init_options=options)


if __name__ == "__main__":
    main()

"""What the fixture servers of this folder share: streamable HTTP on a free port of
127.0.0.1, and the Skills extension's two methods.

`serve_http` listens before it prints ``port=N`` on stdout, so a client that connects
at once waits in the backlog until uvicorn accepts it. `skills_extension` declares
``io.modelcontextprotocol/skills`` with the given ``skills/list`` and ``skills/get``
handlers, and `complete` wraps a result as the extension's cacheable answer.
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp_types import RequestParams

Handler = Callable[[ServerRequestContext[Any, Any], Any], Awaitable[dict[str, Any]]]


def serve_http(asgi: Any) -> None:
    """Serve the ASGI app `asgi` on a free port of 127.0.0.1 until killed."""
    import anyio
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections wait in the backlog until uvicorn accepts them
    print(f"port={sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(asgi, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


class ListParams(RequestParams):
    cursor: str | None = None


class GetParams(RequestParams):
    uri: str


def complete(**fields: Any) -> dict[str, Any]:
    """A Skills-extension result: complete, not to be cached."""
    return {**fields, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


def skills_extension(listed: Handler, got: Handler) -> Extension:
    """The Skills extension answering ``skills/list`` with `listed`, ``skills/get`` with `got`."""

    class Skills(Extension):
        identifier = "io.modelcontextprotocol/skills"

        def methods(self) -> list[MethodBinding]:
            return [
                MethodBinding("skills/list", ListParams, listed),
                MethodBinding("skills/get", GetParams, got),
            ]

    return Skills()

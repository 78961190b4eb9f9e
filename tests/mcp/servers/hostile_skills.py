"""A skills server written with the ``mcp`` SDK that serves whatever a test tells it to.

Its one argument is a JSON file: ``{"skills": [...], "files": {uri: text}, "flood":
{uri: count}}``. ``skills/list`` answers with the ``skills`` entries as given (URIs with
``..``, absolute paths, backslashes: nothing is checked here), ``skills/get`` with the
entry of that URI, and ``resources/read`` of a URI in ``files`` with its text; a URI in
``flood`` is answered with ``count`` bytes of ``x``, whatever its manifest lists.
It declares ``io.modelcontextprotocol/skills`` and serves stdio, or streamable HTTP on
127.0.0.1 with ``--http`` (printing ``port=N`` once it listens).
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.shared.exceptions import MCPError
from mcp_types import RequestParams

SPEC = json.loads(Path(sys.argv[1]).read_text())
SKILLS: list[dict[str, Any]] = SPEC.get("skills", [])
FILES: dict[str, str] = SPEC.get("files", {})
FLOOD: dict[str, int] = SPEC.get("flood", {})


class ListParams(RequestParams):
    cursor: str | None = None


class GetParams(RequestParams):
    uri: str


def _result(**fields: Any) -> dict[str, Any]:
    return {**fields, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


async def _list(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    return _result(skills=SKILLS)


async def _get(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    for entry in SKILLS:
        if entry.get("uri") == params.uri:
            return _result(skill=entry)
    raise MCPError(-32602, f"no skill at {params.uri}")


class Skills(Extension):
    identifier = "io.modelcontextprotocol/skills"

    def methods(self) -> list[MethodBinding]:
        return [
            MethodBinding("skills/list", ListParams, _list),
            MethodBinding("skills/get", GetParams, _get),
        ]


class Hostile(MCPServer):
    async def read_resource(self, uri: Any, context: Any = None) -> Iterable[Any]:
        if str(uri) in FLOOD:
            return [ReadResourceContents("x" * FLOOD[str(uri)], "text/plain")]
        if str(uri) in FILES:
            return [ReadResourceContents(FILES[str(uri)], "text/markdown")]
        raise ResourceError(f"no resource {uri}")


app = Hostile("hostile", extensions=[Skills()])


def _http() -> None:
    import anyio
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections wait in the backlog until uvicorn accepts them
    print(f"port={sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app.streamable_http_app(), log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    if "--http" in sys.argv:
        _http()
    else:
        app.run("stdio")

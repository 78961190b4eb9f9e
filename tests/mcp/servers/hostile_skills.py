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
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from _loopback import complete, serve_http, skills_extension
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.shared.exceptions import MCPError

SPEC = json.loads(Path(sys.argv[1]).read_text())
SKILLS: list[dict[str, Any]] = SPEC.get("skills", [])
FILES: dict[str, str] = SPEC.get("files", {})
FLOOD: dict[str, int] = SPEC.get("flood", {})


async def _list(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    return complete(skills=SKILLS)


async def _get(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
    for entry in SKILLS:
        if entry.get("uri") == params.uri:
            return complete(skill=entry)
    raise MCPError(-32602, f"no skill at {params.uri}")


class Hostile(MCPServer):
    async def read_resource(self, uri: Any, context: Any = None) -> Iterable[Any]:
        if str(uri) in FLOOD:
            return [ReadResourceContents("x" * FLOOD[str(uri)], "text/plain")]
        if str(uri) in FILES:
            return [ReadResourceContents(FILES[str(uri)], "text/markdown")]
        raise ResourceError(f"no resource {uri}")


app = Hostile("hostile", extensions=[skills_extension(_list, _get)])


if __name__ == "__main__":
    if "--http" in sys.argv:
        serve_http(app.streamable_http_app())
    else:
        app.run("stdio")

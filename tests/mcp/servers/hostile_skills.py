"""A skills server that serves whatever a test tells it to.

Its one argument is a JSON file: ``{"skills": [...], "files": {uri: text}, "flood":
{uri: count}}``. ``skills/list`` answers with the ``skills`` entries as given (URIs with
``..``, absolute paths, backslashes: nothing is checked here), ``skills/get`` with the
entry of that URI, and ``resources/read`` of a URI in ``files`` with its text; a URI in
``flood`` is answered with ``count`` bytes of ``x``, whatever its manifest lists.

Over stdio it is the standard library's loop of ``_skills_stdio.py`` (so it starts in
milliseconds, not the second the SDK's import takes); with ``--http`` it is written with
the SDK, declares ``io.modelcontextprotocol/skills`` and serves streamable HTTP on
127.0.0.1 (printing ``port=N`` once it listens).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from _skills_stdio import Refused, complete, contents, serve, skill

SPEC = json.loads(Path(sys.argv[1]).read_text())
SKILLS: list[dict[str, Any]] = SPEC.get("skills", [])
FILES: dict[str, str] = SPEC.get("files", {})
FLOOD: dict[str, int] = SPEC.get("flood", {})


def _skill(uri: str) -> dict[str, Any]:
    return skill(SKILLS, uri)


def _read(uri: str) -> dict[str, Any]:
    if uri in FLOOD:
        return contents(uri, "x" * FLOOD[uri], "text/plain")
    if uri in FILES:
        return contents(uri, FILES[uri], "text/markdown")
    raise Refused(-32603, f"no resource {uri}", {"uri": uri})


def stdio() -> None:
    serve("hostile", SKILLS, SKILLS, _read)


def http() -> None:
    from collections.abc import Iterable

    from _loopback import serve_http, skills_extension
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel.helper_types import ReadResourceContents
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError
    from mcp.shared.exceptions import MCPError

    async def listed(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
        return complete(skills=SKILLS)

    async def got(ctx: ServerRequestContext[Any, Any], params: Any) -> dict[str, Any]:
        try:
            return complete(skill=_skill(params.uri))
        except Refused as refused:
            raise MCPError(-32602, str(refused)) from None

    class Hostile(MCPServer):
        async def read_resource(self, uri: Any, context: Any = None) -> Iterable[Any]:
            if str(uri) in FLOOD:
                return [ReadResourceContents("x" * FLOOD[str(uri)], "text/plain")]
            if str(uri) in FILES:
                return [ReadResourceContents(FILES[str(uri)], "text/markdown")]
            raise ResourceError(f"no resource {uri}")

    app = Hostile("hostile", extensions=[skills_extension(listed, got)])
    serve_http(app.streamable_http_app())


if __name__ == "__main__":
    http() if "--http" in sys.argv else stdio()

"""A skills server that serves whatever a test tells it to.

Its one argument is a JSON file: ``{"skills": [...], "files": {uri: text}, "flood":
{uri: count}}``. ``skills/list`` answers with the ``skills`` entries as given (URIs with
``..``, absolute paths, backslashes: nothing is checked here), ``skills/get`` with the
entry of that URI, and ``resources/read`` of a URI in ``files`` with its text; a URI in
``flood`` is answered with ``count`` bytes of ``x``, whatever its manifest lists.

Over stdio it is a loop of the standard library answering as the ``mcp`` SDK's server
does, field for field, in the stateless protocol (``server/discover``) and the
older one (``initialize``) (so it starts in milliseconds, not the second the SDK's import
takes); with ``--http`` it is written with the SDK, declares
``io.modelcontextprotocol/skills`` and serves streamable HTTP on 127.0.0.1 (printing
``port=N`` once it listens).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SPEC = json.loads(Path(sys.argv[1]).read_text())
SKILLS: list[dict[str, Any]] = SPEC.get("skills", [])
FILES: dict[str, str] = SPEC.get("files", {})
FLOOD: dict[str, int] = SPEC.get("flood", {})
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")  # the SDK server's
STATELESS = "2026-07-28"  # server/discover, then each request with its own envelope
INFO = {"name": "hostile", "version": ""}


def complete(**fields: Any) -> dict[str, Any]:
    """A Skills-extension result: complete, not to be cached (as ``_loopback.complete``)."""
    return {**fields, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


class Refused(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.error = {"code": code, "message": message}
        if data is not None:
            self.error["data"] = data


def _skill(uri: str) -> dict[str, Any]:
    for entry in SKILLS:
        if entry.get("uri") == uri:
            return entry
    raise Refused(-32602, f"no skill at {uri}")


def _read(uri: str) -> dict[str, Any]:
    if uri in FLOOD:
        return {"contents": [{"mimeType": "text/plain", "text": "x" * FLOOD[uri], "uri": uri}]}
    if uri in FILES:
        return {"contents": [{"mimeType": "text/markdown", "text": FILES[uri], "uri": uri}]}
    raise Refused(-32603, f"no resource {uri}", {"uri": uri})


def handle(method: str, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "capabilities": {
                "prompts": {"listChanged": False},
                "resources": {"listChanged": False, "subscribe": False},
                "tools": {"listChanged": False},
            },
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[-1],
            "serverInfo": INFO,
        }
    if method == "server/discover":
        capabilities = {
            "extensions": {"io.modelcontextprotocol/skills": {}},
            "prompts": {"listChanged": True},
            "resources": {"listChanged": True, "subscribe": True},
            "tools": {"listChanged": True},
        }
        return complete(capabilities=capabilities, supportedVersions=[STATELESS])
    if method == "ping":
        return {}
    if method in ("tools/list", "prompts/list", "resources/list", "resources/templates/list"):
        return {method.split("/")[0].replace("templates", "resourceTemplates"): []}
    if method == "skills/list":
        return complete(skills=SKILLS)
    if method == "skills/get":
        return complete(skill=_skill(str(params.get("uri"))))
    if method == "resources/read":
        return _read(str(params.get("uri")))
    raise Refused(-32601, "Method not found")


def stdio() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        params = message.get("params") or {}
        try:
            answer["result"] = result = handle(message["method"], params)
            if "io.modelcontextprotocol/protocolVersion" in params.get("_meta", {}):
                if "contents" in result:
                    result.update(complete())
                result["_meta"] = {"io.modelcontextprotocol/serverInfo": INFO}
        except Refused as refused:
            answer["error"] = refused.error
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


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

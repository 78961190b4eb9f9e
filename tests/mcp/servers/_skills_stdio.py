"""The stdio half of this folder's skills servers, with the standard library only: a
loop answering as the ``mcp`` SDK's server does, field for field, in the stateless
protocol (``server/discover``) and the older one (``initialize``), so a server starts
in milliseconds, not the second the SDK's import takes.

`serve` answers ``skills/list`` with the entries it is given, ``skills/get`` with the
entry of that URI among `known`, and ``resources/read`` with what `read` gives.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")  # the SDK server's
STATELESS = "2026-07-28"  # server/discover, then each request with its own envelope

Reader = Callable[[str], dict[str, Any]]


def complete(**fields: Any) -> dict[str, Any]:
    """A Skills-extension result: complete, not to be cached (as ``_loopback.complete``)."""
    return {**fields, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


class Refused(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.error = {"code": code, "message": message}
        if data is not None:
            self.error["data"] = data


def skill(known: list[dict[str, Any]], uri: str) -> dict[str, Any]:
    """The entry of `uri` among `known`; refused as the SDK refuses an unknown one."""
    for entry in known:
        if entry.get("uri") == uri:
            return entry
    raise Refused(-32602, f"no skill at {uri}")


def contents(uri: str, text: str, mime: str) -> dict[str, Any]:
    """A ``resources/read`` result of one text."""
    return {"contents": [{"mimeType": mime, "text": text, "uri": uri}]}


def _handle(
    name: str, listed: list[dict[str, Any]], known: list[dict[str, Any]], read: Reader
) -> Callable[[str, dict[str, Any]], dict[str, Any]]:
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
                "serverInfo": {"name": name, "version": ""},
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
            return complete(skills=listed)
        if method == "skills/get":
            return complete(skill=skill(known, str(params.get("uri"))))
        if method == "resources/read":
            return read(str(params.get("uri")))
        raise Refused(-32601, "Method not found")

    return handle


def serve(
    name: str, listed: list[dict[str, Any]], known: list[dict[str, Any]], read: Reader
) -> None:
    """Serve stdio until stdin closes, as the server `name`."""
    handle = _handle(name, listed, known, read)
    info = {"name": name, "version": ""}
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
                result["_meta"] = {"io.modelcontextprotocol/serverInfo": info}
        except Refused as refused:
            answer["error"] = refused.error
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()

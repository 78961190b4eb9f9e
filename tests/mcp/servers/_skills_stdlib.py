"""This folder's skills servers with the standard library only: answering as the
``mcp`` SDK's server does, field for field, in the stateless protocol
(``server/discover``) and the older one (``initialize``), over stdio (`serve`) or
streamable HTTP (`serve_http`), so a server starts in milliseconds, not the second the
SDK's import takes.

Run with ``--legacy``, one speaks 2025-11-25 only: it refuses ``server/discover``
(``Method not found``) and declares the extension in its ``initialize`` answer.

Each answers ``skills/list`` with the entries it is given, ``skills/get`` with the
entry of that URI among `known`, and ``resources/read`` with what `read` gives.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")  # the SDK server's
STATELESS = "2026-07-28"  # server/discover, then each request with its own envelope
LEGACY = "--legacy" in sys.argv  # 2025-11-25 only: initialize, and no server/discover
EXTENSIONS = {"io.modelcontextprotocol/skills": {}}

Reader = Callable[[str], dict[str, Any]]
SSE = "text/event-stream"


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
                    **({"extensions": EXTENSIONS} if LEGACY else {}),
                    "prompts": {"listChanged": False},
                    "resources": {"listChanged": False, "subscribe": False},
                    "tools": {"listChanged": False},
                },
                "protocolVersion": asked if asked in VERSIONS else VERSIONS[-1],
                "serverInfo": {"name": name, "version": ""},
            }
        if method == "server/discover" and not LEGACY:
            capabilities = {
                "extensions": EXTENSIONS,
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


def _answer(
    handle: Callable[[str, dict[str, Any]], dict[str, Any]], name: str, message: dict[str, Any]
) -> dict[str, Any]:
    """The JSON-RPC answer to the request `message`."""
    answer: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
    params = message.get("params") or {}
    try:
        answer["result"] = result = handle(message["method"], params)
        if "io.modelcontextprotocol/protocolVersion" in params.get("_meta", {}):
            if "contents" in result:
                result.update(complete())
            result["_meta"] = {"io.modelcontextprotocol/serverInfo": {"name": name, "version": ""}}
    except Refused as refused:
        answer["error"] = refused.error
    return answer


def serve(
    name: str, listed: list[dict[str, Any]], known: list[dict[str, Any]], read: Reader
) -> None:
    """Serve stdio until stdin closes, as the server `name`."""
    handle = _handle(name, listed, known, read)
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        answer = _answer(handle, name, message)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def serve_http(
    name: str, listed: list[dict[str, Any]], known: list[dict[str, Any]], read: Reader
) -> None:
    """Serve streamable HTTP at ``/mcp`` on a free port of 127.0.0.1 (printed as
    ``port=N`` on stdout once it listens) until killed: each POSTed request is answered
    as the SDK's server answers it, one ``message`` event of an event stream; a
    notification with 202; any other method is 405."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    handle = _handle(name, listed, known, read)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet

        def _reply(self, status: int, body: bytes = b"", kind: str = "") -> None:
            self.send_response(status)
            if kind:
                self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            if self.path.split("?")[0] != "/mcp":
                self._reply(404)
                return
            message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if "id" not in message:
                self._reply(202)
                return
            data = json.dumps(_answer(handle, name, message), separators=(",", ":"))
            self._reply(200, f"event: message\r\ndata: {data}\r\n\r\n".encode(), SSE)

        def do_GET(self) -> None:
            self._reply(405)

        def do_DELETE(self) -> None:
            self._reply(405)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"port={server.server_address[1]}", flush=True)
    server.serve_forever()

"""A scripted model endpoint on 127.0.0.1 that records every request a host sends.

It speaks the three wire formats the hosts use: Anthropic Messages (``POST
/v1/messages``, streaming or not: Claude Code), OpenAI Responses (``POST
/v1/responses``, streaming: Codex) and Gemini's ``generateContent`` /
``streamGenerateContent`` (Gemini CLI). A request that offers tools is a turn of the
host's own loop and takes the next `Reply` of the script; any other request (a title,
a routing question, a quota probe) is answered with plain text and takes nothing.
When the script is spent, a turn is answered with `Text("done")`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Call", "Model", "Recorded", "Reply", "Text"]


@dataclass(frozen=True, slots=True)
class Text:
    """Answer with `text` and end the turn."""

    text: str


@dataclass(frozen=True, slots=True)
class Call:
    """Answer with one call of the host's tool `name` with `arguments` (a string: a
    call of a Responses custom tool, whose input is free text)."""

    name: str
    arguments: dict[str, Any] | str


Reply = Text | Call


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request the host sent: its path (with query), headers and JSON body, and
    whether it took a reply of the script (a turn of the host's loop)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    turn: bool


def _is_turn(path: str, body: dict[str, Any]) -> bool:
    """A request of the host's own loop: it offers tools (Codex sends them inside its
    input, as an ``additional_tools`` item)."""
    if body.get("tools"):
        return True
    items = body.get("input")
    return isinstance(items, list) and any(
        isinstance(i, dict) and i.get("type") == "additional_tools" for i in items
    )


def _sse(events: Iterable[tuple[str | None, dict[str, Any]]]) -> bytes:
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


def anthropic(reply: Reply, model: str, n: int) -> list[tuple[str | None, dict[str, Any]]]:
    """The Messages streaming events of `reply`."""
    usage = {"input_tokens": 10, "output_tokens": 1}
    start = {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    if isinstance(reply, Text):
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": reply.text}
        stop = "end_turn"
    else:
        block = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": reply.name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.arguments)}
        stop = "tool_use"
    return [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        ),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


def anthropic_message(reply: Reply, model: str, n: int) -> dict[str, Any]:
    """The non-streaming Messages answer of `reply`."""
    if isinstance(reply, Text):
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}]
        stop = "end_turn"
    else:
        content = [
            {
                "type": "tool_use",
                "id": f"toolu_{n:04d}",
                "name": reply.name,
                "input": reply.arguments,
            }
        ]
        stop = "tool_use"
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


def responses(reply: Reply, model: str, n: int) -> list[tuple[str | None, dict[str, Any]]]:
    """The Responses streaming events of `reply`."""
    if isinstance(reply, Text):
        item: dict[str, Any] = {
            "type": "message",
            "id": f"msg_{n}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }
    elif isinstance(reply.arguments, str):
        item = {
            "type": "custom_tool_call",
            "id": f"ctc_{n}",
            "call_id": f"call_{n:04d}",
            "name": reply.name,
            "input": reply.arguments,
            "status": "completed",
        }
    else:
        item = {
            "type": "function_call",
            "id": f"fc_{n}",
            "call_id": f"call_{n:04d}",
            "name": reply.name,
            "arguments": json.dumps(reply.arguments),
            "status": "completed",
        }
    response = {"id": f"resp_{n}", "object": "response", "model": model, "status": "in_progress"}
    done = {
        **response,
        "status": "completed",
        "output": [item],
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 11,
        },
    }
    return [
        ("response.created", {"type": "response.created", "response": response}),
        (
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
        (
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        ),
        ("response.completed", {"type": "response.completed", "response": done}),
    ]


def gemini(reply: Reply) -> dict[str, Any]:
    """One ``GenerateContentResponse`` of `reply`."""
    if isinstance(reply, Text):
        part: dict[str, Any] = {"text": reply.text}
    else:
        part = {"functionCall": {"name": reply.name, "args": reply.arguments}}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11},
    }


def from_schema(schema: Any) -> Any:
    """A smallest value of a JSON schema (Gemini CLI asks its router for JSON)."""
    if not isinstance(schema, dict):
        return None
    kind = str(schema.get("type", "object")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: from_schema(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 50
    if kind == "boolean":
        return False
    return "x"


def aside(body: dict[str, Any]) -> Text:
    """The answer to a request outside the host's loop: JSON when a schema is asked."""
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if schema:
        return Text(json.dumps(from_schema(schema)))
    return Text("ok")


@dataclass
class Model:
    """The scripted endpoint: `with Model([...]) as model:` serves on `model.url` and
    records every request in `model.requests`."""

    script: list[Reply] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Model:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def take(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[Reply, int]:
        """Record a request and choose its reply (a turn takes the script's next)."""
        turn = _is_turn(path, body)
        with self._lock:
            self.requests.append(Recorded(path, headers, body, turn))
            n = len(self.requests)
            if turn and self.script:
                return self.script.pop(0), n
        return (Text("done") if turn else aside(body)), n

    def turns(self) -> Iterator[Recorded]:
        """The requests that were turns of the host's loop, in order."""
        return (r for r in list(self.requests) if r.turn)


def _handler(model: Model) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # a host probing a models list or its health
            self._send(200, "application/json", b'{"data": [], "models": []}')

        def do_HEAD(self) -> None:
            self._send(200, "application/json", b"")

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(size) if size else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"raw": raw.decode("utf-8", "replace")}
            headers = {k.lower(): v for k, v in self.headers.items()}
            path = self.path
            reply, n = model.take(path, headers, body if isinstance(body, dict) else {})
            name = str(body.get("model") or "model") if isinstance(body, dict) else "model"
            if "/v1/messages" in path and "count_tokens" in path:
                self._send(200, "application/json", b'{"input_tokens": 10}')
            elif "/v1/messages" in path:
                if body.get("stream"):
                    self._send(200, "text/event-stream", _sse(anthropic(reply, name, n)))
                else:
                    data = json.dumps(anthropic_message(reply, name, n)).encode()
                    self._send(200, "application/json", data)
            elif path.rstrip("/").endswith("/responses"):
                self._send(200, "text/event-stream", _sse(responses(reply, name, n)))
            elif ":streamGenerateContent" in path:
                self._send(200, "text/event-stream", _sse([(None, gemini(reply))]))
            elif ":generateContent" in path:
                self._send(200, "application/json", json.dumps(gemini(reply)).encode())
            elif ":countTokens" in path:
                self._send(200, "application/json", b'{"totalTokens": 10}')
            else:
                self._send(404, "application/json", b'{"error": "not scripted"}')

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler

"""JSON-RPC over the Language Server Protocol's base protocol: ``Content-Length`` framing.

Each message is a header part (``Content-Length: N``, optionally ``Content-Type``,
each line ending in ``\\r\\n``), an empty line, then N bytes of UTF-8 JSON
(microsoft.github.io/language-server-protocol, "Base Protocol"). A header line that is
not ``Name: value``, a missing or bad length, a body over `MAX_FRAME` bytes or a body
that is not a JSON object is a `FrameError`: the caller reports the server as
answering badly and stops it. End of stream is None, not an error.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_FRAME", "FrameError", "encode", "read_frame"]

MAX_FRAME = 16 * 1024 * 1024  # bytes of one message body
_MAX_HEADER = 8 * 1024  # bytes of one header line
_SHOWN = 80  # characters of a bad header line quoted


class FrameError(Exception):
    """The stream does not carry LSP frames; the message says what was wrong."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One framed message."""
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message on `reader`, or None at the end of the stream."""
    length = await _length(reader)
    if length is None:
        return None
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        return None
    try:
        message = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        raise FrameError("a message body that is not JSON") from None
    if not isinstance(message, dict):
        raise FrameError("a message that is not a JSON object")
    return message


async def _length(reader: asyncio.StreamReader) -> int | None:
    """The Content-Length of the next header part (None at the end of the stream)."""
    length: int | None = None
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            return None
        except asyncio.LimitOverrunError:
            raise FrameError("a header line longer than the limit") from None
        if len(line) > _MAX_HEADER:
            raise FrameError("a header line longer than the limit")
        text = line.decode("utf-8", "replace").strip()
        if not text:
            if length is None:
                raise FrameError("a message without a Content-Length header")
            return length
        name, sep, value = text.partition(":")
        if not sep:
            raise FrameError(f"a header line that is not 'Name: value': {text[:_SHOWN]!r}")
        if name.strip().lower() == "content-length":
            length = _parse_length(value.strip())


def _parse_length(value: str) -> int:
    if not value.isdigit() or int(value) > MAX_FRAME:
        raise FrameError(f"a Content-Length that is not a length up to {MAX_FRAME}: {value!r}")
    return int(value)

"""The streams a `ClientSession` talks over: a spawned stdio server, or a URL.

Imports the ``mcp`` SDK: the supervisor and the skills client import it only when they start.

stdio: satchel starts the process itself (`satchel.process._spawn.spawn_process`: own process
group, scrubbed environment, stderr captured up to a cap, never inherited) and speaks
newline-delimited JSON-RPC over its stdin and stdout. A stdout line that is not a
JSON-RPC message is skipped and remembered (`Wire.noise`), so that a server that
prints a banner still works and one that prints only garbage is reported with what
it printed. A line nesting deeper than `MAX_MESSAGE_DEPTH` levels is never parsed: when
it answers a request (it has an ``id`` and no ``method`` at its top level), that request
gets a JSON-RPC error at once (`too_deep`), so the call fails promptly; otherwise it is
skipped as noise. Leaving the context stops the whole process group.

streamable-http and sse: the SDK's clients, with the entry's literal headers. Every
HTTP response is watched for a 401 (or 403 with a ``WWW-Authenticate`` challenge), so
that a failed handshake can be reported as "authorization required".
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client._transport import TransportStreams
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage

from satchel._json import nesting, top_level
from satchel.process._spawn import LongProcess

__all__ = ["MAX_MESSAGE_DEPTH", "TOO_DEEP", "Streams", "Wire", "remote_streams", "stdio_streams"]

MAX_NOISE = 3  # non-JSON-RPC stdout lines remembered
NOISE_WIDTH = 200  # characters of each kept
MAX_MESSAGE_DEPTH = 128  # levels of one JSON-RPC message (the SDK's own parser stops near 200)
TOO_DEEP = "mcp.message.too_deep"  # the `data` of the error a too-deep answer becomes

Streams = TransportStreams


@dataclass(slots=True)
class Wire:
    """What the transport saw that explains a failure."""

    noise: list[str] = field(default_factory=list)
    status: int | None = None  # an HTTP status that asks for authorization
    closed: bool = False  # the server closed its end (stdout EOF)
    exit_code: int | None = None  # a stdio server that exited by itself: its status


@contextlib.asynccontextmanager
async def stdio_streams(proc: LongProcess, wire: Wire, *, grace: float) -> AsyncIterator[Streams]:
    """Streams over `proc`'s stdin and stdout; the process is stopped on exit."""
    to_session, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    to_server, from_session = anyio.create_memory_object_stream[SessionMessage](16)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_read, proc, to_session, wire)
            tg.start_soon(_write, proc, from_session)
            try:
                yield from_server, to_server
            finally:
                tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            by_itself = proc.exited() or (wire.closed and await _exits(proc, grace))
            await proc.stop(grace)
            if by_itself:
                wire.exit_code = proc.returncode
            for stream in (to_session, from_server, to_server, from_session):
                await stream.aclose()


async def _exits(proc: LongProcess, seconds: float) -> bool:
    """Whether `proc` exits within `seconds` (it closed its stdout: it is on its way)."""
    with anyio.move_on_after(seconds):
        while not proc.exited():
            await anyio.sleep(0.01)
        return True
    return False


async def _read(
    proc: LongProcess, out: MemoryObjectSendStream[SessionMessage | Exception], wire: Wire
) -> None:
    async with out:
        while True:
            try:
                line = await proc.stdout.readline()
            except ValueError:  # a line longer than the reader's limit
                wire.noise.append("(a line longer than the limit)")
                break
            if not line:
                break
            text = line.decode("utf-8", "replace").strip()
            message = _message(text, wire) if text else None
            if message is None:
                continue
            try:
                await out.send(SessionMessage(message))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return
    wire.closed = True


def _message(text: str, wire: Wire) -> mcp_types.JSONRPCMessage | None:
    """The JSON-RPC message on one stdout line; None (kept as noise) when it is not one."""
    if nesting(text) > MAX_MESSAGE_DEPTH:
        refused = _too_deep(text)
        if refused is None:
            _noise(wire, f"(a message nesting deeper than {MAX_MESSAGE_DEPTH} levels)")
        return refused
    try:
        return mcp_types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError:
        _noise(wire, text[:NOISE_WIDTH])
        return None


def _noise(wire: Wire, text: str) -> None:
    if len(wire.noise) < MAX_NOISE:
        wire.noise.append(text)


def _too_deep(text: str) -> mcp_types.JSONRPCError | None:
    """The error that answers the request a too-deep reply `text` was for; None when
    `text` is not a reply (no ``id``, or a ``method``: a request or notification)."""
    request = top_level(text, "id")
    if not isinstance(request, str | int) or isinstance(request, bool):
        return None
    if top_level(text, "method") is not None:
        return None
    why = f"its answer nests deeper than {MAX_MESSAGE_DEPTH} levels and was not read"
    error = mcp_types.ErrorData(code=mcp_types.PARSE_ERROR, message=why, data=TOO_DEEP)
    return mcp_types.JSONRPCError(jsonrpc="2.0", id=request, error=error)


async def _write(proc: LongProcess, source: MemoryObjectReceiveStream[SessionMessage]) -> None:
    async with source:
        async for item in source:
            data = item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
            try:
                proc.stdin.write(data.encode("utf-8"))
                await proc.stdin.drain()
            except (ConnectionError, RuntimeError, OSError):
                return


@contextlib.asynccontextmanager
async def remote_streams(
    transport: str, url: str, headers: Mapping[str, str], wire: Wire, *, timeout: float
) -> AsyncIterator[Streams]:
    """Streams to a streamable-http or sse server at `url`, sending `headers` as given."""

    async def watch(response: httpx2.Response) -> None:
        challenged = "www-authenticate" in response.headers
        if response.status_code == 401 or (response.status_code == 403 and challenged):
            wire.status = response.status_code

    hooks: dict[str, list[Any]] = {"response": [watch]}
    limits = httpx2.Timeout(timeout, read=max(timeout, 300.0))
    if transport == "sse":

        def factory(
            headers: dict[str, str] | None = None,
            timeout: httpx2.Timeout | None = None,
            auth: httpx2.Auth | None = None,
        ) -> httpx2.AsyncClient:
            return httpx2.AsyncClient(
                headers=headers, timeout=timeout or limits, auth=auth, event_hooks=hooks
            )

        async with sse_client(
            url, headers=dict(headers), timeout=timeout, httpx_client_factory=factory
        ) as streams:
            yield streams
        return
    client = httpx2.AsyncClient(headers=dict(headers), timeout=limits, event_hooks=hooks)
    async with client, streamable_http_client(url, http_client=client) as streams:
        yield streams

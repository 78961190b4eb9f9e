"""The streams a `ClientSession` talks over: a spawned stdio server, or a URL.

Imports the ``mcp`` SDK: the supervisor and the skills client import it only when they start.

stdio: satchel starts the process itself (`satchel.foundations.process._spawn.spawn_process`:
own process group, scrubbed environment, stderr captured up to a cap, never inherited) and speaks
newline-delimited JSON-RPC over its stdin and stdout. A stdout line that is not a
JSON-RPC message is skipped and remembered (`Wire.noise`), so that a server that
prints a banner still works and one that prints only garbage is reported with what
it printed. A line nesting deeper than `MAX_MESSAGE_DEPTH` levels is never parsed: when
it answers a request (it has an ``id`` and no ``method`` at its top level), that request
gets a JSON-RPC error at once (`too_deep`), so the call fails promptly; otherwise it is
skipped as noise. Leaving the context stops the whole process group.

A bound: while `Wire.bound` is set (a caller that knows how long the answer it waits
for can be, as the skills client reading a file of a listed size), a stdout line, or
the body of a streamable-http response, longer than the bound is not read on: reading
stops as soon as it passes, `Wire.over` says so, and the request fails at once.

streamable-http and sse: the SDK's clients, with the entry's literal headers (and an
OAuth token kept by ``satchel mcp login``, through the `auth` the caller hands). Every
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

from satchel.core._json import nesting, top_level
from satchel.foundations.process._spawn import MAX_LINE, LongProcess

__all__ = ["MAX_MESSAGE_DEPTH", "TOO_DEEP", "Streams", "Wire", "remote_streams", "stdio_streams"]

_CHUNK = 64 * 1024  # bytes of stdout read at a time
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
    bound: int | None = None  # while set: the longest stdout line read (else MAX_LINE)
    over: int | None = None  # the bound a line passed, when reading stopped for it


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
        async for line in _lines(proc, wire):
            text = line.decode("utf-8", "replace").strip()
            message = _message(text, wire) if text else None
            if message is None:
                continue
            try:
                await out.send(SessionMessage(message))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return
    wire.closed = True


async def _lines(proc: LongProcess, wire: Wire) -> AsyncIterator[bytes]:
    """Each line of `proc`'s stdout, read in chunks; reading stops for good, as soon as
    a line passes the bound (`Wire.bound` while it is set, else `MAX_LINE`), so a
    server never makes the reader hold more than the bound and one chunk."""
    pending = bytearray()
    while chunk := await proc.stdout.read(_CHUNK):
        pending += chunk
        start = 0
        while (end := pending.find(b"\n", start)) >= 0:
            if _past(end - start, wire):
                return
            yield bytes(pending[start:end])
            start = end + 1
        del pending[:start]
        if _past(len(pending), wire):
            return
    if pending:
        yield bytes(pending)


def _past(length: int, wire: Wire) -> bool:
    """Whether a line of `length` bytes passes the bound (and so ends the reading)."""
    if length <= (wire.bound or MAX_LINE):
        return False
    if wire.bound is None:
        wire.noise.append("(a line longer than the limit)")
    else:
        wire.over = wire.bound
    return True


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
    transport: str,
    url: str,
    headers: Mapping[str, str],
    wire: Wire,
    *,
    timeout: float,
    auth: httpx2.Auth | None = None,
) -> AsyncIterator[Streams]:
    """Streams to a streamable-http or sse server at `url`, sending `headers` as given
    (and `auth`'s, when the server asks: `satchel.runtime.mcp._oauth.StoredAuth`)."""

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
            url, headers=dict(headers), timeout=timeout, httpx_client_factory=factory, auth=auth
        ) as streams:
            yield streams
        return
    client = httpx2.AsyncClient(
        headers=dict(headers),
        timeout=limits,
        event_hooks=hooks,
        transport=_Bounded(httpx2.AsyncHTTPTransport(), wire),
        auth=auth,
    )
    async with client, streamable_http_client(url, http_client=client) as streams:
        yield streams


class _Bounded(httpx2.AsyncBaseTransport):
    """`inner`, with the body of each response that starts while `Wire.bound` is set
    read only up to that bound: past it, `Wire.over` is set and the body ends as a
    closed stream (which the SDK turns into an error answer for the request)."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, wire: Wire) -> None:
        self.inner = inner
        self.wire = wire

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if self.wire.bound is not None:
            response.stream = _Capped(response.stream, self.wire.bound, self.wire)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class _Capped(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, bound: int, wire: Wire) -> None:
        self.inner, self.bound, self.wire = inner, bound, wire

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.inner:
            seen += len(chunk)
            if seen > self.bound:
                self.wire.over = self.bound
                await self.aclose()
                raise httpx2.StreamClosed()
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()

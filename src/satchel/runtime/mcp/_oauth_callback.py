"""The loopback redirect listener of an OAuth login: the browser (or anything that
follows the authorization server's redirect) lands on ``/callback`` of a port of
127.0.0.1, which hands the authorization code to the flow.

`callback_listener(*ports)` listens on 127.0.0.1 (on the first of `ports` that is free;
0: any) while its context is open; with ``serve=False`` (a connection's authorization,
whose flow runs inside an HTTP request's auth) the port is bound at once but answered
only within `Callback.opened`, so that no task outlives one await of the flow.
Each connection's request head is read within `HEAD_TIMEOUT` seconds and up to
`MAX_HEAD` bytes; a ``GET /callback`` with a ``code`` (or an ``error``) and the
``state`` of the authorization URL the flow opened (`Callback.expect`) is the answer,
anything else is a 404 and the listener waits on. `Callback.result` waits for it.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import anyio

if TYPE_CHECKING:
    from anyio.abc import SocketStream
    from mcp.shared.auth import AuthorizationCodeResult

__all__ = ["Callback", "CallbackRefused", "callback_listener"]

PATH = "/callback"
HEAD_TIMEOUT = 10.0  # seconds one connection has to send its request head
MAX_HEAD = 16 * 1024  # bytes of a request head read
_DONE = b"<!doctype html><title>satchel</title><p>Authorization complete; you may close this page."
_REFUSED = b"<!doctype html><title>satchel</title><p>Authorization was refused."
_MISSING = b"not found"


class CallbackRefused(Exception):
    """The authorization server redirected with an ``error`` instead of a code."""


@dataclass(eq=False)
class Callback:
    """The listener's port and, once it came, the redirect's parameters."""

    port: int
    host: str = "127.0.0.1"
    params: dict[str, str] = field(default_factory=dict)
    arrived: anyio.Event = field(default_factory=anyio.Event)
    state: str | None = None
    taken: bool = False
    listener: Any = None  # bound but not yet served (``serve=False``)

    def expect(self, authorization_url: str) -> None:
        """Take only a redirect with the ``state`` of `authorization_url`, the URL the
        flow opens: another page's redirect (a stale tab, a local process guessing
        the port) cannot end the login."""
        found = parse_qs(urlsplit(authorization_url).query).get("state")
        self.state = found[0] if found else None

    def expects(self, params: dict[str, str]) -> bool:
        """Whether `params` carry the state of the flow's authorization URL."""
        said = params.get("state")
        if self.state is None or said is None:
            return False
        return secrets.compare_digest(said.encode(), self.state.encode())

    def redirect_uri(self) -> str:
        """The redirect URI to register and send: the loopback address the listener is
        bound to (never ``localhost``, which may name ::1, where nothing listens)."""
        return f"http://{self.host}:{self.port}{PATH}"

    async def result(self) -> AuthorizationCodeResult:
        """The authorization code and state, once the redirect arrived."""
        from mcp.shared.auth import AuthorizationCodeResult

        await self.arrived.wait()
        if "error" in self.params:
            what = self.params["error"]
            said = self.params.get("error_description")
            raise CallbackRefused(f"{what}: {said}" if said else what)
        found = self.params
        return AuthorizationCodeResult(
            code=found.get("code", ""), state=found.get("state"), iss=found.get("iss")
        )

    async def opened(self, url: str, show: Callable[[], Awaitable[object]]) -> None:
        """Expect the redirect of `url` and answer on the port (served on demand) while
        `show` shows it to the user and until the redirect arrived."""
        self.expect(url)
        if self.listener is None:
            await show()
            return
        async with anyio.create_task_group() as tg:
            tg.start_soon(self.listener.serve, self._handle)
            await show()
            await self.arrived.wait()
            tg.cancel_scope.cancel()

    async def _handle(self, stream: SocketStream) -> None:
        async with stream:
            with anyio.move_on_after(HEAD_TIMEOUT):
                await _answer(stream, self)


@contextlib.asynccontextmanager
async def callback_listener(*ports: int, serve: bool = True) -> AsyncIterator[Callback]:
    """Listen on 127.0.0.1 for the redirect while the context is open, on the first of
    `ports` that is free (0: any; none given: any). `OSError` when none is. Not
    `serve`: answered only while `Callback.result` waits."""
    listener = await _listen(ports or (0,))
    from anyio.abc import SocketAttribute

    bound = listener.extra(SocketAttribute.local_port)
    callback = Callback(bound)
    if not serve:
        callback.listener = listener
        async with listener:
            yield callback
        return
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, callback._handle)
        try:
            yield callback
        finally:
            tg.cancel_scope.cancel()


async def _listen(ports: tuple[int, ...]) -> Any:
    for port in ports[:-1]:
        try:
            return await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=port)
        except OSError:
            continue
    return await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=ports[-1])


async def _answer(stream: SocketStream, callback: Callback) -> None:
    head = await _head(stream)
    line = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
    target = urlsplit(line[1]) if len(line) == 3 and line[0] == "GET" else None
    params = {k: v[0] for k, v in parse_qs(target.query).items()} if target else {}
    answer = target is not None and target.path == PATH and {"code", "error"} & params.keys()
    if not answer or not callback.expects(params):
        await _send(stream, 404, _MISSING)
        return
    if callback.taken:
        await _send(stream, 200, _REFUSED if "error" in params else _DONE)
        return
    callback.taken = True
    callback.params = params
    try:
        await _send(stream, 200, _REFUSED if "error" in params else _DONE)
    finally:
        callback.arrived.set()  # after the page was sent: a listener served on demand stops now


async def _head(stream: SocketStream) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data and len(data) < MAX_HEAD:
        try:
            data += await stream.receive(4096)
        except (anyio.EndOfStream, anyio.BrokenResourceError):
            break
    return data


async def _send(stream: SocketStream, status: int, body: bytes) -> None:
    reason = {200: "OK", 404: "Not Found"}[status]
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
        await stream.send(head.encode("latin-1") + body)

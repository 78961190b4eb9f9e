"""The network's shared rules: which hosts are loopback (the one rule the HTTP checks
of MCP and install share), and `http_client`, the one way satchel opens an HTTP client
for a fetch, bounded twice.

* `timeout` bounds each wait: connecting, and each read of an answer (httpx's
  timeouts), so a server that goes quiet is left after that long.
* `deadline` bounds the whole operation, every request of the client and every
  redirect followed, however its bytes arrive: a server that trickles its headers or
  its answer a byte a second never lets a read time out. So the client keeps every
  socket it connects, and when the deadline passes a timer shuts them down, which ends
  a read blocked in any phase at once; the answer's stream is also checked against the
  deadline after every chunk. Past it, sending or reading raises `DeadlinePassed`,
  whatever error the cut connection gave.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

__all__ = ["LOOPBACK_NAMES", "DeadlinePassed", "http_client", "is_loopback"]

# the loopback spellings plain http:// is accepted for in install sources, literally
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses; any other name is not."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class DeadlinePassed(Exception):  # a value carried out of a read, not a bug
    """An HTTP operation that went on past its deadline of `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"it went on past its deadline of {seconds:g} s")
        self.seconds = seconds


def http_client(
    *,
    timeout: float,
    deadline: float,
    headers: Mapping[str, str] = {},
    request_hooks: Sequence[Callable[[httpx.Request], None]] = (),
) -> httpx.Client:
    """An httpx client (redirects followed, proxies from the environment) whose every
    wait is bounded by `timeout` and whose requests all end within `deadline` seconds
    of its making (module docstring)."""
    import httpx  # only when fetching: keep `import satchel` light

    until = time.monotonic() + deadline
    sockets: list[Any] = []

    def keep(name: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace: each connection's socket (TCP, then TLS over it)."""
        stream = info.get("return_value") if name.endswith(".complete") else None
        found = getattr(stream, "get_extra_info", lambda _: None)("socket")
        if found is not None:
            sockets.append(found)

    def cap(request: httpx.Request) -> None:
        left = until - time.monotonic()
        if left <= 0:
            raise DeadlinePassed(deadline)
        waits = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {k: _least(v, left) for k, v in waits.items()}
        request.extensions["trace"] = keep

    def watch(response: httpx.Response) -> None:
        response.stream = _watched(httpx.SyncByteStream)(response, until, deadline)

    client: httpx.Client = _bounded(httpx.Client)(
        until,
        deadline,
        sockets,
        follow_redirects=True,
        timeout=timeout,
        headers=dict(headers),
        trust_env=True,
        event_hooks={"request": [*request_hooks, cap], "response": [watch]},
    )
    return client


def _cut(sockets: list[Any]) -> None:
    """Shut every socket down: a read blocked on one returns at once."""
    import socket

    for found in sockets:
        with contextlib.suppress(OSError, ValueError):  # closed, or detached by TLS
            found.shutdown(socket.SHUT_RDWR)


@functools.cache
def _bounded(base: type[httpx.Client]) -> Any:
    """The client type `http_client` makes (on first use: httpx is imported only when
    fetching): a timer cuts its connections at the deadline, and an error of a request
    that passed it is `DeadlinePassed`."""

    class Bounded(base):  # type: ignore[valid-type,misc]
        def __init__(self, until: float, deadline: float, sockets: list[Any], **kw: Any) -> None:
            super().__init__(**kw)
            self.until, self.deadline = until, deadline
            self.timer = threading.Timer(max(0.0, until - time.monotonic()), _cut, (sockets,))
            self.timer.daemon = True
            self.timer.start()

        def send(self, request: httpx.Request, **kw: Any) -> httpx.Response:
            try:
                response: httpx.Response = super().send(request, **kw)
                return response
            except DeadlinePassed:
                raise
            except Exception as e:
                if time.monotonic() >= self.until:
                    raise DeadlinePassed(self.deadline) from e
                raise

        def close(self) -> None:
            self.timer.cancel()
            super().close()

        def __exit__(self, *exc: Any) -> None:
            self.timer.cancel()
            super().__exit__(*exc)

    return Bounded


def _least(value: Any, left: float) -> Any:
    return left if value is None else min(value, left)


@functools.cache
def _watched(base: type[httpx.SyncByteStream]) -> Any:
    """The stream type `watch` gives an answer (made on first use: httpx is imported
    only when fetching, and an answer's stream must be one of its byte streams)."""

    class Watched(base):  # type: ignore[valid-type,misc]
        """A response's byte stream that stops once the deadline passes (a read the
        client's timer cut then is `DeadlinePassed` too)."""

        def __init__(self, response: httpx.Response, until: float, deadline: float) -> None:
            self.inner: Any = response.stream
            self.request = response.request
            self.until = until
            self.deadline = deadline

        def __iter__(self) -> Iterator[bytes]:
            chunks = iter(self.inner)
            while True:
                left = self.until - time.monotonic()
                if left <= 0:
                    raise DeadlinePassed(self.deadline)
                try:
                    chunk = next(chunks)
                except StopIteration:
                    return
                except Exception as e:
                    if time.monotonic() >= self.until:
                        raise DeadlinePassed(self.deadline) from e
                    raise
                yield chunk

        def close(self) -> None:
            self.inner.close()

    return Watched

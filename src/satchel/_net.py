"""The network's shared rules: which hosts are loopback (the one rule the HTTP checks
of MCP and install share), and `http_client`, the one way satchel opens an HTTP client
for a fetch, bounded twice.

* `timeout` bounds each wait: connecting, and each read of an answer (httpx's
  timeouts), so a server that goes quiet is left after that long.
* `deadline` bounds the whole operation, every request of the client and every
  redirect followed, however its bytes arrive: a server that trickles its answer a
  byte a second never lets a read time out, so the answer's stream is checked against
  the deadline after every chunk, and each read waits at most what is left of it.
  Past it, reading raises `DeadlinePassed`; a timeout of httpx past it is the same.
"""

from __future__ import annotations

import functools
import ipaddress
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

    def cap(request: httpx.Request) -> None:
        left = until - time.monotonic()
        if left <= 0:
            raise DeadlinePassed(deadline)
        waits = request.extensions.get("timeout", {})
        request.extensions["timeout"] = {k: _least(v, left) for k, v in waits.items()}

    def watch(response: httpx.Response) -> None:
        response.stream = _watched(httpx.SyncByteStream)(response, until, deadline)

    return httpx.Client(
        follow_redirects=True,
        timeout=timeout,
        headers=dict(headers),
        trust_env=True,
        event_hooks={"request": [*request_hooks, cap], "response": [watch]},
    )


def _least(value: Any, left: float) -> Any:
    return left if value is None else min(value, left)


@functools.cache
def _watched(base: type[httpx.SyncByteStream]) -> Any:
    """The stream type `watch` gives an answer (made on first use: httpx is imported
    only when fetching, and an answer's stream must be one of its byte streams)."""

    class Watched(base):  # type: ignore[valid-type,misc]
        """A response's byte stream that stops once the deadline passes, and lets
        each read wait at most what is left of it."""

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
                waits = self.request.extensions.get("timeout")
                if isinstance(waits, dict):  # httpcore reads it for every chunk
                    waits["read"] = _least(waits.get("read"), left)
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

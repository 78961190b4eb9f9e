"""`satchel serve --http HOST:PORT`: streamable HTTP on uvicorn, loopback unless asked.

* The address is ``HOST:PORT`` (``[::1]:PORT`` for IPv6; port 0 picks a free one).
* A host that is not loopback (``127.0.0.0/8``, ``::1``, ``localhost``) is refused
  unless the caller passes ``remote=True`` (the CLI's ``--allow-remote``): anyone who
  can reach the port can read the skills' files and run their scripts, and the
  server has no authentication of its own.
* On loopback, DNS-rebinding protection is on: a request whose ``Host`` is not exactly
  a loopback name and the bound port (``127.0.0.1:PORT``, ``localhost:PORT``,
  ``[::1]:PORT``, or the host served on), or whose ``Origin`` is not ``http://`` and
  one of those, is refused by the SDK (421, 403). The values are compared whole, never
  as a prefix, so ``127.0.0.1:PORT.evil.com`` and ``localhost:PORT@evil.com`` are
  refused. On another host it is off, since the names clients will use are not known
  here.
* The socket is bound before the server starts, so the caller can print the real
  address (the port 0 picked) and a client may connect as soon as it is printed.
"""

from __future__ import annotations

import re
import socket
from typing import TYPE_CHECKING, Any

from satchel.foundations._net import is_loopback

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = ["MCP_PATH", "bind", "is_loopback", "parse_address", "run_http", "url"]

MCP_PATH = "/mcp"
_ADDRESS = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.%\w]+)\]|(?P<host>[^\s:\[\]]+)):(?P<port>\d{1,5})")


def parse_address(text: str) -> tuple[str, int]:
    """(host, port) of ``HOST:PORT`` or ``[V6]:PORT``; `ValueError` saying what is wrong."""
    found = _ADDRESS.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:8765, or [::1]:8765)")
    port = int(found.group("port"))
    if port > 65535:
        raise ValueError(f"port {port} is out of range (0 to 65535)")
    return found.group("v6") or found.group("host"), port


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port). Raises `OSError` (address in use ...)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url(sock: socket.socket) -> str:
    """The endpoint clients use for a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{MCP_PATH}"


def security(host: str, port: int) -> TransportSecuritySettings:
    """DNS-rebinding protection for a loopback `host` served on `port`: the exact
    ``Host`` and ``Origin`` values allowed (the SDK's ``:*`` patterns match a prefix, so
    none is used); no protection for any other host."""
    from mcp.server.transport_security import TransportSecuritySettings

    if not is_loopback(host):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    names = ["127.0.0.1", "localhost", "[::1]"]
    shown = f"[{host}]" if ":" in host else host
    if shown not in names:
        names.append(shown)
    hosts = [f"{n}:{port}" for n in names] + (names if port == 80 else [])
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{h}" for h in hosts],
    )


async def run_http(server: Server[Any], sock: socket.socket, host: str) -> None:
    """Serve `server` over streamable HTTP at `MCP_PATH` on the bound `sock` until
    the process is interrupted (uvicorn stops on SIGINT or SIGTERM)."""
    import uvicorn

    from satchel.server._events import RETRY_MS, PrimingEvents

    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        transport_security=security(host, sock.getsockname()[1]),
        event_store=PrimingEvents(),
        retry_interval=RETRY_MS,
    )
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])

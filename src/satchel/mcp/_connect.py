"""One MCP connection over satchel's streams, at whichever revision the server speaks.

Imports the ``mcp`` SDK: the supervisor and the skills client import it only when they
start. `client` makes the SDK's `Client` in its ``auto`` mode over a transport of
`satchel.mcp._transports`: it sends ``server/discover`` at 2026-07-28 first (each later
request then carries the per-request ``_meta`` and, over HTTP, the ``Mcp-Method`` and
``Mcp-Protocol-Version`` headers), and falls back to the 2025-11-25 ``initialize``
handshake when the server answers that it does not know the method or the version. A
server that answers neither fails to connect. The SDK's response cache is off: satchel
lists a server's tools once, and again when the server says they changed.

`revision` is the protocol revision a connected client speaks (``2026-07-28`` or
``2025-11-25``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.client.client import Client
    from mcp.client.session import ElicitationFnT, LoggingFnT, MessageHandlerFnT
    from mcp_types import LoggingLevel

__all__ = ["client", "revision"]


def client(
    transport: Any,
    *,
    elicitation: ElicitationFnT | None = None,
    logging: LoggingFnT | None = None,
    messages: MessageHandlerFnT | None = None,
    log_level: LoggingLevel | None = None,
    extensions: Sequence[str] = (),
) -> Client:
    """A client (not yet entered) over `transport` (an async context of the streams of
    `satchel.mcp._transports`);
    `extensions` are the extension identifiers it declares."""
    from mcp.client.client import Client
    from mcp.client.extension import advertise
    from mcp_types import Implementation

    from satchel.foundations._version import __version__

    return Client(
        transport,
        mode="auto",
        client_info=Implementation(name="satchel", version=__version__),
        elicitation_callback=elicitation,
        logging_callback=logging,
        message_handler=messages,
        log_level=log_level,
        extensions=[advertise(e) for e in extensions] or None,
        cache=None,
    )


def revision(connected: Client) -> str:
    """The protocol revision `connected` negotiated."""
    return connected.protocol_version

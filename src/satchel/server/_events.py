"""The events `satchel serve --http` keeps so that a client may reconnect to a stream.

With an event store, the SDK's streamable HTTP transport opens each POST's SSE stream
with a priming event (an id and empty data) and the ``retry:`` field the 2025-11-25
revision asks a server to send ("SHOULD"), so that a client whose connection dropped
reconnects with ``Last-Event-ID`` and goes on receiving its stream.

`PrimingEvents` keeps the priming events only, never a message. The SDK gives one
store to every HTTP session, and a stream is named by its request's JSON-RPC id,
which repeats from session to session: a store that replayed messages by stream would
hand one session's results to another that reconnects with a stream of the same
name. A client that reconnects therefore gets what comes after it reconnected, not
what it missed. Event ids are random, so a client cannot name another's stream; the
store holds at most `MAX_EVENTS`, the oldest dropped first.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import TYPE_CHECKING

from mcp.server.streamable_http import EventCallback, EventStore

if TYPE_CHECKING:
    from mcp_types import JSONRPCMessage

__all__ = ["MAX_EVENTS", "RETRY_MS", "PrimingEvents"]

MAX_EVENTS = 4096
"""Priming events the store keeps, at most: one per response stream."""
RETRY_MS = 1000
"""The ``retry:`` the priming event suggests: reconnect after a second."""


class PrimingEvents(EventStore):
    """An in-memory event store of priming events alone (see the module's docstring)."""

    def __init__(self, limit: int = MAX_EVENTS) -> None:
        self.limit = limit
        self._streams: OrderedDict[str, str] = OrderedDict()

    async def store_event(self, stream_id: str, message: JSONRPCMessage | None) -> str:
        event_id = secrets.token_urlsafe(18)
        if message is None:  # a priming event: the one kind kept
            self._streams[event_id] = stream_id
            while len(self._streams) > self.limit:
                self._streams.popitem(last=False)
        return event_id

    async def replay_events_after(
        self, last_event_id: str, send_callback: EventCallback
    ) -> str | None:
        """The stream `last_event_id` primed (its session's transport routes what
        comes next there); nothing is replayed."""
        return self._streams.get(last_event_id)

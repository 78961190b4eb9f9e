"""The events `satchel serve --http` keeps so that a client can resume an SSE stream.

With an event store, the SDK's streamable HTTP transport opens each POST's SSE stream
with a priming event (an id and empty data) and the ``retry:`` field the
2025-11-25 revision asks a server to send ("SHOULD"), so that a client whose
connection dropped reconnects with ``Last-Event-ID`` and gets what it missed.

`BoundedEvents` keeps the newest events within a byte budget: the oldest go first,
so a long session cannot grow the server without bound, and a client that comes
back after its events were dropped is replayed nothing (as after a restart).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

if TYPE_CHECKING:
    from mcp_types import JSONRPCMessage

__all__ = ["BUDGET", "RETRY_MS", "BoundedEvents"]

BUDGET = 8 * 1024 * 1024
"""Bytes of JSON the store keeps, at most (a priming event counts as 64)."""
RETRY_MS = 1000
"""The ``retry:`` the priming event suggests: reconnect after a second."""
_PRIMING_SIZE = 64


class BoundedEvents(EventStore):
    """An in-memory event store of at most `budget` bytes of messages."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self._events: OrderedDict[str, tuple[str, JSONRPCMessage | None, int]] = OrderedDict()
        self._size = 0
        self._next = 0

    async def store_event(self, stream_id: str, message: JSONRPCMessage | None) -> str:
        self._next += 1
        event_id = str(self._next)
        size = _PRIMING_SIZE if message is None else len(message.model_dump_json(by_alias=True))
        self._events[event_id] = (stream_id, message, size)
        self._size += size
        while self._size > self.budget and len(self._events) > 1:
            _, (_, _, dropped) = self._events.popitem(last=False)
            self._size -= dropped
        return event_id

    async def replay_events_after(
        self, last_event_id: str, send_callback: EventCallback
    ) -> str | None:
        found = self._events.get(last_event_id)
        if found is None:
            return None
        stream = found[0]
        after = False
        for event_id, (stream_id, message, _) in list(self._events.items()):
            if after and stream_id == stream and message is not None:
                await send_callback(EventMessage(message, event_id))
            after = after or event_id == last_event_id
        return stream

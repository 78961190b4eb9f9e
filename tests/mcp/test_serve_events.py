"""The events `satchel serve --http` keeps: priming events only, under ids no client
can guess, so that a stream of one session is never replayed to another."""

from __future__ import annotations

import anyio
from mcp.server.streamable_http import EventMessage
from mcp_types import JSONRPCNotification

from satchel.server._events import PrimingEvents


def note(n: int) -> JSONRPCNotification:
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/message", params={"n": n})


def stored(store: PrimingEvents, stream: str, message: JSONRPCNotification | None) -> str:
    async def run() -> str:
        return await store.store_event(stream, message)

    return anyio.run(run)


def replayed(store: PrimingEvents, after: str) -> tuple[str | None, list[EventMessage]]:
    sent: list[EventMessage] = []

    async def send(event: EventMessage) -> None:
        sent.append(event)

    async def run() -> str | None:
        return await store.replay_events_after(after, send)

    return anyio.run(run), sent


def test_two_sessions_streams_of_one_name_never_cross():
    """Two sessions each prime and answer their request 3: reconnecting with either
    priming id gives back that stream's name and no message of anyone's."""
    store = PrimingEvents()
    first = stored(store, "3", None)
    stored(store, "3", note(1))  # session A's secret result
    second = stored(store, "3", None)
    stored(store, "3", note(2))
    assert replayed(store, first) == ("3", [])
    assert replayed(store, second) == ("3", [])
    assert first != second and len(first) >= 24  # not a counter a client could guess


def test_an_unknown_or_message_id_names_no_stream():
    store = PrimingEvents()
    message = stored(store, "3", note(1))
    assert replayed(store, message) == (None, [])
    assert replayed(store, "1") == (None, [])


def test_the_oldest_priming_events_go_past_the_limit():
    store = PrimingEvents(limit=2)
    first, second, third = (stored(store, s, None) for s in ("a", "b", "c"))
    assert [replayed(store, e)[0] for e in (first, second, third)] == [None, "b", "c"]

"""The events `satchel serve --http` keeps for a client that reconnects: replayed
after the id it names, on its own stream only, within a byte budget."""

from __future__ import annotations

import anyio
from mcp.server.streamable_http import EventMessage
from mcp_types import JSONRPCNotification

from satchel.server._events import BoundedEvents


def note(n: int) -> JSONRPCNotification:
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/message", params={"n": n})


def replayed(store: BoundedEvents, after: str) -> tuple[str | None, list[tuple[str | None, int]]]:
    got: list[tuple[str | None, int]] = []

    async def send(event: EventMessage) -> None:
        params = getattr(event.message, "params", None) or {}
        got.append((event.event_id, params["n"]))

    async def run() -> str | None:
        return await store.replay_events_after(after, send)

    return anyio.run(run), got


def stored(store: BoundedEvents, stream: str, message: JSONRPCNotification | None) -> str:
    async def run() -> str:
        return await store.store_event(stream, message)

    return anyio.run(run)


def test_what_came_after_the_priming_event_is_replayed_on_its_own_stream():
    store = BoundedEvents()
    primed = stored(store, "a", None)
    one = stored(store, "a", note(1))
    stored(store, "b", note(99))
    two = stored(store, "a", note(2))
    assert replayed(store, primed) == ("a", [(one, 1), (two, 2)])
    assert replayed(store, one) == ("a", [(two, 2)])
    assert replayed(store, "404") == (None, [])


def test_the_oldest_events_go_when_the_budget_is_spent():
    size = len(note(1).model_dump_json(by_alias=True))
    store = BoundedEvents(budget=size * 2)
    first = stored(store, "a", note(1))
    second = stored(store, "a", note(2))
    third = stored(store, "a", note(3))
    assert replayed(store, first) == (
        None,
        [],
    )  # dropped: a client gets nothing, as after a restart
    assert replayed(store, second) == ("a", [(third, 3)])

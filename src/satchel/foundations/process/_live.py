"""The process groups satchel has running, so that a signal that ends satchel ends them.

Every child starts in a session of its own (`run_process`, `spawn_process`), so a
signal sent to satchel (SIGTERM from a supervisor or ``kill``, SIGHUP when the terminal
goes away, Ctrl-C) never reaches it: without this, a hook or an MCP server would be
left running with no parent. `LIVE` holds each child's group id from its start until
just before it is reaped (so the id cannot have been reused while it is held), and
`ending_on_signals` is what the command line wraps its work in: on SIGTERM, SIGHUP or
SIGINT, every live group gets SIGTERM, then SIGKILL after `GRACE` seconds, and satchel
exits with 128 + the signal's number (SIGINT: as an interrupt, 130).

The registry is process-wide because signals are: it is the one piece of state the
process layer keeps, and it holds only integers.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

from satchel.foundations.process._group import signal_group

__all__ = ["GRACE", "LIVE", "SIGNALS", "LiveGroups", "ending_on_signals"]

GRACE = 0.5  # seconds between SIGTERM and SIGKILL when satchel itself is ending
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_NAP = 0.01


class LiveGroups:
    """The process group ids of satchel's running children."""

    def __init__(self) -> None:
        self._groups: set[int] = set()
        self._lock = threading.Lock()
        self._ending = False

    def add(self, pgid: int) -> None:
        """Record a child's group; one started while satchel is ending is killed now."""
        with self._lock:
            self._groups.add(pgid)
            ending = self._ending
        if ending:
            signal_group(pgid, signal.SIGKILL)

    def discard(self, pgid: int) -> None:
        """Forget a group: call it after the group's last signal, before reaping it."""
        with self._lock:
            self._groups.discard(pgid)

    def reset(self) -> None:
        """Start accepting children again (after `end_all`, for a caller that goes on)."""
        with self._lock:
            self._ending = False

    def groups(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(sorted(self._groups))

    def end_all(self, grace: float = GRACE) -> tuple[int, ...]:
        """SIGTERM every live group, wait up to `grace`, SIGKILL what is left; the
        groups signalled. Later `add`s are killed at once."""
        with self._lock:
            self._ending = True
            groups = tuple(sorted(self._groups))
        for pgid in groups:
            signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while groups and time.monotonic() < deadline and self.groups():
            time.sleep(_NAP)  # the runners reap their children and discard them
        for pgid in groups:
            signal_group(pgid, signal.SIGKILL)
        return groups


LIVE = LiveGroups()


def _handler(signum: int, _frame: FrameType | None) -> None:
    LIVE.end_all()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """While inside, SIGTERM, SIGHUP and SIGINT end satchel's children first (see the
    module docstring). Outside the main thread (where Python allows no handler) it
    does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _handler) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        LIVE.reset()

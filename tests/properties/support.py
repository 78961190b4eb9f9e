"""Shared settings and helpers for the property tests.

Two Hypothesis profiles: ``ci`` (the default: modest example counts, so the whole
suite stays fast) and ``deep`` (many more examples, for a long local run)::

    SATCHEL_PROPERTIES=deep python -m pytest tests/properties

The profile is applied per test (``@PROPS``), never loaded globally, so the other
property tests in the suite keep their own settings.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import TypeVar

from hypothesis import HealthCheck, settings

T = TypeVar("T")

_SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "satchel-ci", max_examples=60, deadline=None, suppress_health_check=_SUPPRESS
)
settings.register_profile(
    "satchel-deep", max_examples=5000, deadline=None, suppress_health_check=_SUPPRESS
)
PROFILE = os.environ.get("SATCHEL_PROPERTIES", "ci")
PROPS = settings.get_profile(f"satchel-{PROFILE}")

# A "did not hang" bound, not a timing assertion: every call checked with it takes
# milliseconds; a catastrophic regex or a loop that never ends takes minutes or forever.
HANG = 10.0


class Hung(AssertionError):
    """A call was still running when its bound ran out."""


def finishes(call: Callable[[], T], seconds: float = HANG) -> T:
    """`call()`, or `Hung` when it is still running after `seconds`.

    A timer signal, not a thread: a regex match holds the GIL until it is done, so a
    thread could not be waited for, but the regex engine checks for signals."""
    if not hasattr(signal, "setitimer"):  # no SIGALRM: the call runs unbounded
        return call()

    def expired(signum: int, frame: object) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

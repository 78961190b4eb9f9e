"""The cyclic garbage collector paused while satchel makes many objects at once."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block: reading files into values makes
    thousands of small containers and no cycles worth collecting, so a collection
    started among them only walks them. The collector runs again when the block ends,
    even on error, unless it was off before; a pause inside a pause changes nothing."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()

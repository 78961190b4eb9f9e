"""`ContextSegment`: a piece of the system prompt, as caveman's context() has them."""

from __future__ import annotations

from typing import Literal

from satchel.core._model import model

__all__ = ["ContextSegment", "Stability"]

Stability = Literal["build", "session", "turn"]


@model
class ContextSegment:
    """Text for the system prompt with an `id`, a `kind` (``skill``, ``command``,
    ``instruction``, ...) for the token bill, and a `stability`: ``build`` text stays
    the same for every request (it belongs in a cached prefix), ``session`` text for
    one conversation, ``turn`` text for one request."""

    id: str
    kind: str
    stability: Stability
    text: str

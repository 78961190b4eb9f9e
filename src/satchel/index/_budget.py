"""An index budget and the one rule that fits a listing into it.

A `Budget` bounds a text in tokens (`satchel.foundations.tokens.approx_tokens`), characters,
UTF-8 bytes and entries, and cuts each description to at most `description`
characters; every bound is optional. `fit` takes the entries in the order given and,
when they do not fit, degrades them in one documented order (docs/runtime.md):

1. every description longer than a common length is shortened to it, at a word
   boundary, with `MARKER` at the end (the longest descriptions first, evenly; none
   shorter than `SHORTEST` characters);
2. then entries become name-only, from the last one up;
3. then entries are left out, from the last one up, and a last line says how many.

The result is the same for the same input, and it never exceeds the budget (when not
even the header fits, the text is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Literal

from satchel.core._model import model
from satchel.foundations.tokens import approx_tokens

__all__ = ["MARKER", "SHORTEST", "Budget", "Cap", "Fitted", "fit", "percent", "shorten"]

Cap = Literal["max_skills", "max_bytes", "max_chars", "max_tokens", "description"]
MARKER = "…"
SHORTEST = 32
"""A description is never shortened below this many characters: it goes name-only."""


@model
class Budget:
    """How much room an index gets: `tokens` (satchel's estimate), `chars`, `bytes`
    (UTF-8), `skills` (entries), and `description`, the characters one description
    may keep. None: no such bound."""

    tokens: int | None = None
    chars: int | None = None
    bytes: int | None = None
    skills: int | None = None
    description: int | None = None

    def __post_init__(self) -> None:
        for name in ("tokens", "chars", "bytes", "skills", "description"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"Budget.{name} must be a whole number >= 0 or None")

    def over(self, text: str) -> Cap | None:
        """The first bound `text` breaks (bytes, characters, tokens), or None."""
        if self.bytes is not None and len(text.encode("utf-8", "surrogateescape")) > self.bytes:
            return "max_bytes"
        if self.chars is not None and len(text) > self.chars:
            return "max_chars"
        if self.tokens is not None and approx_tokens(text) > self.tokens:
            return "max_tokens"
        return None

    def without(self, text: str) -> Budget:
        """This budget less the room `text` takes, for a text to be added after what
        fits (the bounds never go below 0; `skills` and `description` are kept)."""
        size = len(text.encode("utf-8", "surrogateescape"))

        def less(bound: int | None, cost: int) -> int | None:
            return None if bound is None else max(bound - cost, 0)

        return replace(
            self,
            tokens=less(self.tokens, approx_tokens(text)),
            chars=less(self.chars, len(text)),
            bytes=less(self.bytes, size),
        )

    def describe(self) -> str:
        """The bounds in words (``64 skills, 8,192 bytes``), or ``no bounds``."""
        parts = [
            f"{self.skills:,} skills" if self.skills is not None else "",
            f"{self.bytes:,} bytes" if self.bytes is not None else "",
            f"{self.chars:,} characters" if self.chars is not None else "",
            f"{self.tokens:,} tokens" if self.tokens is not None else "",
            f"{self.description:,} characters a description"
            if self.description is not None
            else "",
        ]
        return ", ".join(p for p in parts if p) or "no bounds"

    def to_json(self) -> dict[str, int | None]:
        """The bounds as JSON (None: no such bound)."""
        return {
            "tokens": self.tokens,
            "chars": self.chars,
            "bytes": self.bytes,
            "skills": self.skills,
            "description": self.description,
        }

    def limit(self, cap: Cap) -> int:
        """The number behind `cap`."""
        value = {
            "max_skills": self.skills,
            "max_bytes": self.bytes,
            "max_chars": self.chars,
            "max_tokens": self.tokens,
            "description": self.description,
        }[cap]
        return 0 if value is None else value

    def tightest(self, other: Budget) -> Budget:
        """Each bound the smaller of the two (None: no bound)."""

        def low(a: int | None, b: int | None) -> int | None:
            return b if a is None else a if b is None else min(a, b)

        return Budget(
            tokens=low(self.tokens, other.tokens),
            chars=low(self.chars, other.chars),
            bytes=low(self.bytes, other.bytes),
            skills=low(self.skills, other.skills),
            description=low(self.description, other.description),
        )


def percent(share: float) -> str:
    """`share` (a fraction of a context window) as a percentage, exactly as written:
    ``0.004`` is ``0.4%``, ``0.02`` is ``2%``, never rounded to a whole number."""
    exact = (Decimal(repr(float(share))) * 100).normalize()
    return f"{exact:f}%"


def shorten(text: str, length: int) -> str:
    """`text` if it has at most `length` characters, else a prefix cut at the last word
    boundary (mid-word only when one word is longer) with `MARKER`, `length` in all."""
    if len(text) <= length:
        return text
    if length <= len(MARKER):
        return MARKER[:length]
    room = text[: length - len(MARKER) + 1]
    cut = room.rfind(" ")
    head = room[:cut] if cut > 0 else room[:-1]
    return head.rstrip(" ,;:.-–—") + MARKER


State = Literal["full", "shortened", "name-only", "omitted"]


@model
class Fitted:
    """What `fit` made: the `text`, each entry's `lines` text ("" when left out) and
    `states`, the bound that forced a change (None: everything fit), and the `level`
    descriptions were shortened to."""

    text: str
    lines: tuple[str, ...]
    states: tuple[State, ...]
    cap: Cap | None
    level: int = 0


Line = Callable[[int, str | None], str]


def fit(
    header: str,
    descriptions: Sequence[str],
    line: Line,
    *,
    budget: Budget,
    omitted: Callable[[int], str],
    tail: str = "",
    pinned: frozenset[int] = frozenset(),
) -> Fitted:
    """The index of entries `line(i, description)` (None: name-only) within `budget`.

    `descriptions` are the full ones; `pinned` entries are name-only whatever room
    is left (an override)."""
    total = len(descriptions)
    plan = _Plan(header, tail, descriptions, line, omitted, pinned)
    count = total if budget.skills is None else min(total, budget.skills)
    longest = max((len(d) for d in descriptions), default=0)
    level = longest if budget.description is None else min(longest, budget.description)
    first = plan.text(count, 0, level)
    cap: Cap | None = "max_skills" if count < total else None
    if budget.over(first) is None:
        return plan.fitted(first, count, 0, level, cap)
    cap = budget.over(first)

    def fits(text: str) -> bool:
        return budget.over(text) is None

    kept = _largest(0, count, lambda m: fits(plan.text(m, m, 0)))
    if kept == 0 and not fits(plan.text(0, 0, 0)):
        gone: list[State] = ["omitted"] * total
        return Fitted("", ("",) * total, tuple(gone), cap, 0)
    floor = min(SHORTEST, level)
    named = kept - _largest(0, kept, lambda k: fits(plan.text(kept, kept - k, floor)))
    best = _largest(floor, level, lambda n: fits(plan.text(kept, named, n)))
    return plan.fitted(plan.text(kept, named, best), kept, named, best, cap)


def _largest(low: int, high: int, ok: Callable[[int], bool]) -> int:
    """The largest n in [low, high] with ok(n), given ok(low) and ok falling in n."""
    while low < high:
        middle = (low + high + 1) // 2
        if ok(middle):
            low = middle
        else:
            high = middle - 1
    return low


@model
class _Plan:
    header: str
    tail: str
    descriptions: Sequence[str]
    line: Line
    omitted: Callable[[int], str]
    pinned: frozenset[int]

    def entry(self, i: int, kept: int, named: int, level: int) -> str:
        if i in self.pinned or i >= kept - named:
            return self.line(i, None)
        return self.line(i, shorten(self.descriptions[i], level))

    def text(self, kept: int, named: int, level: int) -> str:
        lines = [self.header, *(self.entry(i, kept, named, level) for i in range(kept))]
        if self.tail:
            lines.append(self.tail)
        if kept < len(self.descriptions):
            lines.append(self.omitted(len(self.descriptions) - kept))
        return "\n".join(line for line in lines if line) + "\n"

    def fitted(self, text: str, kept: int, named: int, level: int, cap: Cap | None) -> Fitted:
        lines: list[str] = []
        states: list[State] = []
        for i, full in enumerate(self.descriptions):
            if i >= kept:
                lines.append("")
                states.append("omitted")
                continue
            lines.append(self.entry(i, kept, named, level))
            if i in self.pinned or i >= kept - named:
                states.append("name-only")
            else:
                states.append("shortened" if len(full) > level else "full")
        return Fitted(text, tuple(lines), tuple(states), cap, level)

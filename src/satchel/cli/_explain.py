"""`satchel index --explain`: each skill's line in the index, its cost, and why the
budget shortened it, listed it by name only or left it out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from satchel.foundations.tokens import approx_tokens
from satchel.index._budget import Budget
from satchel.index._render import Index, IndexEntry

__all__ = ["entries_json", "explain_lines"]


def explain_lines(index: Index, budget: Budget, ending: str | None = None) -> Iterator[str]:
    """The explanation, line by line: the budget, the totals, one block a skill, then
    the search line the index ends with (`ending`), if it has one."""
    text = index.text
    counts = _counts(index.entries)
    listed = len(index.listed)
    yield f"Budget: {budget.describe()}"
    yield (
        f"Index: {len(text):,} characters, {len(text.encode('utf-8')):,} bytes, "
        f"about {approx_tokens(text):,} tokens; {listed:,} of {len(index.entries):,} "
        f"skills listed ({counts})"
    )
    for entry in index.entries:
        yield ""
        yield _head(entry)
        for line in entry.line.splitlines():
            yield f"    {line}"
    if ending is not None:
        yield ""
        yield (
            f"search line: {len(ending) + 1:,} characters, {approx_tokens(ending):,} tokens, "
            "taken from the budget: skills were left out, so the search tools are offered"
        )
        yield f"    {ending}"


def entries_json(index: Index) -> list[dict[str, Any]]:
    """`explain_lines`' blocks as JSON, one object a skill, in order."""
    return [
        {
            "name": e.skill.name,
            "state": e.state,
            "line": e.line,
            "chars": e.chars,
            "tokens": e.tokens,
            "reason": e.reason,
            "cap": e.cap,
        }
        for e in index.entries
    ]


def _head(entry: IndexEntry) -> str:
    cost = f", {entry.chars:,} characters, {entry.tokens:,} tokens" if entry.line else ""
    why = f": {entry.reason}" if entry.reason else ""
    if entry.cap is not None and not entry.why:
        why += f" ({entry.cap})"
    return f"{entry.skill.name}: {entry.state}{cost}{why}"


def _counts(entries: tuple[IndexEntry, ...]) -> str:
    states = ("full", "shortened", "name-only", "omitted", "hidden")
    found = {state: sum(1 for e in entries if e.state == state) for state in states}
    words = {"omitted": "left out"}
    return ", ".join(f"{n:,} {words.get(state, state)}" for state, n in found.items())

"""Token counts and budgets, with a pluggable counter.

The default counter, `approx_tokens`, is one token per four bytes of UTF-8, rounded
up: close to what BPE tokenizers give for English prose and code, and never low for
CJK or emoji. Pass any `str -> int` callable (a real tokenizer) to replace it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping

__all__ = ["DEFAULT_BODY_TOKENS", "Counter", "approx_tokens", "token_bill", "truncate"]

Counter = Callable[[str], int]
DEFAULT_BODY_TOKENS = 10_000
BYTES_PER_TOKEN = 4


def approx_tokens(text: str) -> int:
    """About how many tokens `text` is: UTF-8 bytes / 4, rounded up."""
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    return -(-size // BYTES_PER_TOKEN)


def token_bill(segments: Mapping[str, str], counter: Counter = approx_tokens) -> dict[str, int]:
    """Tokens per context segment, in the segments' order."""
    return {name: counter(text) for name, text in segments.items()}


MARKER_START = "[truncated by satchel:"


def marker(omitted: int, total: int) -> str:
    """The one line that says how much of a text was cut."""
    return f"{MARKER_START} {omitted:,} of {total:,} characters omitted]"


def truncate(
    text: str, max_tokens: int = DEFAULT_BODY_TOKENS, counter: Counter = approx_tokens
) -> str:
    """`text` if it fits in `max_tokens`, else the longest prefix that fits together
    with a marker saying how much was cut. Never splits a character or a combining
    sequence (an emoji ZWJ sequence, a base letter and its accents). A marker-like
    line already in `text` is escaped (``\\[truncated by satchel:``), so the only
    marker a model sees is satchel's own."""
    if counter(_defuse(text)) <= max_tokens:
        return _defuse(text)
    total = len(text)
    reserve = counter("\n\n" + marker(total, total)) + counter("\\" * text.count(MARKER_START))
    budget = max(0, max_tokens - reserve)
    if counter is approx_tokens:
        cut = _byte_cut(text, budget * BYTES_PER_TOKEN)
    else:
        cut = _search_cut(text, budget, counter)
    cut = _grapheme_safe(text, cut)
    return _defuse(text[:cut]) + "\n\n" + marker(total - cut, total)


def _defuse(text: str) -> str:
    return text.replace(MARKER_START, "\\" + MARKER_START) if MARKER_START in text else text


def _byte_cut(text: str, max_bytes: int) -> int:
    if text.isascii():
        return min(len(text), max_bytes)
    return len(text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore"))


def _search_cut(text: str, budget: int, counter: Counter) -> int:
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo


_JOINERS = frozenset("\u200d\ufe0e\ufe0f")


def _grapheme_safe(text: str, cut: int) -> int:
    """Move `cut` back so it does not fall inside a combining sequence."""
    while 0 < cut < len(text) and _continues(text[cut - 1], text[cut]):
        cut -= 1
    if 0 < cut < len(text) and _regional(text[cut]) and _regional(text[cut - 1]):
        run = cut
        while run > 0 and _regional(text[run - 1]):
            run -= 1
        cut -= (cut - run) % 2  # flags are pairs of regional indicators
    return cut


def _regional(ch: str) -> bool:
    return "\U0001f1e6" <= ch <= "\U0001f1ff"


def _continues(before: str, after: str) -> bool:
    if before == "\u200d" or after in _JOINERS:
        return True
    if "\U0001f3fb" <= after <= "\U0001f3ff" or "\U000e0020" <= after <= "\U000e007f":
        return True  # skin tone modifiers, emoji tag sequences
    if "\udc00" <= after <= "\udfff":
        return True  # a lone surrogate half never stands alone
    return unicodedata.combining(after) != 0

"""Token truncation (`satchel.foundations.tokens.truncate`) never splits a character or a
combining sequence, fits the budget, and its cut is stable.

Strict idempotence, ``truncate(truncate(t, n), n) == truncate(t, n)``, does not hold
and must not: the marker is unforgeable (threat model S03), so a second pass escapes
the first pass's marker like any marker-like text it is given. What holds instead: the
kept part is a fixed point (truncating it again with the same budget keeps it whole),
and a text that fits comes back unchanged (apart from defused markers)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from satchel.foundations.tokens import MARKER_START, approx_tokens, truncate

from .support import PROPS

_UNITS = st.sampled_from(
    [
        *("a", "word ", "\n", "é", "e\u0301", "e\u0301\u0302", "中文", "👍", "👍🏽"),
        *("👨\u200d👩\u200d👧", "🇫🇷", "🇩🇪", "❤\ufe0f", "🏴\U000e0067\U000e0062\U000e007f"),
        *("\u202e", "\U0001f1e6", MARKER_START, "\\"),
    ]
)
_TEXT = st.lists(_UNITS, max_size=80).map("".join) | st.text(max_size=200)
_COUNTERS = [approx_tokens, len, lambda t: len(t.split())]


def _kept(out: str, text: str) -> str | None:
    """The part of `text` kept in `out`, or None when `out` is not a truncation."""
    marker_at = out.rfind("\n\n" + MARKER_START)
    if marker_at < 0 or not out.endswith(" characters omitted]"):
        return None
    return out[:marker_at]


def _undefuse(text: str) -> str:
    return text.replace("\\" + MARKER_START, MARKER_START)


def _splits(text: str, cut: int) -> bool:
    if not 0 < cut < len(text):
        return False
    before, after = text[cut - 1], text[cut]
    if unicodedata.combining(after) or after in "\u200d\ufe0e\ufe0f" or before == "\u200d":
        return True
    if "\U0001f3fb" <= after <= "\U0001f3ff" or "\U000e0020" <= after <= "\U000e007f":
        return True
    flags = 0
    while cut - flags > 0 and "\U0001f1e6" <= text[cut - flags - 1] <= "\U0001f1ff":
        flags += 1
    return flags % 2 == 1 and "\U0001f1e6" <= after <= "\U0001f1ff"


@PROPS
@given(_TEXT, st.integers(0, 120), st.sampled_from(range(len(_COUNTERS))))
def test_truncation_keeps_whole_characters_and_fits(text: str, budget: int, which: int) -> None:
    counter = _COUNTERS[which]
    out = truncate(text, budget, counter)
    kept = _kept(out, text) if MARKER_START in out else None
    if kept is None or out == truncate(text, 10**9, counter):
        assert out == text.replace(MARKER_START, "\\" + MARKER_START)
        return
    original = _undefuse(kept)
    assert text.startswith(original)
    assert not _splits(text, len(original)), (text, len(original))
    assert original.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass") == original
    assert counter(kept) <= budget
    if counter(out) > budget:  # only when the marker alone does not fit the budget
        assert counter(kept) == 0


@PROPS
@given(_TEXT, st.integers(0, 120), st.sampled_from(range(len(_COUNTERS))))
def test_the_kept_part_is_a_fixed_point(text: str, budget: int, which: int) -> None:
    counter = _COUNTERS[which]
    out = truncate(text, budget, counter)
    kept = _kept(out, text)
    if kept is None or MARKER_START in text:
        return
    assert truncate(kept, budget, counter) == kept


@PROPS
@given(_TEXT.filter(lambda t: MARKER_START not in t), st.integers(0, 10_000))
def test_a_text_that_fits_is_returned_unchanged(text: str, budget: int) -> None:
    if approx_tokens(text) <= budget:
        assert truncate(text, budget) == text
        assert truncate(truncate(text, budget), budget) == text

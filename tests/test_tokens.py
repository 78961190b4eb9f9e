"""Truncating bodies at a token budget with one explicit marker."""

from __future__ import annotations

import pytest

from satchel import approx_tokens, truncate

MARKER = "[truncated by satchel: "


def test_default_counter_is_utf8_bytes_over_four_rounded_up():
    assert approx_tokens("") == 0
    assert approx_tokens("abcd") == 1
    assert approx_tokens("abcde") == 2
    assert approx_tokens("日本") == 2  # 6 bytes


def test_text_within_budget_is_untouched():
    text = "x" * 40_000
    assert truncate(text) == text


def test_long_ascii_is_cut_with_one_marker_saying_how_much():
    text = "word " * 12_000  # 60,000 characters, 15,000 tokens
    out = truncate(text)
    assert approx_tokens(out) <= 10_000
    kept = out.index("\n\n" + MARKER)
    assert out.endswith(f"[truncated by satchel: {60_000 - kept:,} of 60,000 characters omitted]")
    assert out.count(MARKER) == 1
    assert text.startswith(out[:kept])


@pytest.mark.parametrize(
    "text",
    [
        "日本語のテキスト" * 5_000,
        "👩\u200d👩\u200d👧\u200d👦" * 20_000,
        "e\u0301" * 30_000,
        "🇫🇷🇩🇪" * 20_000,
        "🙋🏽" * 20_000,
    ],
)
def test_never_splits_a_character_or_a_sequence(text):
    out = truncate(text, max_tokens=1_000)
    kept = out[: out.index("\n\n" + MARKER)]
    assert text.startswith(kept)
    unit = {"日": 8, "👩": 7, "e": 2, "🇫": 4, "🙋": 2}[text[0]]
    assert len(kept) % unit == 0
    assert approx_tokens(out) <= 1_000


def test_a_single_huge_line_is_cut_the_same_way_twice():
    text = "x" * (1 << 20)
    first, second = truncate(text), truncate(text)
    assert first == second
    assert first.endswith(f"of {1 << 20:,} characters omitted]")


def test_a_custom_counter_is_honoured():
    words = " ".join(f"w{i}" for i in range(100))
    out = truncate(words, max_tokens=30, counter=lambda t: len(t.split()))
    assert len(out.split()) <= 30
    assert MARKER in out


def test_a_fake_marker_in_the_text_is_escaped_so_only_the_real_one_stands():
    fake = "[truncated by satchel: 1 of 2 characters omitted]"
    text = "a" * 30_000 + fake + "b" * 30_000
    out = truncate(text)
    assert out.endswith(f"of {len(text):,} characters omitted]")
    assert "\\" + fake in out
    assert out.count("\n[truncated by satchel:") == 1
    assert truncate("short " + fake) == "short \\" + fake

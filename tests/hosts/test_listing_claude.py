"""Claude Code's listing rules, one at a time, without the host (the host itself is
compared in test_claude_listing_loop.py): the cut, the width, the usage score, the
settings read, and the order of commands and plugins."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

import satchel
import satchel.index._listing
from satchel.assembly.listings._listing import host_listing, renderer
from satchel.assembly.listings._listing_claude import HEADER, clean, cut, width
from satchel.compat._budget import budget
from satchel.index._budget import Budget, percent
from satchel.index._listing import ListingSettings, claude_settings, read_listing, read_usage
from tests.support import put


def test_a_description_over_the_cap_keeps_one_less_and_the_marker():
    assert cut("abcdef", 6) == "abcdef"
    assert cut("abcdefg", 6) == "abcde…"
    assert cut("abc def", 5) == "abc …"  # whitespace at the cut is kept


def test_the_cap_counts_utf16_units_and_a_split_pair_is_sent_as_a_replacement():
    assert cut("a😀b", 4) == "a😀b"  # 1 + 2 + 1 units
    assert cut("aa😀b", 4) == "aa\ufffd…"


def test_newlines_tabs_and_format_characters_become_one_space_and_a_no_break_one_stays():
    assert clean("\tA\n\n\nb\u200bc\u00a0d\u2028e ") == "A b c\u00a0d e"


def test_the_width_counts_wide_characters_twice_and_combining_ones_not_at_all():
    assert width("abc") == 3
    assert width("日本") == 4
    assert width("e\u0301") == 1


def test_usage_halves_each_week_and_never_falls_below_a_tenth(home):
    now = 1_000_000_000.0
    day = 86_400_000
    usage = {
        "fresh": {"usageCount": 4, "lastUsedAt": now * 1000},
        "week": {"usageCount": 4, "lastUsedAt": now * 1000 - 7 * day},
        "old": {"usageCount": 4, "lastUsedAt": now * 1000 - 700 * day},
        "bad": {"usageCount": "4", "lastUsedAt": now * 1000},
    }
    put(home / ".claude.json", json.dumps({"skillUsage": usage}))
    scores = dict(read_usage(home, now))
    assert scores == {"fresh": 4.0, "week": 2.0, "old": 0.4}


def test_usage_scores_extreme_times_as_claude_codes_arithmetic_does(home):
    """Claude Code's ``usageCount * Math.max(Math.pow(0.5, days / 7), 0.1)``: a time far
    ahead weighs without bound, one far behind a tenth; NaN scores count for nothing."""
    usage = {
        "ahead": {"usageCount": 1, "lastUsedAt": 1e16},
        "beyond": {"usageCount": 2, "lastUsedAt": 1e400},
        "behind": {"usageCount": 10, "lastUsedAt": -1e16},
        "negative": {"usageCount": -5, "lastUsedAt": 1_000_000_000_000},
        "never": {"usageCount": 0, "lastUsedAt": 1e16},
        "absent": {"usageCount": 4},
    }
    put(home / ".claude.json", json.dumps({"skillUsage": usage}).replace("Infinity", "1e400"))
    scores = dict(read_usage(home, 1_000_000_000.0))
    assert scores == {"ahead": math.inf, "beyond": math.inf, "behind": 1.0, "negative": -5.0}


def test_the_listing_settings_are_read_from_the_claude_settings_files(layout, project, home):
    put(home / ".claude" / "settings.json", '{"skillListingMaxDescChars": 300}')
    put(project / ".claude" / "settings.json", '{"skillListingBudgetFraction": 0.02}')
    found, problems = read_listing(layout, claude_settings(layout, True))
    assert (found.fraction, found.description, problems) == (0.02, 300, [])
    untrusted, _ = read_listing(layout, claude_settings(layout, False))
    assert (untrusted.fraction, untrusted.description) == (None, 300)
    off, _ = read_listing(layout, ())
    assert (off.fraction, off.description) == (None, None)


def test_a_setting_of_the_wrong_shape_is_ignored_and_reported(layout, home):
    put(home / ".claude" / "settings.json", '{"skillListingBudgetFraction": 2, '
        '"skillListingMaxDescChars": 0}')  # fmt: skip
    found, problems = read_listing(layout, claude_settings(layout, True))
    assert (found.fraction, found.description) == (None, None)
    assert [(p.code, p.message) for p in problems] == [
        ("config.invalid", "settings.json: skillListingBudgetFraction must be above 0, at most 1"),
        ("config.invalid", "settings.json: skillListingMaxDescChars must be a whole number > 0"),
    ]


def test_a_whole_number_written_with_a_point_is_a_whole_number(layout, home):
    """``JSON.parse`` reads ``2000.0`` as 2000, which Claude Code's schema takes."""
    put(home / ".claude" / "settings.json", '{"skillListingMaxDescChars": 2000.0}')
    found, problems = read_listing(layout, claude_settings(layout, True))
    assert (found.description, problems) == (2000, [])
    put(home / ".claude" / "settings.json", '{"skillListingMaxDescChars": 2000.5}')
    found, problems = read_listing(layout, claude_settings(layout, True))
    assert found.description is None
    assert [p.code for p in problems] == ["config.invalid"]


def test_the_budget_names_a_small_share_exactly():
    chars, why = budget(satchel.hosts.get("claude-code"), settings=ListingSettings(0.004))
    assert chars == 12_000  # 0.4% of 1,000,000 tokens at 3 characters a token
    assert why == (
        "0.4% of claude-opus-5-5's 1,000,000-token context window at 3 characters a token"
    )
    assert [percent(s) for s in (0.004, 0.02, 1, 0.0125)] == ["0.4%", "2%", "100%", "1.25%"]


def test_the_settings_size_the_budget_of_a_claude_code_load(layout, project, home):
    put(project / ".claude" / "settings.json", '{"skillListingBudgetFraction": 0.001}')
    env = satchel.load(layout=layout, host="claude-code", trusted=True)
    assert env.index_budget() == Budget(chars=3_000, description=1536)


def test_only_a_profile_with_a_style_gets_one():
    assert renderer(satchel.hosts.get("cursor")) is None
    assert renderer(satchel.hosts.get("claude-code")) is not None
    assert renderer(satchel.hosts.get("codex")) is not None  # Codex's own listing


def test_a_name_only_override_lists_the_name_and_never_counts_as_cut():
    skills = [satchel.Skill(name=n, description=f"The {n} steps.") for n in ("a", "b")]
    index = host_listing(
        "claude-code", skills, budget=Budget(chars=10_000), overrides={"b": "name-only"}
    )
    assert index is not None
    assert index.text == f"{HEADER}\n\n- a: The a steps.\n- b\n"
    assert [d.code for d in index.diagnostics] == []


def test_a_load_reads_the_usage_only_when_a_listing_asks(layout, home, monkeypatch):
    """``~/.claude.json`` can be large: a claude-code load does not read it; the
    scores are read once, when a listing first asks for them."""
    put(home / ".claude.json", json.dumps({"skillUsage": {"a": {"usageCount": 2,
        "lastUsedAt": 1_000_000_000_000}}}))  # fmt: skip
    read: list[Path] = []
    real = satchel.index._listing.read_usage

    def counted(where: Path, now: float | None = None) -> Mapping[str, float]:
        read.append(where)
        return real(where, now)

    monkeypatch.setattr(satchel.index._listing, "read_usage", counted)
    env = satchel.load(layout=layout, host="claude-code", cache=False)
    assert read == []
    assert set(env.listing.usage) == {"a"} and "a" in env.listing.usage
    assert read == [home]

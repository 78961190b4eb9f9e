"""Matchers (Claude Code's current rules, Vibe's), MCP tool names, the event table,
and hostile regexes: refused before use (bench/bounds.py times the worst accepted one)."""

from __future__ import annotations

import pytest

from satchel.hooks import CLAUDE_EVENTS, EVENTS, VIBE_EVENTS, canonical, compile_matcher
from satchel.hooks._events import CATALOGUE, event_named, host_name
from satchel.hooks._matchers import MAX_SUBJECT, mcp_tool_name, unsafe_reason


@pytest.mark.parametrize(
    ("text", "kind"),
    [(None, "all"), ("", "all"), ("*", "all"), (" * ", "all"), ("Bash", "exact"),
     ("Edit|Write", "exact"), ("my-tool, other_tool", "exact"), ("Edit.*", "regex"),
     ("^Bash$", "regex"), ("mcp__x__.*", "regex")],
)  # fmt: skip
def test_matcher_kinds(text, kind):
    assert compile_matcher(text).kind == kind


def test_exact_names_split_on_bars_and_commas():
    matcher = compile_matcher("Edit | Write,MultiEdit")
    assert matcher.names == frozenset({"Edit", "Write", "MultiEdit"})
    assert not matcher.matches("Edi")


def test_a_regex_is_unanchored():
    assert compile_matcher("Edit.*").matches("NotebookEdit")
    assert not compile_matcher("^Edit.*").matches("NotebookEdit")


@pytest.mark.parametrize(
    ("text", "name", "hit"),
    [("re:ba.*", "BASH", True), ("ba*", "Bash", True), ("ba*", "xbash", False),
     ("deploy.*", "deploy.rollout", True), ("*", "x", True)],
)  # fmt: skip
def test_vibe_matchers_are_case_insensitive_globs_or_full_regexes(text, name, hit):
    assert compile_matcher(text, "vibe").matches(name) is hit


def test_mcp_tool_names():
    assert mcp_tool_name("memory", "read") == "mcp__memory__read"
    assert mcp_tool_name("db.main", "q", plugin="my kit") == "mcp__plugin_my_kit_db_main__q"


HOSTILE = ["(a+)+$", "(a|a)*b", "(a*)*b", "(?:a|b|ab)+$", "(x+x+)+y", r"(\w+\s?)*$",
           ".*a.*a.*a.*a.*b", r"(a)\1", "(?=a)a", "(a{1,100}){1,100}"]  # fmt: skip


@pytest.mark.parametrize("pattern", HOSTILE)
def test_hostile_regexes_are_refused(pattern):
    assert unsafe_reason(pattern) is not None
    with pytest.raises(ValueError, match="is refused"):
        compile_matcher(pattern)


@pytest.mark.parametrize(
    "pattern", ["mcp__.*__write.*", "^(Edit|Write|MultiEdit)$", "Bash(\\(.*\\))?", "[a-z]+_x"]
)
def test_ordinary_regexes_are_accepted(pattern):
    assert unsafe_reason(pattern) is None


def test_the_worst_accepted_regex_answers_on_the_longest_subject():
    matcher = compile_matcher(".*a.*a.*b")
    assert not matcher.matches("a" * MAX_SUBJECT)
    assert not matcher.matches("a" * (MAX_SUBJECT + 1) + "b")  # too long for a regex


def test_every_claude_event_maps_to_a_canonical_one():
    kimi_only = {canonical(e.kimi, "kimi") for e in CATALOGUE if e.kimi and not e.claude}
    assert {*CLAUDE_EVENTS.values(), *kimi_only} == set(EVENTS)
    assert dict(VIBE_EVENTS) == {
        "pre_tool": "before_tool_use",
        "post_tool": "after_tool_use",
        "post_agent": "stop",
    }
    assert canonical("PreToolUse", "kimi") == "before_tool_use"
    assert canonical("PreToolUse", "satchel") is None
    assert canonical("TeammateIdle", "claude") == "teammate_idle"
    assert canonical("TurnStarted", "claude") is None  # Kimi's own
    assert event_named("pre_tool") == event_named("PreToolUse") == "before_tool_use"
    assert host_name("stop", "vibe") == "post_agent"
    assert host_name("stop", "satchel") == "Stop"

"""Permission rules never hang: parsing any text, and matching hostile globs and path
patterns against long inputs, finish within a generous bound (`satchel.foundations.permissions`)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from satchel.foundations.permissions import MAX_RULE_LENGTH, parse_rule, parse_rules

from .support import PROPS, finishes

TOOLS = ["Bash", "Read", "Edit", "WebFetch", "WebSearch", "Agent", "Skill", "mcp__x__y", "*"]
_GLOB_PIECES = st.sampled_from(["*", "*", "a", "a", "**", "/", "**/", "a*", "*a", " ", ":*", "."])
_INPUTS = st.sampled_from(["a", "a/", "/", " ", "aa", "&&", "|", ";", "'", '"', "\\", "$(", "."])
_KEYS = ("command", "file_path", "url", "query", "subagent_type", "skill")


@st.composite
def _hostile_rule(draw: st.DrawFn) -> str:
    tool = draw(st.sampled_from(TOOLS))
    pieces = draw(st.lists(_GLOB_PIECES, min_size=1, max_size=60))
    specifier = "".join(pieces)[: MAX_RULE_LENGTH - len(tool) - 2]
    return f"{tool}({specifier})"


@st.composite
def _long_input(draw: st.DrawFn) -> str:
    unit = "".join(draw(st.lists(_INPUTS, min_size=1, max_size=4)))
    return unit * draw(st.sampled_from([1, 50, 500, 4000]))


@PROPS
@given(st.text(max_size=MAX_RULE_LENGTH + 50))
def test_parsing_any_text_gives_a_rule_or_a_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        finishes(lambda: parse_rule(text))
    rules, diags = finishes(lambda: parse_rules([text], path=Path("settings.json")))
    assert len(rules) + len(diags) == 1
    assert all(d.code == "permission.rule.invalid" for d in diags)


@PROPS
@given(_hostile_rule(), _long_input(), st.sampled_from(TOOLS[:-1]))
def test_hostile_patterns_on_long_inputs_finish(rule_text: str, value: str, tool: str) -> None:
    rule = parse_rule(rule_text)
    tool_input = dict.fromkeys(_KEYS, value)
    cwd, home = Path("/p"), Path("/h")
    got = finishes(lambda: rule.matches(tool, tool_input, cwd=cwd, home=home))
    assert isinstance(got, bool)
    finishes(lambda: rule.matches(tool, tool_input))


def test_the_classic_star_pattern_is_linear() -> None:
    # `.*a.*a.*a…b` is exponential in a backtracking regex; here it is chunk search.
    rule = parse_rule("Bash(" + "*a" * 200 + "b)")
    assert not finishes(lambda: rule.matches("Bash", {"command": "a" * 100_000}))
    path = parse_rule("Read(" + "**/a*" * 100 + ")")
    assert finishes(lambda: path.matches("Read", {"file_path": "a/" * 5_000 + "b"}))
    assert not finishes(lambda: path.matches("Read", {"file_path": "ab/" * 99 + "b"}))

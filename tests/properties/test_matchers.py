"""Hook matchers never hang: a hostile regex is refused by the pre-check
(`unsafe_reason`) or matches the worst subjects quickly (`satchel.hooks._matchers`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satchel.hooks._matchers import MAX_SUBJECT, Matcher, compile_matcher, unsafe_reason

from .support import PROPS, finishes

_ATOMS = st.sampled_from(["a", "a", "b", ".", "\\w", "[ab]", "[^b]", "x", "\\d", "_", "(?:a)"])
_QUANTIFIERS = st.sampled_from(["", "", "?", "*", "+", "{2}", "{0,1}", "{1,9}", "{3,}", "*?", "+?"])


@st.composite
def _regex(draw: st.DrawFn, depth: int = 0) -> str:
    """A regex built to backtrack: optional atoms in a row, repeated groups holding
    repeats or alternatives, alternatives that overlap."""
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        if depth < 3 and draw(st.booleans()):
            inner = draw(_regex(depth + 1))
            if draw(st.booleans()):
                inner = f"{inner}|{draw(_regex(depth + 1))}"
            atom = f"({inner})"
        else:
            atom = draw(_ATOMS)
        parts.append(atom + draw(_QUANTIFIERS))
    text = "".join(parts)
    return text * draw(st.sampled_from([1, 1, 2, 8, 30])) if depth == 0 else text


_KNOWN_BAD = [
    "(a+)+$",
    "(a|a)*$",
    "(a|aa)+$",
    "(.*a){12}",
    "a?" * 40 + "a" * 40,  # no unbounded repeat at all, and 2**40 paths
    "(a?){40}a{40}",
    "(?:a?){40}a{40}",
    "(a|a)" * 40 + "$",
    "(a{0,1}){40}a{40}",
    "a{0,1}" * 40 + "a" * 40,
    "(\\w|_)" * 30 + "!",
]


def _subjects(pattern: str) -> list[str]:
    """Subjects that make a backtracking engine work hardest: long runs of what the
    pattern eats, then something it does not."""
    out = []
    for ch in ("a", "b", "_", "1"):
        for n in (20, 40, MAX_SUBJECT):
            out += [ch * n, ch * (n - 1) + "!"]
    return out


def _exercise(matcher: Matcher, pattern: str) -> None:
    for subject in _subjects(pattern):
        matcher.matches(subject)


@pytest.mark.parametrize("dialect", ["claude", "vibe"])
@pytest.mark.parametrize("pattern", _KNOWN_BAD)
def test_known_catastrophic_regexes_are_refused_or_fast(pattern: str, dialect: str) -> None:
    text = pattern if dialect == "claude" else f"re:{pattern}"
    try:
        matcher = compile_matcher(text, dialect)
    except ValueError as e:
        assert "is refused" in str(e) or "not a valid regex" in str(e)
        return
    finishes(lambda: _exercise(matcher, pattern))


@PROPS
@given(_regex(), st.sampled_from(["claude", "vibe"]))
def test_a_matcher_is_refused_or_matches_in_bounded_time(pattern: str, dialect: str) -> None:
    text = pattern if dialect == "claude" else f"re:{pattern}"
    try:
        matcher = finishes(lambda: compile_matcher(text, dialect))
    except ValueError:
        return
    finishes(lambda: _exercise(matcher, pattern))


@PROPS
@given(st.text(max_size=600))
def test_any_text_compiles_to_a_matcher_or_a_value_error(text: str) -> None:
    for dialect in ("claude", "vibe"):
        try:
            matcher = finishes(lambda d=dialect: compile_matcher(text, d))  # type: ignore[misc]
        except ValueError as e:
            assert str(e).startswith("matcher ")
            continue
        finishes(lambda m=matcher: [m.matches(s) for s in ("Bash", text, text * 3, None)])


@PROPS
@given(st.text(alphabet="*?[]!ab-\\", max_size=200))
def test_vibe_globs_never_hang(glob: str) -> None:
    matcher = compile_matcher(glob, "vibe")
    finishes(lambda: _exercise(matcher, glob))


@PROPS
@given(st.text(max_size=2000))
def test_the_pre_check_itself_is_total(pattern: str) -> None:
    why = finishes(lambda: unsafe_reason(pattern))
    assert why is None or isinstance(why, str)


@pytest.mark.parametrize("pattern", ["[[", "x[[]", "[a--b]", "[a&&b]", "[a~~b]", "[a||b]"])
@pytest.mark.parametrize("prefix", ["", "re:"])
def test_reserved_set_syntax_is_refused_not_a_warning(pattern: str, prefix: str) -> None:
    # Found by test_any_text_compiles_to_a_matcher_or_a_value_error: re.compile warned
    # (FutureWarning, an exception under -W error) instead of the loader saying why.
    dialect = "vibe" if prefix else "claude"
    with pytest.raises(ValueError, match="reserved for nested sets"):
        compile_matcher(prefix + pattern, dialect)


def test_escaped_brackets_in_a_class_are_fine() -> None:
    assert compile_matcher(r"[\[]x").matches("[x")
    assert compile_matcher("a?" * 8 + "b").matches("aab")  # at the limit of choices

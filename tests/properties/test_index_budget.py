"""The index budget (`satchel.index._budget`): for any skills, budget, format and
overrides, the index never exceeds the budget, keeps the order given, accounts for
every skill, and is the same for the same input."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from satchel import Skill, build_index
from satchel.index._budget import Budget
from satchel.index._render import FORMATS, OVERRIDES

from .support import PROPS

_WORDS = st.sampled_from(["refund", "ledger", "é", "中文", "👍🏽", "a", "<x>", "&", "policy,"])
_DESCRIPTION = st.lists(_WORDS, min_size=1, max_size=40).map(" ".join) | st.text(max_size=120)
_BOUND = st.none() | st.integers(min_value=0, max_value=1500)


@st.composite
def _skills(draw: st.DrawFn) -> list[Skill]:
    descriptions = draw(st.lists(_DESCRIPTION, max_size=25))
    return [
        Skill(name=f"s{i}", description=d or "x", path=Path(f"/s/s{i}/SKILL.md"))
        for i, d in enumerate(descriptions)
    ]


_BUDGETS = st.builds(
    Budget, tokens=_BOUND, chars=_BOUND, bytes=_BOUND, skills=_BOUND, description=_BOUND
)
_OVERRIDES = st.dictionaries(
    st.sampled_from([f"s{i}" for i in range(30)]), st.sampled_from(OVERRIDES), max_size=6
)


@PROPS
@given(_skills(), _BUDGETS, st.sampled_from(FORMATS), _OVERRIDES)
def test_the_index_never_exceeds_its_budget(skills, budget, fmt, overrides):
    index = build_index(skills, format=fmt, budget=budget, overrides=overrides)
    assert budget.over(index.text) is None
    if budget.skills is not None:
        assert len(index.listed) <= budget.skills
    names = [s.name for s in index.listed]
    assert names == [s.name for s in skills if s in index.listed]  # the order given
    assert len(index.entries) == len(skills)
    assert {e.state for e in index.entries} <= {
        "full",
        "shortened",
        "name-only",
        "omitted",
        "hidden",
    }


@PROPS
@given(_skills(), _BUDGETS, st.sampled_from(FORMATS), _OVERRIDES)
def test_the_same_input_gives_the_same_index(skills, budget, fmt, overrides):
    first = build_index(skills, format=fmt, budget=budget, overrides=overrides)
    again = build_index(list(skills), format=fmt, budget=budget, overrides=dict(overrides))
    assert first == again

"""Properties of `rank`: a permutation of its input, deterministic, ties in order."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from satchel import Skill
from satchel.hosts._ranking import rank
from tests.properties.support import PROPS

WORDS = st.sampled_from(["pdf", "form", "git", "commit", "deploy", "Fill", "x-y", "aB", "9"])
TEXT = st.lists(WORDS, max_size=6).map(" ".join)
SKILLS = st.lists(st.tuples(TEXT, TEXT, st.none() | TEXT), max_size=12).map(
    lambda rows: [
        Skill(name=f"s{i}-{n}", description=d, when_to_use=w, path=Path(f"/s/{i}/SKILL.md"))
        for i, (n, d, w) in enumerate(rows)
    ]
)


@PROPS
@given(SKILLS, st.none() | TEXT)
def test_rank_is_a_deterministic_permutation(skills, query):
    first = rank(skills, query)
    assert sorted(map(id, first)) == sorted(map(id, skills))
    assert rank(skills, query) == first
    assert rank(list(skills), query) == first


@PROPS
@given(SKILLS, TEXT)
def test_copies_of_one_skill_keep_the_order_given(skills, query):
    twins = [
        Skill(name=f"twin-{i}", description="pdf form", path=Path(f"/t/{i}/SKILL.md"))
        for i in range(3)
    ]
    ranked = [s for s in rank([*skills, *twins], query) if s in twins]
    assert ranked == twins

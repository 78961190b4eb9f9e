"""Y01-Y06, Y08-Y10 and U01: a bad SKILL.md is skipped with one exact diagnostic."""

from __future__ import annotations

import pytest

from satchel import CODES
from tests.support import write_skill

from .build import SIBLING, about, write_sibling
from .cases import REJECTED, Rejected


@pytest.mark.parametrize("case", REJECTED, ids=lambda c: c.id)
def test_bad_skill_is_skipped_with_one_exact_diagnostic(tree, case: Rejected):
    path = write_skill(tree.skills, case.dirname, case.content)
    write_sibling(tree.skills)

    env = tree.load()

    diags = about(env, path.parent)
    assert [d.code for d in diags] == [case.code], [(d.code, d.message) for d in diags]
    d = diags[0]
    assert d.path == path
    assert d.severity == "error" == CODES[case.code][0]
    if isinstance(case.message, str):
        assert d.message == case.message
    else:
        for part in case.message:
            assert part in d.message
    if isinstance(case.line, tuple):
        assert d.line in case.line
    else:
        assert d.line == case.line
    if case.hint is not None:
        assert d.hint == case.hint
    assert all(s.path != path for s in env.skills.values())
    assert list(env.skills) == [SIBLING]

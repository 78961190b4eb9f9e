"""Y05, Y09, U01 and N01: a skill that is only odd loads, with one exact warning."""

from __future__ import annotations

import pytest

from tests.support import write_skill

from .build import SIBLING, about, write_sibling
from .cases import WARNED, Warned


@pytest.mark.parametrize("case", WARNED, ids=lambda c: c.id)
def test_odd_skill_loads_with_one_exact_warning(tree, case: Warned):
    path = write_skill(tree.skills, case.dirname, case.content)
    write_sibling(tree.skills)

    env = tree.load()

    diags = about(env, path.parent)
    assert [(d.code, d.severity) for d in diags] == [(case.code, "warning")], [
        (d.code, d.message) for d in diags
    ]
    assert diags[0].message == case.message
    assert diags[0].path == path
    assert sorted(env.skills) == sorted([case.loads_as, SIBLING])
    assert env.skills[case.loads_as].path == path

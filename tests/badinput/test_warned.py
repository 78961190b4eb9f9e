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

    found = about(env, path.parent)
    # beside a refused name, satchel's own profile notes what Codex and Gemini CLI do
    notes = [d for d in found if d.code == "skill.name.hosts"]
    diags = [d for d in found if d.code != "skill.name.hosts"]
    assert [(d.code, d.severity) for d in diags] == [(case.code, "warning")], [
        (d.code, d.message) for d in diags
    ]
    assert diags[0].message == case.message
    assert [(d.severity, d.path) for d in notes] == (
        [("info", path)] if case.code == "skill.name.invalid" else []
    )
    assert diags[0].path == path
    assert sorted(env.skills) == sorted([case.loads_as, SIBLING])
    assert env.skills[case.loads_as].path == path

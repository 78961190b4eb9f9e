"""A conditional skill (``paths:``) is not in the listing a session starts with, so
compat does not count it in the host's index, as ``satchel index`` leaves it out."""

from __future__ import annotations

import pytest

from satchel.hosts import PROFILES
from satchel.trust._trust import trust
from tests.support import write_skill


@pytest.fixture
def tree(project, home):
    root = project / ".claude" / "skills"
    write_skill(root, "always", description="Always listed.")
    write_skill(root, "sql", description="Reads the schema files.", paths="db/**/*.sql")
    trust(PROFILES["claude-code"].layout(project, home=home, project=project), project)
    return ("--project", str(project), "--home", str(home), "--host", "claude-code")


def test_compat_leaves_a_conditional_skill_out_of_the_index(satchel, project, tree):
    listed = satchel("index", *tree).out
    assert "always" in listed and "sql" not in listed
    tokens = satchel("compat", str(project), *tree, "--json").json()["hosts"][0]["tokens"]
    assert (tokens["index_chars"], tokens["listed"]) == (len(listed), 1)

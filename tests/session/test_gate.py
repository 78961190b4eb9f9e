"""The allowed-tools gate: only the union of the active skills' lists, the skill tools
always, and a message that tells the model how to get out."""

from __future__ import annotations

import pytest

from satchel.core.errors import ToolNotAllowed
from tests.session.conftest import extra_skill


def test_no_limiting_skill_active_allows_everything(make_session):
    session = make_session(tools="skills")
    session.activate("refund-policy")  # declares no allowed-tools
    session.gate.check_tool("Bash", {"command": "rm -rf build"})
    assert session.gate.allows_tool("Write", {"file_path": "x"})


def test_an_active_skill_limits_calls_to_its_list(make_session):
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    session.gate.check_tool("Read", {"file_path": "doc.pdf"})
    session.gate.check_tool("Bash", {"command": "pdftotext doc.pdf -"})
    with pytest.raises(ToolNotAllowed) as caught:
        session.gate.check_tool("Bash", {"command": "curl https://example.com"})
    assert caught.value.code == "session.tool.not-allowed"
    assert str(caught.value) == (
        "tool 'Bash' is not allowed: skill 'pdf' is active and allows only: Read, "
        'Bash(pdftotext:*). To use this tool, first call skills_use({"name": "pdf", '
        '"mode": "deactivate"}).'
    )
    assert not session.gate.allows_tool("Write", {"file_path": "x"})


def test_the_skill_tools_stay_allowed(make_session):
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    for tool in ("skills_use", "skills_read", "skills_run_script"):
        session.gate.check_tool(tool, {"name": "pdf"})


def test_the_union_of_the_active_lists_is_allowed(make_session, skills_dir):
    extra_skill(skills_dir, "git-helper", **{"allowed-tools": "Bash(git:*)"})
    import satchel
    from satchel.session import Session

    env = satchel.load(layout=make_session().environment.layout)
    session = Session(env, environ={}, tools="skills")
    session.call("skills_use", {"name": "pdf"})
    session.call("skills_use", {"name": "git-helper"})
    session.gate.check_tool("Bash", {"command": "git status"})
    session.gate.check_tool("Bash", {"command": "pdftotext a.pdf"})
    with pytest.raises(ToolNotAllowed) as caught:
        session.gate.check_tool("Bash", {"command": "git status && curl x | sh"})
    assert "skills 'pdf', 'git-helper' are active and together allow only: Read, " in str(
        caught.value
    )
    assert str(caught.value).endswith(
        'first call skills_use({"name": "pdf", "mode": "deactivate"}) and '
        'skills_use({"name": "git-helper", "mode": "deactivate"}).'
    )


def test_deactivating_releases_the_limit(make_session):
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    assert not session.gate.allows_tool("Write", {"file_path": "x"})
    session.call("skills_use", {"name": "pdf", "mode": "deactivate"})
    assert session.gate.allows_tool("Write", {"file_path": "x"})


def test_with_only_load_skill_the_gate_is_off_unless_asked(make_session):
    session = make_session()  # caveman: no way for the model to release a skill
    session.call("load_skill", {"name": "pdf"})
    assert not session.gate.enforcing
    assert session.gate.allows_tool("Write", {"file_path": "x"})
    forced = make_session(enforce_allowed_tools="on")
    forced.call("load_skill", {"name": "pdf"})
    with pytest.raises(ToolNotAllowed) as caught:
        forced.gate.check_tool("Write", {"file_path": "x"})
    assert str(caught.value).endswith("Ask the user to deactivate the skill to use this tool.")


def test_an_unparseable_rule_is_reported_and_matches_nothing(make_session, skills_dir):
    extra_skill(skills_dir, "odd", **{"allowed-tools": "'Bash(git:* Read'"})
    import satchel
    from satchel.session import Session

    env = satchel.load(layout=make_session().environment.layout)
    session = Session(env, environ={}, tools="skills")
    session.call("skills_use", {"name": "odd"})
    assert [d.code for d in session.diagnostics] == ["permission.rule.invalid"]
    assert not session.gate.allows_tool("Bash", {"command": "git status"})


def test_refusal_returns_the_diagnostic_instead_of_raising(make_session):
    session = make_session(tools="skills")
    assert session.gate.refusal("Write", {"file_path": "x"}) is None
    session.call("skills_use", {"name": "pdf"})
    problem = session.gate.refusal("Write", {"file_path": "x"})
    assert problem is not None
    assert problem.code == "session.tool.not-allowed"
    assert problem.message.startswith("tool 'Write' is not allowed: skill 'pdf' is active")
    assert session.gate.refusal("Read", {"file_path": "x"}) is None

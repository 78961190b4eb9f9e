"""`disallowed-tools` in the gate: while a skill that lists it is active, a call its
rules match is refused, even when an active skill's `allowed-tools` allow it."""

from __future__ import annotations

import pytest

import satchel
from satchel.core.errors import ToolNotAllowed
from satchel.session import Session
from tests.session.conftest import extra_skill


def _session(make_session, skills_dir, **options):
    extra_skill(skills_dir, "careful", **{"disallowed-tools": "Bash(rm:*) WebFetch"})
    extra_skill(
        skills_dir,
        "both",
        **{"allowed-tools": "Bash(git:*) Read", "disallowed-tools": "Bash(git push:*)"},
    )
    env = satchel.load(layout=make_session().environment.layout)
    return Session(env, environ={}, tools="skills", **options)


def test_a_disallowed_tool_is_refused_while_the_skill_is_active(make_session, skills_dir):
    session = _session(make_session, skills_dir)
    assert session.gate.allows_tool("WebFetch", {"url": "https://example.com"})
    session.call("skills_use", {"name": "careful"})
    with pytest.raises(ToolNotAllowed) as caught:
        session.gate.check_tool("Bash", {"command": "rm -rf build"})
    assert caught.value.code == "session.tool.not-allowed"
    assert str(caught.value) == (
        "tool 'Bash' is not allowed: skill 'careful' is active and disallows: Bash(rm:*), "
        'WebFetch. To use this tool, first call skills_use({"name": "careful", "mode": '
        '"deactivate"}).'
    )
    assert not session.gate.allows_tool("WebFetch", {"url": "https://example.com"})
    # a skill with only disallowed-tools limits nothing else
    assert session.gate.allows_tool("Bash", {"command": "ls"})
    assert session.gate.allows_tool("Write", {"file_path": "x"})


def test_a_disallowed_rule_wins_over_allowed_tools(make_session, skills_dir):
    session = _session(make_session, skills_dir)
    session.call("skills_use", {"name": "both"})
    assert session.gate.allows_tool("Bash", {"command": "git status"})
    problem = session.gate.refusal("Bash", {"command": "git push origin main"})
    assert problem is not None
    assert problem.message.startswith(
        "tool 'Bash' is not allowed: skill 'both' is active and disallows: Bash(git push:*)."
    )


def test_another_skills_allowed_tools_do_not_lift_a_disallowed_rule(make_session, skills_dir):
    extra_skill(skills_dir, "fetcher", **{"allowed-tools": "WebFetch"})
    session = _session(make_session, skills_dir)
    session.call("skills_use", {"name": "fetcher"})
    session.call("skills_use", {"name": "careful"})
    assert not session.gate.allows_tool("WebFetch", {"url": "https://example.com"})


def test_deactivating_lifts_the_refusal(make_session, skills_dir):
    session = _session(make_session, skills_dir)
    session.call("skills_use", {"name": "careful"})
    assert not session.gate.allows_tool("WebFetch", {})
    session.call("skills_use", {"name": "careful", "mode": "deactivate"})
    assert session.gate.allows_tool("WebFetch", {})


def test_an_unparseable_disallowed_rule_is_reported(make_session, skills_dir):
    extra_skill(skills_dir, "odd", **{"disallowed-tools": "'Bash(git:* Read'"})
    env = satchel.load(layout=make_session().environment.layout)
    session = Session(env, environ={}, tools="skills")
    session.call("skills_use", {"name": "odd"})
    assert [d.code for d in session.diagnostics] == ["permission.rule.invalid"]
    assert session.gate.allows_tool("Bash", {"command": "git status"})

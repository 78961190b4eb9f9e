"""Explicit invocation: /skill <name> <request> and /<name> (zidane and caveman)."""

from __future__ import annotations

import pytest

import satchel
from satchel.core.errors import MaxActiveReached
from satchel.session import Session
from satchel.session._expand import parse_slash
from tests.support import put


def wrapped(skills_dir, request: str = "") -> str:
    text = (
        '<agent-skill name="refund-policy">\n'
        "# Refund policy\n\n"
        "Refunds inside 30 days are automatic. Past 30 days a supervisor approves.\n\n"
        f"Skill directory: {skills_dir / 'refund-policy'}\n"
        "</agent-skill>"
    )
    return f"{text}\n\n{request}" if request else text


def test_slash_skill_inlines_the_body_and_activates(make_session, skills_dir):
    session = make_session()
    out = session.expand("/skill refund-policy Can I refund after 40 days?")
    assert out == wrapped(skills_dir, "Can I refund after 40 days?")
    assert [(a.name, a.via, a.in_context) for a in session.activation.active] == [
        ("refund-policy", "explicit", False)
    ]
    assert [s.id for s in session.context()] == ["agent.skills"]  # it is in the prompt


def test_slash_name_resolves_a_skill(make_session, skills_dir):
    assert make_session().expand("/refund-policy 40 days") == wrapped(skills_dir, "40 days")
    assert make_session().expand("  /refund-policy") == wrapped(skills_dir)


@pytest.mark.parametrize(
    "prompt",
    [
        "/nothing here",
        "/skill nothing here",
        "/skill",
        "no slash /refund-policy",
        "//refund-policy",
        "/refund-policy/x",
        "",
    ],
)
def test_a_prompt_matching_nothing_comes_back_unchanged(make_session, prompt):
    session = make_session()
    assert session.expand(prompt) == prompt
    assert session.activation.active == ()


def test_a_skill_named_skill_still_answers_to_slash_skill(layout, project):
    put(
        project / ".agents" / "skills" / "skill" / "SKILL.md",
        "---\nname: skill\ndescription: S.\n---\nMeta.\n",
    )
    session = Session(satchel.load(layout=layout), environ={})
    assert session.expand("/skill how do I write one").startswith(
        '<agent-skill name="skill">\nMeta.'
    )


def test_slash_skill_in_any_case_addresses_a_skill(make_session, skills_dir):
    assert make_session().expand("/Skill refund-policy hi") == wrapped(skills_dir, "hi")
    assert make_session().expand("/SKILL\u00a0refund-policy") == wrapped(skills_dir)


def test_model_only_skills_do_not_answer_to_a_slash(layout, project):
    put(
        project / ".agents" / "skills" / "bg" / "SKILL.md",
        "---\nname: bg\ndescription: Background.\nuser-invocable: false\n---\nHidden.\n",
    )
    session = Session(satchel.load(layout=layout), environ={})
    assert session.expand("/bg go") == "/bg go"


def test_max_active_is_checked_before_anything_runs(make_session):
    session = make_session(max_active=1)
    session.activate("pdf")
    with pytest.raises(MaxActiveReached):
        session.expand("/refund-policy hi")


@pytest.mark.parametrize(
    ("prompt", "parsed"),
    [
        ("/a b c", ("a", "b c")),
        ("/a\nline two", ("a", "line two")),
        ("/a", ("a", "")),
        ("\t/a   spaced   ", ("a", "spaced")),
        ("/a/b", None),
        ("a", None),
        ("/a\u00a0b", ("a", "b")),  # any Unicode blank separates the name
        ("/a\u3000b\u2028c", ("a", "b\u2028c")),
        ("/a\r\n\r\nb", ("a", "b")),
        ("/a\u00a0", ("a", "")),
    ],
)
def test_parse_slash(prompt, parsed):
    assert parse_slash(prompt) == parsed

"""Session state: activation, events, limits, context segments, bill and receipt."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

import satchel
from satchel.core.errors import Collision, MaxActiveReached, SkillsOff, UnknownSkill
from satchel.foundations.tokens import approx_tokens
from satchel.session import ContextSegment, Session, SkillEvent

INDEX = (
    "Skills available to this agent. Load one only when its description matches the task.\n"
    'Call load_skill({"name":"<skill>"}) for instructions. '
    "Use its resource argument for referenced files.\n"
    "- pdf: Extract text from PDF files.\n"
    "- refund-policy: The refund window, the exceptions, and who may approve one.\n"
)


def test_explicit_activation_fires_one_event_and_holds_the_skill(make_session):
    events: list[SkillEvent] = []
    session = make_session(on_event=events.append)
    held = session.activate("refund-policy")
    assert held.via == "explicit"
    assert [a.name for a in session.activation.active] == ["refund-policy"]
    assert session.activate("refund-policy") is held  # no duplicate
    assert [(e.type, e.name, e.via) for e in events] == [
        ("skills:activate", "refund-policy", "explicit")
    ]


def test_deactivation_fires_with_its_via_and_reports_whether_it_was_active(make_session):
    events: list[SkillEvent] = []
    session = make_session(on_event=events.append)
    session.activate("pdf")
    assert session.activation.deactivate("pdf") is True
    assert session.activation.deactivate("pdf") is False
    assert [(e.type, e.via) for e in events] == [
        ("skills:activate", "explicit"),
        ("skills:deactivate", "explicit"),
    ]
    assert session.activation.active == ()


def test_unknown_skill_raises_with_a_suggestion(make_session):
    session = make_session()
    with pytest.raises(UnknownSkill) as caught:
        session.activate("refund-polcy")
    assert caught.value.code == "session.skill.unknown"
    assert str(caught.value) == "no skill named 'refund-polcy'; did you mean refund-policy?"


def test_names_match_exactly_then_ignoring_case(make_session):
    session = make_session()
    assert session.activate("PDF").name == "pdf"


def test_names_ignoring_case_compare_as_load_compares_them(layout):
    skill = satchel.Skill(name="caf\u00e9", description="Coffee.")
    env = satchel.Environment(layout, MappingProxyType({skill.name: skill}), ())
    session = Session(env, environ={})
    assert (
        session.activation.find("CAFE\u0301") is skill
    )  # NFD and upper case: NFC, then casefolded


def test_skills_off_raises(layout, skills_dir):
    env = satchel.load(layout=layout, enabled=False)
    session = Session(env, environ={})
    with pytest.raises(SkillsOff) as caught:
        session.activate("pdf")
    assert caught.value.code == "session.skills.off"
    assert str(caught.value) == "skills are turned off for this session"
    assert session.tools() == ()
    assert session.context() == ()


def test_max_active_refuses_one_more(make_session):
    session = make_session(max_active=1)
    session.activate("pdf")
    with pytest.raises(MaxActiveReached) as caught:
        session.activate("refund-policy")
    assert caught.value.code == "session.max-active"
    assert str(caught.value) == (
        "cannot activate 'refund-policy': 1 skill(s) already active (pdf), "
        "the most max_active allows"
    )
    assert [a.name for a in session.activation.active] == ["pdf"]


def test_explicit_activation_writes_no_history_so_the_context_carries_it(make_session):
    session = make_session()
    session.activate("refund-policy")
    ids = [s.id for s in session.context()]
    assert ids == ["agent.skills", "agent.skill.refund-policy"]
    segment = session.context()[1]
    assert segment.kind == "skill"
    assert segment.stability == "session"
    assert segment.text.startswith('<skill_content name="refund-policy">\n# Refund policy\n')


def test_the_index_segment_is_cavemans_exact_text(make_session):
    (segment,) = make_session().context()
    assert segment == ContextSegment("agent.skills", "skill", "build", INDEX)


def test_a_renamed_tool_is_named_in_the_index(make_session):
    (segment,) = make_session(tool_names={"load_skill": "open_skill"}).context()
    assert 'Call open_skill({"name":"<skill>"})' in segment.text
    assert [t.name for t in make_session(tool_names={"load_skill": "open_skill"}).tools()] == [
        "open_skill"
    ]


def test_zidanes_tools_get_an_xml_index_that_says_how_to_activate(make_session):
    (segment,) = make_session(tools="skills").context()
    first, second = segment.text.splitlines()[:2]
    assert first == (
        "Skills available to this agent. Activate one only when its description matches "
        'the task: call skills_use({"name":"<skill>"}) for its instructions.'
    )
    assert second == "<available_skills>"


def test_without_tools_the_index_lists_paths_for_a_file_read_tool(make_session, skills_dir):
    session = make_session(tools=False)
    assert session.tools() == ()
    (segment,) = session.context()
    assert f"  path: {skills_dir / 'pdf' / 'SKILL.md'}" in segment.text


def test_host_tool_of_the_same_name_is_a_collision_not_a_merge(make_session):
    session = make_session()
    with pytest.raises(Collision) as caught:
        session.tools(existing=["read_file", {"name": "load_skill"}])
    assert caught.value.code == "session.tool.collision"
    assert str(caught.value) == (
        "the host already has a tool named 'load_skill'; rename satchel's with tool_names "
        "instead of merging the two"
    )
    openai_style = {"type": "function", "function": {"name": "load_skill"}}
    with pytest.raises(Collision):
        session.tools(existing=[openai_style])
    assert [t.name for t in session.tools(existing=["read_file"])] == ["load_skill"]


def test_host_context_of_the_same_id_is_a_collision(make_session):
    session = make_session()
    with pytest.raises(Collision) as caught:
        session.context(existing=["agent.skills"])
    assert caught.value.code == "session.context.collision"
    assert str(caught.value) == "the host already has a context segment 'agent.skills'"


def test_context_bill_counts_the_index_and_the_tool_schemas(make_session):
    session = make_session()
    bill = session.system_prompt.context_bill()
    assert bill["skill"] == approx_tokens(INDEX)
    assert set(bill) == {"skill", "tool_schema"}
    assert bill["tool_schema"] > 0


def test_receipt_counts_calls_and_errors_per_tool(make_session):
    session = make_session(tools="all")
    session.call("load_skill", {"name": "pdf"})
    session.call("load_skill", {"name": "nope"})
    session.call("skills_read", '{"name": "pdf", "path": "references/format.md"}')
    receipts = {r.name: r.to_json() for r in session.toolbox.receipt()}
    assert receipts == {
        "load_skill": {"name": "load_skill", "calls": 2, "errors": 1},
        "skills_use": {"name": "skills_use", "calls": 0, "errors": 0},
        "skills_read": {"name": "skills_read", "calls": 1, "errors": 0},
        "skills_run_script": {"name": "skills_run_script", "calls": 0, "errors": 0},
    }


def test_bad_options_are_refused_at_construction(env):
    with pytest.raises(TypeError, match="unknown Session option"):
        Session(env, maxActive=2)
    with pytest.raises(ValueError, match="max_active must be at least 1"):
        Session(env, max_active=0)
    with pytest.raises(ValueError, match="must be 1 to 64 letters"):
        Session(env, tool_names={"load_skill": "load skill"})
    with pytest.raises(ValueError, match="unknown toolset"):
        Session(env, tools="everything")


def test_no_skills_no_tools_and_no_context(layout: satchel.Layout, tmp_path: Path):
    session = Session(satchel.load(layout=layout), environ={})
    assert session.tools() == ()
    assert session.context() == ()
    assert session.expand("/pdf now") == "/pdf now"


def test_skills_the_index_leaves_out_are_named_in_the_session_diagnostics(layout, skills_dir):
    for i in range(64):  # 66 skills with refund-policy and pdf: two past max_skills
        put_skill = skills_dir / f"extra-{i:02}" / "SKILL.md"
        put_skill.parent.mkdir()
        put_skill.write_text(f"---\nname: extra-{i:02}\ndescription: Extra {i}.\n---\nBody.\n")
    session = Session(satchel.load(layout=layout), environ={})

    index = session.context()[-1].text
    omitted = [d for d in session.diagnostics if d.code == "skill.index.omitted"]

    assert "(2 more skills not listed: index limit reached)\nMore skills are" in index
    assert [d.message for d in omitted] == [
        f"skill {name!r} is not in the index: the index lists at most 64 skills (max_skills)"
        for name in list(session.skills)[64:]
    ]
    assert all(f"- {name}:" not in index for name in list(session.skills)[64:])

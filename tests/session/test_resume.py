"""Resume: the active set rebuilt from a transcript's skill tool calls (zidane)."""

from __future__ import annotations

import json

from satchel.session import SkillEvent


def openai_call(call_id: str, name: str, arguments: dict) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


def openai_result(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def test_last_mode_per_skill_wins_and_only_activations_fire(make_session):
    history = [
        {"role": "user", "content": "help"},
        openai_call("1", "skills_use", {"name": "pdf"}),
        openai_result("1", "<skill_content ...>"),
        openai_call("2", "skills_use", {"name": "refund-policy"}),
        openai_result("2", "<skill_content ...>"),
        openai_call("3", "skills_use", {"name": "pdf", "mode": "deactivate"}),
        openai_result("3", "released"),
    ]
    events: list[SkillEvent] = []
    session = make_session(tools="skills", on_event=events.append)
    assert session.activation.resume(history) == ()
    assert [(a.name, a.via) for a in session.activation.active] == [("refund-policy", "resume")]
    assert [(e.type, e.name, e.via) for e in events] == [
        ("skills:activate", "refund-policy", "resume")
    ]


def test_resume_replaces_the_active_set(make_session):
    session = make_session(tools="skills")
    session.activate("pdf")
    session.activation.resume([])
    assert session.activation.active == ()


def test_a_call_that_failed_does_not_activate(make_session):
    history = [
        openai_call("1", "skills_use", {"name": "pdf"}),
        openai_result("1", "Error (session.max-active): cannot activate 'pdf'"),
    ]
    session = make_session(tools="skills")
    session.activation.resume(history)
    assert session.activation.active == ()


def test_anthropic_and_load_skill_calls_count_but_resource_reads_do_not(make_session):
    history = [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Loading."},
                {"type": "tool_use", "id": "a", "name": "load_skill", "input": {"name": "pdf"}},
                {
                    "type": "tool_use",
                    "id": "b",
                    "name": "load_skill",
                    "input": {"name": "refund-policy", "resource": "references/exceptions.md"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "a", "content": "<skill_content>"},
                {"type": "tool_result", "tool_use_id": "b", "content": "x"},
            ],
        },
    ]
    session = make_session()
    session.activation.resume(history)
    assert [a.name for a in session.activation.active] == ["pdf"]


def test_responses_items_and_renamed_tools(make_session):
    history = {
        "input": [
            {
                "type": "function_call",
                "call_id": "c1",
                "name": "open_skill",
                "arguments": '{"name":"pdf"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": "<skill_content>"},
            {
                "type": "function_call",
                "call_id": "c2",
                "name": "load_skill",
                "arguments": '{"name":"refund-policy"}',
            },
        ]
    }
    session = make_session(tool_names={"load_skill": "open_skill"})
    session.activation.resume(history)
    assert [a.name for a in session.activation.active] == [
        "pdf"
    ]  # load_skill is not this session's name


def test_a_neutral_list_and_a_vanished_skill(make_session):
    history = [
        {"name": "skills_use", "arguments": {"name": "gone"}},
        {"name": "skills_use", "arguments": {"name": "pdf"}},
    ]
    session = make_session(tools="skills")
    problems = session.activation.resume(history)
    assert [(d.code, d.severity, d.message) for d in problems] == [
        ("session.skill.unknown", "warning", "not resumed: no skill named 'gone'")
    ]
    assert [a.name for a in session.activation.active] == ["pdf"]
    assert session.diagnostics == problems


def test_max_active_keeps_the_most_recent_on_resume(make_session):
    history = [
        {"name": "skills_use", "arguments": {"name": "pdf"}},
        {"name": "skills_use", "arguments": {"name": "refund-policy"}},
    ]
    session = make_session(tools="skills", max_active=1)
    (problem,) = session.activation.resume(history)
    assert (problem.code, problem.severity, problem.message) == (
        "session.max-active",
        "warning",
        "not resumed: 'pdf' was activated earlier than the 1 kept by max_active",
    )
    assert [a.name for a in session.activation.active] == ["refund-policy"]  # the most recent win


def test_resume_runs_no_interpolation(make_session, skills_dir, tmp_path):
    canary = tmp_path / "canary"
    (skills_dir / "pdf" / "SKILL.md").write_text(
        f"---\nname: pdf\ndescription: PDFs.\n---\n!`touch {canary}`\n"
    )
    import satchel
    from satchel.session import Session

    session = Session(
        satchel.load(layout=make_session().environment.layout), environ={}, tools="skills"
    )
    session.activation.resume([{"name": "skills_use", "arguments": {"name": "pdf"}}])
    assert [a.name for a in session.activation.active] == ["pdf"]
    assert not canary.exists()


def test_malformed_entries_are_warnings(make_session):
    history = [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "x",
                    "type": "function",
                    "function": {"name": "skills_use", "arguments": "{oops"},
                }
            ],
        },
    ]
    session = make_session(tools="skills")
    (problem,) = session.activation.resume(history)
    assert problem.code == "session.history.unreadable"
    assert session.activation.active == ()

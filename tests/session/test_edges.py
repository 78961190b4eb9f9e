"""Edge cases a model, a transcript or a skill file can hit in the runtime: each test
says what it expects and why."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satchel
from satchel.core.errors import ToolNotAllowed
from satchel.foundations._interpolation import find_commands, interpolate
from satchel.session import Session, SkillEvent, ToolResult, openai_chat_tools
from tests.session.conftest import extra_skill

PATH = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def session_with(layout: satchel.Layout, **options: Any) -> Session:
    options.setdefault("environ", PATH)
    return Session(satchel.load(layout=layout), **options)


# -- session.call never raises for what a model sends ------------------------------------


def test_deeply_nested_json_arguments_are_an_error_result(make_session):
    # json.loads raises RecursionError on this; a model's bad call never raises.
    session = make_session(tools="all")
    nested = '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}"
    result = session.call("load_skill", nested)
    assert result.is_error
    assert result.code == "session.tool.arguments"


def test_a_huge_integer_timeout_is_an_error_result(make_session):
    # float(10**400) would raise OverflowError: the timeout is clamped first.
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    result = session.call(
        "skills_run_script", {"name": "pdf", "script": "extract.sh", "timeout": 10**400}
    )
    assert isinstance(result, ToolResult)
    assert not result.is_error or result.code == "session.tool.arguments"


@pytest.mark.parametrize("script", [".", "./", "scripts/.."])
def test_a_script_path_that_names_the_skill_directory_is_a_path_error(make_session, script):
    # check_relative(".") gives no segments at all: that names no script.
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    result = session.call("skills_run_script", {"name": "pdf", "script": script})
    assert result.is_error
    assert result.code is not None and result.code.startswith("resource.")


# -- interpolation in odd bodies ---------------------------------------------------------


def test_a_shell_fence_with_lone_cr_line_ends_does_not_crash_activation(layout, skills_dir):
    # lines are split with str.splitlines, where a lone \r ends a line too.
    extra_skill(skills_dir, "old-mac", body="Intro\n```!\rprintf ran\r```\rafter\r")
    session = session_with(layout)
    result = session.call("load_skill", {"name": "old-mac"})
    assert isinstance(result, ToolResult)


_LINES = st.sampled_from(
    ["```!", "```", "~~~!", "~~~", "````", "printf x", "!`printf y`", "", "a !`b`"]
)
_ENDS = st.sampled_from(["\n", "\r\n", "\r", "\u2028", "\x0b", ""])


@settings(max_examples=500)
@given(st.lists(st.tuples(_LINES, _ENDS), max_size=6))
def test_finding_and_replacing_commands_never_raises(pieces):
    # any mix of line ends, including the ones str.splitlines knows and "\n" does not
    text = "".join(line + end for line, end in pieces)
    commands = find_commands(text)
    assert all(0 <= c.start <= c.end <= len(text) for c in commands)
    assert isinstance(interpolate(text, lambda c: "X"), str)


def test_a_crlf_shell_block_runs_its_lines_without_the_carriage_returns(layout, skills_dir):
    # Passes: the body is CRLF-normalised before interpolation (frontmatter.decode_body).
    body = "```!\r\nprintf '%s|' a\r\nprintf '%s|' b\r\n```\r\n"
    extra_skill(skills_dir, "crlf-block", body=body)
    session = session_with(layout)
    text = session.call("load_skill", {"name": "crlf-block"}).text
    assert "a|b|" in text


# -- strict OpenAI schemas -----------------------------------------------------------------


def test_strict_schema_null_for_mode_means_the_default(make_session):
    # With strict=True the adapter makes `mode` required and nullable, so a model
    # following the schema sends "mode": null; the tool must read it as the default.
    session = make_session(tools="skills")
    (use,) = [
        t
        for t in openai_chat_tools(session.tools(), strict=True)
        if t["function"]["name"] == "skills_use"
    ]
    assert None in use["function"]["parameters"]["properties"]["mode"]["enum"]
    result = session.call("skills_use", json.dumps({"name": "pdf", "mode": None}))
    assert not result.is_error, result.text
    assert session.activation.is_active("pdf")


def test_resume_reads_a_strict_null_mode_as_activate(make_session):
    session = make_session(tools="skills")
    session.activation.resume([{"name": "skills_use", "arguments": {"name": "pdf", "mode": None}}])
    assert [a.name for a in session.activation.active] == ["pdf"]


def test_strict_null_for_every_optional_argument_is_accepted(make_session):
    session = make_session(tools="all")
    session.call("skills_use", {"name": "pdf"})
    calls = {
        "load_skill": {"name": "refund-policy", "resource": None},
        "skills_run_script": {"name": "pdf", "script": "extract.sh", "args": None, "timeout": None},
    }
    for tool, arguments in calls.items():
        result = session.call(tool, json.dumps(arguments))
        assert not result.is_error, (tool, result.text)


# -- resume ----------------------------------------------------------------------------------


def test_resume_folds_names_the_way_find_does(make_session):
    # "PDF" then "pdf" (deactivate) name one skill: last wins, one activation.
    events: list[SkillEvent] = []
    session = make_session(tools="skills", on_event=events.append)
    session.activation.resume(
        [
            {"name": "skills_use", "arguments": {"name": "PDF"}},
            {"name": "skills_use", "arguments": {"name": "pdf", "mode": "deactivate"}},
        ]
    )
    assert session.activation.active == ()
    assert events == []


def test_resume_fires_one_activation_per_skill_whatever_the_case(make_session):
    events: list[SkillEvent] = []
    session = make_session(tools="skills", max_active=1, on_event=events.append)
    problems = session.activation.resume(
        [
            {"name": "skills_use", "arguments": {"name": "PDF"}},
            {"name": "skills_use", "arguments": {"name": "pdf"}},
        ]
    )
    assert [(e.type, e.name) for e in events] == [("skills:activate", "pdf")]
    assert problems == ()  # no spurious max-active refusal for the same skill


def test_resume_reads_one_list_mixing_the_three_formats(make_session):
    session = make_session(tools="skills")
    history = [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "skills_use", "arguments": '{"name": "pdf"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "<skill_content ..."},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "t1",
                    "name": "skills_use",
                    "input": {"name": "refund-policy"},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
        },
        {
            "type": "function_call",
            "call_id": "r1",
            "name": "skills_use",
            "arguments": '{"name": "pdf", "mode": "deactivate"}',
        },
        {"type": "function_call_output", "call_id": "r1", "output": "released"},
    ]
    assert session.activation.resume(history) == ()
    assert [a.name for a in session.activation.active] == ["refund-policy"]


# -- the gate ----------------------------------------------------------------------------------


def test_the_gate_never_tells_the_model_to_make_a_call_that_fails(layout, skills_dir):
    # A host-activated skill hidden from the model (disable-model-invocation) limits
    # tools; the refusal says "call skills_use({name, mode: deactivate})", and that
    # call must work even though the model cannot see the skill.
    extra_skill(
        skills_dir,
        "locked",
        **{"disable-model-invocation": "true", "allowed-tools": "Read"},
    )
    session = session_with(layout, tools="skills")
    session.activate("locked")
    with pytest.raises(ToolNotAllowed) as refused:
        session.gate.check_tool("Bash", {"command": "ls"})
    if "skills_use" in str(refused.value):
        released = session.call("skills_use", {"name": "locked", "mode": "deactivate"})
        assert not released.is_error, released.text


def test_check_tool_takes_the_json_string_an_openai_host_has(make_session):
    # session.call accepts OpenAI's JSON-string arguments; so does the gate.
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    arguments = '{"command": "pdftotext a.pdf"}'
    assert session.gate.allows_tool("Bash", arguments) == session.gate.allows_tool(
        "Bash", json.loads(arguments)
    )


@pytest.mark.parametrize("tool_input", [[1], 5, "not json", {"command": 5}])
def test_a_malformed_input_to_the_gate_is_refused_not_raised(make_session, tool_input):
    session = make_session(tools="skills")
    session.call("skills_use", {"name": "pdf"})
    assert session.gate.allows_tool("Bash", tool_input) is False


# -- state hygiene -------------------------------------------------------------------------------


def test_bad_rules_are_reported_once_however_often_the_skill_is_activated(layout, skills_dir):
    extra_skill(skills_dir, "odd", **{"allowed-tools": "Bash(git:*"})
    session = session_with(layout, tools="skills")
    for _ in range(3):
        session.call("skills_use", {"name": "odd"})
        session.call("skills_use", {"name": "odd", "mode": "deactivate"})
    assert [d.code for d in session.diagnostics] == ["permission.rule.invalid"]


def test_skills_off_gives_no_tools_and_error_results(layout, skills_dir):
    session = Session(satchel.load(layout=layout, enabled=False), environ={}, tools="all")
    assert session.tools() == ()
    result = session.call("load_skill", {"name": "pdf"})
    assert result.is_error and result.code == "session.tool.unknown"
    assert session.expand("/pdf x") == "/pdf x"
    assert session.gate.allows_tool("Bash", {"command": "rm -rf /"})


def test_a_skill_defined_in_code_loads_and_refuses_files(layout, skills_dir):
    coded = satchel.define_skill("coded", "A skill from code.", "Do it.\n")
    session = Session(satchel.load(layout=layout, catalog=[coded]), environ={}, tools="all")
    loaded = session.call("load_skill", {"name": "coded"})
    assert not loaded.is_error and "Do it." in loaded.text
    for tool, arguments in {
        "load_skill": {"name": "coded", "resource": "a.md"},
        "skills_read": {"name": "coded", "path": "references/a.md"},
        "skills_run_script": {"name": "coded", "script": "a.sh"},
    }.items():
        result = session.call(tool, arguments)
        assert result.is_error and result.code == "resource.missing", (tool, result.text)


# -- fuzz: session.call with anything a model could send ----------------------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
_JSONISH = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_GOOD = {
    "name": st.sampled_from(["pdf", "PDF", "refund-policy", "nope", ""]),
    "mode": st.sampled_from(["activate", "deactivate", None, "ACTIVATE"]),
    "script": st.sampled_from(["extract.sh", ".", "scripts/extract.sh", "", "../x", "scripts"]),
    "path": st.sampled_from(["references/format.md", "assets/logo.bin", "..", "/etc/passwd"]),
    "resource": st.sampled_from(["references/exceptions.md", ".", "SKILL.md", "a\x00b"]),
    "args": st.lists(st.text(max_size=5), max_size=2),
    "timeout": st.sampled_from([0.5, 10**400, 1, -1, 0, 1e308]),
}


@st.composite
def _arguments(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["mapping", "json", "raw"]))
    if kind == "raw":
        return draw(st.none() | st.text(max_size=20) | _JSONISH)
    mapping = draw(
        st.fixed_dictionaries(
            {"name": st.one_of(_GOOD["name"], _GOOD["name"], _GOOD["name"], _JSONISH)},
            optional={
                key: st.one_of(_GOOD[key], _GOOD[key], _JSONISH) for key in _GOOD if key != "name"
            }
            | {"x": _JSONISH},
        )
    )
    return json.dumps(mapping) if kind == "json" else mapping


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from(["skills_run_script", "load_skill", "skills_use", "skills_read", "x"]),
            _arguments(),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_call_never_raises_for_any_model_input(make_session, calls):
    session = make_session(tools="all", script_timeout=2.0)
    session.call("skills_use", {"name": "pdf"})
    for name, arguments in calls:
        result = session.call(name, arguments)
        assert isinstance(result, ToolResult)
        assert result.code != "session.tool.failed"  # no bug caught by the safety net
        assert not result.is_error or result.text.startswith("Error (") or result.data
    assert all(r.calls >= r.errors for r in session.toolbox.receipt())


def test_a_bug_inside_a_tool_is_an_error_result_not_an_exception():
    from satchel.session._model import Tool
    from satchel.session._toolbox import _run

    def boom(arguments: object) -> ToolResult:
        raise RuntimeError("boom")

    result = _run(Tool("x", "d", {"type": "object"}, boom), {})
    assert (result.code, result.text) == (
        "session.tool.failed",
        "Error (session.tool.failed): the tool failed inside satchel (RuntimeError); this is a bug",
    )

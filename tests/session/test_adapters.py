"""The tool adapters give the shapes the OpenAI and Anthropic APIs document.

The shapes below are the documented request formats, written as JSON Schema:
OpenAI Chat Completions `tools[]` (type "function" with a `function` object), OpenAI
Responses `tools[]` (a flat function tool), and Anthropic Messages `tools[]` (name,
description, input_schema of type object). Names must match ^[a-zA-Z0-9_-]{1,64}$
for both providers.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from satchel.session import (
    anthropic_result,
    anthropic_tools,
    openai_chat_result,
    openai_chat_tools,
    openai_responses_result,
    openai_responses_tools,
)

NAME = {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"}
PARAMETERS = {
    "type": "object",
    "properties": {"type": {"const": "object"}, "properties": {"type": "object"}},
    "required": ["type", "properties"],
}
OPENAI_CHAT_TOOL = {
    "type": "object",
    "properties": {
        "type": {"const": "function"},
        "function": {
            "type": "object",
            "properties": {
                "name": NAME,
                "description": {"type": "string"},
                "parameters": PARAMETERS,
                "strict": {"type": "boolean"},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    "required": ["type", "function"],
    "additionalProperties": False,
}
OPENAI_RESPONSES_TOOL = {
    "type": "object",
    "properties": {
        "type": {"const": "function"},
        "name": NAME,
        "description": {"type": "string"},
        "parameters": PARAMETERS,
        "strict": {"type": "boolean"},
    },
    "required": ["type", "name", "parameters", "strict"],
    "additionalProperties": False,
}
ANTHROPIC_TOOL = {
    "type": "object",
    "properties": {
        "name": NAME,
        "description": {"type": "string"},
        "input_schema": PARAMETERS,
    },
    "required": ["name", "input_schema"],
    "additionalProperties": False,
}


@pytest.fixture
def tools(make_session):
    return make_session(tools="all").tools()


def test_openai_chat_tools_have_the_documented_shape(tools):
    rendered = openai_chat_tools(tools)
    assert [t["function"]["name"] for t in rendered] == [
        "load_skill",
        "skills_use",
        "skills_read",
        "skills_run_script",
    ]
    for tool in rendered:
        jsonschema.validate(tool, OPENAI_CHAT_TOOL)
        jsonschema.Draft202012Validator.check_schema(tool["function"]["parameters"])
    json.dumps(rendered)  # plain JSON all the way down


def test_openai_responses_tools_have_the_documented_shape(tools):
    for tool in openai_responses_tools(tools):
        jsonschema.validate(tool, OPENAI_RESPONSES_TOOL)


def test_anthropic_tools_have_the_documented_shape(tools):
    for tool in anthropic_tools(tools):
        jsonschema.validate(tool, ANTHROPIC_TOOL)
        jsonschema.Draft202012Validator.check_schema(tool["input_schema"])


def test_strict_openai_schemas_require_every_property_and_allow_null_for_optional(tools):
    (load_skill,) = [
        t for t in openai_chat_tools(tools, strict=True) if t["function"]["name"] == "load_skill"
    ]
    parameters = load_skill["function"]["parameters"]
    assert parameters["required"] == ["name", "resource"]
    assert parameters["properties"]["resource"]["type"] == ["string", "null"]
    assert parameters["additionalProperties"] is False
    use = next(
        t for t in openai_chat_tools(tools, strict=True) if t["function"]["name"] == "skills_use"
    )
    assert use["function"]["parameters"]["properties"]["mode"]["enum"] == [
        "activate",
        "deactivate",
        None,
    ]


def test_the_name_argument_is_an_enum_of_the_visible_skills(tools):
    for tool in tools:
        assert tool.input_schema["properties"]["name"]["enum"] == ["pdf", "refund-policy"]


def test_arguments_valid_under_the_schema_are_accepted_by_the_tool(make_session):
    session = make_session(tools="all")
    for tool in session.tools():
        if tool.kind == "load_skill":
            arguments = {"name": "pdf", "resource": "references/format.md"}
            jsonschema.validate(arguments, tool.input_schema)
            assert not session.call(tool.name, arguments).is_error
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "nope"}, session.tools()[0].input_schema)


def test_results_in_each_api_shape(make_session):
    session = make_session()
    ok = session.call(
        "load_skill", {"name": "refund-policy", "resource": "references/exceptions.md"}
    )
    bad = session.call("load_skill", {"name": "nope"})
    assert openai_chat_result("c1", ok) == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "Damaged goods: always.\n",
    }
    assert openai_responses_result("c2", bad) == {
        "type": "function_call_output",
        "call_id": "c2",
        "output": bad.text,
    }
    assert anthropic_result("t1", bad) == {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": "Error (session.skill.unknown): no skill named 'nope'",
        "is_error": True,
    }


def test_past_the_index_cap_the_name_is_a_plain_string(layout, project):
    import satchel
    from satchel.session import Session
    from tests.session.conftest import extra_skill

    root = project / ".agents" / "skills"
    for i in range(65):
        extra_skill(root, f"s-{i:02d}")
    tool, *search = Session(satchel.load(layout=layout), environ={}).tools()
    assert [t.name for t in search] == ["list_skills", "search_skills"]  # the index is cut
    assert tool.input_schema["properties"]["name"] == {
        "type": "string",
        "description": "The skill's name, as listed.",
    }
    extra = root / "s-64"
    import shutil

    shutil.rmtree(extra)
    (tool,) = Session(satchel.load(layout=layout), environ={}).tools()
    assert len(tool.input_schema["properties"]["name"]["enum"]) == 64

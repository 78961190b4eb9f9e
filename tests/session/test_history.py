"""Extracting tool calls from transcripts: OpenAI chat and Responses, Anthropic, neutral."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satchel.session._history import MAX_ARGUMENTS, MAX_ENTRIES, MAX_WARNINGS, ToolCall, tool_calls


def is_error_text(text):
    return text.startswith("Error")


def summary(calls):
    return [(c.name, dict(c.arguments), c.id, c.failed) for c in calls]


def messages(diags):
    assert all(d.code == "session.history.unreadable" for d in diags)
    assert all(d.severity == "warning" for d in diags)
    return [d.message for d in diags]


ACTIVATE_PDF = {"skill": "pdf", "mode": "activate"}

OPENAI_CHAT = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "Fill in the form in form.pdf"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_abc123",
                "type": "function",
                "function": {"name": "skills_use", "arguments": json.dumps(ACTIVATE_PDF)},
            },
            {
                "id": "call_def456",
                "type": "function",
                "function": {"name": "load_skill", "arguments": '{"name": "forms"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "call_abc123", "content": "Skill pdf is active."},
    {
        "role": "tool",
        "tool_call_id": "call_def456",
        "content": [{"type": "text", "text": "Error: no skill named 'forms'"}],
    },
    {"role": "assistant", "content": "The pdf skill is ready."},
]

RESPONSES_INPUT = [
    {"role": "user", "content": "Fill in the form in form.pdf"},
    {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "Use the pdf skill."}],
    },
    {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "skills_use",
        "arguments": '{"skill": "pdf", "mode": "activate"}',
        "status": "completed",
    },
    {"type": "function_call_output", "call_id": "call_1", "output": "Skill pdf is active."},
]

RESPONSE = {
    "id": "resp_67ccd2bed1ec8190",
    "object": "response",
    "created_at": 1741476542,
    "status": "completed",
    "model": "gpt-4.1-2025-04-14",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "content": [
                {"type": "output_text", "text": "Loading the form skill.", "annotations": []}
            ],
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_2",
            "name": "load_skill",
            "arguments": '{"name": "forms"}',
            "status": "completed",
        },
    ],
    "tools": [{"type": "function", "name": "load_skill", "parameters": {}}],
}

ANTHROPIC = [
    {"role": "user", "content": "Fill in the form in form.pdf"},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "I'll turn on the pdf skill."},
            {"type": "tool_use", "id": "toolu_01A", "name": "skills_use", "input": ACTIVATE_PDF},
            {"type": "tool_use", "id": "toolu_01B", "name": "load_skill", "input": {"name": "x"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "Skill pdf is active."},
            {
                "type": "tool_result",
                "tool_use_id": "toolu_01B",
                "is_error": True,
                "content": [{"type": "text", "text": "no skill named 'x'"}],
            },
        ],
    },
    {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
]


# --- OpenAI Chat Completions ---


def test_openai_chat_two_calls_in_one_message_and_their_results():
    calls, diags = tool_calls(OPENAI_CHAT, is_error_text=is_error_text)
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, "call_abc123", False),
        ("load_skill", {"name": "forms"}, "call_def456", True),
    ]


def test_openai_chat_results_are_not_judged_without_is_error_text():
    calls, _ = tool_calls(OPENAI_CHAT)
    assert [c.failed for c in calls] == [False, False]


def test_openai_chat_as_messages_mapping():
    calls, diags = tool_calls({"model": "gpt-4.1", "messages": OPENAI_CHAT})
    assert diags == () and [c.name for c in calls] == ["skills_use", "load_skill"]


def test_openai_legacy_function_call_and_function_result():
    history = [
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "skills_use", "arguments": json.dumps(ACTIVATE_PDF)},
        },
        {"role": "function", "name": "skills_use", "content": "Error: max_active reached"},
        {"role": "assistant", "function_call": {"name": "load_skill", "arguments": "{}"}},
        {"role": "function", "name": "load_skill", "content": "# Forms"},
    ]
    calls, diags = tool_calls(history, is_error_text=is_error_text)
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, None, True),
        ("load_skill", {}, None, False),
    ]


def test_openai_sdk_none_fields_are_absent():
    message = {"role": "assistant", "content": "hi", "tool_calls": None, "function_call": None}
    assert tool_calls([message]) == ((), ())


# --- OpenAI Responses ---


def test_responses_input_and_output_items():
    calls, diags = tool_calls(
        {"model": "gpt-4.1", "input": RESPONSES_INPUT, "output": RESPONSE["output"]}
    )
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, "call_1", False),
        ("load_skill", {"name": "forms"}, "call_2", False),
    ]


def test_responses_whole_response_as_history_and_as_entry():
    calls, diags = tool_calls(RESPONSE)
    assert diags == () and summary(calls) == [("load_skill", {"name": "forms"}, "call_2", False)]
    history = [*RESPONSES_INPUT, RESPONSE, {"input": [{"role": "user", "content": "thanks"}]}]
    calls, diags = tool_calls(history)
    assert diags == () and [c.id for c in calls] == ["call_1", "call_2"]


def test_responses_output_judged_by_is_error_text():
    history = [
        *RESPONSES_INPUT[:3],
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [{"type": "input_text", "text": "Error: unknown skill"}],
        },
    ]
    calls, _ = tool_calls(history, is_error_text=is_error_text)
    assert [c.failed for c in calls] == [True]


def test_responses_string_input_is_not_a_problem():
    assert tool_calls({"input": "hello", "output": []}) == ((), ())


# --- Anthropic Messages ---


def test_anthropic_tool_use_and_tool_result_is_error():
    calls, diags = tool_calls({"model": "claude-sonnet-4-5", "messages": ANTHROPIC})
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, "toolu_01A", False),
        ("load_skill", {"name": "x"}, "toolu_01B", True),
    ]


def test_anthropic_ignores_is_error_text():
    calls, _ = tool_calls(ANTHROPIC, is_error_text=lambda text: True)
    assert [c.failed for c in calls] == [False, True]


# --- neutral ---


def test_neutral_entries_and_tool_call_values():
    history = [
        {"name": "skills_use", "arguments": ACTIVATE_PDF, "id": "1"},
        {"name": "skills_use", "arguments": '{"skill": "pdf", "mode": "deactivate"}'},
        {"name": "load_skill", "input": {"name": "forms"}, "is_error": True},
        {"name": "load_skill", "failed": True},
        ToolCall("skills_use", {"skill": "docx", "mode": "activate"}, "t1"),
    ]
    calls, diags = tool_calls(history)
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, "1", False),
        ("skills_use", {"skill": "pdf", "mode": "deactivate"}, None, False),
        ("load_skill", {"name": "forms"}, None, True),
        ("load_skill", {}, None, True),
        ("skills_use", {"skill": "docx", "mode": "activate"}, "t1", False),
    ]
    assert calls[4] is history[4]


def test_arguments_are_read_only():
    calls, _ = tool_calls(OPENAI_CHAT)
    with pytest.raises(TypeError):
        calls[0].arguments["mode"] = "deactivate"  # type: ignore[index]


# --- mixed transcripts and order ---


def test_mixed_formats_keep_transcript_order():
    history = [
        ANTHROPIC[1],
        RESPONSES_INPUT[2],
        OPENAI_CHAT[2],
        {"name": "skills_use", "arguments": {"skill": "pdf", "mode": "deactivate"}},
        ANTHROPIC[2],
        OPENAI_CHAT[4],
    ]
    calls, diags = tool_calls(history, is_error_text=is_error_text)
    assert diags == ()
    assert [(c.id, c.failed) for c in calls] == [
        ("toolu_01A", False),
        ("toolu_01B", True),
        ("call_1", False),
        ("call_abc123", False),
        ("call_def456", True),
        (None, False),
    ]


def test_blocks_in_one_message_keep_their_order():
    content = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": f"tool_{i}", "input": {}} for i in range(5)
    ]
    calls, _ = tool_calls([{"role": "assistant", "content": content}])
    assert [c.name for c in calls] == [f"tool_{i}" for i in range(5)]


# --- failed detection ---


def test_a_call_without_result_is_not_failed():
    calls, _ = tool_calls(OPENAI_CHAT[:3], is_error_text=lambda text: True)
    assert [c.failed for c in calls] == [False, False]


def test_results_match_only_earlier_calls_and_only_once():
    seen = []

    def judge(text):
        seen.append(text)
        return True

    history = [
        {"role": "tool", "tool_call_id": "call_abc123", "content": "Error: early"},
        {"role": "tool", "tool_call_id": "call_unknown", "content": "Error: stray"},
        *OPENAI_CHAT[2:4],
        {"role": "tool", "tool_call_id": "call_abc123", "content": "Error: repeated"},
    ]
    calls, diags = tool_calls(history, is_error_text=judge)
    assert diags == ()
    assert seen == ["Skill pdf is active."]
    assert [c.failed for c in calls] == [True, False]


def test_result_text_joins_text_parts():
    seen = []
    history = [
        OPENAI_CHAT[2],
        {
            "role": "tool",
            "tool_call_id": "call_abc123",
            "content": [
                {"type": "text", "text": "one"},
                {"type": "image_url", "image_url": {"url": "x"}},
                {"type": "text", "text": "two"},
            ],
        },
    ]
    tool_calls(history, is_error_text=lambda text: seen.append(text) or False)
    assert seen == ["one\ntwo"]


def test_anthropic_result_without_is_error_is_not_failed():
    history = [
        {"name": "skills_use", "id": "toolu_1", "failed": True},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]},
    ]
    calls, _ = tool_calls(history)
    assert [c.failed for c in calls] == [False]


# --- malformed input ---


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ('{"skill": "pdf",', "are not valid JSON"),
        ("[1, 2]", "are not a JSON object"),
        ('"pdf"', "are not a JSON object"),
        ("[" * 100_000, "are not valid JSON"),
        (42, "are not a JSON object"),
        (["skill", "pdf"], "are not a JSON object"),
        ("x" * (MAX_ARGUMENTS + 1), "are longer than 1,048,576 bytes"),
        ("é" * (MAX_ARGUMENTS // 2 + 1), "are longer than 1,048,576 bytes"),
    ],
)
def test_unreadable_arguments_skip_the_call_with_a_warning(arguments, problem):
    bad = {"id": "c2", "type": "function", "function": {"name": "skills_use"}}
    bad["function"]["arguments"] = arguments
    history = [
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "again"},
        {"role": "assistant", "tool_calls": [OPENAI_CHAT[2]["tool_calls"][1], bad]},
    ]
    calls, diags = tool_calls(history)
    assert [c.name for c in calls] == ["load_skill"]
    assert messages(diags) == [f"entry 3: the arguments of tool call 'skills_use' {problem}"]


def test_arguments_at_the_size_limit_are_read():
    arguments = '{"a": "' + "é" * ((MAX_ARGUMENTS - 9) // 2) + 'x"}'
    assert len(arguments.encode()) == MAX_ARGUMENTS
    calls, diags = tool_calls([{"name": "t", "arguments": arguments}])
    assert diags == () and len(calls[0].arguments["a"]) == (MAX_ARGUMENTS - 9) // 2 + 1


@pytest.mark.parametrize("arguments", ["", "  ", None])
def test_empty_arguments_are_an_empty_object(arguments):
    calls, diags = tool_calls([{"type": "function_call", "name": "t", "arguments": arguments}])
    assert diags == () and summary(calls) == [("t", {}, None, False)]


def test_plain_messages_and_other_items_are_skipped_quietly():
    history = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": [{"type": "image", "source": {}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, "stray"]},
        {"type": "reasoning", "summary": []},
        {"type": "web_search_call", "id": "ws_1", "status": "completed"},
        {"type": "custom_tool_call", "call_id": "c", "name": "grammar", "input": "raw text"},
        {"role": "assistant", "tool_calls": [{"id": "c", "type": "custom", "custom": {}}]},
        {"role": "assistant", "content": [{"type": "server_tool_use", "name": "web_search"}]},
        {"role": "developer", "content": 42},
    ]
    assert tool_calls(history) == ((), ())


def test_broken_entries_are_skipped_with_warnings():
    history = [
        7,
        "hello",
        None,
        [],
        {"content": "no role"},
        {"role": "assistant", "tool_calls": {"id": "c"}},
        {"role": "assistant", "tool_calls": ["c", {"id": "c", "type": "function"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "input": {}}]},
        {"role": "assistant", "function_call": "skills_use"},
        {"type": "function_call", "name": "", "arguments": "{}"},
        {"name": 3},
    ]
    calls, diags = tool_calls(history)
    assert calls == ()
    assert messages(diags) == [
        "entry 0: a number is not a message or a tool call",
        "entry 1: a string is not a message or a tool call",
        "entry 2: null is not a message or a tool call",
        "entry 3: a list is not a message or a tool call",
        "entry 4: a mapping with no `role`, `type` or `name` was skipped",
        "entry 5: `tool_calls` is a mapping, not a list",
        "entry 6: an item of `tool_calls` is a string",
        "entry 6: a tool call in `tool_calls` has no `function` object",
        "entry 7: a tool call has no name",
        "entry 8: `function_call` is a string, not an object",
        "entry 9: a tool call has no name",
        "entry 10: a tool call has no name",
    ]


def test_tool_name_is_quoted_and_cut_in_messages():
    name = "a\n" + "b" * 100
    _, diags = tool_calls([{"name": name, "arguments": "nope"}])
    assert messages(diags) == [
        f"entry 0: the arguments of tool call {name[:64]!r} are not valid JSON"
    ]


# --- the shape of the history itself ---


@pytest.mark.parametrize("history", [3, None, 2.5, object()])
def test_history_that_is_neither_iterable_nor_mapping_is_a_type_error(history):
    with pytest.raises(TypeError, match="history must be a list of entries or a mapping"):
        tool_calls(history)


def test_history_shapes_that_hold_nothing_warn():
    assert messages(tool_calls("hi")[1]) == ["the history is a string, not a list of entries"]
    assert messages(tool_calls({"role": "user"})[1]) == [
        "the history is a mapping without a `messages`, `input` or `output` list"
    ]
    assert messages(tool_calls({"messages": 5})[1]) == [
        "`messages` of the history is a number, not a list"
    ]


def test_any_iterable_is_read():
    calls, _ = tool_calls(entry for entry in OPENAI_CHAT)
    assert len(calls) == 2


# --- SDK objects ---


class Dumps:
    """A stand-in for an openai / anthropic pydantic model."""

    def __init__(self, data):
        self.data = data

    def model_dump(self):
        if isinstance(self.data, Exception):
            raise self.data
        return self.data


class Plain:
    """An object with attributes only, like a simple SDK value."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)


def test_model_dump_entries_blocks_and_tool_calls():
    chat = dict(OPENAI_CHAT[2], tool_calls=[Dumps(c) for c in OPENAI_CHAT[2]["tool_calls"]])
    anthropic = dict(ANTHROPIC[1], content=[Dumps(b) for b in ANTHROPIC[1]["content"]])
    history = [Dumps(chat), Dumps(anthropic), Dumps(RESPONSE), Dumps(ANTHROPIC[2])]
    calls, diags = tool_calls(history)
    assert diags == ()
    assert [(c.id, c.failed) for c in calls] == [
        ("call_abc123", False),
        ("call_def456", False),
        ("toolu_01A", False),
        ("toolu_01B", True),
        ("call_2", False),
    ]


def test_model_dump_of_the_whole_history():
    calls, diags = tool_calls(Dumps(RESPONSE))
    assert diags == () and [c.name for c in calls] == ["load_skill"]
    assert messages(tool_calls(Dumps(ValueError("boom")))[1]) == [
        "the history's model_dump() failed or did not give a mapping"
    ]


def test_failing_or_odd_model_dump_is_a_warning():
    history = [Dumps(RuntimeError("boom")), Dumps([1, 2]), RESPONSES_INPUT[2]]
    calls, diags = tool_calls(history)
    assert [c.id for c in calls] == ["call_1"]
    assert messages(diags) == [
        "entry 0: its model_dump() failed or did not give a mapping",
        "entry 1: its model_dump() failed or did not give a mapping",
    ]


def test_attribute_objects_are_read_through_getattr():
    function = Plain(name="skills_use", arguments=json.dumps(ACTIVATE_PDF))
    message = Plain(
        role="assistant",
        content=None,
        tool_calls=[Plain(id="call_9", type="function", function=function)],
    )
    item = Plain(type="function_call", call_id="call_10", name="load_skill", arguments="{}")
    calls, diags = tool_calls([message, item])
    assert diags == ()
    assert summary(calls) == [
        ("skills_use", ACTIVATE_PDF, "call_9", False),
        ("load_skill", {}, "call_10", False),
    ]


# --- bounds ---


def test_at_most_max_entries_are_read():
    entry = {"name": "t", "arguments": {}}
    calls, diags = tool_calls(itertools.repeat(entry))
    assert len(calls) == MAX_ENTRIES
    assert messages(diags) == [
        "the history has more than 100,000 entries; only the first 100,000 were read"
    ]


def test_exactly_max_entries_is_no_warning():
    calls, diags = tool_calls([{"name": "t"}] * MAX_ENTRIES)
    assert len(calls) == MAX_ENTRIES and diags == ()


def test_opened_response_items_count_as_entries():
    response = {"output": [{"name": "t"}] * (MAX_ENTRIES + 5)}
    calls, diags = tool_calls([response])
    assert len(calls) == MAX_ENTRIES and len(diags) == 1


def test_warnings_are_capped():
    calls, diags = tool_calls([1] * (MAX_WARNINGS + 50))
    assert calls == ()
    assert len(diags) == MAX_WARNINGS + 1
    assert diags[-1].message == "50 more warnings like these were left out"


# --- never raises ---

KEYS = st.sampled_from(
    [
        "role",
        "type",
        "content",
        "tool_calls",
        "function",
        "function_call",
        "name",
        "arguments",
        "input",
        "output",
        "messages",
        "id",
        "call_id",
        "tool_call_id",
        "tool_use_id",
        "is_error",
        "failed",
        "text",
    ]
)
WORDS = st.sampled_from(
    [
        "assistant",
        "user",
        "tool",
        "function",
        "function_call",
        "function_call_output",
        "tool_use",
        "tool_result",
        "message",
        "text",
        "c1",
        "{}",
        '{"a": 1}',
        "[1]",
        "{",
        "",
    ]
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | WORDS
JSON_LIKE = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(KEYS | st.text(max_size=5), inner, max_size=6)
    ),
    max_leaves=40,
)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(JSON_LIKE, max_size=8) | st.dictionaries(KEYS, JSON_LIKE, max_size=4),
    st.booleans(),
)
def test_random_transcripts_never_raise(history, judge):
    def check(text):
        assert isinstance(text, str)
        return "Error" in text

    result = tool_calls(history, is_error_text=check if judge else None)
    assert isinstance(result, tuple) and len(result) == 2
    calls, diags = result
    assert all(isinstance(c, ToolCall) for c in calls)
    assert all(d.code == "session.history.unreadable" for d in diags)

"""Claude Code's ``agents/*.md`` format: fields, names, tools, models, safety."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.agents import AgentType, parse_claude
from satchel.foundations.origin import Origin
from tests.agents.conftest import claude_text
from tests.support import codes

# The shape of a real Claude Code plugin agent (pr-review-toolkit's code-reviewer):
# one long unquoted description holding ': ', literal \n escapes and <example> blocks.
REAL_AGENT = (
    "---\n"
    "name: code-reviewer\n"
    "description: Use this agent when you need to review code for adherence to project "
    "guidelines. This agent should be used proactively after writing code. \\n\\nExamples:"
    "\\n<example>\\nContext: The user has just implemented a new feature.\\nuser: \"I've "
    'added the new authentication feature. Can you check if everything looks good?"\\n'
    'assistant: "I\'ll use the Task tool to launch the code-reviewer agent."\\n<commentary>'
    "\\nSince the user has completed a feature, use the code-reviewer agent.\\n"
    "</commentary>\\n</example>\n"
    "model: opus\n"
    "color: green\n"
    "---\n"
    "\n"
    "You are an expert code reviewer.\n"
    "\n"
    "## Review scope\n"
    "By default, review unstaged changes from `git diff`.\n"
)


def parse(text: str | bytes, name: str = "agent.md", **kw):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_claude(data, Path("/agents", name), **kw)


def messages(diags, code):
    return [d.message for d in diags if d.code == code]


def test_a_real_plugin_agent_loads_with_the_colon_fallback_warning():
    agent, diags = parse(REAL_AGENT, "code-reviewer.md")
    assert agent is not None
    assert agent.name == "code-reviewer"
    assert agent.description.startswith("Use this agent when you need to review code")
    assert "<example>" in agent.description and "</commentary>" in agent.description
    assert agent.instructions.startswith("You are an expert code reviewer.")
    assert agent.instructions.endswith("By default, review unstaged changes from `git diff`.")
    assert agent.tools is None and agent.safety is None  # inherits every tool
    assert agent.model is None and agent.model_as_written == "opus"
    assert agent.color == "green" and dict(agent.extras) == {}
    assert agent.format == "claude"
    assert codes(diags) == ["frontmatter.yaml.colon-fallback"]  # `opus` is normal Claude Code
    assert diags[0].severity == "warning" and diags[0].line == 3


def test_every_field_is_read():
    text = claude_text(
        "searcher",
        "Finds things.",
        body="Search well.\n",
        tools="Read, Grep, Glob",
        disallowedTools="Bash",
        model="anthropic/claude-sonnet-4-5",
        isolation="worktree",
        permissionMode="plan",
        maxTurns="5",
    )
    agent, diags = parse(text, "searcher.md", origin=Origin("project", ".claude"))
    assert diags == []
    assert agent == AgentType(
        name="searcher",
        description="Finds things.",
        instructions="Search well.",
        tools=("read_file", "execute_command"),
        tools_as_written=("Read", "Grep", "Glob"),
        disabled_tools=("execute_command",),
        disabled_tools_as_written=("Bash",),
        model="anthropic/claude-sonnet-4-5",
        model_as_written="anthropic/claude-sonnet-4-5",
        safety="read_only",
        isolation="worktree",
        format="claude",
        path=Path("/agents/searcher.md"),
        origin=Origin("project", ".claude"),
        permission_mode="plan",
        max_turns=5,
    )
    json.dumps(agent.to_json(), allow_nan=False)


def test_the_name_defaults_to_the_file_stem():
    agent, diags = parse(claude_text(None), "my-helper.md")
    assert agent is not None and agent.name == "my-helper"
    assert diags == []


def test_a_namespace_prefixes_the_name():
    agent, _ = parse(claude_text("helper"), origin=Origin("", namespace="tools"))
    assert agent is not None and agent.name == "tools:helper"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("team:helper", "it holds ':'"),
        ("-helper", "it starts with '-'"),
        ('""', "it is empty"),
        ("'my helper'", "it may only hold letters, digits, '_', '.' and '-'"),
    ],
)
def test_an_unusable_name_is_reported_and_skipped(name, why):
    agent, diags = parse(claude_text(name))
    assert agent is None
    shown = name.strip("'\"")
    assert [(d.code, d.severity, d.message) for d in diags] == [
        (
            "agent.name.invalid",
            "error",
            f"the name {shown!r} cannot be used: {why}; the agent is skipped",
        )
    ]


def test_an_unusable_file_stem_is_reported_and_skipped():
    agent, diags = parse(claude_text(None), "my helper.md")
    assert agent is None
    assert messages(diags, "agent.name.invalid") == [
        "the file name 'my helper' cannot be used: it may only hold letters, digits, "
        "'_', '.' and '-'; the agent is skipped"
    ]


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Code-Reviewer", "must be lowercase"),
        ("code_reviewer", "may only contain lowercase a-z, digits and hyphens"),
        ("code--reviewer", "must not contain consecutive hyphens"),
        ("reviewer-", "must not start or end with a hyphen"),
    ],
)
def test_a_usable_but_wrong_name_loads_with_a_warning(name, problem):
    agent, diags = parse(claude_text(name))
    assert agent is not None and agent.name == name
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("agent.name.invalid", "warning", f"the name {name!r} {problem}; it loads as written")
    ]


def test_a_name_that_is_not_a_string_is_an_error():
    agent, diags = parse(claude_text("[a, b]"))
    assert agent is None
    assert messages(diags, "agent.invalid") == ["field `name` must be a string, not a list"]


@pytest.mark.parametrize("name", ["helper", None])
def test_no_description_is_reported_and_skipped(name):
    agent, diags = parse(claude_text(name, None))
    assert agent is None
    assert [(d.code, d.message) for d in diags] == [
        (
            "agent.invalid",
            "the agent has no description, so no model would know when to delegate to it; "
            "it is skipped",
        )
    ]


def test_a_description_that_is_not_a_string_is_an_error():
    agent, diags = parse(claude_text("helper", "[a, b]"))
    assert agent is None
    assert messages(diags, "agent.invalid") == ["field `description` must be a string, not a list"]


def test_a_written_backslash_n_in_the_description_is_a_line_break():
    agent, diags = parse(claude_text("helper", "Line one\\nline two."))
    assert agent is not None and agent.description == "Line one\nline two."
    assert diags == []


@pytest.mark.parametrize(
    "tools",
    ["Read, Grep", "Read Grep", "[Read, Grep]", "\n  - Read\n  - Grep", "['Read, Grep']"],
)
def test_tools_is_a_comma_string_or_a_list(tools):
    agent, diags = parse(claude_text(tools=tools))
    assert agent is not None and diags == []
    assert agent.tools_as_written == ("Read", "Grep")
    assert agent.tools == ("read_file", "execute_command")


def test_an_empty_tool_list_means_no_tools_and_read_only():
    agent, _ = parse(claude_text(tools="[]"))
    assert agent is not None
    assert agent.tools == () and agent.safety == "read_only"


@pytest.mark.parametrize(
    ("tools", "shown"),
    [("3", "a number"), ("{a: b}", "a mapping"), ("[Read, 3]", "a list holding a number")],
)
def test_tools_of_another_type_is_an_error(tools, shown):
    agent, diags = parse(claude_text(tools=tools))
    assert agent is None
    assert messages(diags, "agent.invalid") == [
        f"`tools` must be a comma-separated string or a list of tool names, not {shown}"
    ]


def test_unknown_tools_are_kept_with_one_info():
    agent, diags = parse(claude_text(tools="Read, TodoWrite, NotebookEdit"))
    assert agent is not None
    assert agent.tools == ("read_file", "TodoWrite", "NotebookEdit")
    assert [(d.code, d.severity, d.message) for d in diags] == [
        (
            "agent.tool.unknown",
            "info",
            "`tools` names TodoWrite, NotebookEdit: neither a mapped tool nor a canonical "
            "name; kept as written",
        )
    ]
    assert agent.safety is None  # NotebookEdit writes


def test_a_host_table_maps_the_tools():
    agent, diags = parse(claude_text(tools="Read, Shell"), tool_map={"Read": ("view",)})
    assert agent is not None and agent.tools == ("view", "Shell")
    assert codes(diags) == ["agent.tool.unknown"]


@pytest.mark.parametrize(
    ("tools", "safety"),
    [
        ("Grep, Glob, Read", "read_only"),
        ("Grep, Glob, Read, Bash", None),
        (None, None),
    ],
)
def test_the_read_only_ceiling(tools, safety):
    extra = {} if tools is None else {"tools": tools}
    agent, _ = parse(claude_text(**extra))
    assert agent is not None and agent.safety == safety
    assert agent.safety_as_written is None


@pytest.mark.parametrize("safety", ["safe", "neutral", "destructive", "yolo", "read_only"])
def test_an_explicit_safety_wins(safety):
    agent, diags = parse(claude_text(tools="Read, Grep", safety=safety))
    assert agent is not None and diags == []
    assert agent.safety == agent.safety_as_written == safety


def test_an_explicit_read_only_caps_a_writer():
    agent, _ = parse(claude_text(tools="Bash, Edit", safety="read_only"))
    assert agent is not None and agent.safety == "read_only"


@pytest.mark.parametrize(("value", "shown"), [("paranoid", "'paranoid'"), ("3", "3")])
def test_a_bad_safety_is_an_error(value, shown):
    agent, diags = parse(claude_text(tools="Read", safety=value))
    assert agent is None
    assert messages(diags, "agent.invalid") == [
        f"`safety` must be one of read_only, safe, neutral, destructive, yolo, not {shown}"
    ]


@pytest.mark.parametrize(
    ("model", "honoured", "message"),
    [
        ("anthropic/claude-opus-4", "anthropic/claude-opus-4", None),
        ("openrouter/meta-llama/llama-3-70b", "openrouter/meta-llama/llama-3-70b", None),
        (
            "gpt-4o",
            None,
            "`model` 'gpt-4o' is not in provider/model form; the session model is used",
        ),
        ("/gpt", None, "`model` '/gpt' is not in provider/model form; the session model is used"),
        ("4", None, "`model` is a number, not provider/model; the session model is used"),
    ],
)
def test_model_forms(model, honoured, message):
    agent, diags = parse(claude_text(model=model))
    assert agent is not None and agent.model == honoured
    expected = [] if message is None else [("agent.model.alias", "info", message)]
    assert [(d.code, d.severity, d.message) for d in diags] == expected


@pytest.mark.parametrize(
    "model",
    ["sonnet", "opus", "haiku", "inherit", "fable", "best", "opusplan", "default",
     "Sonnet", "opus[1m]", "sonnet[1M]", "claude-sonnet-4-5", "claude-opus-4-1-20250805"],
)  # fmt: skip
def test_claude_code_model_names_are_normal_and_get_no_diagnostic(model):
    """Claude Code's aliases and model ids mean the session's model, silently."""
    agent, diags = parse(claude_text(model=model))
    assert diags == []
    assert agent is not None and agent.model is None and agent.model_as_written == model


def test_isolation_is_kept_and_a_wrong_type_fails_closed():
    agent, _ = parse(claude_text(isolation="worktree"))
    assert agent is not None and agent.isolation == "worktree"
    agent, diags = parse(claude_text(isolation="true"))
    assert agent is None
    assert messages(diags, "agent.invalid") == ["field `isolation` must be a string, not a boolean"]


def test_the_body_is_the_system_prompt_crlf_and_all():
    text = "---\r\nname: a\r\ndescription: d\r\n---\r\n\r\nLine one.\r\n---\r\nLine two.\r\n"
    agent, diags = parse(text)
    assert agent is not None and diags == []
    assert agent.instructions == "Line one.\n---\nLine two."


def test_broken_frontmatter_is_reported_and_skipped():
    agent, diags = parse("# Just a heading\n")
    assert agent is None and codes(diags) == ["frontmatter.missing"]
    agent, diags = parse("---\nname: [unclosed\ndescription: d\n---\n")
    assert agent is None and codes(diags) == ["frontmatter.yaml.syntax"]
    agent, diags = parse("---\nname: a\n")
    assert agent is None and codes(diags) == ["frontmatter.unterminated"]


def test_a_body_that_is_not_utf8_is_an_error():
    agent, diags = parse(b"---\nname: a\ndescription: d\n---\nbad \xff byte\n")
    assert agent is None and codes(diags) == ["encoding.not-utf8"]

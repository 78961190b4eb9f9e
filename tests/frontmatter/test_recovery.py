"""The lenient retry (`frontmatter.yaml.colon-fallback`): what it recovers and what it
leaves an error. The shapes are those of real Claude Code plugin agents: a long plain
description whose lines run on at column 0 with ``<example>`` blocks, ``Context:``,
``user:`` and ``assistant:`` lines."""

from __future__ import annotations

import pytest

from satchel.foundations import frontmatter
from tests.support import codes

KEYS = frozenset(("name", "description", "model", "color", "tools"))

# The shape of pr-review-toolkit's code-simplifier: the description's first line ends
# with literal \n escapes and `<example>`, then the example runs on unindented.
RUN_ON = """\
---
name: tidy
description: Use this agent after code was written.\\n\\nExamples:\\n\\n<example>
Context: The assistant has just added a feature.
user: "Please add a login check"
assistant: "I've added it:"
<function call omitted for brevity>
<commentary>
Since code was written, use the tidy agent.
</commentary>
</example>

model: opus
color: blue
---
Body.
"""

# The shape of plugin-dev's agent-creator: a first line that ends in `Examples:`,
# a blank line, then example blocks at column 0.
ENDS_IN_COLON = """\
---
name: maker
description: Use this agent when the user asks to "make an agent". Examples:

<example>
Context: User wants an agent
user: "Create an agent"
assistant: "I'll use the maker agent."
</example>

<example>
user: "Another one"
</example>
model: inherit
tools: ["Read", "Grep"]
---
"""


def parse(text: str, keys: frozenset[str] | None = KEYS) -> frontmatter.Frontmatter:
    return frontmatter.parse(text.encode(), keys=keys)


def test_a_value_running_on_at_column_zero_is_read_whole_with_a_warning():
    parsed = parse(RUN_ON)
    assert parsed.fields == {
        "name": "tidy",
        "description": (
            "Use this agent after code was written.\\n\\nExamples:\\n\\n<example>\n"
            "Context: The assistant has just added a feature.\n"
            'user: "Please add a login check"\n'
            'assistant: "I\'ve added it:"\n'
            "<function call omitted for brevity>\n"
            "<commentary>\n"
            "Since code was written, use the tidy agent.\n"
            "</commentary>\n"
            "</example>"
        ),
        "model": "opus",
        "color": "blue",
    }
    assert [(d.code, d.severity, d.line, d.message, d.hint) for d in parsed.diagnostics] == [
        (
            "frontmatter.yaml.colon-fallback",
            "warning",
            3,
            "lines 4-11 continue the unquoted `description` value of line 3 without "
            "indentation; read as part of it, line breaks kept",
            "put the value in quotes, or write it as a | block with its lines indented",
        )
    ]


def test_a_first_line_ending_in_a_colon_runs_on_too():
    parsed = parse(ENDS_IN_COLON)
    assert parsed.fields is not None
    assert parsed.fields["description"] == (
        'Use this agent when the user asks to "make an agent". Examples:\n'
        "\n"
        "<example>\n"
        "Context: User wants an agent\n"
        'user: "Create an agent"\n'
        'assistant: "I\'ll use the maker agent."\n'
        "</example>\n"
        "\n"
        "<example>\n"
        'user: "Another one"\n'
        "</example>"
    )
    assert parsed.fields["model"] == "inherit"
    assert parsed.fields["tools"] == ["Read", "Grep"]
    assert [d.message for d in parsed.diagnostics] == [
        "lines 4-13 continue the unquoted `description` value of line 3 without "
        "indentation; read as part of it, line breaks kept"
    ]


def test_without_the_format_field_names_a_run_on_value_stays_an_error():
    """Skills (no `keys`): nothing says where such a value would end."""
    parsed = parse(RUN_ON, keys=None)
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.syntax"]


def test_unknown_keys_without_a_stray_line_stay_fields():
    """`user:` lines are read into a value only when some line could not be a field."""
    text = "---\nname: a\ndescription: one: two\nextra: kept\n---\n"
    parsed = parse(text)
    assert parsed.fields == {"name": "a", "description": "one: two", "extra": "kept"}
    assert [d.message for d in parsed.diagnostics] == [
        "line(s) 3 hold ': ' in an unquoted value; parsed as if the value were quoted"
    ]


def test_a_value_ending_in_a_colon_is_quoted():
    parsed = parse("---\nname: a\ndescription: Use it for:\n---\n", keys=None)
    assert parsed.fields == {"name": "a", "description": "Use it for:"}
    assert [(d.line, d.message) for d in parsed.diagnostics] == [
        (3, "line(s) 3 end an unquoted value with ':'; parsed as if the value were quoted")
    ]


@pytest.mark.parametrize("first", ["`", "@"])
def test_a_value_starting_with_a_reserved_character_is_quoted(first):
    text = f"---\nname: a\ndescription: {first}git{first} helper\n---\n"
    parsed = parse(text, keys=None)
    assert parsed.fields == {"name": "a", "description": f"{first}git{first} helper"}
    assert [d.message for d in parsed.diagnostics] == [
        "line(s) 3 start an unquoted value with ` or @, which YAML reserves; "
        "parsed as if the value were quoted"
    ]


def test_a_quoted_value_does_not_run_on():
    text = '---\nname: a\ndescription: "quoted"\n<example>\n---\n'
    parsed = parse(text)
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.syntax"]


def test_only_a_known_field_runs_on():
    """A stray line after an unknown key is not read into it: that key is not a field
    the format knows, so the YAML error stands."""
    text = "---\nContext: x\n<example>\nname: a\ndescription: d\n---\n"
    parsed = parse(text)
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.syntax"]

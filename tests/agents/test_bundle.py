"""Bundle ``types.toml`` ([types.<name>]) and host config ``[agents.types.<name>]``."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.agents import AgentType, config_agents, load_bundle, parse_bundle
from satchel.foundations.origin import Origin
from tests.support import codes

BUNDLE = """\
[types.reviewer]
description = "Reviews a diff."
instructions = "Review carefully."
tools = ["Read", "Grep"]
model = "mistral/devstral-2"
display_name = "Reviewer"
color = "green"

[types.fixer]
description = "Fixes what the reviewer found."
system_prompt = "Fix it."
tools = ["Read", "Edit", "Bash"]
safety = "neutral"
isolation = "worktree"
"""


def parse(text: str | bytes, **kw):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_bundle(data, Path("/plugin/types.toml"), **kw)


def messages(diags, severity="error"):
    return [(d.code, d.message) for d in diags if d.severity == severity]


def test_types_load_in_file_order_with_every_field():
    agents, diags = parse(BUNDLE, origin=Origin("plugin", plugin="review-kit"))
    assert diags == []
    assert agents == [
        AgentType(
            name="reviewer",
            description="Reviews a diff.",
            instructions="Review carefully.",
            tools=("read_file", "execute_command"),
            tools_as_written=("Read", "Grep"),
            model="mistral/devstral-2",
            model_as_written="mistral/devstral-2",
            safety="read_only",
            display_name="Reviewer",
            format="bundle",
            path=Path("/plugin/types.toml"),
            origin=Origin("plugin", plugin="review-kit"),
            extras={"color": "green"},
        ),
        AgentType(
            name="fixer",
            description="Fixes what the reviewer found.",
            instructions="Fix it.",
            tools=(
                "read_file",
                "edit_file",
                "apply_patch",
                "write_file",
                "execute_command",
            ),
            tools_as_written=("Read", "Edit", "Bash"),
            safety="neutral",
            safety_as_written="neutral",
            isolation="worktree",
            format="bundle",
            path=Path("/plugin/types.toml"),
            origin=Origin("plugin", plugin="review-kit"),
        ),
    ]


@pytest.mark.parametrize("key", ["instructions", "prompt", "system_prompt"])
def test_the_system_prompt_has_three_names(key):
    agents, diags = parse(f'[types.a]\ndescription = "d"\n{key} = "Go."\n')
    assert diags == [] and agents[0].instructions == "Go."


def test_two_names_for_the_system_prompt_is_an_error():
    agents, diags = parse('[types.a]\ndescription = "d"\nprompt = "x"\ninstructions = "y"\n')
    assert agents == []
    assert messages(diags) == [
        (
            "agent.invalid",
            "[types.a] sets instructions and prompt; they are one field, write only one",
        )
    ]


def test_tools_may_be_a_comma_string_and_unknowns_are_reported():
    agents, diags = parse('[types.a]\ndescription = "d"\ntools = "Read, TodoWrite"\n')
    assert agents[0].tools == ("read_file", "TodoWrite")
    assert [(d.code, d.message) for d in diags] == [
        (
            "agent.tool.unknown",
            "[types.a] tools names TodoWrite: neither a mapped tool nor a canonical name; "
            "kept as written",
        )
    ]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            'description = ""\n',
            "[types.a] has no description, so no model would know when to use it",
        ),
        ("", "[types.a] has no description, so no model would know when to use it"),
        ("description = 1\n", "[types.a] description must be a string, not a number"),
        (
            'description = "d"\nsafety = "max"\n',
            "[types.a] safety must be one of read_only, safe, neutral, destructive, yolo, "
            "not 'max'",
        ),
        (
            'description = "d"\ntools = 3\n',
            "[types.a] tools must be a comma-separated string or a list of tool names, "
            "not a number",
        ),
        (
            'description = "d"\nisolation = true\n',
            "[types.a] isolation must be a string, not a boolean",
        ),
        (
            'description = "d"\ndisplay_name = []\n',
            "[types.a] display_name must be a string, not a list",
        ),
        ('description = "d"\nprompt = 1\n', "[types.a] prompt must be a string, not a number"),
    ],
)
def test_a_bad_type_is_skipped_with_its_reason(table, message):
    agents, diags = parse("[types.a]\n" + table + '[types.b]\ndescription = "ok"\n')
    assert [a.name for a in agents] == ["b"]
    assert messages(diags) == [("agent.invalid", message)]


def test_instructions_are_at_most_64_kib():
    agents, diags = parse(f'[types.a]\ndescription = "d"\nprompt = "{"x" * 65537}"\n')
    assert agents == []
    assert messages(diags) == [
        ("agent.invalid", "[types.a] prompt is 65537 bytes; the limit is 65536 (64 KiB)")
    ]


def test_names_follow_the_agent_name_rules():
    agents, diags = parse('[types.Big_One]\ndescription = "d"\n[types."a:b"]\ndescription = "d"\n')
    assert [a.name for a in agents] == ["Big_One"]
    assert [(d.code, d.severity, d.message) for d in diags] == [
        (
            "agent.name.invalid",
            "warning",
            "the [types.Big_One] name 'Big_One' must be lowercase; it loads as written",
        ),
        (
            "agent.name.invalid",
            "error",
            "the [types.a:b] name 'a:b' cannot be used: it holds ':'; the agent is skipped",
        ),
    ]


def test_a_namespace_prefixes_names():
    agents, _ = parse(BUNDLE, origin=Origin("plugin", namespace="kit"))
    assert [a.name for a in agents] == ["kit:reviewer", "kit:fixer"]


def test_the_file_shape_is_checked():
    agents, diags = parse('version = 2\ntypes = "x"\n')
    assert agents == []
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("agent.field.unknown", "warning", "unknown key `version` is ignored"),
        (
            "agent.invalid",
            "error",
            "`types` must be a table of [types.<name>] tables, not a string",
        ),
    ]
    agents, diags = parse("[types]\na = 1\n")
    assert agents == [] and messages(diags) == [
        ("agent.invalid", "[types.a] must be a table, not a number")
    ]
    agents, diags = parse("[types\n")
    assert agents == [] and codes(diags) == ["agent.invalid"]
    assert diags[0].message.startswith("not valid TOML: ")


def test_at_most_128_types_per_file():
    text = "".join(f'[types.t{i:03d}]\ndescription = "d"\n' for i in range(130))
    agents, diags = parse(text)
    assert [a.name for a in agents] == [f"t{i:03d}" for i in range(128)]
    assert messages(diags, "warning") == [
        ("agent.limit", "130 agent types in one file; only the first 128 are read")
    ]


def test_load_bundle_reads_a_file_at_most_1_mib(tmp_path):
    path = tmp_path / "types.toml"
    path.write_text(BUNDLE)
    agents, diags = load_bundle(path, origin=Origin("plugin", plugin="kit"))
    assert [a.name for a in agents] == ["reviewer", "fixer"] and diags == []
    path.write_bytes(BUNDLE.encode() + b"#" * (1 << 20))
    agents, diags = load_bundle(path)
    assert agents == [] and codes(diags) == ["agent.limit"]
    agents, diags = load_bundle(tmp_path / "missing.toml")
    assert agents == [] and codes(diags) == ["agent.invalid"]


def test_config_types_are_parsed_mappings():
    config = {
        "general": {"description": "Everything.", "model": "openai/gpt-5"},
        "scout": {"description": "Looks around.", "tools": ["read_file", "web_fetch"]},
    }
    agents, diags = config_agents(config)
    assert diags == []
    assert [(a.name, a.format, a.scope, a.path) for a in agents] == [
        ("general", "config", "config", None),
        ("scout", "config", "config", None),
    ]
    assert agents[0].model == "openai/gpt-5" and agents[0].safety is None
    assert agents[1].safety == "read_only"


def test_config_types_report_against_the_config_file():
    agents, diags = config_agents({"x": {"model": "sonnet"}}, path=Path("/cfg/config.toml"))
    assert agents == []
    assert [(d.code, d.message, d.path) for d in diags] == [
        (
            "agent.invalid",
            "[agents.types.x] has no description, so no model would know when to use it",
            Path("/cfg/config.toml"),
        ),
        (
            "agent.model.alias",
            "[agents.types.x] model 'sonnet' is a Claude Code alias; the session model is used",
            Path("/cfg/config.toml"),
        ),
    ]

"""Vibe TOML agents: every one of Vibe's TOML agent rules, in both key spellings."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.agents import (
    AgentType,
    ToolRule,
    parse_bundle,
    parse_vibe,
    scan_agent_dir,
    vibe_agent,
)
from satchel.foundations.origin import Origin
from tests.agents.conftest import VIBE_OK
from tests.support import codes

SNAKE_OK = (
    VIBE_OK.replace("schemaVersion", "schema_version")
    .replace("agentType", "agent_type")
    .replace("displayName", "display_name")
    .replace("activeModel", "active_model")
    .replace("enabledTools", "enabled_tools")
    .replace("disabledTools", "disabled_tools")
)

MINIMAL = 'schema_version = 1\nagent_type = "subagent"\ndescription = "Does one thing."\n'


def parse(text: str | bytes, name: str = "researcher.toml", **kw):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_vibe(data, Path("/agents", name), **kw)


def errors(diags):
    return [(d.code, d.message) for d in diags if d.severity == "error"]


def only_error(text: str, name: str = "researcher.toml"):
    agent, diags = parse(text, name)
    assert agent is None
    found = errors(diags)
    assert len(found) == 1, found
    return found[0]


EXPECTED = AgentType(
    name="researcher",
    description="Searches the knowledge base and summarizes findings.",
    instructions="You are a research assistant.",
    tools=("read_file", "grep"),
    tools_as_written=("read_file", "grep"),
    disabled_tools=("bash",),
    disabled_tools_as_written=("bash",),
    model="mistral-medium-3.5",
    model_as_written="mistral-medium-3.5",
    safety="safe",
    safety_as_written="safe",
    display_name="Researcher",
    tool_rules={"bash": ToolRule("never", ("ls",), ("rm",))},
    format="vibe",
    path=Path("/agents/researcher.toml"),
)


@pytest.mark.parametrize(
    ("text", "key"),
    [(VIBE_OK, "activeModel"), (SNAKE_OK, "active_model")],
    ids=["camelCase", "snake_case"],
)
def test_the_vibe_guide_example_loads_in_both_spellings(text, key):
    """`activeModel` names a model in the host's config, as in Vibe: kept as written,
    with no agent.model.alias (the provider/model rule is Claude Code's)."""
    assert key in text
    agent, diags = parse(text)
    assert agent == EXPECTED
    assert diags == []


@pytest.mark.parametrize(
    "model", ["mistral-medium-3.5", "devstral", "mistral/mistral-medium-3.5", "sonnet"]
)
def test_active_model_is_kept_as_written_in_any_form(model):
    agent, diags = parse(MINIMAL + f'activeModel = "{model}"\n')
    assert agent is not None and diags == []
    assert agent.model == agent.model_as_written == model


def test_an_empty_active_model_means_the_session_model():
    agent, diags = parse(MINIMAL + 'active_model = ""\n')
    assert agent is not None and agent.model is None and diags == []


def test_an_active_model_that_is_not_a_string_is_dropped_with_an_info():
    agent, diags = parse(MINIMAL + "activeModel = 3\n")
    assert agent is not None and agent.model is None and agent.model_as_written is None
    assert [(d.code, d.severity, d.message) for d in diags] == [
        (
            "agent.model.alias",
            "info",
            "`activeModel` is a number, not provider/model; the session model is used",
        )
    ]


def test_the_provider_model_rule_still_holds_for_a_bundle():
    agents, diags = parse_bundle(
        b'[types.a]\ndescription = "d"\nmodel = "mistral-medium-3.5"\n', Path("types.toml")
    )
    assert agents[0].model is None and agents[0].model_as_written == "mistral-medium-3.5"
    assert [d.code for d in diags] == ["agent.model.alias"]


def test_vibe_tool_names_pass_without_an_info_but_typos_are_reported():
    text = MINIMAL + 'enabledTools = ["bash", "grep", "search_replace", "todo", "serch"]\n'
    agent, diags = parse(text)
    assert agent is not None
    assert agent.tools == ("bash", "grep", "search_replace", "todo", "serch")
    assert [(d.code, d.message) for d in diags] == [
        (
            "agent.tool.unknown",
            "`enabledTools` names serch: neither a mapped tool nor a canonical name; "
            "kept as written",
        )
    ]


def test_one_file_may_use_each_spelling_for_different_keys():
    agent, diags = parse('schemaVersion = 1\nagent_type = "subagent"\ndescription = "d"\n')
    assert agent is not None and diags == []


@pytest.mark.parametrize(
    ("snake", "camel", "value"),
    [
        ("schema_version", "schemaVersion", "1"),
        ("agent_type", "agentType", '"subagent"'),
        ("display_name", "displayName", '"R"'),
        ("active_model", "activeModel", '"a/b"'),
        ("enabled_tools", "enabledTools", "[]"),
        ("disabled_tools", "disabledTools", "[]"),
    ],
)
def test_a_file_writing_one_key_both_ways_is_refused(snake, camel, value):
    base = MINIMAL.replace(f"{snake} = {value}\n", "")
    text = f"{base}{snake} = {value}\n{camel} = {value}\n"
    assert only_error(text) == (
        "agent.invalid",
        f"`{snake}` and `{camel}` are two spellings of one key; write only one",
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "`schema_version` must be 1; it is missing"),
        ("schemaVersion = 2\n", "`schemaVersion` must be 1, not 2"),
        ("schema_version = 0\n", "`schema_version` must be 1, not 0"),
        ('schemaVersion = "1"\n', "`schemaVersion` must be 1, not '1'"),
        ("schemaVersion = true\n", "`schemaVersion` must be 1, not True"),
        ("schemaVersion = 1.0\n", "`schemaVersion` must be 1, not 1.0"),
    ],
)
def test_schema_version_must_be_1(line, message):
    text = MINIMAL.replace("schema_version = 1\n", line)
    assert only_error(text) == ("agent.invalid", message)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", '`agent_type` must be "subagent"; it is missing'),
        ('agentType = "agent"\n', "`agentType` must be \"subagent\", not 'agent'"),
        ('agent_type = "Subagent"\n', "`agent_type` must be \"subagent\", not 'Subagent'"),
        ("agent_type = 1\n", '`agent_type` must be "subagent", not 1'),
    ],
)
def test_agent_type_must_be_subagent(line, message):
    text = MINIMAL.replace('agent_type = "subagent"\n', line)
    assert only_error(text) == ("agent.invalid", message)


@pytest.mark.parametrize("stem", ["Researcher", "my_agent", "-lead", "trail-", "a.b", "ü", "x y"])
def test_the_file_name_must_be_lowercase_kebab_case(stem):
    assert only_error(MINIMAL, f"{stem}.toml") == (
        "agent.name.invalid",
        f"the file name '{stem}.toml' is not lowercase kebab-case "
        "(^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$)",
    )


@pytest.mark.parametrize("stem", ["a", "7", "a1-b2", "a--b", "deep-research-2"])
def test_kebab_case_file_names_load_under_the_stem(stem):
    agent, diags = parse(MINIMAL, f"{stem}.toml")
    assert agent is not None and agent.name == stem and diags == []


def test_a_namespace_prefixes_the_stem():
    agent, _ = parse(MINIMAL, origin=Origin("plugin", plugin="acme-tools", namespace="acme"))
    assert agent is not None
    assert (agent.name, agent.plugin, agent.scope) == ("acme:researcher", "acme-tools", "plugin")


@pytest.mark.parametrize("safety", ["safe", "neutral", "destructive", "yolo"])
def test_each_vibe_safety_level_loads(safety):
    agent, diags = parse(MINIMAL + f'safety = "{safety}"\n')
    assert agent is not None and agent.safety == safety and diags == []


@pytest.mark.parametrize(
    ("value", "shown"), [('"read_only"', "'read_only'"), ('"SAFE"', "'SAFE'"), ("3", "3")]
)
def test_safety_must_be_one_of_the_four(value, shown):
    assert only_error(MINIMAL + f"safety = {value}\n") == (
        "agent.invalid",
        f"`safety` must be one of safe, neutral, destructive, yolo, not {shown}",
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            'enabledTools = ["read_file", "grep", "read_file"]\n',
            "`enabledTools` holds 'read_file' more than once",
        ),
        ('disabled_tools = ["bash", "bash"]\n', "`disabled_tools` holds 'bash' more than once"),
        ('enabled_tools = ["read_file", ""]\n', "`enabled_tools` holds an empty tool name"),
        ('disabledTools = ["  "]\n', "`disabledTools` holds an empty tool name"),
        (
            'enabled_tools = "read_file"\n',
            "`enabled_tools` must be a list of tool names, not a string",
        ),
        ("enabled_tools = [1]\n", "`enabled_tools` must hold only tool names, not a number"),
    ],
)
def test_tool_lists_hold_distinct_non_empty_names(line, message):
    assert only_error(MINIMAL + line) == ("agent.invalid", message)


def test_tool_lists_hold_at_most_128_names():
    names = ", ".join(f'"t{i}"' for i in range(128))
    agent, _ = parse(MINIMAL + f"enabled_tools = [{names}]\n")
    assert agent is not None and agent.tools is not None and len(agent.tools) == 128
    names += ', "t128"'
    assert only_error(MINIMAL + f"enabled_tools = [{names}]\n") == (
        "agent.invalid",
        "`enabled_tools` holds 129 names; the limit is 128",
    )


def test_an_empty_enabled_list_means_every_tool():
    agent, _ = parse(MINIMAL + "enabled_tools = []\n")
    assert agent is not None and agent.tools is None and agent.safety is None


def test_tools_that_cannot_write_get_the_read_only_ceiling():
    agent, _ = parse(MINIMAL + 'enabled_tools = ["read_file", "grep"]\n')
    assert agent is not None and agent.safety == "read_only"
    agent, _ = parse(MINIMAL + 'enabled_tools = ["read_file", "bash"]\n')
    assert agent is not None and agent.safety is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (None, "`description` is missing; it must be 1-300 characters"),
        ('description = ""\n', "`description` must be 1-300 characters; it has 0"),
        (f'description = "{"x" * 301}"\n', "`description` must be 1-300 characters; it has 301"),
        ("description = 5\n", "`description` must be a string, not a number"),
    ],
)
def test_the_description_is_1_to_300_characters(line, message):
    text = MINIMAL.replace('description = "Does one thing."\n', line or "")
    assert only_error(text) == ("agent.invalid", message)


def test_a_description_of_300_characters_loads():
    text = MINIMAL.replace("Does one thing.", "é" * 300)
    agent, diags = parse(text)
    assert agent is not None and len(agent.description) == 300 and diags == []


def test_instructions_are_at_most_64_kib():
    base = {"schema_version": 1, "agent_type": "subagent", "description": "d"}
    path = Path("/agents/big.toml")
    agent, diags = vibe_agent({**base, "instructions": "x" * 65536}, path)
    assert agent is not None and diags == []
    agent, diags = vibe_agent({**base, "instructions": "é" * 32769}, path)
    assert agent is None
    assert errors(diags) == [
        ("agent.invalid", "`instructions` is 65538 bytes; the limit is 65536 (64 KiB)")
    ]


@pytest.mark.parametrize("permission", ["always", "ask", "never"])
def test_a_tool_table_sets_permission_and_lists(permission):
    text = MINIMAL + f'[tools.bash]\npermission = "{permission}"\nallowlist = ["git"]\n'
    agent, diags = parse(text)
    assert agent is not None and diags == []
    assert dict(agent.tool_rules) == {"bash": ToolRule(permission, ("git",), ())}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[tools.bash]\npermission = "sometimes"\n',
            "[tools.bash] permission must be one of always, ask, never, not 'sometimes'",
        ),
        ('[tools.bash]\nallowlist = "ls"\n', "[tools.bash] allowlist must be a list of strings"),
        ('[tools.bash]\ndenylist = ["rm", 1]\n', "[tools.bash] denylist must be a list of strings"),
        ('tools = "bash"\n', "`tools` must be a table of [tools.<name>] tables, not a string"),
        ("tools = { bash = 1 }\n", "[tools.bash] must be a table, not a number"),
        ('[tools.""]\npermission = "ask"\n', '[tools.""] names no tool'),
    ],
)
def test_a_bad_tool_table_is_an_error(table, message):
    assert only_error(MINIMAL + table) == ("agent.invalid", message)


def test_unknown_keys_are_warned_about_and_ignored():
    text = MINIMAL + 'color = "blue"\n[tools.bash]\npermission = "ask"\ntimeout = 5\n'
    agent, diags = parse(text)
    assert agent is not None and dict(agent.extras) == {}
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("agent.field.unknown", "warning", "unknown key `color` is ignored"),
        ("agent.field.unknown", "warning", "[tools.bash] unknown key `timeout` is ignored"),
    ]


def test_every_broken_rule_is_reported_at_once():
    text = 'schemaVersion = 2\nagentType = "x"\nsafety = "bad"\nenabledTools = ["grep", "grep"]\n'
    agent, diags = parse(text, "Bad_Name.toml")
    assert agent is None
    assert codes(diags) == ["agent.name.invalid"] + ["agent.invalid"] * 5


def test_toml_that_does_not_parse_is_an_error():
    code, message = only_error('schema_version = 1\ndescription = "unclosed\n')
    assert code == "agent.invalid" and message.startswith("not valid TOML: ")


def test_deep_nesting_is_an_error_not_a_crash():
    assert only_error("x = " + "[" * 30000 + "]" * 30000 + "\n") == (
        "agent.invalid",
        "not valid TOML: it nests deeper than 64 levels",
    )


def test_bytes_that_are_not_utf8_are_an_error():
    agent, diags = parse(MINIMAL.encode() + b'instructions = "\xff"\n')
    assert agent is None and codes(diags) == ["encoding.not-utf8"]


def test_a_byte_order_mark_is_allowed():
    agent, diags = parse(b"\xef\xbb\xbf" + MINIMAL.encode())
    assert agent is not None and diags == []


def write_many(directory: Path, count: int) -> None:
    directory.mkdir(parents=True)
    for i in range(count):
        (directory / f"agent-{i:03d}.toml").write_text(MINIMAL)


def test_at_most_128_agents_per_directory_the_rest_in_name_order_not_read(tmp_path):
    directory = tmp_path / "agents"
    write_many(directory, 128)
    scan = scan_agent_dir(directory, recursive=False, origin=Origin("", namespace="p"))
    assert len(scan.agents) == 128 and scan.diagnostics == []
    (directory / "agent-128.toml").write_text(MINIMAL)
    (directory / "zzz.toml").write_text("not toml at all [")
    scan = scan_agent_dir(directory, recursive=False, origin=Origin("", namespace="p"))
    assert [a.name for a in scan.agents] == [f"p:agent-{i:03d}" for i in range(128)]
    assert [(d.code, d.message, d.path) for d in scan.diagnostics] == [
        (
            "agent.limit",
            "more than 128 Vibe agent files (.toml) in this directory; only the first 128 "
            "(in file name order) are read; 2 not read: agent-128.toml, zzz.toml",
            directory,
        )
    ]


def test_a_file_is_at_most_64_kib(tmp_path):
    directory = tmp_path / "agents"
    directory.mkdir()
    body = MINIMAL + "# "
    (directory / "fits.toml").write_text(body + "x" * (65536 - len(body) - 1) + "\n")
    (directory / "big.toml").write_text(body + "x" * (65537 - len(body) - 1) + "\n")
    assert (directory / "fits.toml").stat().st_size == 65536
    scan = scan_agent_dir(directory)
    assert [a.name for a in scan.agents] == ["fits"]
    assert [(d.code, d.message) for d in scan.diagnostics] == [
        ("agent.limit", "the file is 65537 bytes; the limit is 65536 (64 KiB); it is not read")
    ]

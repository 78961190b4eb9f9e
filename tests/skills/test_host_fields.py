"""Claude Code's skill fields beyond the spec as typed values on `Skill`, each bad
value a `skill.field.invalid` warning (the raw value still in extras)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.skills import FieldRules, read_skill
from tests.support import put, skill_md


def _read(tmp_path: Path, extra: str) -> tuple[object, list[object]]:
    path = put(tmp_path / "demo" / "SKILL.md", skill_md("demo", extra=extra))
    read = read_skill(path, FieldRules())
    assert read is not None
    return read


def test_every_field_is_read_into_its_typed_value(tmp_path):
    skill, diags = _read(
        tmp_path,
        "when_to_use: When the user asks for a demo.\n"
        "paths: ['src/**/*.ts', '*.md']\n"
        "disallowed-tools: Bash(rm:*), WebFetch\n"
        "model: sonnet\n"
        "effort: xhigh\n"
        "shell: powershell\n"
        "context: fork\n"
        "agent: Explore\n"
        "background: false\n",
    )
    assert skill.when_to_use == "When the user asks for a demo."
    assert skill.paths == ("src/**/*.ts", "*.md")
    assert skill.disallowed_tools == ("Bash(rm:*)", "WebFetch")
    assert (skill.model, skill.effort, skill.shell) == ("sonnet", "xhigh", "powershell")
    assert (skill.context, skill.agent, skill.background) == ("fork", "Explore", False)
    assert skill.extras["model"] == "sonnet"  # the raw values stay where they were
    assert [d.code for d in diags if d.code != "skill.field.deprecated"] == []


def test_fields_left_out_are_empty(tmp_path):
    skill, _ = _read(tmp_path, "")
    assert skill.paths is None and skill.when_to_use is None and skill.disallowed_tools == ()
    assert (skill.model, skill.effort, skill.shell, skill.context) == (None,) * 4
    assert (skill.agent, skill.background) == (None, None)


def test_the_aliases_claude_code_accepts_are_read(tmp_path):
    skill, diags = _read(tmp_path, "disallowedTools: [Write, Edit]\nwhen-to-use: Often.\n")
    assert skill.disallowed_tools == ("Write", "Edit")
    assert skill.when_to_use == "Often."
    assert diags == []


def test_a_string_paths_is_one_pattern_and_an_integer_effort_is_kept(tmp_path):
    skill, _ = _read(tmp_path, "paths: 'src/*.{ts,tsx}, docs/**'\neffort: 12000\n")
    assert skill.paths == ("src/*.{ts,tsx}, docs/**",)  # split where it is matched
    assert skill.effort == 12000


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("model: 3\n", "`model` must be a string, not a number; the field is ignored"),
        ("model: two words\n", "`model` must be one word, not 'two words'; the field is ignored"),
        (
            "effort: huge\n",
            "`effort` must be one of low, medium, high, xhigh, max or a positive integer, "
            "not 'huge'; the field is ignored",
        ),
        (
            "effort: true\n",
            "`effort` must be one of low, medium, high, xhigh, max or a positive integer, "
            "not True; the field is ignored",
        ),
        (
            "shell: zsh\n",
            "`shell` must be one of bash, powershell, not 'zsh'; the field is ignored",
        ),
        (
            "context: thread\n",
            "`context` must be one of inline, fork, not 'thread'; the field is ignored",
        ),
        ("agent: ''\n", "`agent` must be one word, not ''; the field is ignored"),
        (
            "background: 'sometimes'\n",
            "`background` must be true or false, not 'sometimes'; the field is ignored",
        ),
        (
            "when_to_use: [a]\n",
            "`when_to_use` must be a string, not a list; the field is ignored",
        ),
        ("when_to_use: '  '\n", "`when_to_use` is empty; the field is ignored"),
        (
            "paths: {a: b}\n",
            "`paths` must be a string or a list of strings, not a mapping; the field is ignored",
        ),
        ("paths: []\n", "`paths` names no pattern; the field is ignored"),
        (
            "disallowed-tools: 7\n",
            "`disallowed-tools` must be a string or a list of strings, not a number; "
            "the field is ignored",
        ),
    ],
)
def test_a_bad_value_is_a_warning_and_the_skill_loads(tmp_path, extra, message):
    skill, diags = _read(tmp_path, extra)
    found = [d for d in diags if d.code == "skill.field.invalid"]
    assert [(d.severity, d.message) for d in found] == [("warning", message)]
    assert skill is not None
    key = extra.split(":", 1)[0]
    field = {"disallowed-tools": "disallowed_tools"}.get(key, key)
    assert getattr(skill, field) in (None, ())


def test_a_long_when_to_use_is_refused(tmp_path):
    _, diags = _read(tmp_path, f"when_to_use: {'x' * 1025}\n")
    assert [d.message for d in diags if d.code == "skill.field.invalid"] == [
        "`when_to_use` is 1025 characters; the limit is 1024; the field is ignored"
    ]


def test_to_json_carries_the_typed_host_fields(tmp_path):
    text = (
        "---\nname: fork-me\ndescription: d\nwhen_to_use: on forks\npaths: ['src/**']\n"
        "disallowed-tools: Bash\nmodel: opus\neffort: high\nshell: bash\ncontext: fork\n"
        "agent: Explore\nbackground: true\n---\nbody\n"
    )
    put(tmp_path / "fork-me" / "SKILL.md", text)
    read = read_skill(tmp_path / "fork-me" / "SKILL.md", FieldRules())
    assert read is not None and read[0] is not None
    skill = read[0]
    doc = skill.to_json()
    assert {k: doc[k] for k in ("when_to_use", "paths", "disallowed_tools", "model")} == {
        "when_to_use": "on forks",
        "paths": ["src/**"],
        "disallowed_tools": ["Bash"],
        "model": "opus",
    }
    assert (doc["effort"], doc["shell"], doc["context"], doc["agent"], doc["background"]) == (
        "high",
        "bash",
        "fork",
        "Explore",
        True,
    )


def test_claude_codes_internal_keys_are_known_and_kept(tmp_path):
    extra = (
        "fallback: other\ncreated_by: a\nimproved_by: b\ndisplayName: Fancy\ndefault-enabled: false"
    )
    skill, diags = _read(tmp_path, extra)
    assert [d.code for d in diags] == []
    assert skill.extras["displayName"] == "Fancy" and skill.extras["fallback"] == "other"


ONE_KEY_EACH = {
    "when_to_use": "Often.",
    "when-to-use": "Often.",
    "paths": "src/**",
    "disallowed-tools": "Write",
    "disallowedTools": "Write",
    "model": "opus",
    "effort": "high",
    "shell": "bash",
    "context": "fork",
    "agent": "explore",
    "background": True,
}


@pytest.mark.parametrize("key", sorted(ONE_KEY_EACH))
def test_a_frontmatter_with_any_one_host_key_is_read_past_the_shortcut(key):
    from satchel.skills._host_fields import HOST_KEYS, NO_HOST_FIELDS, read_host_fields

    heard: list[str] = []
    read = read_host_fields({key: ONE_KEY_EACH[key]}, lambda c, m: heard.append(c), str.split)
    assert key in HOST_KEYS
    assert read != NO_HOST_FIELDS
    assert heard == []


def test_the_shortcut_covers_exactly_the_keys_the_readers_take():
    from satchel.skills._host_fields import HOST_KEYS

    assert frozenset(ONE_KEY_EACH) == HOST_KEYS

"""Judging frontmatter fields: lenient loading and strict authoring."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satchel import hosts
from satchel.skills._fields import (
    FieldRules,
    _split_nested,
    build_skill,
    name_problem,
    split_tools,
)
from tests.support import codes

PATH = Path("skills", "pdf", "SKILL.md")
LENIENT = FieldRules()
STRICT = FieldRules(strict=True)


def build(fields, rules=LENIENT, path=PATH):
    return build_skill(fields, path, rules)


@pytest.mark.parametrize(
    "value",
    [
        "Read Bash(git:*)",
        ["Read", "Bash(git:*)"],
        "Read, Bash(git:*)",
        "  Read\tBash(git:*)  ",
    ],
)
def test_allowed_tools_shapes_normalize_to_a_list(value):
    skill, diags = build({"name": "pdf", "description": "d", "allowed-tools": value})
    assert skill is not None and diags == []
    assert skill.allowed_tools == ("Read", "Bash(git:*)")


def test_allowed_tools_keeps_spaces_inside_parentheses():
    assert split_tools("Bash(git add:*), Bash(git status:*) Read") == [
        "Bash(git add:*)",
        "Bash(git status:*)",
        "Read",
    ]


def test_allowed_tools_of_the_wrong_shape_warns_and_loads():
    skill, diags = build({"name": "pdf", "description": "d", "allowed-tools": {"x": 1}})
    assert skill is not None and skill.allowed_tools == ()
    assert codes(diags) == ["skill.allowed-tools.invalid"]


def test_spec_fields_are_read():
    skill, diags = build(
        {
            "name": "pdf",
            "description": "Extract text.",
            "license": "Apache-2.0",
            "compatibility": "Needs poppler",
            "metadata": {"author": "docs-team", "version": "1.0"},
        }
    )
    assert diags == []
    assert skill is not None
    assert (skill.name, skill.description, skill.license, skill.compatibility) == (
        "pdf",
        "Extract text.",
        "Apache-2.0",
        "Needs poppler",
    )
    assert dict(skill.metadata) == {"author": "docs-team", "version": "1.0"}


def test_host_extras_are_kept_without_complaint():
    fields = {
        "name": "pdf",
        "description": "d",
        "user-invocable": False,
        "disable-model-invocation": True,
        "argument-hint": "[file]",
        "when_to_use": "PDF work",
        "context": "fork",
    }
    skill, diags = build(fields)
    assert diags == []
    assert skill is not None
    assert dict(skill.extras) == {
        k: v for k, v in fields.items() if k not in ("name", "description")
    }


def test_deprecated_top_level_fields_move_into_metadata_with_info():
    """Every one is exposed in metadata; only `thinking` is called deprecated, since
    `model` and `paths` are Claude Code's own fields (zidane's rule below)."""
    fields = {
        "name": "pdf",
        "description": "d",
        "model": "claude-opus",
        "thinking": "low",
        "paths": ["src/**/*.ts", "test/**/*.ts"],
    }
    skill, diags = build(fields)
    assert skill is not None
    assert [(d.code, d.message) for d in diags] == [
        (
            "skill.field.deprecated",
            "top-level `thinking` is deprecated; also exposed as metadata['satchel.thinking']",
        )
    ]
    assert all(d.severity == "info" for d in diags)
    assert dict(skill.metadata) == {
        "satchel.model": "claude-opus",
        "satchel.thinking": "low",
        "satchel.paths": "src/**/*.ts,test/**/*.ts",
    }
    assert skill.extras["model"] == "claude-opus"


def test_under_zidane_a_top_level_model_and_paths_are_deprecated_too():

    fields = {"name": "pdf", "description": "d", "model": "opus", "paths": ["a/*.ts"]}
    zidane = hosts.get("zidane").skill_metadata.deprecated  # the rule zidane's definition sets
    skill, diags = build(fields, FieldRules(client="zidane", deprecated=zidane))
    assert skill is not None
    assert [d.message for d in diags] == [
        "top-level `model` is deprecated; also exposed as metadata['zidane.model']",
        "top-level `paths` is deprecated; also exposed as metadata['zidane.paths']",
    ]


def test_moved_fields_use_the_client_prefix_and_never_overwrite_metadata():
    fields = {"name": "pdf", "description": "d", "model": "m", "metadata": {"zidane.model": "keep"}}
    skill, _ = build(fields, FieldRules(client="zidane"))
    assert skill is not None and dict(skill.metadata) == {"zidane.model": "keep"}


def test_unknown_field_is_info_when_loading():
    skill, diags = build({"name": "pdf", "description": "d", "colour": "blue"})
    assert skill is not None and skill.extras["colour"] == "blue"
    assert [(d.code, d.severity) for d in diags] == [("skill.field.unknown", "info")]


def test_strict_mode_rejects_any_field_outside_the_spec_by_name():
    skill, diags = build({"name": "pdf", "description": "d", "user-invocable": True}, STRICT)
    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [("skill.field.unknown", "error")]
    assert diags[0].message == (
        "`user-invocable` is not an Agent Skills field; allowed: allowed-tools, compatibility, "
        "description, license, metadata, name"
    )


def test_strict_mode_accepts_exactly_the_spec():
    fields = {
        "name": "pdf",
        "description": "d",
        "license": "MIT",
        "compatibility": "any",
        "metadata": {"a": "b"},
        "allowed-tools": "Read",
    }
    skill, diags = build(fields, STRICT)
    assert skill is not None and diags == []


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("PDF-Processing", "must be lowercase"),
        ("pdf--x", "must not contain consecutive hyphens"),
        ("-pdf", "must not start or end with a hyphen"),
        ("pdf-", "must not start or end with a hyphen"),
        ("pdf_x", "may only contain lowercase a-z, digits and hyphens"),
        ("a/b", "may only contain lowercase a-z, digits and hyphens"),
        ("../x", "may only contain lowercase a-z, digits and hyphens"),
        ("dеploy", "may only contain lowercase a-z, digits and hyphens"),
        ("", "must not be empty"),
    ],
)
def test_name_rule(name, problem):
    assert name_problem(name) == problem


def test_unicode_names_option_accepts_lowercase_letters_of_any_script():
    assert name_problem("мой-навык", unicode_names=True) is None
    assert name_problem("数据分析", unicode_names=True) is None
    assert name_problem("мой-навык") is not None
    assert name_problem("Мой", unicode_names=True) == "must be lowercase"


def test_name_mismatch_warns_and_loads_under_the_frontmatter_name():
    skill, diags = build({"name": "pdf-tools", "description": "d"})
    assert skill is not None and skill.name == "pdf-tools"
    assert [(d.code, d.severity) for d in diags] == [("skill.name.mismatch", "warning")]
    assert diags[0].message == "the name 'pdf-tools' differs from its directory name 'pdf'"


def test_name_mismatch_is_an_error_in_strict_mode():
    skill, diags = build({"name": "pdf-tools", "description": "d"}, STRICT)
    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [("skill.name.mismatch", "error")]


def test_over_long_name_warns_and_loads():
    name = "a" * 65
    skill, diags = build({"name": name, "description": "d"}, path=Path(name, "SKILL.md"))
    assert skill is not None and skill.name == name
    assert codes(diags) == ["skill.name.too-long"]


def test_64_character_name_is_fine():
    name = "a" * 64
    skill, diags = build({"name": name, "description": "d"}, path=Path(name, "SKILL.md"))
    assert skill is not None and diags == []


def test_invalid_name_falls_back_to_the_directory_name():
    skill, diags = build({"name": "Plugin Structure", "description": "d"})
    assert skill is not None and skill.name == "pdf"
    assert codes(diags) == ["skill.name.invalid"]


def test_invalid_name_in_an_invalid_directory_is_skipped():
    skill, diags = build({"name": "Bad Name", "description": "d"}, path=Path("Bad Dir", "SKILL.md"))
    assert skill is None
    assert codes(diags) == ["skill.name.invalid", "skill.name.invalid"]
    assert diags[-1].severity == "error"


def test_missing_name_uses_the_directory_name():
    skill, diags = build({"description": "d"})
    assert skill is not None and skill.name == "pdf"
    assert codes(diags) == ["skill.name.missing"]


@pytest.mark.parametrize("value", [123, True, None])
def test_name_of_the_wrong_type_is_not_coerced(value):
    fields = {"name": value, "description": "d"} if value is not None else {"description": "d"}
    skill, diags = build(fields)
    assert skill is not None and skill.name == "pdf"
    expected = "skill.name.missing" if value is None else "frontmatter.field.type"
    assert codes(diags) == [expected]


@pytest.mark.parametrize("value", [None, "", "   "])
def test_missing_description_skips_the_skill(value):
    fields = {"name": "pdf"} if value is None else {"name": "pdf", "description": value}
    skill, diags = build(fields)
    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [("skill.description.missing", "error")]


@pytest.mark.parametrize(("value", "kind"), [(["a", "b"], "a list"), (42, "a number")])
def test_description_of_the_wrong_type_skips_the_skill(value, kind):
    skill, diags = build({"name": "pdf", "description": value})
    assert skill is None
    assert codes(diags) == ["frontmatter.field.type"]
    assert diags[0].message == f"field `description` must be a string, not {kind}"


def test_long_description_warns_and_loads():
    skill, diags = build({"name": "pdf", "description": "x" * 1025})
    assert skill is not None
    assert codes(diags) == ["skill.description.too-long"]
    assert diags[0].message == "the description is 1025 characters; the limit is 1024"


@pytest.mark.parametrize("value", ["", "x" * 501])
def test_compatibility_length(value):
    skill, diags = build({"name": "pdf", "description": "d", "compatibility": value})
    assert skill is not None
    assert codes(diags) == ["skill.compatibility.invalid"]


def test_metadata_numbers_are_read_as_strings_with_a_warning():
    skill, diags = build({"name": "pdf", "description": "d", "metadata": {"version": 1.1}})
    assert skill is not None and dict(skill.metadata) == {"version": "1.1"}
    assert codes(diags) == ["skill.metadata.invalid"]
    assert diags[0].hint == "quote the value to keep it exactly as written"


def test_metadata_numbers_are_errors_in_strict_mode():
    skill, diags = build({"name": "pdf", "description": "d", "metadata": {"v": 1}}, STRICT)
    assert skill is None and codes(diags) == ["skill.metadata.invalid"]


def test_nested_metadata_is_dropped_with_a_warning():
    skill, diags = build({"name": "pdf", "description": "d", "metadata": {"a": {"b": "c"}}})
    assert skill is not None and dict(skill.metadata) == {}
    assert diags[0].message == "metadata.a must be a string, not a mapping"


def test_metadata_that_is_not_a_mapping():
    skill, diags = build({"name": "pdf", "description": "d", "metadata": "foo"})
    assert skill is not None and dict(skill.metadata) == {}
    assert codes(diags) == ["frontmatter.field.type"]


def test_hidden_characters_in_the_description_warn_but_load():
    skill, diags = build({"name": "pdf", "description": "safe\u202e txt.exe su\u200bdo"})
    assert skill is not None
    assert codes(diags) == ["skill.text.hidden-unicode"]
    assert diags[0].message == (
        "the description holds invisible or control characters: U+202E at 4, U+200B at 16"
    )


def test_a_lenient_type_problem_on_a_field_the_skill_can_do_without_is_a_warning():
    skill, diags = build({"name": 123, "description": "d", "license": ["MIT"]})
    assert skill is not None
    assert [(d.code, d.severity) for d in diags] == [
        ("frontmatter.field.type", "warning"),
        ("frontmatter.field.type", "warning"),
    ]


def test_strict_mode_reports_every_problem_not_just_the_first():
    fields = {"name": "Bad_Name", "description": "", "model": "x", "metadata": {"v": 1}}
    skill, diags = build(fields, STRICT)
    assert skill is None
    assert codes(diags) == [
        "skill.description.missing",
        "skill.name.invalid",
        "skill.metadata.invalid",
        "skill.field.unknown",
    ]
    assert all(d.severity == "error" for d in diags)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="ab (),:*\t", max_size=16))
def test_split_tools_fast_paths_agree_with_the_definition(text):
    assert split_tools(text) == _split_nested(text)


def test_strict_mode_wants_allowed_tools_in_the_spec_string_form():
    skill, diags = build({"name": "pdf", "description": "d", "allowed-tools": ["Read"]}, STRICT)
    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [("skill.allowed-tools.invalid", "error")]


def test_a_load_under_the_zidane_profile_reports_a_top_level_model_as_deprecated(tmp_path):
    from satchel import hosts, load
    from tests.support import write_skill

    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".agents/skills", "pdf", model="opus")
    zidane = load(layout=hosts.get("zidane").layout(project, home=home, env={}), host="zidane")
    ours = load(layout=hosts.get("satchel").layout(project, home=home, env={}), host="satchel")
    said = [d.message for d in zidane.diagnostics if d.code == "skill.field.deprecated"]
    assert said == ["top-level `model` is deprecated; also exposed as metadata['zidane.model']"]
    assert [d for d in ours.diagnostics if d.code == "skill.field.deprecated"] == []

"""Y01-Y06 and Y09 beyond the table in cases.py: what must load and strict mode."""

from __future__ import annotations

import pytest

import satchel
from satchel.foundations import frontmatter
from tests.support import codes, skill_md, write_skill

from .build import INSTRUCTIONS, SIBLING, about, only, write_sibling
from .cases import FM_CAP, LAUGHS, fm


def test_billion_laughs_is_refused_before_any_expansion():
    """Y01: the refusal comes before any expansion (bench/bounds.py times it against the
    threat model's 50 ms)."""
    data = fm(LAUGHS)
    parsed = frontmatter.parse(data)

    assert parsed.fields is None
    assert [d.code for d in parsed.diagnostics] == ["frontmatter.yaml.alias"]


def test_refused_tags_construct_nothing(tree):
    """Y03: a python tag is refused before construction; its payload never runs."""
    write_skill(
        tree.skills,
        "tagged",
        fm('name: tagged\ndescription: d\nmetadata: !!python/object/apply:builtins.open '
           '["canary/in-process", "w"]\n'),
    )  # fmt: skip

    env = tree.load()

    assert codes(env.diagnostics) == ["frontmatter.yaml.tag"]
    assert list(tree.canary.iterdir()) == []


@pytest.mark.parametrize(
    "frontmatter_text",
    ["", "# only a comment\n", "\n\n", "   \n# two\n# comments\n"],
    ids=["empty", "comment", "blank-lines", "blanks-and-comments"],
)
def test_empty_frontmatter_is_an_empty_mapping(tree, frontmatter_text):
    """Y04: `---` then `---` is an empty mapping: no description, so the skill is skipped."""
    path = write_skill(tree.skills, "empty", b"---\n" + frontmatter_text.encode() + b"---\nBody\n")
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.description.missing")
    assert d.severity == "error"
    assert d.path == path
    assert d.message == "the skill has no description, so no model would know when to use it"
    assert not [c for c in codes(env.diagnostics) if c.startswith("frontmatter.")]
    assert list(env.skills) == [SIBLING]


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("2024-01-01", "2024-01-01"),
        ("2024-01-01 10:00:00", "2024-01-01 10:00:00"),
        ("1e3", "1e3"),
        ("0o17", "0o17"),
        ("'123'", "123"),
        ('"yes"', "yes"),
    ],
)
def test_string_like_values_stay_exactly_as_written(tree, raw, value):
    """Y05: dates stay the text written; quoted numbers and words stay strings."""
    write_skill(tree.skills, "typed", fm(f"name: typed\ndescription: {raw}\nlicense: {raw}\n"))

    env = tree.load()

    assert env.diagnostics == ()
    assert env.skills["typed"].description == value
    assert env.skills["typed"].license == value


def test_tab_after_a_colon_is_yaml_whitespace(tree):
    """Y06: a tab after `key:` separates like a space (YAML allows it there); only tab
    *indentation* is an error (see the table)."""
    write_skill(tree.skills, "tabbed", fm("name:\ttabbed\ndescription:\tUses tabs.\n"))

    env = tree.load()

    assert env.diagnostics == ()
    assert env.skills["tabbed"].description == "Uses tabs."


def _frontmatter_of(size: int) -> bytes:
    """Valid frontmatter of exactly `size` bytes between the fences."""
    head = "name: capped\ndescription: At the cap.\nmetadata:\n  pad: "
    text = head + "p" * (size - len(head) - 1) + "\n"
    assert len(text) == size
    return b"---\n" + text.encode() + b"---\nBody\n"


def test_frontmatter_at_the_cap_loads(tree):
    """Y09: 65,536 bytes of frontmatter is allowed; 65,537 is not (see the table)."""
    write_skill(tree.skills, "capped", _frontmatter_of(FM_CAP))

    env = tree.load()

    assert env.diagnostics == ()
    assert len(env.skills["capped"].metadata["pad"]) == FM_CAP - len(
        "name: capped\ndescription: At the cap.\nmetadata:\n  pad: \n"
    )


def test_frontmatter_over_the_cap_is_refused_by_parse_skill_too(tree):
    """Y09: validation reads the whole file, and still refuses before parsing."""
    path = write_skill(tree.skills, "capped", _frontmatter_of(FM_CAP + 1))

    skill, diags = satchel.parse_skill(path)

    assert skill is None
    assert [(d.code, d.line) for d in diags] == [("frontmatter.too-large", 1)]
    assert diags[0].message == (
        f"the frontmatter is larger than {FM_CAP} bytes (at least {FM_CAP + 1} bytes)"
    )


def test_fields_at_their_limits_load_cleanly(tree):
    """Y09 controls: a 1,024-character description and 500-character compatibility."""
    extra = "compatibility: " + "c" * 500 + "\n"
    write_skill(
        tree.skills, "limits", skill_md("limits", "d" * 1024, INSTRUCTIONS, gap=False, extra=extra)
    )

    env = tree.load()

    assert env.diagnostics == ()
    assert len(env.skills["limits"].description) == 1024


@pytest.mark.parametrize(
    ("extra", "description", "code"),
    [
        ("", "d" * 1025, "skill.description.too-long"),
        ("compatibility: " + "c" * 501 + "\n", "d", "skill.compatibility.invalid"),
        ("name: 123\n", "d", "frontmatter.field.type"),
    ],
    ids=["description-1025", "compatibility-501", "name-number"],
)
def test_lenient_warnings_are_errors_in_strict_mode(tree, extra, description, code):
    """Y05/Y09: what lenient loading only warns about, strict validation refuses."""
    name = None if extra.startswith("name:") else "strict"
    path = write_skill(
        tree.skills, "strict", skill_md(name, description, INSTRUCTIONS, gap=False, extra=extra)
    )

    skill, diags = satchel.parse_skill(path, strict=True)
    env = tree.load(strict=True)

    assert skill is None
    assert [(d.code, d.severity) for d in diags] == [(code, "error")]
    assert "strict" not in env.skills
    assert [(d.code, d.severity) for d in about(env, path.parent)] == [(code, "error")]

"""The fence grammar and the safe YAML rules, on bytes (no files)."""

from __future__ import annotations

import pytest

from satchel.foundations import frontmatter
from tests.support import codes

VALID = b"---\nname: pdf\ndescription: Extract text.\n---\n\n# PDF\n\nStep one.\n"


def test_lf_crlf_and_bom_give_identical_fields_and_body():
    variants = [
        VALID,
        VALID.replace(b"\n", b"\r\n"),
        frontmatter.BOM + VALID,
        frontmatter.BOM + VALID.replace(b"\n", b"\r\n"),
    ]
    parsed = [frontmatter.parse(v) for v in variants]
    bodies = [
        frontmatter.decode_body(v, p.body_start) for v, p in zip(variants, parsed, strict=True)
    ]
    assert all(p.fields == {"name": "pdf", "description": "Extract text."} for p in parsed)
    assert all(p.diagnostics == () for p in parsed)
    assert bodies == ["# PDF\n\nStep one."] * 4


def test_a_dashed_line_in_the_body_never_reopens_frontmatter():
    data = VALID + b"---\nname: evil\n---\n"
    parsed = frontmatter.parse(data)
    assert parsed.fields == {"name": "pdf", "description": "Extract text."}
    assert frontmatter.decode_body(data, parsed.body_start).endswith("---\nname: evil\n---")


def test_a_closing_fence_at_end_of_file_without_newline_closes():
    parsed = frontmatter.parse(b"---\nname: a\ndescription: b\n---")
    assert parsed.fields == {"name": "a", "description": "b"}


@pytest.mark.parametrize(
    ("data", "code", "hint"),
    [
        (b"name: a\n", "frontmatter.missing", "start the file with ---"),
        (b"\n---\nname: a\n---\n", "frontmatter.missing", "remove the blank lines"),
        (b"--- \nname: a\n---\n", "frontmatter.missing", "exactly ---"),
        (b"----\nname: a\n---\n", "frontmatter.missing", "start the file with ---"),
        (b" ---\nname: a\n---\n", "frontmatter.missing", "exactly ---"),
        (b"---\rname: a\r---\r", "frontmatter.missing", "lone CR"),
        (b"---\nname: a\ndescription: b\n", "frontmatter.unterminated", "exactly ---"),
        (b"---\nname: a\n...\n", "frontmatter.unterminated", "exactly ---"),
        (b"---\nname: a\n--- \n", "frontmatter.unterminated", "exactly ---"),
    ],
)
def test_fence_problems_have_distinct_codes(data, code, hint):
    parsed = frontmatter.parse(data)
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == [code]
    assert hint in (parsed.diagnostics[0].hint or "")
    assert parsed.diagnostics[0].line == 1


@pytest.mark.parametrize(
    ("yaml", "kind"),
    [
        ("- a\n- b\n", "a list"),
        ("just text\n", "a string"),
        ("null\n", "null"),
        ("42\n", "a number"),
    ],
)
def test_frontmatter_that_is_not_a_mapping(yaml, kind):
    parsed = frontmatter.parse(f"---\n{yaml}---\n".encode())
    assert codes(parsed.diagnostics) == ["frontmatter.not-mapping"]
    assert (
        parsed.diagnostics[0].message == f"the frontmatter must be a mapping of fields, not {kind}"
    )


def test_empty_frontmatter_is_an_empty_mapping():
    for data in (b"---\n---\nbody\n", b"---\n# only a comment\n---\n"):
        parsed = frontmatter.parse(data)
        assert parsed.fields == {}
        assert parsed.diagnostics == ()


def test_frontmatter_over_64_kib_is_refused_before_parsing():
    big = b"---\ndescription: " + b"x" * (64 * 1024) + b"\n---\n"
    parsed = frontmatter.parse(big)
    assert codes(parsed.diagnostics) == ["frontmatter.too-large"]


def test_frontmatter_at_the_cap_parses():
    value = b"x" * (64 * 1024 - len(b"description: \n"))
    parsed = frontmatter.parse(b"---\ndescription: " + value + b"\n---\n")
    assert parsed.fields == {"description": value.decode()}


@pytest.mark.parametrize(
    ("yaml", "code", "line"),
    [
        ("name: a\nmetadata:\n  x: &a [1, 2]\n  y: *a\n", "frontmatter.yaml.alias", 4),
        ("name: a\nname: b\n", "frontmatter.yaml.duplicate-key", 3),
        ("name: a\nmetadata:\n  k: 1\n  k: 2\n", "frontmatter.yaml.duplicate-key", 5),
        ("name: !!python/object/apply:os.system ['true']\n", "frontmatter.yaml.tag", 2),
        ("name: !include ../../secret\n", "frontmatter.yaml.tag", 2),
        ("name: !!binary aGVsbG8=\n", "frontmatter.yaml.tag", 2),
        ("tags: !!set {a, b}\n", "frontmatter.yaml.tag", 2),
        ("<<: {name: a}\ndescription: b\n", "frontmatter.yaml.merge", 2),
        ("name: a\n\tdescription: b\n", "frontmatter.yaml.syntax", 3),
        ("a: " + "[" * 2000 + "]" * 2000 + "\n", "frontmatter.yaml.depth", 2),
    ],
)
def test_unsafe_yaml_is_refused_with_its_code_and_line(yaml, code, line):
    parsed = frontmatter.parse(f"---\n{yaml}---\n".encode())
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == [code]
    assert parsed.diagnostics[0].line == line


def test_deep_nesting_within_libyaml_limit_is_refused_by_our_limit():
    yaml = "a: " + "[" * 100 + "]" * 100 + "\n"
    parsed = frontmatter.parse(f"---\n{yaml}---\n".encode())
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.depth"]


def test_syntax_error_message_gives_the_file_line():
    parsed = frontmatter.parse(b"---\nname: a\nfoo: [unclosed\n---\n")
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.syntax"]
    assert "(line 4," in parsed.diagnostics[0].message


def test_dates_stay_strings():
    parsed = frontmatter.parse(b"---\nname: a\nmetadata:\n  released: 2024-01-02\n---\n")
    assert parsed.fields == {"name": "a", "metadata": {"released": "2024-01-02"}}


def test_unquoted_colon_is_retried_quoted_with_a_warning():
    data = b"---\nname: pdf\ndescription: Use this skill when: the user asks about PDFs\n---\n"
    parsed = frontmatter.parse(data)
    assert parsed.fields == {
        "name": "pdf",
        "description": "Use this skill when: the user asks about PDFs",
    }
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.colon-fallback"]
    assert parsed.diagnostics[0].line == 3
    assert parsed.diagnostics[0].message == (
        "line(s) 3 hold ': ' in an unquoted value; parsed as if the value were quoted"
    )


def test_colon_fallback_does_not_hide_other_syntax_errors():
    parsed = frontmatter.parse(b"---\ndescription: a: b\nx: [\n---\n")
    assert parsed.fields is None
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.syntax"]


@pytest.mark.parametrize(
    ("data", "code", "offset"),
    [
        (b"---\ndescription: caf\xe9\n---\n", "encoding.not-utf8", 20),
        (b"---\ndescription: \xc0\xaf\n---\n", "encoding.not-utf8", 17),
        (b"---\nname: a\x00b\n---\n", "encoding.nul", 11),
    ],
)
def test_bad_encoding_is_reported_with_its_byte_offset(data, code, offset):
    parsed = frontmatter.parse(data)
    assert codes(parsed.diagnostics) == [code]
    assert f"byte offset {offset}" in parsed.diagnostics[0].message


def test_utf16_is_not_utf8():
    data = "---\nname: a\n---\n".encode("utf-16")
    parsed = frontmatter.parse(data)
    assert codes(parsed.diagnostics) == ["encoding.not-utf8"]
    assert "UTF-16" in parsed.diagnostics[0].message


def test_locate_asks_for_more_when_the_head_ends_inside_the_frontmatter():
    head = b"---\nname: a\ndescription: long"
    assert frontmatter.locate(head, complete=False).status == "more"
    assert frontmatter.locate(head + b"\n---", complete=False).status == "more"
    assert frontmatter.locate(head + b"\n---\n", complete=False).status == "ok"


def test_an_anchor_alone_is_refused_on_its_own_line():
    parsed = frontmatter.parse(b"---\nname: a\ndescription: &d text\n---\n")
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.alias"]
    assert parsed.diagnostics[0].line == 3
    assert (
        parsed.diagnostics[0].message == "YAML anchors (&name) and aliases (*name) are not allowed"
    )


def test_an_ampersand_in_a_value_is_just_text():
    parsed = frontmatter.parse(b"---\nname: a\ndescription: 'R&D notes & more'\n---\n")
    assert parsed.fields == {"name": "a", "description": "R&D notes & more"}


@pytest.mark.parametrize(
    "yaml",
    ["version: " + "9" * 5000, "v: " + ":".join(["59"] * 6000), "v: " + "1" * 101 + ".5"],
)
def test_a_number_too_long_to_read_is_refused_not_a_crash(yaml):
    parsed = frontmatter.parse(f"---\n{yaml}\n---\n".encode())
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.number"]
    assert parsed.diagnostics[0].line == 2


def test_a_number_at_the_limit_is_read():
    parsed = frontmatter.parse(("---\nv: " + "9" * 100 + "\n---\n").encode())
    assert parsed.fields == {"v": int("9" * 100)}


def test_keys_that_mean_the_same_boolean_are_duplicates():
    parsed = frontmatter.parse(b"---\ntrue: 1\nTrue: 2\n---\n")
    assert codes(parsed.diagnostics) == ["frontmatter.yaml.duplicate-key"]
    assert parsed.diagnostics[0].line == 3


def test_yes_is_a_word_not_the_boolean_true_so_it_is_another_key():
    """YAML 1.2, as Claude Code, Codex and Gemini CLI read frontmatter: only true and
    false are booleans."""
    parsed = frontmatter.parse(b"---\nyes: 1\ntrue: 2\n---\n")
    assert parsed.fields == {"yes": 1}
    assert [(d.code, d.message) for d in parsed.diagnostics] == [
        ("frontmatter.field.type", "field names must be strings; found True")
    ]


def test_an_unclosed_frontmatter_over_the_cap_is_too_large_from_a_head_or_a_whole_file():
    data = b"---\ndescription: " + b"x" * (70 * 1024) + b"\n"
    assert codes(frontmatter.parse(data).diagnostics) == ["frontmatter.too-large"]
    assert codes(frontmatter.parse(data, complete=False).diagnostics) == ["frontmatter.too-large"]

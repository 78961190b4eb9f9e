"""The fast path must give exactly what YAML gives, or step aside."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satchel.core import _fastyaml
from satchel.core._yaml import YamlProblem, compose_checked

KEYS = st.sampled_from(
    ["name", "description", "license", "version", "a.b", "x_y", "yes", "on", "1"]
)
ATOMS = st.sampled_from(
    [
        "pdf", "Extract text from PDFs", "1.0", "true", "no", "null", "~", "2024-01-02",
        "0o17", "1e3", "-x", "a: b", "a #b", "#c", "'quoted'", '"dq"', "'it''s'", '"a\\tb"',
        "[a, b]", "{a: 1}", "&x", "*x", "!tag", "|", ">", "x:", "Bash(git:*) Read", "é ü 日本",
        "a  b", "@at", "`tick`", "%p", "=", "<<", "50%", "a,b", "'", '"', "'a' b", "a'b",
        "http://x.y/z", "a\rb", "tab\there", "-", "- x", "x #", "a:b", "\u2028", "é:",
    ]
)  # fmt: skip


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        key = draw(KEYS)
        shape = draw(
            st.sampled_from(["scalar", "map", "seq", "seq0", "empty", "comment", "blank", "odd"])
        )
        if shape == "scalar":
            lines.append(f"{key}: {draw(ATOMS)}")
        elif shape == "map":
            lines.append(f"{key}:")
            indent = " " * draw(st.integers(1, 4))
            lines += [
                f"{indent}{draw(KEYS)}: {draw(ATOMS)}" for _ in range(draw(st.integers(1, 3)))
            ]
        elif shape in ("seq", "seq0"):
            lines.append(f"{key}:")
            indent = "" if shape == "seq0" else " " * draw(st.integers(1, 3))
            lines += [f"{indent}- {draw(ATOMS)}" for _ in range(draw(st.integers(1, 3)))]
        elif shape == "empty":
            lines.append(f"{key}:")
        elif shape == "comment":
            lines.append("# a comment")
        elif shape == "odd":
            lines.append(
                draw(st.sampled_from(["  # indented", "-", "key:value", "key:   ", " x: y"]))
            )
        else:
            lines.append("")
    return "\n".join(lines) + "\n"


def _yaml(text: str) -> object:
    try:
        return compose_checked(text)
    except YamlProblem as problem:
        return problem.code


@settings(max_examples=1500, deadline=None)
@given(documents())
def test_fast_path_agrees_with_yaml_whenever_it_answers(text: str):
    fast = _fastyaml.parse(text)
    if fast is not None:
        expected = _yaml(text)
        assert fast == (expected if expected is not None else {})


@pytest.mark.parametrize(
    "text",
    [
        "name: pdf\ndescription: Extract text.\n",
        "name: pdf\nmetadata:\n  author: me\n  team: docs\n"
        "allowed-tools:\n  - Read\n  - Bash(git:*)\n",
        "description: 'It''s here'\nlicense: \"Apache-2.0\"\n",
        "allowed-tools:\n- Read\n- Write\nname: x\n",
    ],
)
def test_common_frontmatter_takes_the_fast_path(text: str):
    fast = _fastyaml.parse(text)
    assert fast is not None
    assert fast == compose_checked(text)


@pytest.mark.parametrize(
    "text",
    [
        "version: 1.0\n",
        "enabled: true\n",
        "name: a\nname: b\n",
        "description: a: b\n",
        "tools: [Read, Write]\n",
        "description: >\n  folded\n",
        "description: first\n  continued\n",
        "description: x # comment\n",
        'description: "esc\\n"\n',
        "metadata:\n  nested:\n    deep: x\n",
    ],
)
def test_anything_unusual_is_left_to_yaml(text: str):
    assert _fastyaml.parse(text) is None


YAML_PRINTABLE = (  # YAML 1.1, 5.1 "Character Set": what may appear unescaped
    (0x09, 0x0A), (0x0D, 0x0D), (0x20, 0x7E), (0x85, 0x85),
    (0xA0, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF),
)  # fmt: skip


def test_the_not_printable_class_is_exactly_the_complement_of_yaml_printable() -> None:
    every = "".join(map(chr, range(0x110000)))
    found = {ord(ch) for ch in _fastyaml._NOT_PRINTABLE.findall(every)}
    printable = {cp for low, high in YAML_PRINTABLE for cp in range(low, high + 1)}
    assert found == set(range(0x110000)) - printable

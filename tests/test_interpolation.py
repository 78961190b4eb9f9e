"""Finding `` !`cmd` `` and ```! blocks: only the documented forms, one pass."""

from __future__ import annotations

import pytest

from satchel.foundations._interpolation import find_commands, interpolate


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("!`date`", ["date"]),
        ("Branch: !`git branch --show-current` now", ["git branch --show-current"]),
        ("a\n  !`one`\n\t!`two`", ["one", "two"]),
        ("KEY=!`touch x`", []),  # not at line start or after whitespace
        ("$(touch x) and `touch y`", []),
        ("Wow! That's `code`.", []),
        ("!!history !$", []),
        ("```bash\n!`inside a fence`\n```", []),
        ("~~~\n!`inside a tilde fence`\n~~~\n!`after`", ["after"]),
        ("```!\necho one\necho two\n```", ["echo one\necho two"]),
        ("```!\nunclosed\n", []),
        ("!`a``b`", ["a"]),
        ("!`  spaced  `", ["spaced"]),
    ],
)
def test_only_the_documented_forms_are_found(text, commands):
    assert [c.command for c in find_commands(text)] == commands


def test_replacement_is_one_pass_and_output_is_not_rescanned():
    text = "a !`x` b\n```!\ny\n```\nc"
    out = interpolate(text, lambda c: "!`again`" if c.command == "x" else "Y")
    assert out == "a !`again` b\nY\nc"


def test_crlf_blocks_keep_their_line_break():
    text = "```!\r\necho hi\r\n```\r\nafter"
    (command,) = find_commands(text)
    assert command.command == "echo hi"
    assert interpolate(text, lambda c: "hi") == "hi\r\nafter"


def test_a_longer_closing_fence_closes_and_a_shorter_does_not():
    text = "````\n```\n!`still inside`\n````\n!`out`"
    assert [c.command for c in find_commands(text)] == ["out"]

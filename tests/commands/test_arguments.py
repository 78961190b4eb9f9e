"""Splitting arguments into words and filling placeholders in a body."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satchel.kinds.commands import expand_arguments, split_arguments


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", []),
        ("   ", []),
        ("a b  c", ["a", "b", "c"]),
        ("\ta\nb ", ["a", "b"]),
        ('"two words" three', ["two words", "three"]),
        ("'single quoted' x", ["single quoted", "x"]),
        ("a'b c'd", ["ab cd"]),
        ('say "it\'s"', ["say", "it's"]),
        ("'say \"hi\"'", ['say "hi"']),
        ('""', [""]),
        ("a '' b", ["a", "", "b"]),
        (r"a\ b c", ["a b", "c"]),
        (r"\"x\"", ['"x"']),
        (r'"a\"b"', ['a"b']),
        (r"'a\b'", [r"a\b"]),
        (r'"C:\Users\me"', [r"C:\Users\me"]),
        (r'"a\$b\`c\\d\x"', ["a$b`c\\d\\x"]),
        (r"C:\Users", ["C:Users"]),
        ("'unclosed quote", ["unclosed quote"]),
        ('"unclosed  double', ["unclosed  double"]),
        ("trailing\\", ["trailing\\"]),
        ("$1 $ARGUMENTS", ["$1", "$ARGUMENTS"]),
    ],
)
def test_split_arguments(text, words):
    assert split_arguments(text) == words


@pytest.mark.parametrize("text", ["a b c", "'x y' z", '"p q" r', "a\\ b", "x '' y"])
def test_split_agrees_with_shlex_on_well_formed_input(text):
    assert split_arguments(text) == shlex.split(text)


ONE = [
    ("Fix $ARGUMENTS now", "  123 high  ", "Fix 123 high now"),
    ("Fix $1 with priority $2", "123 high", "Fix 123 with priority high"),
    ("$1|$2|$3", '"two words" x', "two words|x|$3"),
    ("Fix $1 ($2)", "123", "Fix 123 ($2)"),
    ("$1-$9", "a b c d e f g h i", "a-i"),
    ("$10", "a b", "a0"),
    ("$0 and $1", "a b", "$0 and a"),
    ("$ARGUMENTS[0]", "a b", "a b[0]"),
    (r"Literal \$1 and \$ARGUMENTS, then $1", "x", "Literal $1 and $ARGUMENTS, then x"),
    ("$ARGUMENTS and $ARGUMENTS", "x", "x and x"),
    ("Missing: [$3]", "a", "Missing: [$3]\n\na"),
    ("Missing: [$3] $1", "a", "Missing: [$3] a"),
    ("Value $1", "$2 $ARGUMENTS", "Value $2"),
    ("All: $ARGUMENTS", "$1 $ARGUMENTS", "All: $1 $ARGUMENTS"),
    ("Cost $5.00 is $ 1", "a", "Cost $5.00 is $ 1\n\na"),
    ("Cost $5.00", "a b c d e", "Cost e.00"),
    ("Just text.", "", "Just text."),
    ("Just text.", "  ", "Just text."),
    ("Just text.\n\n", "the args", "Just text.\n\nthe args"),
    ("", "the args", "the args"),
    ("Has $1", "", "Has $1"),
    (r"Escaped \$ARGUMENTS only", "x y", "Escaped $ARGUMENTS only\n\nx y"),
    ("!`git status`\n@src/app.py\nReview $1", "x", "!`git status`\n@src/app.py\nReview x"),
    ("!`rm -rf $1`\nSee @README.md", "", "!`rm -rf $1`\nSee @README.md"),
    ("!`git log`\n@notes.md", "extra", "!`git log`\n@notes.md\n\nextra"),
]


@pytest.mark.parametrize(("body", "args", "expected"), ONE)
def test_expand_with_one_based_numbering(body, args, expected):
    assert expand_arguments(body, args) == expected
    assert expand_arguments(body, args, numbering=1) == expected


ZERO = [
    ("$0 then $1", "a b", "a then b"),
    ("$ARGUMENTS[0]/$ARGUMENTS[1]/$ARGUMENTS[2]", "a 'b c'", "a/b c/$ARGUMENTS[2]"),
    ("$ARGUMENTS[10]", " ".join("abcdefghijk"), "k"),
    ("$ARGUMENTS[99999999999999999999999]", "a", "$ARGUMENTS[99999999999999999999999]\n\na"),
    ("$ARGUMENTS[x]", "a", "a[x]"),
    ("$ARGUMENTS", " a  b ", "a  b"),
    ("$9", "a", "$9\n\na"),
    ("$10", "a b", "b0"),
    (r"\$0 \$ARGUMENTS[1] $0", "x", "$0 $ARGUMENTS[1] x"),
    ("No placeholders", "a b", "No placeholders\n\na b"),
]


@pytest.mark.parametrize(("body", "args", "expected"), ZERO)
def test_expand_with_zero_based_numbering(body, args, expected):
    assert expand_arguments(body, args, numbering=0) == expected


@given(st.text())
def test_split_never_raises(text):
    words = split_arguments(text)
    assert all(isinstance(w, str) for w in words)


@given(st.text(), st.text(), st.sampled_from([0, 1]))
def test_expand_never_raises(body, args, numbering):
    out = expand_arguments(body, args, numbering=numbering)
    assert isinstance(out, str)


@given(st.text(alphabet=st.characters(blacklist_characters="$\\")), st.text())
def test_without_placeholders_the_arguments_are_appended(body, args):
    out = expand_arguments(body, args)
    raw = args.strip()
    if not raw:
        assert out == body
    elif body.strip():
        assert out == f"{body.rstrip()}\n\n{raw}"
    else:
        assert out == raw

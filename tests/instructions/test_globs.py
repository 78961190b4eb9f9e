"""Path patterns: Claude Code's gitignore-style ``paths:`` and the anchored globs of
Cursor and Copilot; how a frontmatter value becomes patterns."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satchel.kinds._instructions._globs import (
    MAX_EXPANSIONS,
    Style,
    expand,
    matches,
    split_patterns,
)


@pytest.mark.parametrize(
    ("value", "patterns"),
    [
        ("src/**/*.ts", ("src/**/*.ts",)),
        ("*.py, lib/*.py ,", ("*.py", "lib/*.py")),
        ("src/*.{ts,tsx}, *.md", ("src/*.{ts,tsx}", "*.md")),  # no split inside braces
        (["a/**", "b.md, c.md"], ("a/**", "b.md", "c.md")),
        ("", ()),
        ([], ()),
        (3, None),
        ({"a": 1}, None),
        (["ok", 2], None),
    ],
)
def test_split_patterns(value: object, patterns: tuple[str, ...] | None) -> None:
    assert split_patterns(value) == patterns


def test_braces_expand_and_are_bounded() -> None:
    assert expand("src/*.{ts,tsx}") == ("src/*.ts", "src/*.tsx")
    assert expand("{a,b}/{c,d}") == ("a/c", "a/d", "b/c", "b/d")
    assert expand("plain") == ("plain",)
    assert expand("{a,b") == ("{a,b",)  # an unclosed brace is a literal
    many = "{a,b,c,d}" * 5  # 4**5 = 1024 results: past the bound, kept as written
    assert MAX_EXPANSIONS < 4**5
    assert expand(many) == (many,)


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [
        ("*.ts", "a.ts", True),
        ("*.ts", "src/deep/a.ts", True),  # no slash: any depth
        ("/a.ts", "src/a.ts", False),  # a leading slash anchors
        ("/a.ts", "a.ts", True),
        ("src/**/*.ts", "src/a.ts", True),
        ("src/**/*.ts", "src/x/y/a.ts", True),
        ("src/**/*.ts", "lib/src/a.ts", False),  # a slash anchors at the base
        ("src", "src/x/a.ts", True),  # a matched directory matches what it holds
        ("src/", "src/a.ts", True),
        ("docs/*.md", "docs/sub/a.md", False),
        ("a?.md", "ab.md", True),
        ("[ab].md", "c.md", False),
        ("[!ab].md", "c.md", True),
        ("*.{ts,tsx}", "x/a.tsx", True),
    ],
)
def test_gitignore_style(pattern: str, path: str, hit: bool) -> None:
    assert matches([pattern], path, "gitignore") is hit


def test_gitignore_negation_reincludes_in_order() -> None:
    assert matches(["*.ts", "!*.test.ts"], "a.test.ts", "gitignore") is False
    assert matches(["*.ts", "!*.test.ts"], "a.ts", "gitignore") is True
    assert matches(["!*.test.ts", "*.ts"], "a.test.ts", "gitignore") is True


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [
        ("**/*.py", "a.py", True),
        ("**/*.py", "x/y/a.py", True),
        ("*.py", "a.py", True),
        ("*.py", "x/a.py", False),  # anchored: * does not cross a slash
        ("src/**", "src/a/b.ts", True),
        ("src/**", "lib/a.ts", False),
        ("**", "any/thing.md", True),
        ("./docs/*.md", "docs/a.md", True),
        ("!*.py", "!a.py", True),  # no negation in this style: a literal
    ],
)
def test_glob_style(pattern: str, path: str, hit: bool) -> None:
    assert matches([pattern], path, "glob") is hit


def test_a_broken_character_class_matches_only_itself() -> None:
    assert matches(["[z-a].md"], "[z-a].md", "glob") is True
    assert matches(["[z-a].md"], "b.md", "glob") is False


@given(
    st.lists(st.text(alphabet="ab*?[]!{},/.-^\\", max_size=12), max_size=4),
    st.text(alphabet="ab/.-", min_size=1, max_size=12),
    st.sampled_from(["gitignore", "glob"]),
)
def test_matching_never_raises(patterns: list[str], path: str, style: Style) -> None:
    assert matches(patterns, path, style) in (True, False)


@pytest.mark.parametrize(
    ("pattern", "path", "hit"),
    [("[[a]", "[", True), ("[a&&b]", "&", True), ("[a||b]", "|", True), ("[~~x]", "~", True)],
)
def test_a_class_holding_what_python_reads_as_a_set_operation_means_itself(
    pattern: str, path: str, hit: bool
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Python warns of a nested set or a set operation
        assert matches([pattern], path, "glob") is hit

"""npm-style version ranges, as plugin dependencies write them."""

from __future__ import annotations

import pytest

from satchel.install._semver import parse_range, parse_version


@pytest.mark.parametrize(
    ("text", "version", "matches"),
    [
        ("^1.2", "1.9.0", True),
        ("^1.2", "2.0.0", False),
        ("^1.2", "1.1.9", False),
        ("^0.2.3", "0.2.9", True),
        ("^0.2.3", "0.3.0", False),
        ("^0.0.3", "0.0.4", False),
        ("~2.1.0", "2.1.5", True),
        ("~2.1.0", "2.2.0", False),
        ("~2", "2.9.0", True),
        ("1.x", "1.5.0", True),
        ("1.x", "2.0.0", False),
        ("1.2", "1.2.7", True),
        (">=1.0 <2", "1.99.0", True),
        (">=1.0 <2", "2.0.0", False),
        (">= 1.2.0", "1.3.0", True),
        ("> 1.2", "1.2.9", False),
        ("> 1.2", "1.3.0", True),
        ("<=1.2", "1.2.9", True),
        ("1.2 - 2.0", "2.0.9", True),
        ("1.2 - 2.0", "2.1.0", False),
        ("1 || ^3", "3.1.0", True),
        ("1 || ^3", "2.0.0", False),
        ("*", "0.0.1", True),
        ("=1.2.3", "1.2.3", True),
        ("1.2.3", "1.2.4", False),
        # a pre-release matches only a range naming one of the same version
        ("^2.0", "2.0.0-beta.1", False),
        ("^2.0.0-0", "2.0.0-beta.1", True),
        ("^2.0.0-0", "2.1.0-beta.1", False),
        ("^1.2", "2.0.0-beta", False),
        ("*", "1.0.0-rc.1", False),
    ],
)
def test_a_range_matches_as_npm_does(text: str, version: str, matches: bool) -> None:
    assert parse_range(text).matches(parse_version(version)) is matches


def test_pre_releases_order_before_their_release() -> None:
    order = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0",
    ]
    versions = [parse_version(v) for v in order]
    assert sorted(reversed(versions)) == versions


def test_best_is_the_highest_version_allowed() -> None:
    found = parse_range("^1.2").best([parse_version(v) for v in ("1.2.0", "1.5.1", "2.0.0")])
    assert str(found) == "1.5.1"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("abc", "'abc' is not a version or version range"),
        ("1.2.3.4", "'1.2.3.4' is not a version or version range"),
        ("^", "'^' is not a version comparator"),
        (">=", "'>=' is not a version comparator"),
        ("1." + "0" * 300, "a version range is at most 256 characters"),
    ],
)
def test_text_that_is_not_a_range_says_why(text: str, why: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_range(text)
    assert str(caught.value) == why


def test_a_version_must_have_three_parts() -> None:
    with pytest.raises(ValueError, match=r"'1\.2' is not a semantic version"):
        parse_version("1.2")

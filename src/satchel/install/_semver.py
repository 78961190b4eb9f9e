"""Semantic versions and npm-style ranges, as plugin dependencies write them.

Claude Code's plugin ``dependencies`` take npm's range grammar
(code.claude.com/docs/en/plugins/dependencies; docs.npmjs.com/cli/v10/using-npm/semver):
``1.2.3``, ``=1.2.3``, ``>=1.2 <2``, ``^1.2``, ``~2.1.0``, ``1.x``, ``*``, ``1.2 - 2.0``
and alternatives joined by ``||``. As in npm, a range matches a pre-release
(``2.0.0-beta.1``) only when one of its comparators names a pre-release of the same
``major.minor.patch``. `parse_range` raises `ValueError` with the reason for text that
is not a range; nothing here reads a file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from satchel.core._model import model

__all__ = ["Range", "Version", "parse_range", "parse_version"]

_VERSION = re.compile(
    r"v?(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\Z"
)
_PARTIAL = re.compile(
    r"v?(?P<major>\d+|[xX*])(?:\.(?P<minor>\d+|[xX*]))?(?:\.(?P<patch>\d+|[xX*]))?"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\Z"
)
_COMPARATOR = re.compile(r"(?P<op><=|>=|<|>|=|\^|~>?|)(?P<version>[^<>=^~\s]\S*)\Z")
_HYPHEN = re.compile(r"(\S+)\s+-\s+(\S+)\Z")
_MAX_RANGE = 256


@model
class Version:
    """``major.minor.patch[-pre]``; ordered as semver orders them."""

    major: int
    minor: int
    patch: int
    pre: tuple[int | str, ...] = ()

    def _key(self) -> tuple[int, int, int, int, tuple[tuple[int, int | str], ...]]:
        # a release sorts after its pre-releases; numeric identifiers before text
        ids = tuple((0, p) if isinstance(p, int) else (1, p) for p in self.pre)
        return (self.major, self.minor, self.patch, 0 if self.pre else 1, ids)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() >= other._key()

    @property
    def core(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def __str__(self) -> str:
        pre = "-" + ".".join(map(str, self.pre)) if self.pre else ""
        return f"{self.major}.{self.minor}.{self.patch}{pre}"


def parse_version(text: str) -> Version:
    """The version `text` names (``1.2.3``, ``v1.2.3-rc.1``); `ValueError` otherwise."""
    m = _VERSION.match(text.strip())
    if m is None:
        raise ValueError(f"{text!r} is not a semantic version (major.minor.patch)")
    return Version(int(m["major"]), int(m["minor"]), int(m["patch"]), _pre(m["pre"]))


def _pre(text: str | None) -> tuple[int | str, ...]:
    if not text:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in text.split("."))


Test = Callable[[Version], bool]


@model
class _Comparator:
    op: str
    version: Version

    def __call__(self, v: Version) -> bool:
        a, b = v, self.version
        return {
            "<": a < b,
            "<=": a <= b,
            ">": a > b,
            ">=": a >= b,
            "=": a == b,
        }[self.op]


@model
class Range:
    """A range as written (`text`): alternatives, each a set of comparators all of
    which must hold."""

    text: str
    alternatives: tuple[tuple[_Comparator, ...], ...]

    def matches(self, version: Version) -> bool:
        return any(self._set_matches(s, version) for s in self.alternatives)

    @staticmethod
    def _set_matches(comparators: tuple[_Comparator, ...], v: Version) -> bool:
        if not all(c(v) for c in comparators):
            return False
        if not v.pre:
            return True
        # npm: a pre-release matches only a set naming a pre-release of its core
        return any(c.version.pre and c.version.core == v.core for c in comparators)

    def best(self, versions: list[Version]) -> Version | None:
        """The highest of `versions` this range matches."""
        return max((v for v in versions if self.matches(v)), default=None)

    def __str__(self) -> str:
        return self.text


def parse_range(text: str) -> Range:
    """The range `text` writes; `ValueError` saying why when it is not one."""
    if len(text) > _MAX_RANGE:
        raise ValueError(f"a version range is at most {_MAX_RANGE} characters")
    sets = []
    for part in text.split("||"):
        sets.append(_set(part.strip()))
    return Range(text.strip(), tuple(sets))


def _set(text: str) -> tuple[_Comparator, ...]:
    if text in ("", "*", "x", "X", "latest"):
        return (_Comparator(">=", Version(0, 0, 0)),)
    hyphen = _HYPHEN.match(text)
    if hyphen is not None:
        return (*_bound(">=", hyphen[1]), *_bound("<=", hyphen[2]))
    tokens = re.sub(r"(<=|>=|<|>|=|\^|~>?)\s+", r"\1", text).split()
    out: list[_Comparator] = []
    for token in tokens:
        m = _COMPARATOR.match(token)
        if m is None:
            raise ValueError(f"{token!r} is not a version comparator")
        out += _expand(m["op"], m["version"])
    return tuple(out)


def _partial(text: str) -> tuple[int | None, int | None, int | None, tuple[int | str, ...]]:
    m = _PARTIAL.match(text)
    if m is None:
        raise ValueError(f"{text!r} is not a version or version range")

    def num(key: str) -> int | None:
        value = m[key]
        return None if value is None or value in "xX*" else int(value)

    major, minor, patch = num("major"), num("minor"), num("patch")
    if (major is None and minor is not None) or (minor is None and patch is not None):
        raise ValueError(f"{text!r} is not a version or version range")
    return major, minor, patch, _pre(m["pre"])


def _expand(op: str, text: str) -> list[_Comparator]:
    major, minor, patch, pre = _partial(text)
    if major is None:
        return [_Comparator(">=", Version(0, 0, 0))]
    low = Version(major, minor or 0, patch or 0, pre)
    if op == "^":
        if major > 0 or minor is None:
            high = Version(major + 1, 0, 0, (0,))
        elif minor > 0 or patch is None:
            high = Version(0, minor + 1, 0, (0,))
        else:
            high = Version(0, 0, (patch or 0) + 1, (0,))
        return [_Comparator(">=", low), _Comparator("<", high)]
    if op in ("~", "~>"):
        high = (
            Version(major + 1, 0, 0, (0,)) if minor is None else Version(major, minor + 1, 0, (0,))
        )
        return [_Comparator(">=", low), _Comparator("<", high)]
    if op in ("", "=") and (minor is None or patch is None):
        return _x_range(major, minor)
    return list(_bound(op or "=", text))


def _x_range(major: int, minor: int | None) -> list[_Comparator]:
    low = Version(major, minor or 0, 0)
    high = Version(major + 1, 0, 0, (0,)) if minor is None else Version(major, minor + 1, 0, (0,))
    return [_Comparator(">=", low), _Comparator("<", high)]


def _bound(op: str, text: str) -> tuple[_Comparator, ...]:
    major, minor, patch, pre = _partial(text)
    if major is None:
        return (_Comparator(">=", Version(0, 0, 0)),)
    if minor is None or patch is None:  # a partial bound: 1.2 means 1.2.x
        low = Version(major, minor or 0, 0)
        high = (
            Version(major + 1, 0, 0, (0,)) if minor is None else Version(major, minor + 1, 0, (0,))
        )
        return {
            ">=": (_Comparator(">=", low),),
            ">": (_Comparator(">=", high),),
            "<": (_Comparator("<", low),),
            "<=": (_Comparator("<", high),),
            "=": (_Comparator(">=", low), _Comparator("<", high)),
        }[op]
    return (_Comparator(op, Version(major, minor, patch, pre)),)

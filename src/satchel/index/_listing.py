"""Per-skill listing overrides: how the index lists each skill, read from files.

A skill name maps to ``on`` (listed as usual, the default), ``name-only`` (listed
without its description), ``user-invocable-only`` (kept out of the model's index,
still invocable by the user as ``/name``) or ``off`` (out of the index and not
invocable), the four states of Claude Code's ``skillOverrides`` setting (2.1.332
settings schema: "name-only lists the skill without its description;
user-invocable-only hides it from the model but keeps /name; off hides it from
both. Absent = on"; https://code.claude.com/docs/en/settings).

Read, each later file winning for a name:

1. satchel's ``config.toml``, ``[index.overrides]`` (the user's, then a trusted
   project's): ``deploy = "name-only"``;
2. with `claude_settings` (the ``claude-code`` profile, which reads Claude Code's
   settings files), ``skillOverrides`` in ``~/.claude/settings.json``, then a trusted
   project's ``.claude/settings.json`` and ``.claude/settings.local.json``: Claude
   Code's local, project, user order (its policy and flag settings are not read).

With `claude_settings`, `read_listing` reads Claude Code's two settings that size its
listing from the same files, each later file winning: ``skillListingBudgetFraction``
(a number above 0, at most 1: the share of the model's context window) and
``skillListingMaxDescChars`` (a whole number above 0, ``2000.0`` counting as 2000 as
in JSON: the characters one description keeps). A value of another shape is ignored,
as Claude Code ignores it, and reported (``config.invalid``).

Values are checked where the index is built (`satchel.index._render.build_index`:
``skill.index.override-invalid``, ``skill.index.override-unknown``); a section that
is not a table or object is reported here (``config.invalid``) and ignored. A
settings file that cannot be read is left to the hooks reader, which reports it.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from types import MappingProxyType

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout
from satchel.foundations._config import config_files, invalid, read_config
from satchel.foundations._host_files import read_state

__all__ = ["ListingSettings", "claude_settings", "read_listing", "read_overrides", "read_usage"]

_NO_USAGE: Mapping[str, float] = MappingProxyType({})
CLAUDE_STATE = ".claude.json"  # Claude Code's own state, in the home
DAY_MS = 86_400_000
MAX_SAFE = 2**53 - 1  # JavaScript's largest safe integer


@model
class ListingSettings:
    """A host's settings that change its skill listing: `fraction`, the share of the
    model's context window it gets, and `description`, the characters one description
    keeps (None: the host's default). Claude Code: ``skillListingBudgetFraction``,
    ``skillListingMaxDescChars``. `usage` scores how much each skill was used, by
    name (`read_usage`): the host keeps the descriptions of the most used first."""

    fraction: float | None = None
    description: int | None = None
    usage: Mapping[str, float] = field(default_factory=lambda: _NO_USAGE)


MAX_SETTINGS = 1024 * 1024
Document = tuple[Path, dict[str, object]]


def read_overrides(
    layout: Layout, *, trust_project: bool, claude: Sequence[Document] = ()
) -> tuple[dict[str, object], list[Diagnostic]]:
    """The listing overrides by skill name (satchel's config files', then `claude`'s,
    Claude Code's settings read by `claude_settings`), and the problems met reading
    them."""
    found: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for path in config_files(layout, trust_project=trust_project):
        section = read_config(path, []).get("index", {})  # a bad file: reported elsewhere
        table = section.get("overrides", {}) if isinstance(section, dict) else None
        if not isinstance(table, dict):
            problems.append(invalid("[index.overrides] must be a table of skill names", path))
            continue
        found.update(table)
    for path, doc in claude:
        table = doc.get("skillOverrides", {})
        if not isinstance(table, dict):
            problems.append(invalid("skillOverrides must be an object of skill names", path))
            continue
        found.update(table)
    return found, problems


def claude_settings(layout: Layout, trust_project: bool) -> tuple[Document, ...]:
    """Claude Code's settings files of `layout` (the project's when `trust_project`),
    each read once, with its path ({} for a file missing or unreadable)."""
    return tuple((path, _document(path)) for path in _settings(layout, trust_project))


def read_listing(
    layout: Layout, claude: Sequence[Document]
) -> tuple[ListingSettings, list[Diagnostic]]:
    """Claude Code's listing settings in `claude` (`claude_settings`; none: all None),
    and the values of the wrong shape met reading them. The usage scores are read
    from ``~/.claude.json`` only when a listing asks for them."""
    fraction: float | None = None
    description: int | None = None
    problems: list[Diagnostic] = []
    if not claude:
        return ListingSettings(), problems
    for path, doc in claude:
        share = doc.get("skillListingBudgetFraction")
        if _fraction(share):
            fraction = float(share)  # type: ignore[arg-type]
        elif share is not None:
            problems.append(invalid("skillListingBudgetFraction must be above 0, at most 1", path))
        chars = doc.get("skillListingMaxDescChars")
        if _whole(chars) and chars > 0:  # type: ignore[operator]
            description = int(chars)  # type: ignore[call-overload]
        elif chars is not None:
            problems.append(invalid("skillListingMaxDescChars must be a whole number > 0", path))
    return ListingSettings(fraction, description, _Usage(layout.home)), problems


class _Usage(Mapping[str, float]):
    """`read_usage` of a home, read at first use: a load whose listing is never built
    (or never needs the scores) does not open ``~/.claude.json``."""

    __slots__ = ("_found", "_home")

    def __init__(self, home: Path) -> None:
        self._home = home
        self._found: Mapping[str, float] | None = None

    def _table(self) -> Mapping[str, float]:
        if self._found is None:
            self._found = read_usage(self._home)
        return self._found

    def __getitem__(self, name: str) -> float:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


def read_usage(home: Path, now: float | None = None) -> Mapping[str, float]:
    """How much each skill was used, by name, as Claude Code scores it from the
    ``skillUsage`` it records in ``~/.claude.json``: ``usageCount`` times half for each
    week since ``lastUsedAt`` (milliseconds), never below a tenth. `now` in seconds
    [the clock]. As in Claude Code's arithmetic, a ``lastUsedAt`` far in the future
    scores without bound (infinity), one far in the past scores a tenth of the count,
    and a negative count scores below zero; a record of another shape, or whose score
    is not a number (an absent field, or no uses times an unbounded weight), scores
    nothing."""
    table = read_state(home / CLAUDE_STATE)[0].get("skillUsage")
    if not isinstance(table, dict):
        return _NO_USAGE
    clock = time.time() * 1000 if now is None else now * 1000
    found: dict[str, float] = {}
    for name, record in table.items():
        count = record.get("usageCount") if isinstance(record, dict) else None
        last = record.get("lastUsedAt") if isinstance(record, dict) else None
        if not (_number(count) and _number(last)):
            continue
        days = (clock - float(last)) / DAY_MS  # type: ignore[arg-type]
        score = float(count) * max(_halved(days / 7), 0.1)  # type: ignore[arg-type]
        if not math.isnan(score):
            found[name] = score
    return MappingProxyType(found)


def _halved(weeks: float) -> float:
    """``0.5 ** weeks`` as JavaScript's ``Math.pow`` gives it: infinity, not an
    overflow, for a large negative `weeks`; NaN for NaN."""
    try:
        return float(0.5**weeks)
    except OverflowError:
        return math.inf


def _number(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not math.isnan(value)


def _whole(value: object) -> bool:
    """A whole number as Claude Code's settings schema takes one (``int()``): ``2000.0``
    counts, as ``JSON.parse`` reads it as 2000; beyond 2**53 - 1 it does not."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return float(value).is_integer() and abs(value) <= MAX_SAFE


def _fraction(value: object) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and 0 < value <= 1  # type: ignore[operator]


def _settings(layout: Layout, trust_project: bool) -> Iterator[Path]:
    yield layout.home / ".claude" / "settings.json"
    if trust_project:
        yield layout.project / ".claude" / "settings.json"
        yield layout.project / ".claude" / "settings.local.json"


def _document(path: Path, limit: int = MAX_SETTINGS) -> dict[str, object]:
    if not os.path.lexists(path):
        return {}
    try:
        doc = loads(read_bounded(path, limit))
    except (FileProblem, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}

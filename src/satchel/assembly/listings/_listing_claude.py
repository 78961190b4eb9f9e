"""Claude Code's skill listing, as 2.1.332 and 2.1.337 send it to the model.

Read in the binaries (the listing is built by one function, ``q3n`` in 2.1.332) and
checked against both hosts running offline (tests/hosts/test_claude_listing_loop.py):

* The text is ``The following skills are available for use with the Skill tool:``, a
  blank line, then one line per entry joined by newlines: ``- NAME: DESCRIPTION``, or
  ``- NAME`` for an entry listed by name only.
* The entries come in this order: the user's skills, the project's, the project's
  commands, the user's commands, the plugins' commands, the plugins' skills (each
  in satchel's order within its root: plugins in the order they load); a command
  whose name a skill took is not listed. Claude Code's own bundled skills follow
  them (satchel does not list those: ``disableBundledSkills`` keeps them out of the
  host's listing too).
* The description is the skill's, then `` - `` and its ``when_to_use`` when it has
  one, each trimmed, each run of newlines, tabs and other control or format
  characters made one space. One longer than ``skillListingMaxDescChars`` (1,536)
  UTF-16 code units is cut to one less and ends with ``…``, mid-word, whitespace
  kept.
* An entry costs its display width (``Bun.stringWidth``: a wide character counts
  two, a combining or zero-width one none), plus one for each newline between
  entries. When the whole listing costs more than the budget (`Host.budget`), every
  entry is counted name-only first; then, the most used first (``skillUsage`` in
  ``~/.claude.json``: `satchel.index._listing.read_usage`; listing order among equals),
  each description is put back when what it adds still fits, and the others stay
  name-only. Nothing is ever left out.
* ``skillOverrides``: ``name-only`` lists the skill by its name alone and never
  counts as cut; ``off`` and ``user-invocable-only`` keep it out, as
  ``disable-model-invocation`` does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace

from satchel.assembly.listings._listing import Listing
from satchel.core.layout import PLUGIN, PROJECT, USER
from satchel.index._budget import Budget
from satchel.index._render import (
    Index,
    IndexEntry,
    check_overrides,
    hidden_reason,
    index_of,
    listing_description,
)
from satchel.kinds.commands._model import Command
from satchel.skills._model import Skill

__all__ = [
    "BUILTIN",
    "HEADER",
    "MARKER",
    "applied",
    "clean",
    "cut",
    "described",
    "render",
    "width",
]

HEADER = "The following skills are available for use with the Skill tool:"
BUILTIN = (
    "dataviz",
    "update-config",
    "keybindings-help",
    "code-review",
    "simplify",
    "fewer-permission-prompts",
    "loop",
    "claude-api",
    "workflow-authoring",
    "run",
    "plugin-authoring",
    "init",
    "security-review",
)
"""Claude Code's own skills (2.1.332 and 2.1.337), which it lists after the others:
a listing override may name them (``skillOverrides``) without naming an unknown
skill. satchel does not list them."""
MARKER = "…"
_ZERO = frozenset(("Mn", "Me", "Cf", "Cc"))
_SPACED = frozenset(("Cc", "Cf", "Zl", "Zp"))


def applied(budget: Budget, model: str | None = None) -> Budget:
    """The budget Claude Code applies to its listing: the characters and description
    cap of `budget` (`Host.budget`, with ``SLASH_COMMAND_TOOL_CHAR_BUDGET``'s
    characters in place when a caller names them), and no other bound."""
    return Budget(chars=budget.chars, description=budget.description)


def render(listing: Listing) -> Index:
    """Claude Code's listing of `listing` (see the module docstring)."""
    items = _ordered(listing.skills, listing.commands)
    states, problems = check_overrides({*listing.known, *BUILTIN}, listing.overrides)
    hidden = {i: why for i, s in enumerate(items) if (why := hidden_reason(s, states.get(s.name)))}
    shown = [(i, s) for i, s in enumerate(items) if i not in hidden]
    pinned = {i for i, s in shown if states.get(s.name) == "name-only"}
    cap = listing.budget.description
    full = {i: f"- {s.name}" if i in pinned else _line(s, cap) for i, s in shown}
    kept = _fit(shown, full, pinned, listing.budget.chars, listing.usage)
    lines = {i: full[i] if i in kept or i in pinned else f"- {s.name}" for i, s in shown}
    text = f"{HEADER}\n\n" + "\n".join(lines[i] for i, _ in shown) + "\n" if shown else ""
    entries = tuple(_entry(i, s, hidden, pinned, kept, lines, listing) for i, s in enumerate(items))
    cost = sum(width(full[i]) for i, _ in shown) + max(0, len(shown) - 1)
    return index_of(text, entries, problems, cost=cost, allowed=listing.budget.chars)


def _ordered(skills: Sequence[Skill], commands: Sequence[Command]) -> list[Skill]:
    """The entries in Claude Code's order; a command stands as a skill of its name."""

    def scoped(scope: str) -> list[Skill]:
        return [s for s in skills if s.origin.scope == scope]

    named = {s.name for s in skills}
    listed = [c for c in commands if c.name not in named and not c.disable_model_invocation]

    def of(scope: str) -> list[Skill]:
        return [_as_skill(c) for c in listed if c.origin.scope == scope]

    others = [s for s in skills if s.origin.scope not in (USER, PROJECT, PLUGIN)]
    return [
        *scoped(USER),
        *scoped(PROJECT),
        *others,
        *of(PROJECT),
        *of(USER),
        *of(PLUGIN),
        *scoped(PLUGIN),
    ]


def _as_skill(command: Command) -> Skill:
    return Skill(
        name=command.name,
        description=command.description,
        path=command.path,
        origin=command.origin,
    )


def _line(skill: Skill, cap: int | None) -> str:
    return f"- {skill.name}: {cut(described(skill), cap)}"


def described(skill: Skill) -> str:
    """The description Claude Code lists: the skill's, then `` - `` and its
    ``when_to_use`` when it has one, each trimmed and each run of control, format
    and line-separator characters (a newline, a tab, a zero-width space) made one
    space."""
    when = None if skill.when_to_use is None else clean(skill.when_to_use)
    return listing_description(
        replace(skill, description=clean(skill.description), when_to_use=when or None)
    )


def clean(text: str) -> str:
    """`text` trimmed, each run of control, format, line or paragraph separator
    characters one space (observed: ``"a\n\n\nb"`` is listed ``"a b"``; a
    no-break space is kept)."""
    out: list[str] = []
    run = False
    for char in text.strip():
        if unicodedata.category(char) in _SPACED:
            if not run:
                out.append(" ")
            run = True
            continue
        out.append(char)
        run = False
    return "".join(out)


def cut(text: str, cap: int | None) -> str:
    """`text`, or when it is longer than `cap` UTF-16 code units its first ``cap - 1``
    of them and ``…`` (JavaScript's ``slice(0, cap - 1) + "…"``); half of a surrogate
    pair left at the cut is sent as U+FFFD, as the host's request encodes it."""
    if cap is None or _units(text) <= cap:
        return text
    head = text.encode("utf-16-le", "surrogatepass")[: 2 * (cap - 1)]
    return head.decode("utf-16-le", "replace") + MARKER


def _units(text: str) -> int:
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def width(text: str) -> int:
    """The columns `text` takes as ``Bun.stringWidth`` counts them (two for a wide or
    full-width character, none for a combining, format or control one)."""
    total = 0
    for char in text:
        if unicodedata.category(char) in _ZERO:
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def _fit(
    shown: list[tuple[int, Skill]],
    full: dict[int, str],
    pinned: set[int],
    budget: int | None,
    usage: Mapping[str, float],
) -> set[int]:
    """The entries listed with their description: the most used first."""
    every = {i for i, _ in shown}
    joins = max(0, len(shown) - 1)
    total = sum(width(full[i]) for i in every) + joins
    if budget is None or total <= budget:
        return every
    rest = [i for i, _ in shown if i not in pinned]
    named = dict(shown)
    rest.sort(key=lambda i: -usage.get(named[i].name, 0.0))  # stable: listing order next
    names = {i: width(f"- {s.name}") for i, s in shown}
    left = budget - sum(width(full[i]) if i in pinned else names[i] for i in every) - joins
    kept: set[int] = set()
    for i in rest:
        more = width(full[i]) - names[i]
        if more <= left:
            kept.add(i)
            left -= more
    return kept


def _entry(
    i: int,
    skill: Skill,
    hidden: dict[int, str],
    pinned: set[int],
    kept: set[int],
    lines: dict[int, str],
    listing: Listing,
) -> IndexEntry:
    if i in hidden:
        return IndexEntry(skill, "hidden", "", why=hidden[i])
    line = lines[i]
    if i in pinned:
        return IndexEntry(skill, "name-only", line, why="the override says name-only")
    if i not in kept:
        return IndexEntry(skill, "name-only", line, "max_chars", listing.budget.chars or 0)
    text = described(skill)
    cap = listing.budget.description
    if cap is not None and _units(text) > cap:
        return IndexEntry(skill, "shortened", line, "description", cap, len(text), cap)
    return IndexEntry(skill, "full", line)

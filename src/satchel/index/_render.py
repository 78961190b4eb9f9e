"""The skills index a model reads before it decides to load a skill.

Three formats, one per way of activating a skill:

* ``tool``: caveman's text for hosts with a skill-loading tool (``load_skill``).
* ``xml``: the Agent Skills client guide's ``<available_skills>`` block.
* ``paths``: mermaid's list with each SKILL.md path, for hosts whose model reads
  the file with its own file-read tool.

No skills, no text at all. The index never exceeds its `Budget` (64 skills in 8 KiB
by default; `max_skills` and `max_bytes` set those two bounds): what does not fit is
shortened, then listed by name only, then left out with a last line saying how many
(`satchel.index._budget.fit`, the one order), and `build_index` names each such skill in a
``skill.index.shortened``, ``skill.index.name-only`` or ``skill.index.omitted``
warning with the bound that cut it. Listing overrides (``on``, ``name-only``,
``user-invocable-only``, ``off``) apply first. Invisible and control characters are
left out of descriptions: the model reads what a person sees. A skill's `when_to_use`
follows its description after `` - ``, as Claude Code lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Literal

from satchel.core._model import model
from satchel.core._text import flag, strip_hidden
from satchel.core._xml import escape as _xml
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.tokens import approx_tokens
from satchel.index._budget import Budget, Cap, Fitted, fit, shorten
from satchel.skills._model import Skill

__all__ = [
    "Budget",
    "build_index",
    "check_overrides",
    "DEFAULT_BUDGET",
    "fit_lines",
    "FORMATS",
    "hidden_reason",
    "Index",
    "index_of",
    "IndexEntry",
    "IndexFormat",
    "listing_description",
    "model_visible",
    "offered",
    "Override",
    "OVERRIDES",
    "render_index",
]

IndexFormat = Literal["tool", "xml", "paths"]
Override = Literal["on", "name-only", "user-invocable-only", "off"]
EntryState = Literal["full", "shortened", "name-only", "omitted", "hidden"]
FORMATS: tuple[IndexFormat, ...] = ("tool", "xml", "paths")
OVERRIDES: tuple[Override, ...] = ("on", "name-only", "user-invocable-only", "off")
MAX_SKILLS = 64
MAX_BYTES = 8 * 1024
DEFAULT_BUDGET = Budget(skills=MAX_SKILLS, bytes=MAX_BYTES)


@model
class IndexEntry:
    """One skill's place in an index: its `state` (``full``, ``shortened``,
    ``name-only``, ``omitted``, or ``hidden`` from the model), its `line` as the model
    reads it ("" when not listed), the bound that changed it (`cap`, with its `limit`)
    and, for a shortened one, its description's length before (`was`) and after."""

    skill: Skill
    state: EntryState
    line: str
    cap: Cap | None = None
    limit: int = 0
    was: int = 0
    now: int = 0
    why: str = ""

    @property
    def chars(self) -> int:
        """The characters the entry costs, with its newline (0 when not listed)."""
        return len(self.line) + 1 if self.line else 0

    @property
    def tokens(self) -> int:
        """Its cost in satchel's token estimate (`satchel.foundations.tokens.approx_tokens`)."""
        return approx_tokens(self.line + "\n") if self.line else 0

    @property
    def reason(self) -> str:
        """Why the entry is not listed in full ("" when it is)."""
        if self.why or self.cap is None:
            return self.why
        rule = _rule(self.cap, self.limit)
        if self.state == "shortened":
            return f"its description is cut from {self.was:,} to {self.now:,} characters: {rule}"
        return rule

    def diagnostic(self) -> Diagnostic | None:
        """`skill.index.shortened`, `skill.index.name-only` or `skill.index.omitted`
        when a bound changed the entry; None for a listed, hidden or overridden one."""
        if self.cap is None or self.why:
            return None
        name = self.skill.name
        if self.state == "shortened":
            code, message = "skill.index.shortened", f"skill {name!r} is shortened in the index"
        elif self.state == "name-only":
            code, message = "skill.index.name-only", f"skill {name!r} is listed by name only"
        else:
            code, message = "skill.index.omitted", f"skill {name!r} is not in the index"
        text = f"{message}: {self.reason} ({self.cap})"
        return diagnostic(code, text, self.skill.path, severity="warning")


@model
class Index:
    """An index and what it left out: `text` as the model reads it, the skills listed,
    the model-visible skills the caps cut (in order), and the cap that cut them
    (``max_skills``, ``max_bytes``, ``max_chars`` or ``max_tokens``, with its `limit`;
    None when nothing was cut). `shortened` and `name_only` are the listed skills the
    budget shortened or listed by name only; `entries` explains every skill given, in
    order; `problems` are the overrides that name no skill or no state. A host's own
    listing also says what its budget weighed: `cost`, what the listing costs with every
    description as the host shows it (none shortened or dropped for the budget), and
    `allowed`, its budget, both in `unit` (``characters``, ``tokens``; None: not
    measured, or no budget)."""

    text: str
    listed: tuple[Skill, ...]
    omitted: tuple[Skill, ...]
    cut_by: Cap | None
    limit: int
    shortened: tuple[Skill, ...] = ()
    name_only: tuple[Skill, ...] = ()
    entries: tuple[IndexEntry, ...] = ()
    problems: tuple[Diagnostic, ...] = ()
    cost: int | None = None
    allowed: int | None = None
    unit: str = "characters"

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The override problems, then one `skill.index.shortened`,
        `skill.index.name-only` or `skill.index.omitted` warning per skill the budget
        changed, naming it and the bound."""
        found = (e.diagnostic() for e in self.entries)
        return (*self.problems, *(d for d in found if d is not None))


_RULES: Mapping[Cap, str] = {
    "max_skills": "the index lists at most {limit:,} {skills}",
    "max_bytes": "the index holds at most {limit:,} {bytes}",
    "max_chars": "the index holds at most {limit:,} {chars}",
    "max_tokens": "the index holds at most {limit:,} {tokens}",
    "description": "a description keeps at most {limit:,} {chars}",
}


def _rule(cap: Cap, limit: int) -> str:
    one = limit == 1
    units = {unit: unit[:-1] if one else unit for unit in ("skills", "bytes", "chars", "tokens")}
    units["chars"] = "character" if one else "characters"
    return _RULES[cap].format(limit=limit, **units)


def model_visible(skill: Skill) -> bool:
    """False when the skill asks to be kept from the model (`disable-model-invocation`)."""
    return not flag(skill.extras.get("disable-model-invocation"), False)


def offered(skills: Mapping[str, Skill], overrides: Mapping[str, object]) -> Mapping[str, Skill]:
    """`skills` as a session offers them under listing `overrides`: without the ``off``
    ones (not invocable at all), and each ``user-invocable-only`` one marked
    `disable-model-invocation` (the user may still run it as ``/name``)."""
    touched = {n for n, v in overrides.items() if v in ("off", "user-invocable-only")}
    if not touched & skills.keys():
        return skills
    found: dict[str, Skill] = {}
    for name, skill in skills.items():
        state = overrides.get(name)
        if state == "off":
            continue
        if state == "user-invocable-only":
            extras = {**skill.extras, "disable-model-invocation": True}
            skill = replace(skill, extras=MappingProxyType(extras))
        found[name] = skill
    return MappingProxyType(found)


def render_index(
    skills: Mapping[str, Skill] | Iterable[Skill],
    *,
    format: IndexFormat = "tool",  # the public name the docs use
    max_skills: int | None = None,
    max_bytes: int | None = None,
    tool_name: str = "load_skill",
    head: str | None = None,
    budget: Budget | None = None,
    overrides: Mapping[str, object] | None = None,
) -> str:
    """The index text for `skills` (in the order given), or "" when there are none.

    `head` replaces the lines before the entries (for ``xml``, it goes above
    ``<available_skills>``): a host whose tools differ from caveman's says here how
    the model loads a skill. The text never exceeds `budget` (default: 64 skills and
    8 KiB); `max_skills` and `max_bytes` set those two of its bounds. `overrides`
    maps a skill name to ``on``, ``name-only``, ``user-invocable-only`` or ``off``
    (the last two keep it out of the index). `build_index` also says what the budget cut and why."""
    return build_index(
        skills,
        format=format,
        max_skills=max_skills,
        max_bytes=max_bytes,
        tool_name=tool_name,
        head=head,
        budget=budget,
        overrides=overrides,
    ).text


def build_index(
    skills: Mapping[str, Skill] | Iterable[Skill],
    *,
    format: IndexFormat = "tool",
    max_skills: int | None = None,
    max_bytes: int | None = None,
    tool_name: str = "load_skill",
    head: str | None = None,
    budget: Budget | None = None,
    overrides: Mapping[str, object] | None = None,
    known: Iterable[str] | None = None,
) -> Index:
    """`render_index`'s text with the skills it listed, the ones its budget cut, and
    each skill's entry (`Index.entries`). An override naming a skill that is neither
    given nor `known` (the names loaded, when `skills` is a part of them) is reported."""
    given = list(skills.values() if isinstance(skills, Mapping) else skills)
    if format not in FORMATS:
        raise ValueError(f"unknown index format {format!r}; use one of {', '.join(FORMATS)}")
    limits = DEFAULT_BUDGET if budget is None else budget
    if max_skills is not None or max_bytes is not None:
        count = limits.skills if max_skills is None else max_skills
        size = limits.bytes if max_bytes is None else max_bytes
        limits = replace(limits, skills=count, bytes=size)
    names = {s.name for s in given}.union(() if known is None else known)
    states, problems = _overrides(names, overrides or {})
    hidden = {id(s): why for s in given if (why := _hidden(s, states.get(s.name)))}
    items = [s for s in given if id(s) not in hidden]
    default_head, entry, tail = _PARTS[format]
    header = default_head(tool_name)
    if head is not None:
        header = head if format != "xml" else f"{head}\n{header}"
    pinned = frozenset(i for i, s in enumerate(items) if states.get(s.name) == "name-only")
    descriptions = [_one_line(listing_description(s)) for s in items]
    fitted = fit(
        header,
        descriptions,
        lambda i, text: entry(items[i], text),
        budget=limits,
        omitted=lambda count: _omitted(count, format),
        tail=tail,
        pinned=pinned,
    )
    placed = iter(_entries(items, descriptions, fitted, limits, pinned))
    entries = tuple(
        IndexEntry(s, "hidden", "", why=hidden[id(s)]) if id(s) in hidden else next(placed)
        for s in given
    )
    return _index(fitted.text if items else "", entries, problems)


def index_of(
    text: str,
    entries: tuple[IndexEntry, ...],
    problems: tuple[Diagnostic, ...] = (),
    *,
    cost: int | None = None,
    allowed: int | None = None,
    unit: str = "characters",
) -> Index:
    """The `Index` of a `text` whose every skill's place is in `entries` (a host's own
    listing builds its text and entries itself: `satchel.hosts`), with what its budget
    weighed (`Index.cost`, `Index.allowed`, in `unit`)."""
    found = _index(text, entries, problems)
    return replace(found, cost=cost, allowed=allowed, unit=unit)


def hidden_reason(skill: Skill, state: object) -> str:
    """Why a skill is kept from the model under listing override `state` ("" when it
    is listed): the override, or its ``disable-model-invocation``."""
    return _hidden(skill, state)


def check_overrides(
    names: set[str], overrides: Mapping[str, object]
) -> tuple[dict[str, object], tuple[Diagnostic, ...]]:
    """The valid listing overrides by skill name, and a diagnostic for each one that
    is not a state or names none of `names`."""
    return _overrides(names, overrides)


def _index(text: str, entries: tuple[IndexEntry, ...], problems: tuple[Diagnostic, ...]) -> Index:
    def having(*states: EntryState) -> tuple[Skill, ...]:
        return tuple(e.skill for e in entries if e.state in states)

    cut = next((e for e in entries if e.state == "omitted"), None)
    return Index(
        text,
        having("full", "shortened", "name-only"),
        having("omitted"),
        None if cut is None else cut.cap,
        0 if cut is None else cut.limit,
        shortened=having("shortened"),
        name_only=tuple(e.skill for e in entries if e.state == "name-only" and not e.why),
        entries=entries,
        problems=problems,
    )


def _entries(
    items: list[Skill],
    descriptions: list[str],
    fitted: Fitted,
    limits: Budget,
    pinned: frozenset[int],
) -> Iterable[IndexEntry]:
    rows = zip(items, descriptions, fitted.lines, fitted.states, strict=True)
    for i, (skill, text, line, state) in enumerate(rows):
        if state == "full":
            yield IndexEntry(skill, "full", line)
        elif i in pinned and state != "omitted":
            yield IndexEntry(skill, "name-only", line, why="the override says name-only")
        elif state == "shortened":
            by_cap = limits.description is not None and fitted.level >= limits.description
            cap: Cap | None = "description" if by_cap else fitted.cap
            now = len(shorten(text, fitted.level))
            yield IndexEntry(skill, state, line, cap, _limit(limits, cap), len(text), now)
        else:
            past = state == "omitted" and limits.skills is not None and i >= limits.skills
            cap = "max_skills" if past else fitted.cap
            yield IndexEntry(skill, state, line, cap, _limit(limits, cap))


def _limit(limits: Budget, cap: Cap | None) -> int:
    return 0 if cap is None else limits.limit(cap)


def _hidden(skill: Skill, state: object) -> str:
    if state in ("user-invocable-only", "off"):
        return f"the override says {state}"
    if not model_visible(skill):
        return "it sets disable-model-invocation"
    return ""


def _overrides(
    names: set[str], overrides: Mapping[str, object]
) -> tuple[dict[str, object], tuple[Diagnostic, ...]]:
    """The valid overrides by skill name, and a diagnostic for each bad one."""
    states: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for name, state in overrides.items():
        if state not in OVERRIDES:
            allowed = ", ".join(OVERRIDES)
            message = f"the override for skill {name!r} is {state!r}: use one of {allowed}"
            problems.append(diagnostic("skill.index.override-invalid", message, None))
        elif name not in names:
            message = f"the override for skill {name!r} names no skill that loaded"
            problems.append(diagnostic("skill.index.override-unknown", message, None))
        else:
            states[name] = state
    return states, tuple(problems)


def fit_lines(
    header: str,
    entries: list[str],
    *,
    max_entries: int,
    max_bytes: int,
    omitted: Callable[[int], str],
    tail: str = "",
) -> str:
    """`header`, the entries that fit in order, `tail`, and `omitted(n)` when `n`
    entries were left out; at most `max_entries` entries and `max_bytes` bytes (""
    when not even the header fits). The rule of every index: skills, commands."""
    return _fit_count(
        header, entries, max_entries=max_entries, max_bytes=max_bytes, omitted=omitted, tail=tail
    )[0]


def _fit_count(
    header: str,
    entries: list[str],
    *,
    max_entries: int,
    max_bytes: int,
    omitted: Callable[[int], str],
    tail: str = "",
) -> tuple[str, int]:
    """`fit_lines`' text and how many entries it kept."""
    total = len(entries)
    kept: list[str] = []
    size = _size(header) + _size(tail)
    for index, text in enumerate(entries):
        if len(kept) >= max_entries:
            break
        left_out = total - index - 1
        extra = _size(omitted(left_out)) if left_out else 0
        if size + _size(text) + extra > max_bytes:
            break
        kept.append(text)
        size += _size(text)
    if not kept and size + _size(omitted(total)) > max_bytes:
        return "", 0
    lines = [header, *kept]
    if tail:
        lines.append(tail)
    if len(kept) < total:
        lines.append(omitted(total - len(kept)))
    return "\n".join(line for line in lines if line) + "\n", len(kept)


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape")) + 1 if text else 0


def _omitted(count: int, fmt: str) -> str:
    noun = "skill" if count == 1 else "skills"
    line = f"{count} more {noun} not listed: index limit reached"
    return f"<!-- {line} -->" if fmt == "xml" else f"({line})"


def listing_description(skill: Skill) -> str:
    """The description a model reads in the index: with `when_to_use` joined as
    Claude Code 2.1.332 joins it (``f"{description} - {whenToUse}"``, read in the
    pinned binary's skill listing); a skill a Skills-extension server serves (scope
    ``mcp``) ends with ``(server: <label>)``, so that the model never reads it as a
    local one (the extension's *Security Considerations*)."""
    text = f"{skill.description} - {skill.when_to_use}" if skill.when_to_use else skill.description
    return f"{text} (server: {skill.family})" if skill.scope == "mcp" else text


def _one_line(text: str) -> str:
    """One line, without characters a reader cannot see (see `skill.text.hidden-unicode`)."""
    return " ".join(strip_hidden(text).split())


def _tool_head(tool_name: str) -> str:
    return (
        "Skills available to this agent. Load one only when its description matches the task.\n"
        f'Call {tool_name}({{"name":"<skill>"}}) for instructions. '
        "Use its resource argument for referenced files."
    )


def _tool_entry(skill: Skill, text: str | None) -> str:
    return f"- {skill.name}" if text is None else f"- {skill.name}: {text}"


def _xml_entry(skill: Skill, text: str | None) -> str:
    location = "" if skill.path is None else f"    <location>{_xml(str(skill.path))}</location>\n"
    about = "" if text is None else f"    <description>{_xml(text)}</description>\n"
    return f"  <skill>\n    <name>{_xml(skill.name)}</name>\n{about}{location}  </skill>"


def _paths_head(_tool_name: str) -> str:
    return (
        "Skills available to this agent. When a task matches a skill's description, "
        "read its SKILL.md at the path shown and follow it; resolve relative paths in it "
        "against the skill's directory."
    )


def _paths_entry(skill: Skill, text: str | None) -> str:
    line = f"- {skill.name}" if text is None else f"- {skill.name}: {text}"
    return line if skill.path is None else f"{line}\n  path: {skill.path}"


_PARTS = {
    "tool": (_tool_head, _tool_entry, ""),
    "xml": (lambda _t: "<available_skills>", _xml_entry, "</available_skills>"),
    "paths": (_paths_head, _paths_entry, ""),
}

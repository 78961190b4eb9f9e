"""The skills index a model reads before it decides to load a skill.

Three formats, one per way of activating a skill:

* ``tool``: caveman's text for hosts with a skill-loading tool (``load_skill``).
* ``xml``: the Agent Skills client guide's ``<available_skills>`` block.
* ``paths``: mermaid's list with each SKILL.md path, for hosts whose model reads
  the file with its own file-read tool.

No skills, no text at all. The index is capped at `max_skills` entries and
`max_bytes` bytes (64 and 8 KiB by default); when entries are left out, a last line
says how many (and when not even the header fits, the index is empty), and
`build_index` names each skill left out in an `skill.index.omitted` warning with the
cap that cut it. Invisible and control characters are left out of descriptions: the
model reads what a person sees. A skill's `when_to_use` follows its description after
`` - ``, as Claude Code lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from satchel._text import flag, strip_hidden
from satchel._xml import escape as _xml
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.skills._model import Skill

__all__ = [
    "FORMATS",
    "Index",
    "IndexFormat",
    "build_index",
    "fit_lines",
    "listing_description",
    "model_visible",
    "render_index",
]

IndexFormat = Literal["tool", "xml", "paths"]
Cap = Literal["max_skills", "max_bytes"]
FORMATS: tuple[IndexFormat, ...] = ("tool", "xml", "paths")
MAX_SKILLS = 64
MAX_BYTES = 8 * 1024


@dataclass(frozen=True, slots=True)
class Index:
    """An index and what it left out: `text` as the model reads it, the skills listed,
    the model-visible skills the caps cut (in order), and the cap that cut them
    (``max_skills`` or ``max_bytes``, with its `limit`; None when nothing was cut)."""

    text: str
    listed: tuple[Skill, ...]
    omitted: tuple[Skill, ...]
    cut_by: Cap | None
    limit: int

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """One `skill.index.omitted` warning per skill left out, naming it and the cap."""
        if self.cut_by is None:
            return ()
        one = self.limit == 1
        units = {"skills": "skill" if one else "skills", "bytes": "byte" if one else "bytes"}
        rule = _RULES[self.cut_by].format(limit=self.limit, **units)
        return tuple(
            diagnostic(
                "skill.index.omitted",
                f"skill {s.name!r} is not in the index: {rule} ({self.cut_by})",
                s.path,
                severity="warning",
            )
            for s in self.omitted
        )


_RULES: Mapping[Cap, str] = {
    "max_skills": "the index lists at most {limit:,} {skills}",
    "max_bytes": "the index holds at most {limit:,} {bytes}",
}


def model_visible(skill: Skill) -> bool:
    """False when the skill asks to be kept from the model (`disable-model-invocation`)."""
    return not flag(skill.extras.get("disable-model-invocation"), False)


def render_index(
    skills: Mapping[str, Skill] | Iterable[Skill],
    *,
    format: IndexFormat = "tool",  # the public name the docs use
    max_skills: int = MAX_SKILLS,
    max_bytes: int = MAX_BYTES,
    tool_name: str = "load_skill",
    head: str | None = None,
) -> str:
    """The index text for `skills` (in the order given), or "" when there are none.

    `head` replaces the lines before the entries (for ``xml``, it goes above
    ``<available_skills>``): a host whose tools differ from caveman's says here how
    the model loads a skill. `build_index` also says which skills the caps cut."""
    return build_index(
        skills,
        format=format,
        max_skills=max_skills,
        max_bytes=max_bytes,
        tool_name=tool_name,
        head=head,
    ).text


def build_index(
    skills: Mapping[str, Skill] | Iterable[Skill],
    *,
    format: IndexFormat = "tool",
    max_skills: int = MAX_SKILLS,
    max_bytes: int = MAX_BYTES,
    tool_name: str = "load_skill",
    head: str | None = None,
) -> Index:
    """`render_index`'s text with the skills it listed and the ones its caps cut."""
    items = list(skills.values() if isinstance(skills, Mapping) else skills)
    items = [s for s in items if model_visible(s)]
    if not items:
        return Index("", (), (), None, 0)
    if format not in FORMATS:
        raise ValueError(f"unknown index format {format!r}; use one of {', '.join(FORMATS)}")
    default_head, entry, tail = _PARTS[format]
    header = default_head(tool_name)
    if head is not None:
        header = head if format != "xml" else f"{head}\n{header}"
    entries = [entry(s) for s in items]
    text, kept = _fit_count(
        header,
        entries,
        max_entries=max_skills,
        max_bytes=max_bytes,
        omitted=lambda count: _omitted(count, format),
        tail=tail,
    )
    if kept == len(items):
        return Index(text, tuple(items), (), None, 0)
    by_count = kept >= max_skills
    cap: Cap = "max_skills" if by_count else "max_bytes"
    limit = max_skills if by_count else max_bytes
    return Index(text, tuple(items[:kept]), tuple(items[kept:]), cap, limit)


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
    pinned binary's skill listing)."""
    if skill.when_to_use:
        return f"{skill.description} - {skill.when_to_use}"
    return skill.description


def _one_line(text: str) -> str:
    """One line, without characters a reader cannot see (see `skill.text.hidden-unicode`)."""
    return " ".join(strip_hidden(text).split())


def _tool_head(tool_name: str) -> str:
    return (
        "Skills available to this agent. Load one only when its description matches the task.\n"
        f'Call {tool_name}({{"name":"<skill>"}}) for instructions. '
        "Use its resource argument for referenced files."
    )


def _tool_entry(skill: Skill) -> str:
    return f"- {skill.name}: {_one_line(listing_description(skill))}"


def _xml_entry(skill: Skill) -> str:
    location = "" if skill.path is None else f"    <location>{_xml(str(skill.path))}</location>\n"
    return (
        "  <skill>\n"
        f"    <name>{_xml(skill.name)}</name>\n"
        f"    <description>{_xml(_one_line(listing_description(skill)))}</description>\n"
        f"{location}"
        "  </skill>"
    )


def _paths_head(_tool_name: str) -> str:
    return (
        "Skills available to this agent. When a task matches a skill's description, "
        "read its SKILL.md at the path shown and follow it; resolve relative paths in it "
        "against the skill's directory."
    )


def _paths_entry(skill: Skill) -> str:
    line = f"- {skill.name}: {_one_line(listing_description(skill))}"
    return line if skill.path is None else f"{line}\n  path: {skill.path}"


_PARTS = {
    "tool": (_tool_head, _tool_entry, ""),
    "xml": (lambda _t: "<available_skills>", _xml_entry, "</available_skills>"),
    "paths": (_paths_head, _paths_entry, ""),
}

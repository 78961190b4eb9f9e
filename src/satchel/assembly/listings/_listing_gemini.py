"""Gemini CLI's skills listing: the ``# Available Agent Skills`` section of the system
instruction Gemini CLI 0.61.0 sends its model, rendered from the skills satchel loaded
under the ``gemini`` profile.

What Gemini CLI does (read off ``gemini -p`` run offline, and its bundled
``renderAgentSkills`` and ``SkillManager``):

* No budget: every enabled skill is listed with its whole description, whatever the
  model's context window. Nothing is escaped (``&``, ``<`` and quotes go as they are).
* Each skill is ``  <skill>`` with ``<name>``, ``<description>`` and ``<location>``
  (the SKILL.md path) on lines of their own, inside ``<available_skills>``.
* Order: its skills are gathered into one table keyed by name, in the order
  built-in, extensions (by folder name, byte by byte: its directory listing is sorted),
  ``~/.gemini/skills``, ``~/.agents/skills``, the project's ``.gemini/skills``, the
  project's ``.agents/skills``. A later copy of a name replaces the earlier one but
  keeps its place (between two extensions the later one wins, where satchel keeps the
  first: the renderer follows Gemini CLI). Inside a root, a SKILL.md at the root comes
  first, then the skill folders in reverse order of their names (by UTF-16 code unit:
  what its file matcher returns when its walk finishes in order). The walk is
  parallel and does not always finish in order: run to run, Gemini CLI may swap
  neighbours inside one root (about one run in ten for seven folders, most runs for
  sixty). The renderer gives the settled order; `gemini_groups` says which names
  share a root.
* Gemini 3 and custom models get the section trimmed; older models (gemini-2.5-*) get
  a wording with "you can call" and the section's surrounding newlines kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from satchel.assembly.listings._listing import Listing
from satchel.index._budget import Budget
from satchel.index._render import Index, IndexEntry, check_overrides, hidden_reason, index_of
from satchel.skills import Skill

__all__ = [
    "GEMINI_MODEL",
    "GEMINI_WINDOW",
    "applied",
    "gemini_activate_description",
    "gemini_modern",
    "gemini_groups",
    "gemini_order",
    "render",
    "render_gemini_listing",
]

GEMINI_MODEL = "auto"
"""Gemini CLI 0.61.0's default model: ``auto``, a routing request to a small model picks
the model of each turn (the system instruction is written for gemini-3-pro-preview)."""
GEMINI_WINDOW = 1_048_576
"""The context window of Gemini CLI's own models (``tokenLimit``; gemma-4: 256,000).
The listing has no budget, so no window changes it."""
_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "auto": "gemini-3-pro-preview",
        "pro": "gemini-3-pro-preview",
        "auto-gemini-3": "gemini-3-pro-preview",
        "auto-gemini-2.5": "gemini-2.5-pro",
        "flash": "gemini-3-flash-preview",
        "flash-lite": "gemini-3.1-flash-lite",
    }
)
_GEMINI_3 = re.compile(r"gemini-3(\.|-|$)")


def gemini_modern(model: str | None = None) -> bool:
    """Whether Gemini CLI writes its system instruction for `model` [its default] with
    the Gemini 3 wording: a Gemini 3 model (aliases resolved as Gemini CLI resolves
    them) or a model whose name does not start with ``gemini-``."""
    name = (model or GEMINI_MODEL).strip()
    name = _ALIASES.get(name, name)
    return bool(_GEMINI_3.match(name)) or not name.startswith("gemini-")


_MODERN = (
    "You have access to the following specialized skills. To activate a skill and receive "
    "its detailed instructions, call the `activate_skill` tool with the skill's name."
)
_LEGACY = (
    "You have access to the following specialized skills. To activate a skill and receive "
    "its detailed instructions, you can call the `activate_skill` tool with the skill's name."
)
_ROOTS = {("user", ".gemini"): 2, ("user", ".agents"): 3, ("project", ".gemini"): 4}
_Key = tuple[int, bytes, tuple[int, tuple[int, ...]]]


def _root_rank(skill: Skill) -> int:
    """Where `skill`'s root comes in Gemini CLI's order (1: an extension)."""
    if skill.scope == "project" and skill.family == ".agents":
        return 5
    return _ROOTS.get((skill.scope, skill.family), 1)


def _folder_key(skill: Skill) -> tuple[int, tuple[int, ...]]:
    """Inside a root: a SKILL.md at the root first, then folder names descending by
    UTF-16 code unit."""
    root = skill.origin.path
    if root is not None and skill.scope == "plugin":
        root = root / "skills"  # an extension's skills folder
    if skill.path is None or root is None or skill.path.parent == root:
        return (0, ())
    name = skill.path.parent.name.encode("utf-16-be")
    units = tuple(-int.from_bytes(name[i : i + 2], "big") for i in range(0, len(name), 2))
    return (1, (*units, 1))  # a longer name sorts before its own prefix


def _key(skill: Skill, builtin: bool) -> _Key:
    """When Gemini CLI adds `skill` to its table of skills: built-in first, then the
    extensions by folder name (its directory listing is sorted byte by byte), then
    the roots in order."""
    if builtin:
        return (0, b"", _folder_key(skill))
    rank = _root_rank(skill)
    folder = skill.origin.path
    extension = folder.name.encode() if rank == 1 and folder is not None else b""
    return (rank, extension, _folder_key(skill))


def gemini_order(copies: Sequence[Skill], *, builtin: Sequence[Skill] = ()) -> list[Skill]:
    """The skills Gemini CLI lists, in its order, from every copy of every name
    (`copies`: satchel's winners and the copies they shadowed; `builtin`: Gemini CLI's
    own, added first). Gemini CLI adds the copies root by root into one table
    by name: a name keeps the place of its first copy and shows its last."""
    place: dict[str, _Key] = {}
    shown: dict[str, tuple[_Key, Skill]] = {}
    tagged = [(s, True) for s in builtin] + [(s, False) for s in copies if s.path is not None]
    for skill, own in tagged:
        key = _key(skill, own)
        place[skill.name] = min(place.get(skill.name, key), key)
        if skill.name not in shown or key > shown[skill.name][0]:
            shown[skill.name] = (key, skill)
    return [shown[name][1] for name in sorted(shown, key=lambda n: place[n])]


def gemini_groups(copies: Sequence[Skill], *, builtin: Sequence[Skill] = ()) -> list[list[str]]:
    """The names `gemini_order` lists, in its order, cut where the root of a name's
    first copy changes: inside one group Gemini CLI's own order is not stable."""
    tagged = [(s, True) for s in builtin] + [(s, False) for s in copies if s.path is not None]
    first: dict[str, _Key] = {}
    for skill, own in tagged:
        key = _key(skill, own)
        first[skill.name] = min(first.get(skill.name, key), key)
    groups: list[list[str]] = []
    last: tuple[int, bytes] | None = None
    for skill in gemini_order(copies, builtin=builtin):
        root = first[skill.name][:2]
        if root != last:
            groups.append([])
            last = root
        groups[-1].append(skill.name)
    return groups


def _entry(name: str, description: str, location: Path | str) -> str:
    return (
        "  <skill>\n"
        f"    <name>{name}</name>\n"
        f"    <description>{description}</description>\n"
        f"    <location>{location}</location>\n"
        "  </skill>"
    )


def render_gemini_listing(
    skills: Sequence[Skill],
    *,
    shadowed: Sequence[Skill] = (),
    builtin: Sequence[Skill] = (),
    modern: bool = True,
) -> str:
    """The ``# Available Agent Skills`` section Gemini CLI 0.61.0 puts in its system
    instruction for `skills` (satchel's winners under the ``gemini`` profile) and the
    copies they `shadowed`, with Gemini CLI's own `builtin` skills first (they live in
    its install), in its order (`gemini_order`); "" when there are none. `modern`: the
    wording for Gemini 3 and custom models (the default), else for gemini-2.5-*."""
    return _section(gemini_order([*skills, *shadowed], builtin=builtin), modern)


def _section(ordered: Sequence[Skill], modern: bool) -> str:
    if not ordered:
        return ""
    entries = "\n".join(_entry(s.name, s.description, s.path or "") for s in ordered)
    text = (
        f"\n# Available Agent Skills\n\n{_MODERN if modern else _LEGACY}\n\n"
        f"<available_skills>\n{entries}\n</available_skills>"
    )
    return text.strip() if modern else text


def gemini_activate_description(names: Sequence[str]) -> str:
    """The description of Gemini CLI's ``activate_skill`` tool for skills `names` (in
    the listing's order)."""
    hint = f" (Available: {', '.join(repr_js(n) for n in names)})" if names else ""
    return (
        f"Activates a specialized agent skill by name{hint}. Returns the skill's instructions "
        "wrapped in `<activated_skill>` tags. These provide specialized guidance for the "
        "current task. Use this when you identify a task that matches a skill's description. "
        "ONLY use names exactly as they appear in the `<available_skills>` section."
    )


def repr_js(name: str) -> str:
    """A name in single quotes, as Gemini CLI writes it (no escaping)."""
    return f"'{name}'"


def applied(budget: Budget, model: str | None = None) -> Budget:
    """The budget Gemini CLI applies to its listing: none, whatever `budget` a caller
    gives (`satchel.assembly.listings._listing.style_budget`)."""
    return Budget()


def render(listing: Listing) -> Index:
    """The ``gemini`` listing style: Gemini CLI's own section for `listing` (the skills
    and the copies they shadowed, in its order, with the wording its model gets), every
    skill whole; a skill an override keeps from the model is left out. Gemini CLI's
    built-in skills are not satchel's to list."""
    copies = [*listing.skills, *listing.shadowed]
    states, problems = check_overrides(set(listing.known), listing.overrides)
    hidden = {id(s): why for s in copies if (why := hidden_reason(s, states.get(s.name)))}
    visible = [s for s in copies if id(s) not in hidden]
    ordered = gemini_order(visible)
    text = _section(ordered, gemini_modern(listing.model))
    lines = {id(s): _entry(s.name, s.description, s.path or "") for s in ordered}
    entries = tuple(
        IndexEntry(s, "hidden", "", why=hidden[id(s)])
        if id(s) in hidden
        else IndexEntry(s, "full", lines[id(s)])
        if id(s) in lines
        else IndexEntry(s, "hidden", "", why="a stronger copy of its name is listed")
        for s in copies
    )
    return index_of(text, entries, problems)

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
  built-in, extensions, ``~/.gemini/skills``, ``~/.agents/skills``, the project's
  ``.gemini/skills``, the project's ``.agents/skills``. A later copy of a name replaces
  the earlier one but keeps its place. Inside a root, a SKILL.md at the root comes
  first, then the skill folders in reverse order of their names (by UTF-16 code unit:
  what its file matcher returns).
* Gemini 3 and custom models get the section trimmed; older models (gemini-2.5-*) get
  a wording with "you can call" and the section's surrounding newlines kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from satchel.skills import Skill

__all__ = ["gemini_activate_description", "gemini_order", "render_gemini_listing"]

_MODERN = (
    "You have access to the following specialized skills. To activate a skill and receive "
    "its detailed instructions, call the `activate_skill` tool with the skill's name."
)
_LEGACY = (
    "You have access to the following specialized skills. To activate a skill and receive "
    "its detailed instructions, you can call the `activate_skill` tool with the skill's name."
)
_ROOTS = {("user", ".gemini"): 1, ("user", ".agents"): 2, ("project", ".gemini"): 3}


def _root_rank(skill: Skill) -> int:
    """Where `skill`'s root comes in Gemini CLI's order (0: built-in or extension)."""
    if skill.scope == "project" and skill.family == ".agents":
        return 4
    return _ROOTS.get((skill.scope, skill.family), 0)


def _folder_key(skill: Skill) -> tuple[int, tuple[int, ...]]:
    """Inside a root: a SKILL.md at the root first, then folder names descending by
    UTF-16 code unit."""
    root = skill.origin.path
    if skill.path is None or root is None or skill.path.parent == root:
        return (0, ())
    name = skill.path.parent.name.encode("utf-16-be")
    units = tuple(-int.from_bytes(name[i : i + 2], "big") for i in range(0, len(name), 2))
    return (1, (*units, 1))  # a longer name sorts before its own prefix


def gemini_order(skills: Sequence[Skill], shadowed: Sequence[Skill] = ()) -> list[Skill]:
    """`skills` (one per name, the copies Gemini CLI keeps) in the order Gemini CLI lists
    them: each name at the place of its first copy among `skills` and `shadowed` (the
    copies a stronger root replaced)."""
    place: dict[str, tuple[int, tuple[int, tuple[int, ...]]]] = {}
    for skill in (*skills, *shadowed):
        key = (_root_rank(skill), _folder_key(skill))
        if skill.name not in place or key < place[skill.name]:
            place[skill.name] = key
    return sorted(skills, key=lambda s: place[s.name])


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
    instruction for `skills` (satchel's winners under the ``gemini`` profile), with the
    copies they replaced (`shadowed`, for the order) and Gemini CLI's own `builtin`
    skills first (they live in its install); "" when there are none. `modern`: the
    wording for Gemini 3 and custom models (the default), else for gemini-2.5-*."""
    ordered = [*builtin, *(s for s in gemini_order(skills, shadowed) if s.path is not None)]
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

"""When the index cannot list every skill: whether the search tools are offered, and
the index line naming them.

A session whose index leaves skills out (`Index.omitted`: its caps cut them) offers
two more tools, ``list_skills`` and ``search_skills``, and its index ends with one
line saying that more skills exist and how to find them. ``list_skills`` is the name
Google ADK's ``SkillToolset`` gives its listing tool (google/adk-python,
src/google/adk/tools/skill_toolset.py), whose shape differs on purpose: ADK's takes no
argument and returns every skill as ``<available_skills>`` XML, satchel's pages JSON
(a catalogue too big for the index is too big for one answer). ADK has no search
tool: ``search_skills`` is satchel's own. An
index that lists them all has neither. The line takes its bytes from the index's
budget, so the index with it is no bigger than the caps allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from satchel.hosts._ranking import rank
from satchel.index._budget import Budget
from satchel.index._render import Index
from satchel.session._options import SKILL_SEARCH_TOOLS, SessionOptions
from satchel.skills._model import Skill

__all__ = [
    "LIST_SKILLS",
    "SEARCH_SKILLS",
    "line_for",
    "offers",
    "ranked",
    "search_line",
    "with_search_line",
]

LIST_SKILLS, SEARCH_SKILLS = SKILL_SEARCH_TOOLS


def offers(options: SessionOptions, index: Index) -> bool:
    """Whether a session with `options` whose full index is `index` offers the
    search tools: they are on (`skill_search`), it has a tool that loads a skill, and
    the index left skills out."""
    return bool(index.omitted) and _searchable(options)


def _searchable(options: SessionOptions) -> bool:
    """The search tools are on and the session has a tool that loads a skill."""
    loads = "load_skill" in options.tools or "skills_use" in options.tools
    return options.skill_search and loads


def line_for(options: SessionOptions) -> str | None:
    """The line a session with `options` ends an index that leaves skills out with;
    None when it offers no search tools."""
    return search_line(options) if _searchable(options) else None


def search_line(options: SessionOptions) -> str:
    """The index's last line when the search tools are offered (named as the host
    renamed them)."""
    search, listing = options.name_of(SEARCH_SKILLS), options.name_of(LIST_SKILLS)
    return (
        "More skills are installed than this index lists: call "
        f'{search}({{"query":"<what the task needs>"}}) to find one by its '
        f"description, or {listing} to see them all."
    )


def with_search_line(build: Callable[[Budget], Index], budget: Budget, line: str | None) -> Index:
    """The index `build` makes within `budget`; when it leaves skills out and `line`
    is given, built again within the budget less the line's room, with the line at
    its end (so the index with it stays within `budget`)."""
    index = build(budget)
    if line is None or not index.omitted:
        return index
    ending = line + "\n"
    index = build(budget.without(ending))
    if not index.text:
        return index
    return replace(index, text=index.text + ending)


def ranked(skills: Mapping[str, Skill], query: str | None) -> dict[str, Skill]:
    """`skills` in order of relevance to `query` (`satchel.hosts._ranking.rank`); as given
    without one."""
    if query is None:
        return dict(skills)
    by_id = {id(s): key for key, s in skills.items()}
    return {by_id[id(s)]: s for s in rank(skills, query)}

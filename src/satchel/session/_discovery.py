"""When the index cannot list every skill: the search tools' names and the index line.

A session whose index leaves skills out (`Index.omitted`: its caps cut them) offers
two more tools, named as Google ADK's ``SkillToolset`` names its own (``list_skills``
and ``search_skills``; google/adk-python, docs/guides/tools/skill_toolset), and its
index ends with one line saying that more skills exist and how to find them. An
index that lists them all has neither. The line takes its bytes from the index's
budget, so the index with it is no bigger than the caps allow.
"""

from __future__ import annotations

from collections.abc import Mapping

from satchel._ranking import rank
from satchel._render import Index
from satchel.session._options import SessionOptions
from satchel.skills._model import Skill

__all__ = ["LIST_SKILLS", "SEARCH_SKILLS", "offers", "ranked", "search_line"]

LIST_SKILLS = "list_skills"
SEARCH_SKILLS = "search_skills"


def offers(options: SessionOptions, index: Index) -> bool:
    """Whether a session with `options` whose full index is `index` offers the
    search tools: it has a tool that loads a skill, and the index left skills out."""
    loads = "load_skill" in options.tools or "skills_use" in options.tools
    return loads and bool(index.omitted)


def search_line(_options: SessionOptions) -> str:
    """The index's last line when the search tools are offered."""
    return (
        "More skills are installed than this index lists: call "
        f'{SEARCH_SKILLS}({{"query":"<what the task needs>"}}) to find one by its '
        f"description, or {LIST_SKILLS} to see them all."
    )


def ranked(skills: Mapping[str, Skill], query: str | None) -> dict[str, Skill]:
    """`skills` in order of relevance to `query` (`satchel._ranking.rank`); as given
    without one."""
    if query is None:
        return dict(skills)
    by_id = {id(s): key for key, s in skills.items()}
    return {by_id[id(s)]: s for s in rank(skills, query)}

"""`list_skills` and `search_skills`: every skill within the model's reach when the
index cannot list them all (`satchel.session._discovery` says when).

``list_skills`` is named as in Google ADK's ``SkillToolset`` and, like ADK's, needs
no argument (google/adk-python, src/google/adk/tools/skill_toolset.py, read at
commit 06d995e); ADK's returns every skill as ``<available_skills>`` XML and has no
search tool, so the paging ``offset``, ``search_skills`` and the result shapes are
satchel's own: a JSON object the model reads,

    {"skills": [{"name": "...", "description": "..."}], "total": 812, "next_offset": 100}

for `list_skills` (a page of `PAGE` skills from ``offset``, in precedence order;
``next_offset`` is null on the last page) and

    {"query": "...", "skills": [{"name": "...", "description": "..."}]}

for `search_skills`: the skills whose name, description or `when_to_use` share a
word with the query, most relevant first (`satchel.hosts._ranking`, BM25), at most
``max_results`` of them [`MAX_RESULTS`]. A description is the one the index shows
(`when_to_use` joined), on one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from satchel.core._text import strip_hidden
from satchel.core.diagnostics import diagnostic
from satchel.hosts._ranking import SKILL_FIELDS, bm25_scores, skill_fields
from satchel.index._render import listing_description, model_visible
from satchel.session._discovery import LIST_SKILLS, SEARCH_SKILLS
from satchel.session._model import Tool, ToolResult
from satchel.skills._model import Skill

__all__ = ["MAX_RESULTS", "PAGE", "search_tools"]

MAX_RESULTS = 10
MAX_RESULTS_CAP = 50
PAGE = 100
Skills = Callable[[], Mapping[str, Skill]]


def search_tools(skills: Skills, load: str, names: Callable[[str], str]) -> tuple[Tool, ...]:
    """The two tools over the skills `skills()` gives when called (the session's,
    as they are then), named by `names` (the host's renames); `load` is the tool
    that loads a skill, named in the descriptions."""
    return (
        Tool(
            names(LIST_SKILLS),
            f"List the installed skills with their descriptions, {PAGE} at a time from "
            f"offset, when the index does not show them all. Load one with {load}.",
            {
                "type": "object",
                "properties": {
                    "offset": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Where the page starts (next_offset of the last).",
                    }
                },
                "required": [],
                "additionalProperties": False,
            },
            lambda arguments: list_skills(_visible(skills()), arguments),
            LIST_SKILLS,
        ),
        Tool(
            names(SEARCH_SKILLS),
            "Find installed skills by what they do: the skills whose name or description "
            f"match the query, most relevant first. Load one with {load}.",
            {
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "description": "Words for the task, e.g. 'fill a pdf form'.",
                    },
                    "max_results": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_RESULTS_CAP,
                        "description": f"How many skills at most [{MAX_RESULTS}].",
                    },
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            lambda arguments: search_skills(_visible(skills()), arguments),
            SEARCH_SKILLS,
        ),
    )


def list_skills(skills: Sequence[Skill], arguments: Mapping[str, Any]) -> ToolResult:
    """One page of `skills` (see the module docstring)."""
    offset = arguments.get("offset", 0)
    if offset is None:
        offset = 0
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        return _bad("'offset' must be a whole number, 0 or more")
    page = skills[offset : offset + PAGE]
    after = offset + PAGE
    return ToolResult.of_data(
        {
            "skills": [_entry(s) for s in page],
            "total": len(skills),
            "next_offset": after if after < len(skills) else None,
        }
    )


def search_skills(skills: Sequence[Skill], arguments: Mapping[str, Any]) -> ToolResult:
    """The skills matching the query, most relevant first (see the module docstring)."""
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        return _bad("'query' must be a non-empty string")
    limit = arguments.get("max_results", MAX_RESULTS)
    if limit is None:
        limit = MAX_RESULTS
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_RESULTS_CAP:
        return _bad(f"'max_results' must be a whole number from 1 to {MAX_RESULTS_CAP}")
    scores = bm25_scores([skill_fields(s) for s in skills], query, SKILL_FIELDS)
    order = sorted((i for i, score in enumerate(scores) if score > 0), key=lambda i: -scores[i])
    found = [_entry(skills[i]) for i in order[:limit]]
    return ToolResult.of_data({"query": query, "skills": found})


def _visible(skills: Mapping[str, Skill]) -> list[Skill]:
    return [s for s in skills.values() if model_visible(s)]


def _entry(skill: Skill) -> dict[str, str]:
    description = " ".join(strip_hidden(listing_description(skill)).split())
    return {"name": skill.name, "description": description}


def _bad(message: str) -> ToolResult:
    return ToolResult.error(diagnostic("session.tool.arguments", message))

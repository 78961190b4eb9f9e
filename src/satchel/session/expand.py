"""Explicit invocation (seeds 002 and 004): ``/skill <name> <request>`` and
``/<name> <request>`` put the skill's whole body in the prompt for that turn.

This is the one entry point for slash prompts: commands join it (``slash_order``
decides whether ``/<name>`` tries commands or skills first). A prompt that matches
nothing comes back unchanged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from satchel.errors import SkillsOff, UnknownSkill
from satchel.session import content
from satchel.skills.model import Skill

if TYPE_CHECKING:
    from satchel.session.core import Session

__all__ = ["expand", "parse_slash", "user_invocable"]

_SLASH = re.compile(r"\A\s*/([^\s/]+)(?:[ \t]+|\r?\n|\Z)(.*)\Z", re.S)
_FALSE = frozenset(("false", "no", "off", "0"))


def parse_slash(prompt: str) -> tuple[str, str] | None:
    """(name, rest) for a prompt that starts with ``/name``; None otherwise."""
    found = _SLASH.match(prompt)
    if found is None:
        return None
    return found.group(1), found.group(2).strip()


def user_invocable(skill: Skill) -> bool:
    """False when the skill says ``user-invocable: false`` (Claude Code: model-only)."""
    flag = skill.extras.get("user-invocable", True)
    if isinstance(flag, str):
        return flag.strip().lower() not in _FALSE
    return flag is not False and flag != 0


def expand(session: Session, prompt: str) -> str:
    """`prompt` with an explicit skill invocation expanded; unchanged otherwise."""
    parsed = parse_slash(prompt)
    if parsed is None:
        return prompt
    name, rest = parsed
    if name == "skill":
        target = parse_slash("/" + rest) if rest else None
        if target is not None:
            found = _skill(session, target[0])
            if found is not None:
                return _inline(session, found, target[1])
    found = _skill(session, name)
    return prompt if found is None else _inline(session, found, rest)


def _skill(session: Session, name: str) -> Skill | None:
    try:
        skill = session.find(name)
    except (UnknownSkill, SkillsOff):
        return None
    return skill if user_invocable(skill) else None


def _inline(session: Session, skill: Skill, request: str) -> str:
    body = session.enter(skill, "explicit", shape="body")
    lines = [f"<agent-skill name={content.attribute(skill.name)}>", body]
    if skill.directory is not None:
        lines += ["", f"Skill directory: {skill.directory}"]
    lines.append("</agent-skill>")
    text = "\n".join(lines)
    return f"{text}\n\n{request}" if request else text

"""What Claude Code lists of the skills: the listing block of the first turn it sent.

Claude Code puts the skills listing in the first user message of a turn, one text
among others joined by blank lines: ``The following skills are available for use
with the Skill tool:``, a blank line, and the entries, one a line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.hostloop.hosts import Turn

__all__ = ["HEADER", "QUIET", "listing", "write_settings"]

HEADER = "The following skills are available for use with the Skill tool:"
QUIET: dict[str, Any] = {
    "disableBundledSkills": True,  # its own dataviz, update-config, ... stay out
    "skillOverrides": {"plugin-authoring": "off"},  # the one built-in plugin skill
}
"""User settings that keep Claude Code's own skills out of its listing."""


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [p.get("text", "") for p in content if isinstance(p, dict)]


def listing(turn: Turn) -> str:
    """The listing block (header, blank line, entries) of the first turn, without the
    blank line or the ``</system-reminder>`` line that follows it (the models before
    Opus 4.7 get it inside a system reminder); "" when the turn has none."""
    for request in turn.turns[:1]:
        for message in request.body.get("messages", []):
            for text in _texts(message.get("content", "")):
                start = text.find(HEADER)
                if start < 0:
                    continue
                body = start + len(HEADER) + 2
                ends = [text.find(e, body) for e in ("\n\n", "\n</system-reminder>")]
                found = [e for e in ends if e >= 0]
                return text[start : min(found) if found else len(text)]
    return ""


def write_settings(home: Path, settings: dict[str, Any]) -> None:
    """`~/.claude/settings.json` in the scratch `home`: `QUIET` and `settings`."""
    folder = home / ".claude"
    folder.mkdir(parents=True, exist_ok=True)
    merged = {**QUIET, **settings}
    overrides = {**QUIET["skillOverrides"], **settings.get("skillOverrides", {})}
    merged["skillOverrides"] = overrides
    (folder / "settings.json").write_text(json.dumps(merged), encoding="utf-8")

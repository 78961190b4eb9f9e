"""Command names: the rule, how a file's path becomes a name, and how names compare.

A name segment should match ``[a-z0-9-]+`` (mermaid). One that breaks the rule but
can still be typed after ``/`` (letters, digits, ``_``, ``.``, ``-``) loads with a
warning; anything else (spaces, ``:``, ``/``, the empty string) cannot be typed and
the command is skipped. A name of several segments (``frontend:component``,
``plugin:deploy``) is judged segment by segment.
"""

from __future__ import annotations

import re

from satchel.foundations.precedence import fold_name

__all__ = ["NAME_RULE", "fold", "judge", "segments_name"]

NAME_RULE = re.compile(r"[a-z0-9-]+\Z")
_TYPEABLE = re.compile(r"[A-Za-z0-9_.-]+\Z")

SEPARATOR = ":"


def judge(segment: str) -> str | None:
    """``ok``, ``warning`` (breaks the rule, still typeable) or None (cannot be typed)."""
    if NAME_RULE.match(segment):
        return "ok"
    return "warning" if _TYPEABLE.match(segment) else None


def segments_name(*segments: str) -> str:
    """The name made of `segments`, joined by ``:`` (empty segments left out)."""
    return SEPARATOR.join(s for s in segments if s)


def fold(name: str) -> str:
    """The key names are compared by: case-folded, as skill names are."""
    return fold_name(name)

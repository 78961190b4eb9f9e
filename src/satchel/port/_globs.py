"""A hook's matcher between Claude Code's syntax and Mistral Vibe's (`PortHooks.globs`).

Claude Code's: ``*``, empty or none is every tool; letters, digits, ``_``, ``-`` and
``|`` only are exact names; anything else a regex searched anywhere in the name. Mistral
Vibe's (its ``name_matches``): ``*`` or none is every tool, ``re:<regex>`` a regex
matched against the whole name, anything else a shell glob (``fnmatch``); both
case-insensitive, which Claude Code's are not (a tool's name differs in more than case
in every host port knows).
"""

from __future__ import annotations

import re

__all__ = ["from_glob", "to_glob"]

_NAMES = re.compile(r"[\w-]+(?:\|[\w-]+)*")
_EVERY = ("", "*", ".*")
_MAGIC = re.compile(r"[*?]")


def to_glob(matcher: str | None) -> str | None:
    """Claude Code's `matcher` in Mistral Vibe's syntax."""
    if matcher is None or matcher in _EVERY:
        return matcher if matcher is None else "*"
    if _NAMES.fullmatch(matcher):
        return matcher if "|" not in matcher else f"re:{matcher}"
    return f"re:.*(?:{matcher}).*"


def from_glob(matcher: str | None) -> str | None:
    """Mistral Vibe's `matcher` in Claude Code's syntax: a regex matched whole
    (``re:``) or a glob becomes an anchored regex, an exact name stays one
    (ValueError: a glob with a ``[...]`` class)."""
    if matcher is None or matcher.strip() in ("", "*"):
        return None if matcher is None else "*"
    text = matcher.strip()
    if text.startswith("re:"):
        return f"^({text[3:]})$"
    if "[" in text:
        raise ValueError(f"the glob {text!r} has a [...] class, which port does not translate")
    if not _MAGIC.search(text):
        return text if _NAMES.fullmatch(text) else f"^{re.escape(text)}$"
    return "^" + "".join(_glob_part(c) for c in text) + "$"


def _glob_part(char: str) -> str:
    if char == "*":
        return ".*"
    if char == "?":
        return "."
    return re.escape(char)

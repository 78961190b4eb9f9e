"""Arguments of a slash command: shell-like words, and placeholders filled in a body.

Placeholders (one pass: text that comes in with the arguments is never expanded):

* ``$ARGUMENTS``: everything typed after the name, stripped.
* numbering 1 (seeds 000 and 004, the default): ``$1`` .. ``$9``, the first to ninth
  word. ``$0`` and ``$ARGUMENTS[N]`` are not placeholders (``$ARGUMENTS[0]`` is
  ``$ARGUMENTS`` followed by ``[0]``).
* numbering 0 (Claude Code 2.1.19 and later): ``$0`` .. ``$9`` and ``$ARGUMENTS[N]``,
  counted from 0.

One digit only: ``$10`` is ``$1`` followed by ``0``. A word that was not typed is the
empty string. A backslash right before a placeholder makes it literal (``\\$1`` gives
``$1``). When the body holds no placeholder (an escaped one does not count), a blank
line and the arguments are appended (nothing when there are none). Claude Code's
``!`` shell lines and ``@path`` references are text here: never run, never read.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Numbering", "expand_arguments", "split_arguments"]

Numbering = Literal[1, 0]

_ONE_BASED = re.compile(r"\\?\$(?:ARGUMENTS|([1-9]))")
_ZERO_BASED = re.compile(r"\\?\$(?:ARGUMENTS(?:\[([0-9]+)\])?|([0-9]))")
_MAX_DIGITS = 9


def split_arguments(text: str) -> list[str]:
    """Shell-like words: blanks separate words; single and double quotes group words
    and are removed (``''`` is an empty word); a backslash outside single quotes keeps
    the next character as it is. Never raises: an unclosed quote runs to the end and a
    trailing backslash is kept."""
    words: list[str] = []
    word: list[str] = []
    started = False  # a word is open, even an empty one made by quotes
    quote = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if quote == "'":
            if ch == "'":
                quote = ""
            else:
                word.append(ch)
        elif ch == "\\":
            if i < n:
                word.append(text[i])
                i += 1
            else:
                word.append(ch)
            started = True
        elif quote == '"':
            if ch == '"':
                quote = ""
            else:
                word.append(ch)
        elif ch in "'\"":
            quote, started = ch, True
        elif ch.isspace():
            if started:
                words.append("".join(word))
                word, started = [], False
        else:
            word.append(ch)
            started = True
    if started:
        words.append("".join(word))
    return words


def expand_arguments(body: str, args: str, *, numbering: Numbering = 1) -> str:
    """`body` with its placeholders filled from `args` (the raw text after the
    command name); see the module docstring for the rules."""
    raw = args.strip()
    pattern = _ZERO_BASED if numbering == 0 else _ONE_BASED
    words: list[str] | None = None
    found = False

    def fill(match: re.Match[str]) -> str:
        nonlocal words, found
        text = match.group()
        if text.startswith("\\"):
            return text[1:]
        found = True
        if text == "$ARGUMENTS":
            return raw
        if words is None:
            words = split_arguments(raw)
        digits = next(g for g in match.groups() if g is not None)
        if len(digits) > _MAX_DIGITS:
            return ""  # past any argument list, and int() of it could be refused
        index = int(digits) - numbering
        return words[index] if index < len(words) else ""

    expanded = pattern.sub(fill, body)
    if found or not raw:
        return expanded
    return f"{expanded.rstrip()}\n\n{raw}" if expanded.strip() else raw

"""Arguments of a slash command: shell-like words, and placeholders filled in a body.

Placeholders (one pass: text that comes in with the arguments is never expanded):

* ``$ARGUMENTS``: everything typed after the name, stripped.
* numbering 1 (mermaid and caveman, the default): ``$1`` .. ``$9``, the first to ninth
  word. ``$0`` and ``$ARGUMENTS[N]`` are not placeholders (``$ARGUMENTS[0]`` is
  ``$ARGUMENTS`` followed by ``[0]``).
* numbering 0 (Claude Code 2.1.19 and later): ``$0`` .. ``$9`` and ``$ARGUMENTS[N]``,
  counted from 0.

One digit only: ``$10`` is ``$1`` followed by ``0``. A word placeholder past the last
word typed stays as written (Claude Code 2.1.210): ``$5.00`` in a body is a price
unless five words were typed. A backslash right before a placeholder makes it
literal (``\\$1`` gives ``$1``).

The arguments are appended (after a blank line; nothing when there are none) unless
a placeholder was *filled*: ``$ARGUMENTS``, or a word placeholder with a word to put
in. So ``Fix $1 ($2)`` given one word fills ``$1`` and appends nothing, while
``Seats cost $5.00`` given two words fills nothing and gets them appended. An escaped
placeholder, or one left as written, does not count. Claude Code's ``!`` shell lines
and ``@path`` references are text here: never run, never read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

__all__ = [
    "GEMINI_ARGS",
    "Filler",
    "Numbering",
    "expand_arguments",
    "expand_gemini",
    "split_arguments",
]

Numbering = Literal[1, 0]
GEMINI_ARGS = "{{args}}"

_ONE_BASED = re.compile(r"\\?\$(?:ARGUMENTS|(?P<digit>[1-9]))")
_ZERO_BASED = re.compile(r"\\?\$(?:ARGUMENTS(?:\[(?P<index>[0-9]+)\])?|(?P<digit>[0-9]))")
_MAX_DIGITS = 9
_DOUBLE_QUOTED_ESCAPES = frozenset('"\\$`\n')


def split_arguments(text: str) -> list[str]:
    """Shell-like words (POSIX): blanks separate words; single and double quotes group
    words and are removed (``''`` is an empty word). A backslash outside quotes keeps
    the next character as it is; inside double quotes it does so only before ``"``,
    ``\\``, ``$``, a backquote or a newline, and is kept as written before anything
    else (``"C:\\Users"`` is ``C:\\Users``); inside single quotes it is plain text.
    Never raises: an unclosed quote runs to the end and a trailing backslash is kept."""
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
            i += _escape(text, i, word, in_double=quote == '"')
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


def _escape(text: str, at: int, word: list[str], *, in_double: bool) -> int:
    """Add to `word` what a backslash before ``text[at]`` stands for; how many
    characters after the backslash it took."""
    if at >= len(text):
        word.append("\\")
        return 0
    following = text[at]
    if in_double and following not in _DOUBLE_QUOTED_ESCAPES:
        word.append("\\")
        return 0
    word.append(following)
    return 1


def expand_arguments(body: str, args: str, *, numbering: Numbering = 1) -> str:
    """`body` with its placeholders filled from `args` (the raw text after the
    command name); see the module docstring for the rules."""
    raw = args.strip()
    filler = Filler(raw, numbering=numbering)
    expanded = filler.fill(body)
    if filler.filled or not raw:
        return expanded
    return f"{expanded.rstrip()}\n\n{raw}" if expanded.strip() else raw


class Filler:
    """Fills placeholders in one text or in several pieces of one body (a skill body
    cut around its shell commands), in one pass each: what comes in is never scanned
    again. Beyond a command's placeholders: `names` are a skill's ``arguments:``
    list (``$name`` is the word at its place in that list, counted from 0, and a
    name is a whole word: ``$issue`` in ``$issue_id`` is not one; with no word at its
    place it is the empty string, as code.claude.com/docs/en/skills says: "A named
    placeholder from the arguments frontmatter with no matching argument expands to an
    empty string"), and `variables` are
    ``${NAME}`` values (``${CLAUDE_SKILL_DIR}``); a ``${NAME}`` not given stays as
    written. `filled` says whether an argument placeholder was filled (a variable
    does not count: the arguments are appended unless one was)."""

    __slots__ = ("_names", "_pattern", "_raw", "_variables", "_words", "filled", "numbering")

    def __init__(
        self,
        raw: str,
        *,
        numbering: Numbering = 1,
        names: tuple[str, ...] = (),
        variables: Mapping[str, str] | None = None,
    ) -> None:
        self._raw = raw
        self.numbering = numbering
        self._names = {n: i for i, n in enumerate(names)}
        self._variables = dict(variables or {})
        self._words: list[str] | None = None
        self.filled = False
        self._pattern = _pattern(numbering, tuple(self._names), tuple(self._variables))

    @property
    def arguments(self) -> str:
        """The text typed after the name, stripped."""
        return self._raw

    def fill(self, text: str) -> str:
        """`text` with every placeholder filled."""
        return self._pattern.sub(self._one, text)

    def fill_variables(self, text: str) -> str:
        """`text` with only the ``${NAME}`` variables filled (what a shell command
        gets: the arguments typed never reach a shell)."""
        return self._pattern.sub(lambda m: self._one(m, variables_only=True), text)

    def _one(self, match: re.Match[str], *, variables_only: bool = False) -> str:
        text = match.group()
        if text.startswith("\\"):
            return text[1:]
        groups = match.groupdict()
        variable, index, digit, name = (groups.get(k) for k in ("var", "index", "digit", "name"))
        if variable is not None:
            return self._variables[variable]
        if variables_only:
            return text
        if text == "$ARGUMENTS":
            self.filled = True
            return self._raw
        if name is not None:  # Claude Code: a name with no word expands to ""
            return self._word(self._names[name], "")
        digits = index if index is not None else digit or ""
        if len(digits) > _MAX_DIGITS:
            return text  # past any argument list, and int() of it could be refused
        return self._word(int(digits) - self.numbering, text)

    def _word(self, index: int, text: str) -> str:
        if self._words is None:
            self._words = split_arguments(self._raw)
        if index < 0 or index >= len(self._words):
            return text
        self.filled = True
        return self._words[index]


def _pattern(
    numbering: Numbering, names: tuple[str, ...], variables: tuple[str, ...]
) -> re.Pattern[str]:
    if not names and not variables:
        return _ZERO_BASED if numbering == 0 else _ONE_BASED
    parts = []
    if variables:
        parts.append(r"\{(?P<var>" + "|".join(map(re.escape, variables)) + r")\}")
    parts.append(r"ARGUMENTS(?:\[(?P<index>[0-9]+)\])?" if numbering == 0 else "ARGUMENTS")
    if names:
        longest = sorted(names, key=len, reverse=True)
        parts.append("(?P<name>" + "|".join(map(re.escape, longest)) + r")(?![A-Za-z0-9_])")
    parts.append("(?P<digit>[0-9])" if numbering == 0 else "(?P<digit>[1-9])")
    return re.compile(r"\\?\$(?:" + "|".join(parts) + ")")


def expand_gemini(prompt: str, args: str, name: str) -> str:
    """A Gemini CLI TOML command's `prompt` for ``/name args``, as Gemini CLI builds it
    (packages/cli/src/services/prompt-processors/argumentProcessor.ts,
    shellProcessor.ts): each ``{{args}}`` becomes the arguments as typed, stripped, in
    one pass; a prompt without ``{{args}}`` gets the whole invocation (``/name args``)
    appended after a blank line when there are arguments. ``!{...}`` and ``@{...}`` stay
    as written: nothing is run or read (Gemini CLI shell-escapes ``{{args}}`` inside
    ``!{...}``; satchel runs no command, so it puts them in as typed)."""
    raw = args.strip()
    if GEMINI_ARGS in prompt:
        return prompt.replace(GEMINI_ARGS, raw)
    if not raw:
        return prompt
    return f"{prompt}\n\n/{name} {raw}"

"""Text from skill files is untrusted: escape what a terminal or a reader cannot see."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "closest",
    "did_you_mean",
    "escape",
    "flag",
    "hidden_characters",
    "strip_hidden",
    "yes_or_no",
]

# C0 and C1 controls (but tab and newline), DEL, soft hyphen, zero-width and bidi
# controls, invisible operators, BOM, interlinear annotation, the Unicode tag block,
# and lone surrogates (a file name that is not UTF-8 decodes to them).
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_ESCAPE_ALSO_NEWLINES = re.compile(_HIDDEN.pattern[:-1] + "\t\n]")
_TRUE = frozenset(("true", "yes", "on", "1"))
_FALSE = frozenset(("false", "no", "off", "0"))
# The words YAML 1.1 reads as booleans: satchel's YAML reader keeps yes/no/on/off as
# text (YAML 1.2, as the hosts read frontmatter), and a field that is a boolean takes them
_YAML11_BOOLS = {
    form: meaning
    for word, meaning in (
        ("true", True), ("yes", True), ("on", True),
        ("false", False), ("no", False), ("off", False),
    )
    for form in (word, word.capitalize(), word.upper())
}  # fmt: skip


def _code(ch: str) -> str:
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def escape(text: str, *, newlines: bool = False) -> str:
    """`text` with invisible and control characters written as escapes (``\\x1b``,
    ``\\u202e``). With `newlines`, tabs and newlines are escaped too (one-line fields)."""
    pattern = _ESCAPE_ALSO_NEWLINES if newlines else _HIDDEN
    return pattern.sub(lambda m: _code(m.group()), text)


def strip_hidden(text: str) -> str:
    """`text` without its invisible and control characters (tabs and newlines kept):
    what a model should read of a description it cannot see in full."""
    return _HIDDEN.sub("", text)


def hidden_characters(text: str) -> list[tuple[int, str]]:
    """(offset, U+XXXX) of every invisible, bidi or control character in `text`,
    tabs and newlines excepted."""
    if text.isascii() and text.isprintable():
        return []
    found = [(m.start(), f"U+{ord(m.group()):04X}") for m in _HIDDEN.finditer(text)]
    if not found and not text.isascii():
        found = [
            (i, f"U+{ord(ch):04X}") for i, ch in enumerate(text) if unicodedata.category(ch) == "Cf"
        ]
    return found


def yes_or_no(value: object) -> bool | None:
    """A boolean frontmatter field's value: a bool, or a word YAML 1.1 reads as one
    (``yes``, ``no``, ``on``, ``off``, ``true``, ``false``; lower case, capitalised or
    upper case); None for anything else."""
    if isinstance(value, bool):
        return value
    return _YAML11_BOOLS.get(value) if isinstance(value, str) else None


def flag(value: object, default: bool | None = None) -> bool | None:
    """A bool, 1 or 0, or true/yes/on/1, false/no/off/0 in any case, as a bool; else `default`."""
    if isinstance(value, str):
        word = value.strip().lower()
        return True if word in _TRUE else False if word in _FALSE else default
    if value == 1:  # True too
        return True
    if value == 0:
        return False
    return default


def closest(word: str, known: Iterable[str]) -> str | None:
    """The one name of `known` that `word` most likely meant: the only one it begins
    (``claude`` for ``claude-code``), else the nearest by spelling; None when none is
    near."""
    import difflib

    names = [k for k in dict.fromkeys(known) if k != word]
    folded = word.casefold()
    starting = [k for k in names if k.casefold().startswith(folded)] if folded else []
    if len(starting) == 1:
        return starting[0]
    near = difflib.get_close_matches(folded, [k.casefold() for k in names], n=1, cutoff=0.6)
    return next((k for k in names if near and k.casefold() == near[0]), None)


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'claude-code'?)`` for a name `word` not in `known`, or ""."""
    found = closest(word, known)
    return f" (did you mean {found!r}?)" if found is not None else ""

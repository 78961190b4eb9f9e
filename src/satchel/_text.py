"""Text from skill files is untrusted: escape what a terminal or a reader cannot see."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["escape", "flag", "hidden_characters", "strip_hidden"]

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

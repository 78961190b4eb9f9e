"""Rules that read text: hidden characters, fake truncation markers, shell
interpolation in a skill body, and the prose heuristics.

Text is read as it is on disk (the whole SKILL.md, frontmatter included) so that every
line number is the file's own. Nothing is run: interpolation lines are found with
`satchel.foundations._interpolation.find_commands`, the parser the session itself uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from satchel.audit._model import Finding
from satchel.core._files import FileProblem, read_bounded
from satchel.core._text import escape, hidden_characters
from satchel.foundations import frontmatter
from satchel.foundations._interpolation import find_commands
from satchel.foundations.tokens import MARKER_START
from satchel.kinds.commands._toml import injections
from satchel.skills._model import MAX_SKILL_FILE

__all__ = ["body_findings", "read_text", "text_findings"]

BIDI = frozenset((0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)))
MAX_LISTED = 5  # code points named in one message
_CHECKS: tuple[tuple[str, tuple[str, ...], re.Pattern[str], str], ...] = (
    (
        "A-TXT-FAKE-MARKER",
        ("[truncated", "[output truncated"),
        re.compile(
            re.escape(MARKER_START) + r"|\[truncated by runtime\b|\[output truncated\b", re.I
        ),
        "a line imitates a truncation marker: ",
    ),
    (
        "A-TXT-INSTRUCTION-OVERRIDE",
        ("ignore", "disregard", "forget", "override"),
        re.compile(
            r"\b(?:ignore|disregard|forget|override)[ \t]+(?:all[ \t]+|any[ \t]+)?(?:of[ \t]+)?"
            r"(?:the[ \t]+|your[ \t]+)?(?:previous|prior|above|earlier|system|original)[ \t]+"
            r"(?:instructions?|prompts?|rules|messages|directions)",
            re.I,
        ),
        "this line tells the model to ignore its instructions: ",
    ),
    (
        "A-TXT-CONCEALMENT",
        ("user",),
        re.compile(
            r"\b(?:do[ \t]+not|don't|never)[ \t]+(?:tell|inform|mention|reveal|show|alert|notify)"
            r"\b[^.]{0,40}?\b(?:the[ \t]+)?user\b|\bwithout[ \t]+(?:telling|informing|notifying)"
            r"[ \t]+the[ \t]+user\b",
            re.I,
        ),
        "this line tells the model to hide something from the user: ",
    ),
    (
        "A-TXT-PIPE-TO-SHELL",
        ("curl", "wget", "iwr", "irm"),
        re.compile(r"\b(?:curl|wget|iwr|irm)\b[^|]*\|[ \t]*(?:sudo[ \t]+)?(?:ba|z|da)?sh\b", re.I),
        "this line pipes a download into a shell: ",
    ),
    (
        "A-TXT-EXFILTRATION",
        ("http://", "https://"),
        re.compile(
            r"\b(?:send|upload|post|transmit|forward|exfiltrate)\b"
            r"|\bcurl\b.*[ \t](?:-d|--data\S*|-F|--form|-T|--upload-file)[ \t]",
            re.I,
        ),
        "this line sends data to a URL: ",
    ),
)


def read_text(path: Path) -> str | None:
    """The file's text (at most a SKILL.md's cap), or None when it cannot be read as
    UTF-8: the loader reports that, and there is nothing here to read."""
    try:
        data = read_bounded(path, MAX_SKILL_FILE)
    except FileProblem:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def text_findings(text: str, path: Path, trust: str) -> Iterator[Finding]:
    """Hidden characters, fake markers and heuristic phrasing anywhere in `text`. A
    pattern runs only on the lines holding one of its rule's keywords (a literal
    search), so a long file costs little; a line is reported once per rule."""
    yield from _hidden(text, path, trust)
    lowered = text.lower()
    lines: list[str] | None = None
    for rule, keywords, pattern, what in _CHECKS:
        candidates = _lines_with(lowered, keywords)
        if not candidates:
            continue
        lines = lines if lines is not None else text.split("\n")
        for index in sorted(candidates):
            if pattern.search(lines[index]):
                yield Finding.of(rule, what + _quoted(lines[index]), path, index + 1, trust)


def _lines_with(lowered: str, keywords: tuple[str, ...]) -> set[int]:
    """The 0-based indexes of the lines of `lowered` holding any of `keywords`."""
    found: set[int] = set()
    for word in keywords:
        line, counted, at = 0, 0, lowered.find(word)
        while at >= 0:
            line += lowered.count("\n", counted, at)
            found.add(line)
            counted = at
            after = lowered.find("\n", at)
            at = -1 if after < 0 else lowered.find(word, after + 1)
    return found


def body_findings(text: str, path: Path, trust: str, what: str = "skill") -> Iterator[Finding]:
    """The shell interpolation lines of a SKILL.md or command file body (frontmatter
    skipped); `what` names the file in the message (``skill``, ``command``, ``file``)."""
    data = text.encode("utf-8")
    where = frontmatter.locate(data, complete=True)
    start = where.body_start if where.status == "ok" else 0
    offset_lines = data[:start].count(b"\n")
    body = data[start:].decode("utf-8", "replace")
    if "!" not in body:
        return
    for command in find_commands(body):
        line = offset_lines + body.count("\n", 0, command.start) + 1
        form = "a ```! block" if command.form == "block" else "an inline !`...`"
        message = f"{form} runs {_quoted(command.command)} when the {what} is invoked"
        yield Finding.of("A-EXEC-SHELL-INTERP", message, path, line, trust)


def gemini_findings(text: str, path: Path, trust: str) -> Iterator[Finding]:
    """The ``!{...}`` shell commands of a Gemini CLI TOML command file, which Gemini CLI
    runs when the command is invoked (found in the file's text, so the line is the
    file's own)."""
    for at, command in injections(text):
        line = text.count("\n", 0, at) + 1
        message = f"a !{{...}} runs {_quoted(command)} when the command is invoked (Gemini CLI)"
        yield Finding.of("A-EXEC-SHELL-INTERP", message, path, line, trust)


def _hidden(text: str, path: Path, trust: str) -> Iterator[Finding]:
    by_line: dict[int, tuple[list[str], list[str]]] = {}
    # the offsets come in order: each newline is counted once, as it is passed
    line, start, counted = 1, 0, 0
    for offset, code in hidden_characters(text):
        if _benign(text, offset):
            continue
        passed = text.count("\n", counted, offset)
        if passed:
            line += passed
            start = text.rfind("\n", counted, offset) + 1
        counted = offset
        column = offset - start + 1
        bidi, other = by_line.setdefault(line, ([], []))
        (bidi if int(code[2:], 16) in BIDI else other).append(f"{code} at column {column}")
    for line, (bidi, other) in sorted(by_line.items()):
        if bidi:
            message = f"bidirectional control characters: {_listed(bidi)}"
            yield Finding.of("A-TXT-BIDI", message, path, line, trust)
        if other:
            message = f"invisible or control characters: {_listed(other)}"
            yield Finding.of("A-TXT-HIDDEN-UNICODE", message, path, line, trust)


def _benign(text: str, offset: int) -> bool:
    """A CR ending a CRLF line, or a BOM at the very start, hides nothing."""
    ch = text[offset]
    return (ch == "\r" and text.startswith("\n", offset + 1)) or (ch == "\ufeff" and offset == 0)


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_LISTED])
    more = len(items) - MAX_LISTED
    return shown if more <= 0 else f"{shown} and {more} more"


def _quoted(text: str, width: int = 80) -> str:
    """Untrusted text for a message: one line, escaped, cut to `width` characters."""
    line = escape(" ".join(text.split()), newlines=True)
    cut = line if len(line) <= width else line[: width - 3] + "..."
    return f'"{cut}"'

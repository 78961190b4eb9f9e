"""Split `---` YAML frontmatter from a Markdown body. Pure: bytes in, values out.

The grammar, the same for every file satchel reads:

* An optional UTF-8 byte order mark, then a first line that is exactly ``---``.
* The frontmatter ends at the next line that is exactly ``---``; the body starts on
  the line after it. A ``---`` in the body never reopens frontmatter.
* CRLF and LF line ends give identical results. A lone CR is not a line end, so a
  file that uses only CR has no frontmatter (``frontmatter.missing``).
* ``--- `` with trailing blanks, ``----``, an indented fence, a blank line before the
  fence, and ``...`` as a terminator are not fences.
* The frontmatter is at most `MAX_FRONTMATTER` bytes, checked before parsing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satchel import _fastyaml
from satchel._yaml import YamlProblem, compose_checked
from satchel.diagnostics import Diagnostic, diagnostic, type_name

__all__ = [
    "BOM",
    "MAX_FRONTMATTER",
    "Frontmatter",
    "Location",
    "check_text",
    "decode_body",
    "locate",
    "parse",
]

MAX_FRONTMATTER = 64 * 1024
BOM = b"\xef\xbb\xbf"
FIRST_LINE = 2  # the first line of YAML is line 2 of the file


@dataclass(frozen=True, slots=True)
class Location:
    """Where the fences are: `status` is ok, missing, unterminated, more or too-large."""

    status: str
    yaml_start: int = 0
    yaml_end: int = 0
    body_start: int = 0


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """Parsed frontmatter: `fields` is None when it could not be used at all."""

    fields: dict[str, Any] | None
    body_start: int
    diagnostics: tuple[Diagnostic, ...]


def locate(data: bytes, *, complete: bool) -> Location:
    """Find the fences in `data`, the head of a file (`complete` when it is all of it)."""
    start = 3 if data.startswith(BOM) else 0
    if data.startswith(b"---\n", start):
        yaml_start = start + 4
    elif data.startswith(b"---\r\n", start):
        yaml_start = start + 5
    elif not complete and len(data) - start < 5:
        return Location("more")
    elif data[start:].rstrip(b"\r") == b"---":
        return Location("unterminated", len(data))
    else:
        return Location("missing")
    pos = yaml_start - 1  # the newline that ends the opening fence
    while True:
        hit = data.find(b"\n---", pos)
        if hit < 0:
            break
        after = hit + 4
        if after == len(data) and complete:
            return Location("ok", yaml_start, hit + 1, after)
        if data.startswith(b"\n", after):
            return Location("ok", yaml_start, hit + 1, after + 1)
        if data.startswith(b"\r\n", after):
            return Location("ok", yaml_start, hit + 1, after + 2)
        if after >= len(data) - 1 and not complete:
            break  # the fence may continue past the head
        pos = after
    if len(data) - yaml_start > MAX_FRONTMATTER:
        return Location("too-large", yaml_start)  # the same verdict from a head or a whole file
    return Location("unterminated" if complete else "more", yaml_start)


def parse(data: bytes, path: Path | None = None, *, complete: bool = True) -> Frontmatter:
    """Parse the frontmatter at the head of `data`; problems become diagnostics."""
    loc = locate(data, complete=complete)
    if loc.status != "ok":
        return Frontmatter(None, 0, (_fence_problem(loc, data, path),))
    raw = data[loc.yaml_start : loc.yaml_end]
    if len(raw) > MAX_FRONTMATTER:
        return Frontmatter(None, loc.body_start, (_too_large(len(raw), path),))
    text, problem = _decode(raw, loc.yaml_start, path)
    if problem is not None:
        return Frontmatter(None, loc.body_start, (problem,))
    fields, diags = parse_yaml(text, path)
    return Frontmatter(fields, loc.body_start, diags)


def parse_yaml(
    text: str, path: Path | None = None
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """Parse frontmatter YAML (LF line ends) into a mapping, with the colon fallback."""
    fast = _fastyaml.parse(text)
    if fast is not None:
        return fast, ()
    try:
        value = compose_checked(text)
    except YamlProblem as problem:
        if problem.code == "frontmatter.yaml.syntax":
            retried = _colon_fallback(text, path)
            if retried is not None:
                return retried
        return None, (_yaml_diagnostic(problem, path),)
    return _as_mapping(value, text, path)


def decode_body(data: bytes, body_start: int) -> str:
    """The body after the closing fence: CRLF made LF, leading blank lines and trailing
    whitespace removed. `data` must be valid UTF-8 (see `check_text`)."""
    body = data[body_start:].decode("utf-8")
    if "\r\n" in body:
        body = body.replace("\r\n", "\n")
    return body.lstrip("\n").rstrip()


def check_text(data: bytes, offset: int, path: Path | None) -> Diagnostic | None:
    """A diagnostic when `data` (found at byte `offset` of the file) is not clean UTF-8."""
    _, problem = _decode(data, offset, path)
    return problem


def _decode(raw: bytes, offset: int, path: Path | None) -> tuple[str, Diagnostic | None]:
    nul = raw.find(b"\x00")
    if nul >= 0:
        return "", diagnostic(
            "encoding.nul",
            f"NUL byte at byte offset {offset + nul}",
            path,
            line=_line_at(raw, nul, offset),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return "", diagnostic(
            "encoding.not-utf8",
            f"invalid UTF-8 at byte offset {offset + e.start}",
            path,
            line=_line_at(raw, e.start, offset),
            hint="save the file as UTF-8",
        )
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text, None


def _line_at(raw: bytes, index: int, offset: int) -> int:
    """The file line of byte `index` of `raw`: the whole file, or the YAML from line 2."""
    return raw.count(b"\n", 0, index) + (1 if offset == 0 else FIRST_LINE)


def _fence_problem(loc: Location, data: bytes, path: Path | None) -> Diagnostic:
    if loc.status == "too-large":
        return _too_large(len(data) - loc.yaml_start, path)
    if loc.status in ("unterminated", "more"):
        return diagnostic(
            "frontmatter.unterminated",
            "the frontmatter opened with --- on line 1 has no closing --- line",
            path,
            line=1,
            hint="end the frontmatter with a line that is exactly ---",
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return diagnostic(
            "encoding.not-utf8",
            "the file is UTF-16 (it starts with a UTF-16 byte order mark)",
            path,
            line=1,
            hint="save the file as UTF-8",
        )
    return diagnostic(
        "frontmatter.missing",
        "the file does not start with a --- frontmatter line",
        path,
        line=1,
        hint=_missing_hint(data),
    )


def _missing_hint(data: bytes) -> str:
    first = data.removeprefix(BOM).split(b"\n", 1)[0].rstrip(b"\r")
    if first.strip() == b"---":
        return "the first line must be exactly --- (no spaces around it)"
    if b"\r" in first:
        return "line ends must be LF or CRLF; a lone CR does not end a line"
    if not first.strip():
        return "remove the blank lines before the opening ---"
    return "start the file with ---, then name: and description:, then ---"


def _too_large(size: int, path: Path | None) -> Diagnostic:
    return diagnostic(
        "frontmatter.too-large",
        f"the frontmatter is larger than {MAX_FRONTMATTER} bytes (at least {size} bytes)",
        path,
        line=1,
    )


def _yaml_diagnostic(problem: YamlProblem, path: Path | None) -> Diagnostic:
    line = None if problem.line is None else problem.line + FIRST_LINE
    message = problem.message
    if problem.code == "frontmatter.yaml.syntax":
        message = re.sub(r"\(line (\d+), column (\d+)\)", _shift_line, message)
    return diagnostic(problem.code, message, path, line=line)


def _shift_line(m: re.Match[str]) -> str:
    return f"(line {int(m.group(1)) + FIRST_LINE - 1}, column {m.group(2)})"


def _blank(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.split("\n"))


def _as_mapping(
    value: object, text: str, path: Path | None, diags: tuple[Diagnostic, ...] = ()
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    if value is None and _blank(text):
        value = {}
    if not isinstance(value, dict):
        problem = diagnostic(
            "frontmatter.not-mapping",
            f"the frontmatter must be a mapping of fields, not {type_name(value)}",
            path,
            line=FIRST_LINE,
        )
        return None, (*diags, problem)
    bad = [k for k in value if not isinstance(k, str)]
    if bad:
        problem = diagnostic(
            "frontmatter.field.type",
            f"field names must be strings; found {bad[0]!r}",
            path,
        )
        return {k: v for k, v in value.items() if isinstance(k, str)}, (*diags, problem)
    return value, diags


_COLON_LINE = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(.*\S)[ \t]*$")
_BRACKETS = re.compile(r"^\[[^\[\]]*\](?:[ \t]+\S.*)$")  # Claude's `argument-hint: [a] [b]`


def _colon_fallback(
    text: str, path: Path | None
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]] | None:
    """The client guide's retry: quote top-level values that hold ': ' (and values
    like ``[pr] [priority]``, text after a bracket group) and parse again."""
    lines = text.split("\n")
    colons: list[int] = []
    brackets: list[int] = []
    for i, line in enumerate(lines):
        m = _COLON_LINE.match(line)
        if m is None:
            continue
        value = m.group(2)
        if _BRACKETS.match(value):
            brackets.append(i + FIRST_LINE)
        elif ": " not in value or value[0] in "'\"[{|>&*!":
            continue
        else:
            colons.append(i + FIRST_LINE)
        lines[i] = f"{m.group(1)}: {json.dumps(value, ensure_ascii=False)}"
    if not colons and not brackets:
        return None
    try:
        value = compose_checked("\n".join(lines))
    except YamlProblem:
        return None
    warning = diagnostic(
        "frontmatter.yaml.colon-fallback",
        _fallback_message(colons, brackets),
        path,
        line=min(colons + brackets),
        hint="put the value in quotes",
    )
    return _as_mapping(value, text, path, (warning,))


def _fallback_message(colons: list[int], brackets: list[int]) -> str:
    parts = []
    if colons:
        parts.append(f"line(s) {', '.join(map(str, colons))} hold ': ' in an unquoted value")
    if brackets:
        where = ", ".join(map(str, brackets))
        parts.append(f"line(s) {where} hold text after a [bracket] group in an unquoted value")
    return "; ".join(parts) + "; parsed as if the value were quoted"

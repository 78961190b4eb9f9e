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
from typing import TYPE_CHECKING, Any

from satchel.core import _fastyaml
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name

if TYPE_CHECKING:
    from satchel.core._yaml import YamlProblem

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


@model
class Location:
    """Where the fences are: `status` is ok, missing, unterminated, more or too-large."""

    status: str
    yaml_start: int = 0
    yaml_end: int = 0
    body_start: int = 0


@model
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


def parse(
    data: bytes,
    path: Path | None = None,
    *,
    complete: bool = True,
    keys: frozenset[str] | None = None,
) -> Frontmatter:
    """Parse the frontmatter at the head of `data`; problems become diagnostics.
    `keys`, the format's field names, lets the lenient retry read a value that runs
    on unindented (see `parse_yaml`)."""
    loc = locate(data, complete=complete)
    if loc.status != "ok":
        return Frontmatter(None, 0, (_fence_problem(loc, data, path),))
    raw = data[loc.yaml_start : loc.yaml_end]
    if len(raw) > MAX_FRONTMATTER:
        return Frontmatter(None, loc.body_start, (_too_large(len(raw), path),))
    text, problem = _decode(raw, loc.yaml_start, path)
    if problem is not None:
        return Frontmatter(None, loc.body_start, (problem,))
    fields, diags = parse_yaml(text, path, keys=keys)
    return Frontmatter(fields, loc.body_start, diags)


def parse_yaml(
    text: str, path: Path | None = None, *, keys: frozenset[str] | None = None
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """Parse frontmatter YAML (LF line ends) into a mapping, with the lenient retry
    (`frontmatter.yaml.colon-fallback`) when it is not valid YAML."""
    fast = _fastyaml.parse(text)
    if fast is not None:
        return fast, ()
    from satchel.core._yaml import YamlProblem, compose_checked  # PyYAML: only past the fast path

    try:
        value = compose_checked(text)
    except YamlProblem as problem:
        if problem.code == "frontmatter.yaml.syntax":
            retried = _colon_fallback(text, path, keys)
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
    text = data.removeprefix(BOM)
    if not text.strip():
        return diagnostic(
            "frontmatter.missing",
            "the file is empty: it has no --- frontmatter line, name or description",
            path,
            line=1,
            hint=EMPTY_HINT,
        )
    return diagnostic(
        "frontmatter.missing",
        "the file does not start with a --- frontmatter line",
        path,
        line=1,
        hint=_missing_hint(text),
    )


EMPTY_HINT = "write ---, then name: and description:, then ---, then the instructions"


def _missing_hint(text: bytes) -> str:
    first = text.split(b"\n", 1)[0].rstrip(b"\r")
    if first.strip() == b"---":
        return "the first line must be exactly --- (no spaces around it)"
    if b"\r" in first:
        return "line ends must be LF or CRLF; a lone CR does not end a line"
    if not first.strip() and text.lstrip().startswith(b"---"):
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
_KEY_START = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ \t]|$)")  # a top-level key
_BRACKETS = re.compile(r"^\[[^\[\]]*\](?:[ \t]+\S.*)$")  # Claude's `argument-hint: [a] [b]`
_NOT_PLAIN = "'\"[{|>&*!"  # a value starting so is quoted, a collection, a block or refused
_RESERVED = "`@"  # YAML reserves these at the start of a plain value


@dataclass(slots=True)
class _Retry:
    """The lines of a frontmatter rewritten for the lenient retry, and why (file lines)."""

    lines: list[str]
    colons: list[int]
    ends: list[int]
    brackets: list[int]
    reserved: list[int]
    continued: list[tuple[str, int, int]]  # (key, first continuation line, last)

    @property
    def changed(self) -> list[int]:
        starts = [first - 1 for _, first, _ in self.continued]
        return self.colons + self.ends + self.brackets + self.reserved + starts


def _colon_fallback(
    text: str, path: Path | None, keys: frozenset[str] | None
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]] | None:
    """The client guide's retry: quote top-level values that hold ': ' or end in ':'
    (and values like ``[pr] [priority]``, text after a bracket group, or a value that
    starts with a character YAML reserves) and parse again. Given the format's field
    names (`keys`), an unquoted value whose text runs on at column 0 (``<example>``
    blocks, ``user:`` lines) up to the next known field is read whole, line breaks
    kept."""
    retry = _rewrite(text.split("\n"), keys)
    if not retry.changed:
        return None
    from satchel.core._yaml import YamlProblem, compose_checked

    try:
        value = compose_checked("\n".join(retry.lines))
    except YamlProblem:
        return None
    warning = diagnostic(
        "frontmatter.yaml.colon-fallback",
        _fallback_message(retry),
        path,
        line=min(retry.changed),
        hint="put the value in quotes" if not retry.continued else _CONTINUED_HINT,
    )
    return _as_mapping(value, text, path, (warning,))


_CONTINUED_HINT = "put the value in quotes, or write it as a | block with its lines indented"


def _rewrite(lines: list[str], keys: frozenset[str] | None) -> _Retry:
    retry = _Retry([], [], [], [], [], [])
    run_ends = _run_ends(lines, keys)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _COLON_LINE.match(line)
        if m is None:
            retry.lines.append(line)
            i += 1
            continue
        key, value = m.group(1), m.group(2)
        known = keys is not None and key in keys
        end = run_ends[i] if known and value[0] not in _NOT_PLAIN else None
        if end is not None:
            whole = "\n".join([value, *(lines[j].rstrip() for j in range(i + 1, end))])
            retry.continued.append((key, i + 1 + FIRST_LINE, end - 1 + FIRST_LINE))
            retry.lines.append(f"{key}: {json.dumps(whole, ensure_ascii=False)}")
            i = end
            continue
        why = _single_line(value)
        if why is not None:
            getattr(retry, why).append(i + FIRST_LINE)
            line = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        retry.lines.append(line)
        i += 1
    return retry


def _single_line(value: str) -> str | None:
    """Which rule quotes the one-line plain `value` (a `_Retry` list name), or None."""
    if _BRACKETS.match(value):
        return "brackets"
    if value[0] in _NOT_PLAIN:
        return None
    if value[0] in _RESERVED:
        return "reserved"
    if ": " in value:
        return "colons"
    if value.endswith(":"):
        return "ends"
    return None


def _run_ends(lines: list[str], keys: frozenset[str] | None) -> list[int | None]:
    """For each line, where a value on it ends if its text runs on at column 0: the
    index of the next line that starts a field in `keys`, trailing blank lines left
    out. None without `keys`, or when no line before that is text at column 0 that
    could not start a field. One pass from the end."""
    ends: list[int | None] = [None] * len(lines)
    if keys is None:
        return ends
    tail_end: int | None = None  # after the last non-blank line before the next field
    stray = False
    for i in range(len(lines) - 1, -1, -1):
        if stray:
            ends[i] = tail_end
        line = lines[i]
        start = _KEY_START.match(line)
        if start is not None and start.group(1) in keys:
            tail_end, stray = None, False
            continue
        if tail_end is None and line.strip():
            tail_end = i + 1
        if start is None and line[:1] not in ("", " ", "\t", "#"):
            stray = True
    return ends


def _fallback_message(retry: _Retry) -> str:
    parts = []
    if retry.colons:
        parts.append(f"line(s) {_lines(retry.colons)} hold ': ' in an unquoted value")
    if retry.ends:
        parts.append(f"line(s) {_lines(retry.ends)} end an unquoted value with ':'")
    if retry.brackets:
        where = _lines(retry.brackets)
        parts.append(f"line(s) {where} hold text after a [bracket] group in an unquoted value")
    if retry.reserved:
        where = _lines(retry.reserved)
        parts.append(f"line(s) {where} start an unquoted value with ` or @, which YAML reserves")
    quoted = "; ".join(parts) + "; parsed as if the value were quoted" if parts else ""
    runs = [
        f"lines {first}-{last} continue the unquoted `{key}` value of line {first - 1} "
        "without indentation; read as part of it, line breaks kept"
        for key, first, last in retry.continued
    ]
    return "; ".join(p for p in (quoted, *runs) if p)


def _lines(lines: list[int]) -> str:
    return ", ".join(map(str, lines))

"""Shared output: one JSON document, rich consoles, and untrusted text made safe.

Names, descriptions, messages and paths come from files anyone could have written.
For humans they pass through `satchel.text.escape` and become rich `Text`, which is
never read as markup: ``[bold]`` prints as written and ``\\x1b[2J`` as an escape.
JSON is written ASCII-only, so no raw control or bidi character reaches a terminal.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from satchel.cli._exit import PROBLEMS
from satchel.diagnostics import SEVERITIES, Diagnostic
from satchel.text import escape

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table
    from rich.text import Text

PIPE_WIDTH = 120  # when stdout is not a terminal and COLUMNS is unset
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
HEADINGS = {"error": "Errors", "warning": "Warnings", "info": "Info"}
MIN_DESCRIPTION, MAX_DESCRIPTION = 16, 100


def count(n: int, noun: str) -> str:
    """``1 skill``, ``2 skills``, ``3 info`` (an uncountable noun stays as it is)."""
    return f"{n:,} {noun}" if n == 1 or noun == "info" else f"{n:,} {noun}s"


def see_doctor(diagnostics: Sequence[Diagnostic], about: str = "") -> str:
    """``2 diagnostics about agents; run `satchel doctor` to see them.``"""
    noun = count(len(diagnostics), "diagnostic") + (f" about {about}" if about else "")
    return f"{noun}; run `satchel doctor` to see them."


def print_json(data: object) -> None:
    """Write `data` to stdout as one JSON document."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=True, allow_nan=False) + "\n")


def console(*, stderr: bool = False) -> Console:
    """A console that never reads markup or emoji codes and honours NO_COLOR."""
    from rich.console import Console

    no_color = os.environ.get("NO_COLOR", "") != ""
    out = Console(
        stderr=stderr,
        highlight=False,
        markup=False,
        emoji=False,
        color_system=None if no_color else "auto",
    )
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = PIPE_WIDTH
    return out


def table(*columns: str) -> Table:
    """A borderless table with these column headers."""
    from rich import box
    from rich.table import Table

    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def description_width(total: int, headers: Sequence[str], rows: Iterable[Sequence[str]]) -> int:
    """What columns of `headers` and `rows` leave of `total` for a last description column."""
    widths = [len(header) for header in headers]
    for row in rows:
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
    gaps = 3 * len(headers)  # three spaces between each column and the next
    return max(MIN_DESCRIPTION, min(MAX_DESCRIPTION, total - sum(widths) - gaps))


def one_line(text: str, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


def safe(text: str, *, style: str = "") -> Text:
    """One line of untrusted text: controls, bidi and newlines escaped."""
    from rich.text import Text

    return Text(escape(text, newlines=True), style=style)


def safe_block(text: str) -> Text:
    """Untrusted text that keeps its newlines and tabs (a skill body)."""
    from rich.text import Text

    return Text(escape(text))


def say(line: str) -> None:
    """One line of untrusted text on stdout, escaped and never wrapped."""
    console().print(safe(line), soft_wrap=True)


def shown(path: Path | str | None) -> str:
    """A path for humans: relative to the current directory when it is inside it."""
    if path is None:
        return "-"
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def unrooted(message: str) -> str:
    """`message` with absolute paths under the current directory made relative."""
    prefix = os.path.join(Path.cwd(), "")
    return message if prefix == os.sep else message.replace(prefix, "")


def location(d: Diagnostic) -> str:
    """``path:line`` of a diagnostic, as far as it is known ("" when not at all)."""
    where = "" if d.path is None else shown(d.path)
    return where if d.line is None else f"{where}:{d.line}"


def diagnostic_grid(found: Sequence[Diagnostic], *, indent: int = 0) -> RenderableType:
    """Diagnostics, one per row: severity, then code and place, message and hint
    (wrapped lines keep their indent)."""
    from rich.padding import Padding
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_column(min_width=8, no_wrap=True)
    grid.add_column(overflow="fold")
    for d in found:
        grid.add_row(safe(d.severity, style=SEVERITY_STYLE.get(d.severity, "")), _detail(d))
    return Padding(grid, (0, 0, 0, indent))


def diagnostic_report(con: Console, found: Sequence[Diagnostic]) -> None:
    """``Diagnostics: 1 error, 0 warnings, 0 info``, then a grid per severity."""
    counts = [(sev, [d for d in found if d.severity == sev]) for sev in SEVERITIES]
    summary = ", ".join(count(len(ds), sev) for sev, ds in counts)
    con.print(f"Diagnostics: {summary}", style="bold")
    for severity, ds in counts:
        if ds:
            con.print(HEADINGS[severity], style=SEVERITY_STYLE[severity])
            con.print(diagnostic_grid(ds))


def _detail(d: Diagnostic) -> Text:
    from rich.text import Text

    out = Text()
    out.append_text(safe(d.code, style="bold"))
    where = location(d)
    if where:
        out.append_text(safe(f"  {where}"))
    out.append("\n")
    out.append_text(safe(unrooted(d.message)))
    if d.hint:
        out.append("\nhint: ")
        out.append_text(safe(unrooted(d.hint)))
    return out


def fail(
    code: str,
    message: str,
    *,
    as_json: bool,
    diagnostics: Sequence[Diagnostic] = (),
    suggestions: Sequence[str] = (),
) -> int:
    """Report a refusal with its code (stderr for humans, a JSON document for
    scripts): PROBLEMS."""
    if as_json:
        print_json(
            {
                "code": code,
                "error": message,
                "diagnostics": [d.to_json() for d in diagnostics],
                "suggestions": list(suggestions),
            }
        )
        return PROBLEMS
    err = console(stderr=True)
    err.print(safe(f"satchel: {code}: {unrooted(message)}"), soft_wrap=True)
    if suggestions:
        err.print(safe(f"did you mean: {', '.join(suggestions)}?"), soft_wrap=True)
    if diagnostics:
        err.print(diagnostic_grid(diagnostics))
    return PROBLEMS

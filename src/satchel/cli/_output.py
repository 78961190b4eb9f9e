"""Shared output: one JSON envelope, rich consoles, and untrusted text made safe.

Names, descriptions, messages and paths come from files anyone could have written.
For humans they pass through `satchel.core._text.escape` and become rich `Text`, which is
never read as markup: ``[bold]`` prints as written and ``\\x1b[2J`` as an escape.
JSON is written ASCII-only, so no raw control or bidi character reaches a terminal.

On a terminal every line fits its width and nothing is cut: a table wraps its cells
or prints a block per row (`satchel.cli._fit`), and other text wraps. Anywhere else
(a pipe, a file, CI) nothing is wrapped or cut: every table row and every diagnostic
is one line, as ruff and pre-commit print them, so that ``grep`` finds a whole
finding, and the lines about a report rather than of it go to stderr (`note`).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from satchel.cli import _plain
from satchel.cli._exit import PROBLEMS
from satchel.cli._plain import cell_line, plain_lines
from satchel.core._text import escape
from satchel.core.diagnostics import SEVERITIES, Diagnostic

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.table import Table
    from rich.text import Text

PIPED_WIDTH = 1_000_000  # when the output is not a terminal (COLUMNS is not read)
JSON_VERSION = 1  # the version of the --json envelope (docs: README, "The command line")
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
HEADINGS = {"error": "Errors", "warning": "Warnings", "info": "Info"}


def count(n: int, noun: str) -> str:
    """``1 skill``, ``2 skills``, ``3 info`` (an uncountable noun stays as it is)."""
    return f"{n:,} {noun}" if n == 1 or noun == "info" else f"{n:,} {noun}s"


def see_doctor(diagnostics: Sequence[Diagnostic], about: str = "") -> str:
    """``2 diagnostics about agents; run `satchel doctor` to see them.``, the doctor
    named with this run's scope options (`cli._again`)."""
    from satchel.cli._again import again

    noun = count(len(diagnostics), "diagnostic") + (f" about {about}" if about else "")
    return f"{noun}; run `{again('doctor')}` to see them."


def envelope(
    data: Mapping[str, Any], diagnostics: Iterable[Diagnostic] | None = None
) -> dict[str, Any]:
    """Every verb's JSON: ``{"version": 1, <the verb's data>, "diagnostics": [...]}``.
    `diagnostics` replaces a ``diagnostics`` key of `data`; without either it is []."""
    shown = [d.to_json() for d in diagnostics] if diagnostics is not None else None
    body = {k: v for k, v in data.items() if k not in ("version", "diagnostics")}
    found = shown if shown is not None else data.get("diagnostics", [])
    return {"version": JSON_VERSION, **body, "diagnostics": found}


def print_json(data: Mapping[str, Any], diagnostics: Iterable[Diagnostic] | None = None) -> None:
    """Write `data` to stdout as one JSON document in the envelope (`envelope`)."""
    write_json(envelope(data, diagnostics))


def write_json(document: object) -> None:
    """Write `document` to stdout as it is (SARIF; the envelope goes through print_json)."""
    text = json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False)
    sys.stdout.write(text + "\n")


_plain_verb = False  # whether the running verb prints only what satchel.cli._plain holds


def allow_plain(allowed: bool) -> None:
    """Whether the verb about to run may write through `satchel.cli._plain` when
    nothing is a terminal (its module says ``PLAIN = True``): rich is then never
    imported."""
    global _plain_verb  # set once per verb run, before it prints
    _plain_verb = allowed


def plain() -> bool:
    """Whether output is written without rich (`allow_plain`, `satchel.cli._plain.piped`)."""
    return _plain_verb and _plain.piped()


def console(*, stderr: bool = False) -> Console:
    """A console that never reads markup or emoji codes and honours NO_COLOR."""
    if plain():
        return cast("Console", _plain.Console(stderr=stderr, width=PIPED_WIDTH))

    no_color = os.environ.get("NO_COLOR", "") != ""
    out = _wrapping_console()(
        stderr=stderr,
        highlight=False,
        markup=False,
        emoji=False,
        color_system=None if no_color else "auto",
    )
    if not out.is_terminal:
        out.width = PIPED_WIDTH  # nothing wraps: a line is as long as its text
    return out


@functools.cache
def _wrapping_console() -> type[Console]:
    """A rich `Console` that on a terminal wraps every line to its width, even one
    printed with ``soft_wrap=True`` (which elsewhere keeps it whole): what scrolls
    past is never wider than the terminal."""
    from rich.console import Console

    class WrappingConsole(Console):
        def print(self, *objects: Any, soft_wrap: bool | None = None, **options: Any) -> None:
            wrap = False if self.is_terminal else soft_wrap
            super().print(*objects, soft_wrap=wrap, **options)

    return WrappingConsole


def table(*columns: str, whole: int = 1) -> Table:
    """A borderless table with these column headers: on a terminal it fits the width,
    its first `whole` columns never wrapped and no value cut (`satchel.cli._fit`);
    elsewhere each row is one line, however long (`plain_lines`)."""
    if plain():
        plain_grid = _plain.Table()
        for n, column in enumerate(columns):
            plain_grid.add_column(column, no_wrap=n < whole)
        return cast("Table", plain_grid)
    grid = _fitted_table()(show_edge=False, pad_edge=False, header_style="bold")
    for n, column in enumerate(columns):
        grid.add_column(column, no_wrap=n < whole)
    return grid


def _rows(grid: Table) -> list[list[str]]:
    columns = [[cell_line(cell) for cell in column.cells] for column in grid.columns]
    return [list(row) for row in zip(*columns, strict=True)]


@functools.cache
def _fitted_table() -> type[Table]:
    """A rich `Table` that a terminal gets fitted to its width (`satchel.cli._fit`)
    and anything else as `plain_lines` (made on first use: rich is imported only
    when something is printed)."""
    from rich.segment import Segment
    from rich.table import Table
    from rich.text import Text

    from satchel.cli import _fit

    def text(cell: object) -> Text:
        return cell if isinstance(cell, Text) else Text(str(cell))

    class FittedTable(Table):
        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            if not console.is_terminal:
                headers = [str(c.header) if self.show_header else "" for c in self.columns]
                yield from _segments(plain_lines(headers, _rows(self)))
                return
            cells = [[text(cell) for cell in column.cells] for column in self.columns]
            grid = _fit.Grid(
                headers=tuple(str(c.header) for c in self.columns),
                rows=tuple(zip(*cells, strict=True)),
                whole=sum(1 for c in self.columns if c.no_wrap),
                show_header=self.show_header,
            )
            for line in _fit.fit(grid, options.max_width):
                yield from line.render(console)
                yield Segment.line()

    return FittedTable


def _segments(lines: Iterable[str]) -> Iterator[Any]:
    """Lines as rich segments, which a console writes without wrapping them."""
    from rich.segment import Segment

    for line in lines:
        yield Segment(line)
        yield Segment.line()


def one_line(text: str) -> str:
    """`text` on one line: its runs of blanks and line breaks one space, nothing cut."""
    return " ".join(text.split())


def safe(text: str, *, style: str = "") -> Text:
    """One line of untrusted text: controls, bidi and newlines escaped."""
    if plain():
        return cast("Text", _plain.Text(escape(text, newlines=True)))
    from rich.text import Text

    return Text(escape(text, newlines=True), style=style)


def safe_block(text: str) -> Text:
    """Untrusted text that keeps its newlines and tabs (a skill body)."""
    if plain():
        return cast("Text", _plain.Text(escape(text)))
    from rich.text import Text

    return Text(escape(text))


def say(line: str) -> None:
    """One line of untrusted text on stdout, escaped (wrapped only on a terminal)."""
    console().print(safe(line), soft_wrap=True)


def note(line: str) -> None:
    """A line about a report rather than of it (the project line above it, a count or
    a pointer to `satchel doctor` below it, what is found when nothing is): on stdout
    beside the report on a terminal, on stderr when stdout is not one, so that a pipe
    reads the report's rows alone."""
    out = console()
    where = out if out.is_terminal else console(stderr=True)
    where.print(safe(line), soft_wrap=True)


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


def rule(title: str) -> RenderableType:
    """A rule with an untrusted title: across a terminal; elsewhere ``--- title ---``."""
    return _Rule(escape(title, newlines=True))


class _Rule:
    def __init__(self, title: str) -> None:
        self.title = title

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.rule import Rule
        from rich.text import Text

        if console.is_terminal:
            yield Rule(Text(self.title), characters="-")
        else:
            yield from _segments(self.plain_lines())

    def plain_lines(self) -> Iterator[str]:
        yield f"--- {self.title} ---"


def diagnostic_grid(
    found: Sequence[Diagnostic], *, indent: int = 0, label: str = "hint"
) -> RenderableType:
    """Diagnostics: on a terminal one per row (severity, then code and place, message
    and hint; wrapped lines keep their indent); elsewhere one line each,
    ``path:line: severity code: message (hint: ...)`` (`diagnostic_line`); `label`
    names the hint (``fix``)."""
    return _Diagnostics(tuple(found), indent, label)


def diagnostic_line(d: Diagnostic, label: str = "hint") -> str:
    """One diagnostic on one line, escaped, its paths relative to the current directory."""
    where = location(d)
    head = f"{where}: " if where else ""
    hint = f" ({label}: {unrooted(d.hint)})" if d.hint else ""
    line = f"{head}{d.severity} {d.code}: {unrooted(d.message)}{hint}"
    return escape(line, newlines=True)


class _Diagnostics:
    def __init__(self, found: tuple[Diagnostic, ...], indent: int, label: str) -> None:
        self.found, self.indent, self.label = found, indent, label

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.padding import Padding
        from rich.table import Table

        if not console.is_terminal:
            yield from _segments(self.plain_lines())
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(min_width=8, no_wrap=True)
        grid.add_column(overflow="fold")
        for d in self.found:
            severity = safe(d.severity, style=SEVERITY_STYLE.get(d.severity, ""))
            grid.add_row(severity, _detail(d, self.label))
        yield Padding(grid, (0, 0, 0, self.indent))

    def plain_lines(self) -> Iterator[str]:
        return (" " * self.indent + diagnostic_line(d, self.label) for d in self.found)


def diagnostic_report(con: Console, found: Sequence[Diagnostic]) -> None:
    """``Diagnostics: 1 error, 0 warnings, 0 info``, then a grid per severity."""
    counts = [(sev, [d for d in found if d.severity == sev]) for sev in SEVERITIES]
    summary = ", ".join(count(len(ds), sev) for sev, ds in counts)
    con.print(f"Diagnostics: {summary}", style="bold")
    for severity, ds in counts:
        if ds:
            con.print(HEADINGS[severity], style=SEVERITY_STYLE[severity])
            con.print(diagnostic_grid(ds))


def _detail(d: Diagnostic, label: str = "hint") -> Text:
    from rich.text import Text

    out = Text()
    out.append_text(safe(d.code, style="bold"))
    where = location(d)
    if where:
        out.append_text(safe(f"  {where}"))
    out.append("\n")
    out.append_text(safe(unrooted(d.message)))
    if d.hint:
        out.append(f"\n{label}: ")
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
        refusal = {"code": code, "message": message, "suggestions": list(suggestions)}
        print_json({"error": refusal}, diagnostics)
        return PROBLEMS
    err = console(stderr=True)
    err.print(safe(f"satchel: {code}: {unrooted(message)}"), soft_wrap=True)
    if suggestions:
        err.print(safe(f"did you mean: {', '.join(suggestions)}?"), soft_wrap=True)
    if diagnostics:
        err.print(diagnostic_grid(diagnostics))
    return PROBLEMS

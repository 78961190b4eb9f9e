"""Output without rich: what a console prints when it is not a terminal.

Importing rich costs about half of a ``python -c "import yaml"`` (docs/performance.md,
"Start-up"), and a console that is not a terminal uses none of it: no colour, no width,
no wrapping. A verb whose output is only lines, `table` rows and diagnostics says so
(``PLAIN = True`` in its module), and when neither stdout nor stderr is a terminal (and
no variable tells rich to act as one) `satchel.cli._output` hands it these stand-ins,
which write what rich would write there: the same text, one line per row.

They hold only what such verbs call: `Text` (``append``, ``append_text``, ``+``,
``plain``), `Table` (``add_column``, ``add_row``, ``columns``) and `Console` (``print``,
``is_terminal``, ``width``). Anything else given to `Console.print` must render itself
as lines (``plain_lines()``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import IO

# rich reads these to treat a stream as a terminal (or not) whatever isatty says
TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
CONTROL = dict.fromkeys((0x07, 0x08, 0x0B, 0x0C, 0x0D))  # what rich's Text drops
TAB_SIZE = 8  # rich's default


def piped() -> bool:
    """Whether no output stream is a terminal and nothing asks rich to act as one."""
    if any(name in os.environ for name in TERMINAL_VARIABLES):
        return False
    return not any(_isatty(stream) for stream in (sys.stdout, sys.stderr))


def _isatty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # a closed stream
        return False


class Text:
    """Text whose style is dropped (no colour off a terminal)."""

    def __init__(self, text: str = "", style: str = "") -> None:
        self.plain = text.translate(CONTROL)

    def append(self, text: str, style: str | None = None) -> Text:
        self.plain += text.translate(CONTROL)
        return self

    def append_text(self, text: Text) -> Text:
        self.plain += text.plain
        return self

    def __add__(self, other: Text | str) -> Text:
        more = other.plain if isinstance(other, Text) else str(other).translate(CONTROL)
        return Text(self.plain + more)

    def __str__(self) -> str:
        return self.plain


class Column:
    """A table column: its header and its cells."""

    def __init__(self, header: str, no_wrap: bool) -> None:
        self.header, self.no_wrap = header, no_wrap
        self.cells: list[object] = []


class Table:
    """A table that prints as aligned lines (`satchel.cli._output.plain_lines`)."""

    show_header = True

    def __init__(self) -> None:
        self.columns: list[Column] = []

    def add_column(self, header: str = "", *, no_wrap: bool = False, overflow: str = "") -> None:
        self.columns.append(Column(header, no_wrap))

    def add_row(self, *cells: object) -> None:
        for column, cell in zip(self.columns, cells, strict=True):
            column.cells.append(cell)

    def plain_lines(self) -> Iterator[str]:
        rows = zip(*(column.cells for column in self.columns), strict=True)
        shown = [[cell_line(cell) for cell in row] for row in rows]
        yield from plain_lines([c.header for c in self.columns], shown)


class Console:
    """A console that is not a terminal: it writes each line whole."""

    is_terminal = False

    def __init__(self, *, stderr: bool, width: int) -> None:
        self.stderr, self.width = stderr, width

    @property
    def file(self) -> IO[str]:
        return sys.stderr if self.stderr else sys.stdout

    def print(
        self,
        *objects: object,
        style: str | None = None,
        soft_wrap: bool = False,
        end: str = "\n",
    ) -> None:
        """Write `objects` as rich would off a terminal: separated by a space, then
        `end`; a renderable that is lines writes each one whole."""
        if len(objects) == 1 and hasattr(objects[0], "plain_lines"):
            self.file.write("".join(line + "\n" for line in objects[0].plain_lines()))
            return
        parts: list[str] = []
        for item in objects:
            lines = getattr(item, "plain_lines", None)
            if lines is not None:
                parts.append("".join(line + "\n" for line in lines()).removesuffix("\n"))
            elif hasattr(item, "__rich_console__") or hasattr(item, "__rich__"):
                raise TypeError(f"a PLAIN verb printed a rich renderable: {type(item)!r}")
            else:
                text = item.plain if isinstance(item, Text) else str(item).translate(CONTROL)
                parts.append(text.expandtabs(TAB_SIZE))
        self.file.write(" ".join(parts) + end)

    def flush(self) -> None:
        self.file.flush()


def cell_line(cell: object) -> str:
    """A cell as one line: a Text's plain text, its line breaks two spaces."""
    text = cell.plain if hasattr(cell, "plain") else str(cell)
    return "  ".join(part for part in text.split("\n") if part) or "-"


def plain_lines(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Iterator[str]:
    """A table as lines: the header (when there is one), then one line per row, the
    columns aligned and the last one whole, however long."""
    shown = [list(headers), *rows] if any(headers) else list(rows)
    if not shown:
        return
    widths = [max(len(row[i]) for row in shown) for i in range(len(headers) - 1)]
    for row in shown:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        yield "  ".join([*cells, row[-1]]).rstrip()

"""A table fitted to a terminal's width, never cutting a column or a value.

A table whose columns fit side by side at their natural widths prints as it is. In
one that does not, its first columns (the names) and every column at most `MIN_WRAP`
wide stay whole, and the wider ones share what is left of the width, each wrapped at
spaces (a path after a ``/``). When they cannot each get `MIN_WRAP`, or when one is
narrower than `READABLE` and the table would not save a quarter of the lines, each
row becomes a block, one value a line beside its column's header, as ``kubectl
describe`` and ``psql``'s expanded display print a record::

    name                  code-review
    scope                 user
    description and path  Review code changes and leave comments.
                          examples/home/.config/satchel/skills/code-review/SKILL.md

Every line is at most the width, and every value is printed whole, so that what
scrolls past on a terminal holds everything a pipe gets (`satchel.cli._plain`).
Widths are counted in terminal cells (a wide character takes two).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

GAP = 3  # blanks between two columns
MIN_WRAP = 12  # the narrowest a wrapped column is made (one at most this wide stays whole)
PATH_BREAK = "/\\"  # where a word longer than its column is broken first
BREAK_AFTER = "-_.,:;=&?"  # where else it may be
INDENT = 2  # a value under its header, on a terminal too narrow to put it beside
RULE = "─"
READABLE = 30  # a wrapped column at least this wide keeps a table however tall


@dataclass(frozen=True)
class Grid:
    """A table to fit: its headers, its cells by row, and how many leading columns
    must not be wrapped (`whole`)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[Text, ...], ...]
    whole: int
    show_header: bool = True


def fit(grid: Grid, width: int) -> list[Text]:
    """`grid` as lines no longer than `width`: a table when its columns fit side by
    side; when they must wrap, a table if every wrapped column is at least `READABLE`
    wide or it saves a quarter of the lines a block per row takes (a block, each value
    at full width, reads more easily than a row wrapped in narrow columns); else a
    block per row."""
    natural = _natural(grid)
    widths = column_widths(natural, grid.whole, width)
    if widths == natural:
        return list(_table(grid, widths))
    blocks = list(_blocks(grid, width))
    if widths is None:
        return blocks
    table = list(_table(grid, widths))
    wrapped = min(w for w, n in zip(widths, natural, strict=True) if w < n)
    return table if wrapped >= READABLE or 4 * len(table) <= 3 * len(blocks) else blocks


def column_widths(natural: Sequence[int], whole: int, width: int) -> list[int] | None:
    """Each column's width: its natural width when all fit in `width`; otherwise the
    first `whole` and those at most `MIN_WRAP` wide keep theirs and the others share
    the rest, the narrowest first (one narrower than its share keeps its natural
    width). None when a shared column would be narrower than `MIN_WRAP`, or when
    the columns that stay whole leave no room."""
    room = width - GAP * (len(natural) - 1)
    if sum(natural) <= room:
        return list(natural)
    widths = list(natural)
    shared = [i for i in range(whole, len(natural)) if natural[i] > MIN_WRAP]
    left = room - sum(natural) + sum(natural[i] for i in shared)
    pending = sorted(shared, key=lambda i: natural[i])
    while pending:
        share, extra = divmod(left, len(pending))
        if natural[pending[0]] <= share:
            left -= natural[pending[0]]
            pending.pop(0)
            continue
        for n, i in enumerate(pending):
            widths[i] = share + (1 if n >= len(pending) - extra else 0)
        break
    if sum(widths) > room or any(widths[i] < MIN_WRAP for i in shared):
        return None
    return widths


def wrap(text: Text, width: int) -> list[Text]:
    """`text` in lines of at most `width` cells: its own line breaks kept, each line
    broken at spaces, a word longer than `width` after a `BREAK_AFTER` character
    (or, when it has none, anywhere)."""
    lines: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        lines.extend(line[start:end] for start, end in spans(line.plain, width))
    return lines or [Text("")]


def spans(line: str, width: int) -> list[tuple[int, int]]:
    """Where `wrap` breaks one line: (start, end) offsets, without the spaces at a break."""
    found: list[tuple[int, int]] = []
    start, size = 0, len(line)
    while True:
        if found:
            while start < size and line[start] == " ":
                start += 1
        rest = line[start:]
        if cell_len(rest) <= width:
            if rest.strip() or not found:
                found.append((start, len(line.rstrip(" ")) if rest.strip() else start))
            return found
        end = start + _fitting(rest, width)
        space = line.rfind(" ", start, end + 1)
        if space > start and line[start:space].strip():
            found.append((start, len(line[:space].rstrip(" "))))
            start = space + 1
            continue
        found.append((start, _word_break(line, start, end, width)))
        start = found[-1][1]


def _word_break(line: str, start: int, end: int, width: int) -> int:
    """Where to break a word that runs past `end`: after its last `PATH_BREAK` past a
    third of `width`, else after its last `BREAK_AFTER` past half of it, else at `end`."""
    for chars, least in ((PATH_BREAK, width // 3), (BREAK_AFTER, width // 2)):
        cut = max(line.rfind(c, start, end) for c in chars)
        if cut >= start and cut + 1 - start >= max(least, 1):
            return cut + 1
    return end


def _fitting(text: str, width: int) -> int:
    """How many characters of `text` fit in `width` cells (at least one)."""
    used = 0
    for n, char in enumerate(text):
        used += cell_len(char)
        if used > width:
            return max(n, 1)
    return len(text)


def _natural(grid: Grid) -> list[int]:
    """Each column's widest line: its header's, or its widest cell's."""
    widths = [cell_len(h) if grid.show_header else 0 for h in grid.headers]
    for row in grid.rows:
        for n, cell in enumerate(row):
            longest = max((cell_len(line) for line in cell.plain.split("\n")), default=0)
            widths[n] = max(widths[n], longest)
    return widths


def _table(grid: Grid, widths: Sequence[int]) -> Iterator[Text]:
    if grid.show_header and any(grid.headers):
        yield from _row([Text(h, style="bold") for h in grid.headers], widths)
        yield Text(RULE * (sum(widths) + GAP * (len(widths) - 1)))
    for row in grid.rows:
        yield from _row(row, widths)


def _row(cells: Sequence[Text], widths: Sequence[int]) -> Iterator[Text]:
    """One row, as many lines as its tallest cell, the columns `GAP` apart."""
    wrapped = [wrap(cell, width) for cell, width in zip(cells, widths, strict=True)]
    for n in range(max(len(lines) for lines in wrapped)):
        line = Text()
        for column, (lines, width) in enumerate(zip(wrapped, widths, strict=True)):
            part = lines[n] if n < len(lines) else Text("")
            line.append_text(part)
            if column < len(widths) - 1:
                line.append(" " * (width - part.cell_len + GAP))
        line.rstrip()
        yield line


def _blocks(grid: Grid, width: int) -> Iterator[Text]:
    """A block per row, blocks a blank line apart: each value on its own lines beside
    its column's header (the first in bold); where the terminal is too narrow for a
    value beside its header, the value goes under it, indented."""
    labels = [h if grid.show_header else "" for h in grid.headers]
    label_width = max((cell_len(label) for label in labels), default=0)
    column = label_width + 2 if label_width else 0
    beside = width - column >= MIN_WRAP
    for n, row in enumerate(grid.rows):
        if n:
            yield Text("")
        for m, (label, cell) in enumerate(zip(labels, row, strict=True)):
            style = "bold" if m == 0 else ""
            yield from _field(label, _styled(cell, style), column if beside else None, width)


def _field(label: str, cell: Text, column: int | None, width: int) -> Iterator[Text]:
    """One value beside its label (at `column`), or under it when `column` is None."""
    if column is None:
        if label:
            yield from wrap(Text(label, style="bold"), width)
        column = min(INDENT, max(width - 1, 0)) if label else 0
        label = ""
    for n, part in enumerate(wrap(cell, max(width - column, 1))):
        line = Text(label.ljust(column) if n == 0 and label else " " * column)
        line.append_text(part)
        line.rstrip()
        yield line


def _styled(text: Text, style: str) -> Text:
    styled = text.copy()
    styled.stylize(style)
    return styled

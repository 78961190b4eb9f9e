"""A table fitted to a terminal (`satchel.cli._fit`): at any width, no line is wider
than the terminal, and every cell's text is there, in order, whatever its width."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from satchel.cli._fit import RULE, Grid, column_widths, fit, wrap

from .support import PROPS

_WORD = st.text(alphabet="ab/-. 漢", min_size=0, max_size=30)
_CELL = st.lists(_WORD, min_size=1, max_size=3).map("\n".join)


def squeezed(text: str) -> str:
    return "".join(text.split())


@PROPS
@given(text=_CELL, width=st.integers(2, 40))  # a wide character takes two
def test_a_wrapped_cell_keeps_every_character_and_fits(text, width):
    lines = wrap(Text(text), width)
    assert all(line.cell_len <= width for line in lines)
    assert squeezed("".join(line.plain for line in lines)) == squeezed(text)


@st.composite
def _grids(draw: st.DrawFn) -> Grid:
    columns = draw(st.integers(1, 9))
    headers = draw(
        st.lists(st.text(alphabet="hd ", max_size=14), min_size=columns, max_size=columns)
    )
    rows = draw(
        st.lists(st.lists(_CELL, min_size=columns, max_size=columns), min_size=1, max_size=4)
    )
    return Grid(
        headers=tuple(headers),
        rows=tuple(tuple(Text(cell) for cell in row) for row in rows),
        whole=draw(st.integers(0, columns)),
    )


@PROPS
@given(grid=_grids(), width=st.integers(8, 120))
def test_a_fitted_table_is_never_wider_than_the_terminal_and_drops_nothing(grid, width):
    lines = fit(grid, width)
    assert [line.plain for line in lines if line.cell_len > width] == []
    shown = Counter(squeezed("".join(line.plain for line in lines)).replace(RULE, ""))
    cells = Counter(squeezed("".join(cell.plain for row in grid.rows for cell in row)))
    headers = Counter(squeezed("".join(grid.headers)))
    as_table, as_blocks = cells + headers, cells + sum([headers] * len(grid.rows), Counter())
    assert shown in (as_table, as_blocks)


def test_the_columns_fit_side_by_side_when_they_can():
    assert column_widths([10, 10, 10], 1, 36) == [10, 10, 10]


def test_names_stay_whole_and_narrow_columns_keep_their_width():
    # 80 columns: the name (20) and the status (7) keep theirs, the two wide share the rest
    assert column_widths([20, 7, 30, 100], 1, 80) == [20, 7, 22, 22]
    # one narrower than its share keeps its width, and the widest gets what it leaves
    assert column_widths([20, 7, 16, 100], 1, 80) == [20, 7, 16, 28]


def test_no_table_when_a_wrapped_column_would_be_narrower_than_min_wrap():
    assert column_widths([40, 7, 100], 1, 60) is None


def test_no_table_when_the_columns_that_stay_whole_do_not_fit():
    # nine narrow columns (compat's host table), 87 cells wide on a terminal of 80
    assert column_widths([11, 6, 8, 6, 5, 3, 12, 7, 5], 1, 80) is None


def test_a_path_breaks_after_a_slash():
    lines = wrap(Text("examples/workspace/.satchel/skills/code-review/SKILL.md"), 30)
    assert [line.plain for line in lines] == [
        "examples/workspace/.satchel/",
        "skills/code-review/SKILL.md",
    ]


def test_wide_characters_count_two_cells():
    lines = wrap(Text("漢字漢字漢字"), 5)
    assert [line.plain for line in lines] == ["漢字", "漢字", "漢字"]


def _grid(*rows: tuple[str, ...], headers: tuple[str, ...]) -> Grid:
    return Grid(headers, tuple(tuple(Text(c) for c in row) for row in rows), whole=1)


def test_a_table_whose_columns_fit_stays_a_table():
    lines = fit(_grid(("name", "value"), headers=("key", "what")), 20)
    assert [line.plain for line in lines] == ["key    what", "─" * 12, "name   value"]


def test_a_table_wrapped_in_a_narrow_column_becomes_blocks():
    # the example's shadowed skills (doctor) on 60 columns: the path would wrap in 18
    rows = [
        (name, kept, source, f"examples/{root}/skills/{name}/SKILL.md")
        for name, kept, source, root in (
            ("release", "kept", "project .satchel", "workspace/.satchel"),
            ("release", "hidden", "project .claude", "workspace/.claude"),
            ("code-review", "kept", "project .claude", "workspace/.claude"),
            ("code-review", "hidden", "user .satchel", "home/.config/satchel"),
        )
    ]
    lines = [line.plain for line in fit(_grid(*rows, headers=HEADERS), 60)]
    assert lines[:5] == [
        "name  release",
        "      kept",
        "from  project .satchel",
        "path  examples/workspace/.satchel/skills/release/SKILL.md",
        "",
    ]


def test_a_table_wrapped_in_a_wide_column_stays_a_table():
    about = "Write and tidy CHANGELOG.md entries in the Keep a Changelog style. " * 3
    lines = [
        line.plain for line in fit(_grid(("changelog", "", "user", about), headers=HEADERS), 100)
    ]
    assert lines[0].split() == ["name", "from", "path"]
    assert lines[2].startswith("changelog      user   Write and tidy")
    assert all(len(line) <= 100 for line in lines)


HEADERS = ("name", "", "from", "path")

"""`satchel plugin inspect`'s sections for output styles, themes, channels, workflows
and hooks modules: one table each, shown when the plugin has any."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from satchel.cli import _output as out
from satchel.plugins import Plugin

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["KIND_SECTIONS"]


def _rel(plugin: Plugin, path: Path) -> str:
    try:
        return path.relative_to(plugin.root).as_posix()
    except ValueError:
        return out.shown(path)


def _table(
    con: Console, title: str, headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]
) -> None:
    if not rows:
        return
    con.print()
    con.print(f"{title}: {len(rows)}", style="bold")
    grid = out.table(*headers)
    for row in rows:
        grid.add_row(*(out.safe(cell) for cell in row))
    con.print(grid)


def _styles(con: Console, title: str, plugin: Plugin) -> None:
    rows = [
        (
            s.id,
            "keeps coding instructions" if s.keep_coding_instructions else "replaces them",
            "forced" if s.force_for_plugin else "-",
            f"{s.description or '-'}  {_rel(plugin, s.path)}",
        )
        for s in plugin.output_styles
    ]
    _table(con, title, ("style", "system prompt", "force", "description and path"), rows)


def _themes(con: Console, title: str, plugin: Plugin) -> None:
    rows = [(t.id, t.title or "-", t.base or "-", _rel(plugin, t.path)) for t in plugin.themes]
    _table(con, title, ("theme", "name", "base", "path"), rows)


def _channels(con: Console, title: str, plugin: Plugin) -> None:
    rows = [(c.server, ", ".join(c.user_config) or "-") for c in plugin.channels]
    _table(con, title, ("MCP server", "options"), rows)


def _workflows(con: Console, title: str, plugin: Plugin) -> None:
    rows = [
        (w.id, f"{w.description or '-'}  {_rel(plugin, w.path)}", "recognised, not run")
        for w in plugin.workflows
    ]
    _table(con, title, ("workflow", "description and path", "runs"), rows)


def _modules(con: Console, title: str, plugin: Plugin) -> None:
    rows = [(m.relative, ", ".join(m.events) or "-", "recognised, not run") for m in plugin.modules]
    _table(con, title, ("module", "events it hooks", "runs"), rows)


KIND_SECTIONS: tuple[tuple[str, Callable[[Console, str, Plugin], None]], ...] = (
    ("Output styles", _styles),
    ("Themes", _themes),
    ("Channels", _channels),
    ("Workflows", _workflows),
    ("Hooks modules", _modules),
)

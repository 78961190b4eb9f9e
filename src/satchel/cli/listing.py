"""`satchel list`: the skills that load, in precedence order."""

from __future__ import annotations

from pathlib import Path

from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._workspace import environment
from satchel.environment import Environment
from satchel.skills.model import Skill

MIN_DESCRIPTION, MAX_DESCRIPTION = 16, 100
COLUMN_GAPS = 9  # three spaces between each of the four columns
WORDS = ("name", "scope", "family")


def list_skills(
    *,
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    as_json: bool,
) -> int:
    """List the skills that load, in precedence order.

    `satchel doctor` says what did not load and why."""
    env = environment(directory, project, home, client)
    if as_json:
        out.print_json([skill.to_json() for skill in env.skills.values()])
    else:
        _print(env)
    return OK


def _print(env: Environment) -> None:
    con = out.console()
    if not env.skills:
        con.print("No skills found; `satchel doctor` shows where satchel looked.")
        return
    skills = list(env.skills.values())
    width = _description_width(skills, con.width)
    grid = out.table(*WORDS, "description and path")
    for skill in skills:
        cell = out.safe(one_line(skill.description, width))
        cell.append("\n")
        cell.append_text(out.safe(out.shown(skill.path), style="dim"))
        grid.add_row(out.safe(skill.name), out.safe(skill.scope), out.safe(skill.family), cell)
    con.print(grid)
    if env.diagnostics:
        found = out.count(len(env.diagnostics), "diagnostic")
        con.print(f"{found}; run `satchel doctor` to see them.")


def _description_width(skills: list[Skill], total: int) -> int:
    """What the other columns leave for the description, so it fits on one line."""
    columns = (
        max(len(WORDS[0]), *(len(s.name) for s in skills)),
        max(len(WORDS[1]), *(len(s.scope) for s in skills)),
        max(len(WORDS[2]), *(len(s.family) for s in skills)),
    )
    return max(MIN_DESCRIPTION, min(MAX_DESCRIPTION, total - sum(columns) - COLUMN_GAPS))


def one_line(text: str, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"

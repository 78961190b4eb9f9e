"""`satchel list`: the skills that load, in precedence order."""

from __future__ import annotations

from satchel.assembly._environment import Environment
from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._held import held_back
from satchel.cli._held import say as say_held
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project

WORDS = ("name", "scope", "family")

PLAIN = True  # only lines, tables and diagnostics: no rich when piped (cli._plain)
RUNS_NOTHING = True  # loads and checks only: no signal handling needed (cli._run)

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the skills that load, in precedence order.

    A conditional skill (paths:) is listed with its patterns: a session offers it
    once a file it matches is touched. `satchel doctor` says what did not load and
    why; when the project is not trusted, a line on stderr names what it holds back
    and the command that trusts it."""
    env = loaded(here)
    held = held_back(env)
    if as_json:
        skills = [skill.to_json() for skill in env.skills.values()]
        document = {"project": str(env.layout.project), "skills": skills}
        out.print_json(document, (*env.diagnostics, *held))
    else:
        say_project(env.layout, here.project)
        _print(env)
        say_held(held)
    return OK


def _print(env: Environment) -> None:
    con = out.console()
    if not env.skills:
        out.note(f"No skills found; `{again('doctor')}` shows where satchel looked.")
        return
    skills = list(env.skills.values())
    grid = out.table(*WORDS, "description and path")
    for skill in skills:
        cell = out.safe(out.one_line(skill.description))
        cell.append("\n")
        cell.append_text(out.safe(out.shown(skill.path), style="dim"))
        if skill.paths is not None:
            cell.append_text(out.safe(f"  (when a file matches {', '.join(skill.paths)})"))
        grid.add_row(out.safe(skill.name), out.safe(skill.scope), out.safe(skill.family), cell)
    con.print(grid)
    if env.diagnostics:
        out.note(out.see_doctor(env.diagnostics))

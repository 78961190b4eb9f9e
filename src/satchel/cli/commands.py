"""`satchel commands`: the slash-command palette, in precedence order."""

from __future__ import annotations

from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project
from satchel.kinds.commands import CommandSet

WORDS = ("command", "origin", "arguments")

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the slash commands that load, in precedence order.

    Each with its origin, argument hint, description and file; aliases follow.
    `satchel doctor` shows the shadowed ones and what did not load."""
    env = loaded(here)
    found = env.commands
    if as_json:
        out.print_json({"project": str(env.layout.project), **found.to_json()})
    else:
        say_project(env.layout, here.project)
        _print(found)
    return OK


def _print(found: CommandSet) -> None:
    con = out.console()
    listed = list(found.commands.values())
    if not listed:
        out.note(f"No commands found; `{again('doctor')}` shows what did not load.")
    else:
        grid = out.table(*WORDS, "description and path")
        for command in listed:
            cell = out.safe(out.one_line(command.description) or "-")
            cell.append("\n")
            cell.append_text(out.safe(out.shown(command.path or "(defined in code)"), style="dim"))
            grid.add_row(
                out.safe(f"/{command.name}"),
                out.safe(command.tag),
                out.safe(command.argument_hint or ""),
                cell,
            )
        con.print(grid)
    if found.aliases:
        con.print()
        con.print("Aliases", style="bold")
        for alias, canonical in found.aliases.items():
            con.print(out.safe(f"/{alias} → /{canonical}"))
    if found.diagnostics:
        out.note("")
        out.note(out.see_doctor(found.diagnostics, "commands"))

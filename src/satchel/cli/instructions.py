"""`satchel instructions`: a host's instruction files (AGENTS.md, CLAUDE.md, rules, ...) in
prompt order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import Choice, json_option, shared
from satchel.cli._workspace import layout, say_project
from satchel.core.diagnostics import Diagnostic
from satchel.kinds._instructions import MODES, InstructionFile, InstructionMode, load_instructions

if TYPE_CHECKING:
    from satchel.hosts import Host

PARAMS = (
    shared("directory", "project", "home", "client", "host"),
    click.Option(
        ["--mode"],
        type=Choice(tuple(MODES)),
        default=None,
        help="satchel (the default): AGENTS.md else CLAUDE.md, then the client's file; "
        "codex: Codex's root-to-DIR AGENTS.md files; claude-code, cursor, gemini, "
        "copilot: that host's files and rules (default with --host: the host's).",
    ),
    click.Option(
        ["--paths", "paths_only"], is_flag=True, help="List the files without their text."
    ),
    json_option(),
)


def run(
    *,
    here: Here,
    mode: InstructionMode | None,
    paths_only: bool,
    as_json: bool,
) -> int:
    """List the instruction files in prompt order, then their text.

    These are the files a host puts in the system prompt; a later one wins on
    conflict. satchel reads AGENTS.md, else CLAUDE.md, for the user and the project,
    then the client's own file (SATCHEL.md); codex reads AGENTS.override.md or
    AGENTS.md from the git root down to DIR, 32 KiB in all; the other modes read
    that host's files. A conditional rule is listed with when it applies."""
    lay = layout(here.directory, here.project, here.home, here.client, here.profile)
    chosen = mode or _mode_of(here.profile)
    files, found = ((), ()) if chosen is None else load_instructions(lay, mode=chosen)
    found = (*here.profile_problems, *found)
    if as_json:
        document = {"project": str(lay.project), "mode": chosen}
        out.print_json({**document, "files": [f.to_json() for f in files]}, found)
    elif chosen is None:
        say_project(lay, here.project)
        out.console().print(f"The {here.host} host reads no instruction files.")
    else:
        say_project(lay, here.project)
        _print(files, found, mode=chosen, paths_only=paths_only)
    return OK


def _mode_of(host: Host | None) -> InstructionMode | None:
    """The instruction mode of the `host` profile (satchel's without one)."""
    return "satchel" if host is None else host.instructions


def _print(
    files: Sequence[InstructionFile],
    found: Sequence[Diagnostic],
    *,
    mode: InstructionMode,
    paths_only: bool,
) -> None:
    con = out.console()
    if not files:
        out.note(f"No instruction files found ({mode} mode).")
    else:
        grid = out.table("#", "scope", "kind", "path")
        for number, f in enumerate(files, 1):
            where = out.safe(out.shown(f.path))
            if f.truncated:
                where.append(" (cut at the size cap)", style="yellow")
            if not f.always:
                where.append(f" ({_when(f)})", style="cyan")
            grid.add_row(str(number), out.safe(f.scope), out.safe(f.kind), where)
        con.print(grid)
    if found:
        con.print()
        con.print(out.diagnostic_grid(found))
    if paths_only:
        return
    for f in files:
        con.print()
        con.print(out.rule(f.label))
        con.print(out.safe_block(f.text.strip("\n")) if f.text.strip() else out.safe("(empty)"))


def _when(f: InstructionFile) -> str:
    """When a conditional file applies, in a few words."""
    condition = f.condition
    if condition.applies == "globs":
        return "for " + ", ".join(condition.globs)
    if condition.applies == "description":
        return "when the agent asks for it"
    return "only when named"

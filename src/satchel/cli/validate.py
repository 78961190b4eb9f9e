"""`satchel validate PATH...`: check skills as their author, one by one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.skills.check import Checked, check_paths


def validate(
    *,
    paths: Sequence[Path],
    strict: bool,
    unicode_names: bool,
    client: str,
    as_json: bool,
) -> int:
    """Check skills as their author; exit 1 on errors.

    Each PATH is a skill directory, its SKILL.md, or a directory whose
    subdirectories are skills. --strict applies the Agent Skills spec exactly."""
    checked = check_paths(paths, strict=strict, unicode_names=unicode_names, client=client)
    if as_json:
        out.print_json([c.to_json() for c in checked])
    else:
        _print(checked)
    return OK if all(c.ok for c in checked) else PROBLEMS


def _print(checked: list[Checked]) -> None:
    con = out.console()
    for c in checked:
        if c.ok:
            name = c.skill.name if c.skill else ""
            line = out.safe("ok    ", style="green") + out.safe(name)
            con.print(line + out.safe(f"  {out.shown(c.path)}", style="dim"), soft_wrap=True)
        else:
            verdict = out.safe("fail  ", style="bold red")
            con.print(verdict + out.safe(out.shown(c.path)), soft_wrap=True)
        if c.diagnostics:
            con.print(out.diagnostic_grid(c.diagnostics, indent=6))
    failed = sum(not c.ok for c in checked)
    con.print(
        f"{out.count(len(checked), 'skill')} checked: {len(checked) - failed} ok, {failed} failed"
    )

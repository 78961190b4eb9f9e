"""`satchel validate PATH...`: check skills as their author, one by one."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.skills.read import SKILL_FILE, parse_skill


@dataclass(frozen=True, slots=True)
class Checked:
    """One validated skill: the path given (or found), its name when it parsed."""

    path: Path
    name: str | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.name is not None and not any(d.severity == "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "name": self.name,
            "ok": self.ok,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


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
    checked = [_check(p, strict, unicode_names, client) for p in _targets(paths)]
    if as_json:
        out.print_json([c.to_json() for c in checked])
    else:
        _print(checked)
    return OK if all(c.ok for c in checked) else PROBLEMS


def _targets(paths: Sequence[Path]) -> Iterator[Path]:
    for given in paths:
        path = Path(os.path.abspath(given))
        children = _skill_children(path)
        yield from children or [path]


def _skill_children(path: Path) -> list[Path]:
    """The subdirectories holding SKILL.md when `path` is a directory of skills."""
    if not path.is_dir() or os.path.lexists(path / SKILL_FILE):
        return []
    return sorted(
        (child for child in path.iterdir() if os.path.lexists(child / SKILL_FILE)),
        key=lambda child: child.name,
    )


def _check(path: Path, strict: bool, unicode_names: bool, client: str) -> Checked:
    if not os.path.lexists(path):
        missing = diagnostic("skill.read.error", "no such file or directory", path)
        return Checked(path, None, (missing,))
    skill, diags = parse_skill(path, strict=strict, unicode_names=unicode_names, client=client)
    return Checked(path, None if skill is None else skill.name, diags)


def _print(checked: list[Checked]) -> None:
    con = out.console()
    for c in checked:
        if c.ok:
            line = out.safe("ok    ", style="green") + out.safe(c.name or "")
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

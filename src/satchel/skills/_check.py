"""Check skills as their author: each given path is a skill, its SKILL.md, or a
directory of skills (read as a skills root is, so the same rules apply)."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import WalkBounds
from satchel.skills._discover import skill_dirs
from satchel.skills._model import Skill
from satchel.skills._read import SKILL_FILE, parse_skill

__all__ = ["Checked", "check_paths"]


@model
class Checked:
    """One checked skill (or a path that is none): the skill when it passed."""

    path: Path
    skill: Skill | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.skill is not None and all(d.severity != "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "name": None if self.skill is None else self.skill.name,
            "ok": self.ok,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def check_paths(
    paths: Sequence[str | os.PathLike[str]],
    *,
    strict: bool = False,
    unicode_names: bool = False,
    client: str = "satchel",
    deprecated: Sequence[str] | None = None,
) -> list[Checked]:
    """Parse and validate every skill the paths name, in order; never raises for a
    bad path or file. `deprecated`: as `parse_skill` takes it."""
    out: list[Checked] = []
    for given in paths:
        for path, problems in _targets(Path(os.path.abspath(given))):
            if problems:
                out.append(Checked(path, None, problems))
                continue
            skill, diags = parse_skill(
                path,
                strict=strict,
                unicode_names=unicode_names,
                client=client,
                deprecated=deprecated,
            )
            out.append(Checked(path, skill, diags))
    return out


def _targets(path: Path) -> list[tuple[Path, tuple[Diagnostic, ...]]]:
    """The skills to parse under `path`, or the problem that stops it."""
    try:
        os.lstat(path)
    except OSError as e:
        reason = "no such file or directory" if e.errno == errno.ENOENT else e.strerror
        return [(path, (diagnostic("skill.read.error", f"cannot read: {reason}", path),))]
    if not os.path.isdir(path) or os.path.lexists(path / SKILL_FILE):
        return [(path, ())]
    found, diags = skill_dirs(str(path), WalkBounds())
    targets: list[tuple[Path, tuple[Diagnostic, ...]]] = [(Path(d), ()) for d in found]
    targets += [(d.path or path, (d,)) for d in diags]
    if not targets:
        none = diagnostic("skill.read.error", f"no {SKILL_FILE} here or in a subdirectory", path)
        targets.append((path, (none,)))
    return sorted(targets, key=lambda t: str(t[0]))

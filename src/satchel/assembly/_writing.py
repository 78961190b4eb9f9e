"""Writing the skills a host defines in code (`load(write=...)`): an explicit step that
`load()` runs before it reads, never a side effect of reading."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout, Root
from satchel.skills._model import Skill

__all__ = ["WRITTEN", "WrittenSkills", "write_skills"]

WRITTEN = "written"


@model
class WrittenSkills:
    """What `write_skills` did: the root the skills load from (scope ``written``), the
    files it wrote, and each skill it could not write."""

    root: Root
    paths: tuple[Path, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def write_skills(layout: Layout, skills: Sequence[Skill]) -> WrittenSkills:
    """Write the skills defined in code under the layout's `write_root` (what
    ``load(write=...)`` does before it reads); a skill that cannot be written, or a
    layout without `write_root`, is a ``skill.write.failed`` diagnostic."""
    from satchel.skills._authoring import write_skill  # writing is rare; keep load() lean

    root = Root(layout.write_root or Path(), WRITTEN, "write")
    if layout.write_root is None:
        problem = diagnostic("skill.write.failed", "the layout has no write_root", None)
        return WrittenSkills(root, diagnostics=(problem,))
    paths: list[Path] = []
    problems: list[Diagnostic] = []
    for skill in skills:
        try:
            paths.append(write_skill(layout.write_root, skill))
        except (OSError, ValueError) as e:
            problems.append(
                diagnostic(
                    "skill.write.failed",
                    f"cannot write skill {skill.name!r}: {getattr(e, 'strerror', None) or e}",
                    layout.write_root / skill.name,
                )
            )
    return WrittenSkills(root, tuple(paths), tuple(problems))

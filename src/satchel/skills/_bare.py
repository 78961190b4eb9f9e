"""A ``SKILL.md`` with no frontmatter, read as Claude Code reads one in a plugin.

Claude Code loads such a skill with a warning ("No frontmatter block found"): it is
named by its directory, and, as its docs say of a missing ``description``, described
by the first paragraph of its Markdown. The whole file is its body. The Agent Skills
spec requires the frontmatter, so satchel does this only where Claude Code's rule for
plugin skills applies; everywhere else such a file is skipped (``frontmatter.missing``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from satchel.core._files import FileProblem, read_bounded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.origin import Origin
from satchel.skills._fields import FieldRules, build_skill
from satchel.skills._model import MAX_SKILL_FILE, Skill

__all__ = ["MAX_DESCRIPTION", "first_paragraph", "read_bare_skill"]

MAX_DESCRIPTION = 1024  # characters: the spec's bound on a description


def first_paragraph(text: str) -> str:
    """The first run of non-blank lines that is not a heading, on one line, at most
    `MAX_DESCRIPTION` characters (cut at a word boundary); "" when there is none."""
    block: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            if block:
                break
            continue
        if not block and stripped.startswith("#"):
            continue
        block.append(stripped)
    joined = " ".join(" ".join(block).split())
    if len(joined) <= MAX_DESCRIPTION:
        return joined
    cut = joined[: MAX_DESCRIPTION - 1].rsplit(" ", 1)[0]
    return cut + "…"


def read_bare_skill(
    path: Path, rules: FieldRules, *, dir_name: str, origin: Origin
) -> tuple[Skill | None, list[Diagnostic]]:
    """The skill at `path` (a SKILL.md without frontmatter) named `dir_name`, and a
    ``frontmatter.missing`` warning saying how it was read."""
    try:
        data = read_bounded(path, MAX_SKILL_FILE)
        st = os.stat(path)
    except (FileProblem, OSError):
        return None, []
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    description = first_paragraph(text)
    fields = {"name": dir_name, "description": description} if description else {"name": dir_name}
    skill, found = build_skill(
        fields,
        path,
        rules,
        origin=origin,
        dir_name=dir_name,
        stamp=(st.st_size, st.st_mtime_ns),
        by_dir=True,
    )
    message = (
        "the file does not start with a --- frontmatter line; loaded as Claude Code loads "
        "a plugin skill: named by its directory, described by its first paragraph"
    )
    warning = diagnostic(
        "frontmatter.missing",
        message,
        path,
        severity="warning",
        hint="add a frontmatter block with name and description",
    )
    if skill is None:
        return None, found
    return replace(skill, instructions=text), [warning, *found]

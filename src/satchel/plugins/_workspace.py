"""The workspace as a plugin (caveman): the project's own ``skills/`` and ``commands/``.

A repository that keeps its skills in ``skills/<name>/SKILL.md`` and its commands in
``commands/*.md`` at the project root gets them loaded as a plugin named after the
project directory (lowercased; ``workspace`` when that cannot name a plugin), so its
skills are ``<name>:<skill>`` and its commands ``<name>:<command>``.
``include_workspace_plugin=False`` turns this off.
"""

from __future__ import annotations

import re
from pathlib import Path

from satchel.core.diagnostics import Diagnostic
from satchel.plugins._context import Ctx
from satchel.plugins._model import Plugin
from satchel.plugins.components._parts import load_commands, load_skills

__all__ = ["load_workspace"]

_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")


def load_workspace(
    project: Path, *, scope: str = "project"
) -> tuple[Plugin | None, list[Diagnostic]]:
    """The workspace plugin of `project`, or None when it has neither folder."""
    ctx = Ctx.of(project, executable=False)
    skills_dir, commands_dir = ctx.fixed("skills"), ctx.fixed("commands")
    if skills_dir is None and commands_dir is None:
        return None, ctx.diags
    ctx.name = ctx.namespace = workspace_name(project)
    skills = [] if skills_dir is None else load_skills(ctx, skills_dir, match_dir=False)
    commands = [] if commands_dir is None else load_commands(ctx, [commands_dir])
    return ctx.plugin("workspace", scope, skills=tuple(skills), commands=tuple(commands)), ctx.diags


def workspace_name(project: Path) -> str:
    """The project directory's name, lowercased, when it can name a plugin."""
    name = project.name.lower()
    return name if _NAME.match(name) else "workspace"

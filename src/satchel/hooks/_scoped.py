"""The hooks a skill declares in its own frontmatter, read as a hooks file is.

Claude Code's skill frontmatter (2.1.332 schema: "Hooks registered while this skill is
active. Same shape as settings.json `hooks`"; code.claude.com/docs/en/skills):
``hooks: {Event: [{matcher, hooks: [{type: command, command, once}]}]}``. `skill_hooks`
reads that field; the skill's hooks are named by their owner, ``skill:<name>``
(`skill_owner`), as an agent type's are ``agent:<name>`` (`agent_owner`), so a listing,
a trust pin and the runner name each hook alike.
"""

from __future__ import annotations

from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.origin import Origin
from satchel.hooks._parse import claude_hooks
from satchel.hooks._spec import HookSpec
from satchel.skills._model import Skill

__all__ = ["agent_owner", "skill_hooks", "skill_owner"]


def skill_owner(name: str) -> str:
    """How a skill's own hooks are named: ``skill:<name>``."""
    return f"skill:{name}"


def agent_owner(name: str) -> str:
    """How an agent type's own hooks are named: ``agent:<name>``."""
    return f"agent:{name}"


def skill_hooks(skill: Skill) -> tuple[tuple[HookSpec, ...], tuple[Diagnostic, ...], Origin]:
    """The hooks of `skill`'s ``hooks`` field (none when it has no such field), what was
    wrong with them (a bad handler is skipped, the rest kept), and the origin they run
    with: a plugin skill's is its plugin's (its hooks run in the plugin root), any other
    the skill's own file's."""
    origin = (
        skill.origin
        if skill.plugin is not None
        else Origin(skill.origin.scope, skill.origin.family, path=skill.path)
    )
    declared = skill.extras.get("hooks")
    if declared is None:
        return (), (), origin
    where = skill.path or Path(skill.name)
    specs, problems = claude_hooks({"hooks": declared}, where, skill_owner(skill.name))
    return specs, tuple(map(_as_file_problem, problems)), origin


def _as_file_problem(problem: Diagnostic) -> Diagnostic:
    """A bad handler in a SKILL.md is a hooks file's problem, not a plugin's."""
    if problem.code != "plugin.hooks.invalid":
        return problem
    return diagnostic("hook.file.invalid", problem.message, problem.path, hint=problem.hint)

"""A skill's own ``hooks``: registered while it is active, removed when it is not.

Claude Code's skill frontmatter (2.1.332 schema: "Hooks registered while this skill
is active. Same shape as settings.json `hooks`"; code.claude.com/docs/en/skills):
``hooks: {Event: [{matcher, hooks: [{type: command, command, once}]}]}``. A handler
with ``once: true`` runs once and is then removed for the rest of the activation.
The hooks run through the same runner as every other hook and aggregate with them
(declared after the environment's). A project skill's hooks run only when the
project's executable configuration does (its trust), and none runs when the
environment was loaded declarative-only. The organisation's policy refuses a skill's
hooks as it refuses those of a file (`satchel._policed.hooks`: marked skipped, each
refusal reported).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from satchel._environment import Environment
from satchel._policed import hooks as policed_hooks
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.hooks._load import compile_hooks
from satchel.hooks._model import Hook, Outcome
from satchel.hooks._parse import claude_hooks
from satchel.layout import PROJECT
from satchel.origin import Origin
from satchel.skills._model import Skill

__all__ = ["SkillHooks", "read_skill_hooks"]


def read_skill_hooks(
    environment: Environment, skill: Skill
) -> tuple[tuple[Hook, ...], tuple[Diagnostic, ...]]:
    """The hooks of `skill`'s ``hooks`` field (none when it has no such field), and
    what was wrong with them (a bad handler is skipped, the rest kept)."""
    declared = skill.extras.get("hooks")
    if declared is None:
        return (), ()
    where = skill.path or Path(skill.name)
    specs, problems = claude_hooks({"hooks": declared}, where, f"skill:{skill.name}")
    origin = (
        skill.origin
        if skill.plugin is not None
        else Origin(skill.origin.scope, skill.origin.family, path=skill.path)
    )
    found = compile_hooks(
        specs,
        origin,
        project=skill.scope == PROJECT,
        trusted=environment.trust.run_project,
        executable=environment.options.executable,
    )
    found = policed_hooks(found, environment.policy)  # a refused hook is marked skipped
    return found.hooks, (*map(_as_file_problem, problems), *found.diagnostics)


def _as_file_problem(problem: Diagnostic) -> Diagnostic:
    """A bad handler in a SKILL.md is a hooks file's problem, not a plugin's."""
    if problem.code != "plugin.hooks.invalid":
        return problem
    return diagnostic("hook.file.invalid", problem.message, problem.path, hint=problem.hint)


@dataclass(slots=True)
class SkillHooks:
    """The hooks of the active skills, by skill, in activation order."""

    _by_skill: dict[str, tuple[Hook, ...]] = field(default_factory=dict)

    def add(self, name: str, hooks: Iterable[Hook]) -> None:
        self._by_skill[name] = tuple(hooks)

    def remove(self, name: str) -> None:
        self._by_skill.pop(name, None)

    def clear(self) -> None:
        self._by_skill.clear()

    def __contains__(self, name: object) -> bool:
        return name in self._by_skill

    def __bool__(self) -> bool:
        return any(self._by_skill.values())

    def for_event(self, event: str) -> tuple[Hook, ...]:
        """The loaded hooks of `event`, skill by skill."""
        return tuple(
            h for hooks in self._by_skill.values() for h in hooks if h.loaded and h.event == event
        )

    def ran(self, outcome: Outcome) -> None:
        """Drop the ``once: true`` hooks that answered in `outcome`."""
        done = [r.hook for r in outcome.results if r.hook.spec.extras.get("once") is True]
        if not done:
            return
        for name, hooks in self._by_skill.items():
            self._by_skill[name] = tuple(h for h in hooks if not any(h is d for d in done))

"""A skill's own ``hooks``: registered while it is active, removed when it is not.

Claude Code's skill frontmatter (2.1.332 schema: "Hooks registered while this skill
is active. Same shape as settings.json `hooks`"; code.claude.com/docs/en/skills):
``hooks: {Event: [{matcher, hooks: [{type: command, command, once}]}]}``. A handler
with ``once: true`` runs once and is then removed for the rest of the activation.
The hooks run through the same runner as every other hook and aggregate with them
(declared after the environment's). They are the environment's to judge
(`Environment.own_hooks`): a project skill's hooks run only when the project's
executable configuration does (its trust), and not when they are new or changed since
`satchel trust` pinned the folder; none runs when the environment was loaded
declarative-only; the organisation's policy refuses a skill's hooks as it refuses
those of a file (marked skipped, each refusal reported).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic
from satchel.hooks._model import Hook, Outcome
from satchel.skills._model import Skill

__all__ = ["SkillHooks", "read_skill_hooks"]


def read_skill_hooks(
    environment: Environment, skill: Skill
) -> tuple[tuple[Hook, ...], tuple[Diagnostic, ...]]:
    """The hooks of `skill`'s ``hooks`` field (none when it has no such field), and
    what was wrong with them (a bad handler is skipped, the rest kept)."""
    found = environment.own_hooks(skill)
    return found.hooks, found.diagnostics


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

"""A skill's tool rules, parsed once per session: what its ``allowed-tools`` let
through (placeholders filled, `satchel.session._substitute`) and what its
``disallowed-tools`` take away, each problem reported the first time."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import satchel.session._substitute as substitute
from satchel.assembly._environment import Environment
from satchel.core.diagnostics import Diagnostic
from satchel.foundations.permissions import RuleSet, parse_rules
from satchel.skills._model import Skill

__all__ = ["SkillRules"]


class SkillRules:
    """The parsed rules of every skill the session activated, by skill name."""

    def __init__(self, note: Callable[[Iterable[Diagnostic]], None]) -> None:
        self._note = note
        self._allowed: dict[str, RuleSet] = {}
        self._denied: dict[str, RuleSet] = {}

    def allowed(self, environment: Environment, skill: Skill) -> RuleSet:
        """`skill`'s ``allowed-tools`` as rules."""
        rules = self._allowed.get(skill.name)
        if rules is None:
            texts = substitute.rule_texts(environment, skill, skill.allowed_tools)
            rules = self._allowed[skill.name] = self._parsed(texts, skill)
        return rules

    def denied(self, skill: Skill) -> RuleSet:
        """`skill`'s ``disallowed-tools`` as rules."""
        rules = self._denied.get(skill.name)
        if rules is None:
            rules = self._denied[skill.name] = self._parsed(skill.disallowed_tools, skill)
        return rules

    def _parsed(self, texts: Iterable[str], skill: Skill) -> RuleSet:
        parsed, problems = parse_rules(texts, path=skill.path)
        self._note(problems)
        return RuleSet(parsed)

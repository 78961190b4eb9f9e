"""The skills a host turned off in its own config file, as its `HostState` says
(Codex: ``[[skills.config]]`` in ``~/.codex/config.toml``)::

    [[skills.config]]
    path = "~/.agents/skills/noisy/SKILL.md"          # one SKILL.md
    enabled = false

    [[skills.config]]
    name = "docs:draft"                                # every skill of that name
    enabled = false

Codex 0.171.0 (openai/codex codex-rs/core-skills/src/config_rules.rs; observed with
``codex debug prompt-input``) reads the rules of the user's config file only. An entry
names a ``path`` (a SKILL.md, compared after symlinks; a relative one is taken from
the config file's folder) or a ``name`` (the name as listed: a plugin's skill is
``<plugin>:<skill>``), never both; ``enabled`` says whether that skill loads. A later
entry with the same selector replaces an earlier one; the rules apply in order, so the
last that matches a skill decides. An entry that cannot be used is skipped, as Codex
skips it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._host_state import HostConfig, HostState, dotted
from satchel.skills._model import Skill

__all__ = ["SkillRules", "skill_rules"]


@model
class SkillRules:
    """A host's skill rules, in the order they apply: (``path`` or ``name``, the value,
    enabled); `where` the file they were read from."""

    rules: tuple[tuple[str, str, bool], ...] = ()
    where: Path | None = None
    title: str = ""

    def verdict(self, skill: Skill) -> Diagnostic | None:
        """Why `skill` is turned off (None: the rules leave it on)."""
        if not self.rules or skill.path is None:
            return None
        real = os.path.realpath(skill.path)
        off = False
        for kind, value, enabled in self.rules:
            if (kind == "path" and value == real) or (kind == "name" and value == skill.name):
                off = not enabled
        if not off:
            return None
        message = (
            f"skill {skill.name!r} is turned off by {self.title}'s [[skills.config]] in "
            f"{self.where}; it is not loaded"
        )
        return diagnostic("skill.disabled", message, skill.path)


def skill_rules(state: HostState, config: HostConfig) -> SkillRules:
    """`state`'s skill rules as the user's config file sets them (see the module
    docstring)."""
    if state.skill_rules is None:
        return SkillRules()
    entries = dotted(config.user, state.skill_rules)
    if not isinstance(entries, list):
        return SkillRules()
    base = config.user_path.parent
    rules: list[tuple[str, str, bool]] = []
    for entry in entries:
        rule = _rule(entry, base, config.home)
        if rule is not None:
            rules = [r for r in rules if r[:2] != rule[:2]]
            rules.append(rule)
    return SkillRules(tuple(rules), config.user_path, state.title)


def _rule(entry: object, base: Path, home: Path | None) -> tuple[str, str, bool] | None:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("enabled"), bool):
        return None
    path, name = entry.get("path"), entry.get("name")
    if isinstance(path, str) and name is None and path:
        return "path", os.path.realpath(base / _home(path, home)), entry["enabled"]
    if isinstance(name, str) and path is None and name.strip():
        return "name", name.strip(), entry["enabled"]
    return None


def _home(path: str, home: Path | None) -> Path:
    """`path` with a leading ``~`` standing for the layout's `home` (never the
    process's: a load reads the home it is given)."""
    if home is not None and (path == "~" or path.startswith("~/")):
        return home / path[2:]
    return Path(path)

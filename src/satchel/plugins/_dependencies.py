"""What a plugin or a skill says it needs: plugin ``dependencies`` and skill ``requires``.

A plugin manifest's ``dependencies`` (Claude Code, code.claude.com/docs/en/plugins/
dependencies) lists other plugins: a string (``"name"``, ``"name@marketplace"``, or
``"name@marketplace@^1.2"``) or an object with ``name`` and, optionally,
``marketplace`` and ``version`` (a semver range). A skill names what it needs in
``metadata.requires``: names separated by commas or spaces, each a skill (``pdf-tools``)
or a plugin of a marketplace (``name@marketplace``).

`missing_requirements` is the load-time check: a dependency that is not loaded is a
warning (``plugin.dependency.missing``, ``skill.requires.missing``); it never stops
the dependent from loading. Installing resolves and installs them
(`satchel.install`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.plugins._model import Plugin
from satchel.skills._model import Skill

__all__ = [
    "Dependency",
    "missing_requirements",
    "parse_dependencies",
    "parse_requirement",
    "skill_requires",
]

_NAME = r"[a-z0-9][a-z0-9._-]{0,63}"
_TEXT = re.compile(rf"(?P<name>{_NAME})(?:@(?P<market>{_NAME})(?:@(?P<version>\S+))?)?\Z")
_SPLIT = re.compile(r"[\s,]+")
MAX_DEPENDENCIES = 64


@model
class Dependency:
    """One plugin (or, from a skill's ``requires`` without a marketplace, one skill)
    needed: its `name`, the `marketplace` to find it in (None: the dependent's own),
    and the `version` range it must match (None: any)."""

    name: str
    marketplace: str | None = None
    version: str | None = None

    def __str__(self) -> str:
        text = self.name + (f"@{self.marketplace}" if self.marketplace else "")
        return text + (f"@{self.version}" if self.version else "")


def parse_requirement(text: str) -> Dependency | None:
    """``name``, ``name@marketplace`` or ``name@marketplace@range``, or None."""
    m = _TEXT.match(text.strip())
    if m is None:
        return None
    return Dependency(m["name"], m["market"], m["version"])


def parse_dependencies(
    manifest: Mapping[str, Any],
) -> tuple[tuple[Dependency, ...], tuple[str, ...]]:
    """The ``dependencies`` of a plugin manifest, and why any entry was not read."""
    value = manifest.get("dependencies")
    if value is None:
        return (), ()
    if not isinstance(value, list):
        return (), ("`dependencies` must be a list",)
    out: list[Dependency] = []
    problems: list[str] = []
    for n, item in enumerate(value[:MAX_DEPENDENCIES], 1):
        dep = _one(item)
        if dep is None:
            problems.append(
                f"dependencies entry #{n} is not a plugin name, name@marketplace "
                "or an object with `name`"
            )
        else:
            out.append(dep)
    if len(value) > MAX_DEPENDENCIES:
        problems.append(f"only the first {MAX_DEPENDENCIES} dependencies are read")
    return tuple(out), tuple(problems)


def _one(item: Any) -> Dependency | None:
    if isinstance(item, str):
        return parse_requirement(item)
    if not isinstance(item, dict):
        return None
    name, market, version = item.get("name"), item.get("marketplace"), item.get("version")
    if not isinstance(name, str) or not re.fullmatch(_NAME, name):
        return None
    if market is not None and (not isinstance(market, str) or not re.fullmatch(_NAME, market)):
        return None
    if version is not None and (not isinstance(version, str) or not version.strip()):
        return None
    return Dependency(name, market, version.strip() if version else None)


def skill_requires(skill: Skill) -> tuple[tuple[Dependency, ...], tuple[str, ...]]:
    """What `skill` names in ``metadata.requires``, and the words that are not names."""
    text = skill.metadata.get("requires", "")
    out, bad = [], []
    for word in [w for w in _SPLIT.split(text) if w][:MAX_DEPENDENCIES]:
        dep = parse_requirement(word)
        if dep is None:
            bad.append(word)
        else:
            out.append(dep)
    return tuple(out), tuple(bad)


def missing_requirements(
    plugins: Sequence[Plugin], skills: Mapping[str, Skill]
) -> list[Diagnostic]:
    """A warning for each dependency of a loaded plugin, and each requirement of a
    loaded skill (`skills`: by the name it loaded under), that this load does not have."""
    names = {p.name for p in plugins}
    skill_list = list(skills.values())
    skill_names: set[str] | None = None  # built at the first skill that requires any
    out = []
    for plugin in plugins:
        deps, problems = parse_dependencies(plugin.manifest)
        for why in problems:
            message = f"plugin {plugin.name!r}: {why}"
            out.append(diagnostic("plugin.dependency.missing", message, plugin.root))
        for dep in deps:
            if dep.name not in names:
                message = f"plugin {plugin.name!r} depends on {str(dep)!r}, which is not loaded"
                hint = f"satchel install {dep.name}@{dep.marketplace or 'MARKETPLACE'}"
                out.append(diagnostic("plugin.dependency.missing", message, plugin.root, hint=hint))
    for skill in skill_list:
        if "requires" not in skill.metadata:  # most skills: nothing to parse
            continue
        deps, bad = skill_requires(skill)
        if skill_names is None:
            skill_names = set(skills) | {s.name for s in skill_list}
        for dep in deps:
            have = names if dep.marketplace else skill_names
            if dep.name not in have:
                message = f"skill {skill.name!r} requires {str(dep)!r}, which is not loaded"
                out.append(diagnostic("skill.requires.missing", message, skill.path))
        for word in bad:
            message = f"skill {skill.name!r}: metadata.requires names {word!r}, which is not a name"
            out.append(diagnostic("skill.requires.missing", message, skill.path))
    return out

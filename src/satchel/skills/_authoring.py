"""Authoring helpers that follow the Agent Skills spec strictly (zidane's
`defineSkill` / `writeSkillToDisk`): define a skill in code, write a SKILL.md that
`satchel validate --strict` accepts."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from satchel.core._files import write_atomic
from satchel.core.diagnostics import Diagnostic
from satchel.core.errors import SkillDefinitionError
from satchel.skills._fields import FieldRules, build_skill, name_problem
from satchel.skills._model import Skill

__all__ = ["define_skill", "render_skill_md", "write_skill"]


def define_skill(
    name: str,
    description: str,
    instructions: str = "",
    *,
    license: str | None = None,  # the spec's field name
    compatibility: str | None = None,
    metadata: Mapping[str, str] | None = None,
    allowed_tools: Sequence[str] | None = None,
) -> Skill:
    """A skill defined in code, validated strictly. Raise `SkillDefinitionError`
    (carrying the diagnostics) when it breaks the spec."""
    fields: dict[str, Any] = {"name": name, "description": description}
    if license is not None:
        fields["license"] = license
    if compatibility is not None:
        fields["compatibility"] = compatibility
    if metadata:
        fields["metadata"] = dict(metadata)
    if allowed_tools:
        fields["allowed-tools"] = " ".join(allowed_tools)
    skill, diags = build_skill(fields, Path(name, "SKILL.md"), FieldRules(strict=True))
    errors = [d for d in diags if d.severity == "error"]
    if skill is None or errors:
        raise SkillDefinitionError(_without_paths(diags))
    return Skill(
        name=skill.name,
        description=skill.description,
        license=skill.license,
        compatibility=skill.compatibility,
        metadata=MappingProxyType(dict(skill.metadata)),
        allowed_tools=skill.allowed_tools,
        instructions=instructions,
    )


def _without_paths(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [Diagnostic(d.code, d.severity, d.message, None, d.line, d.hint) for d in diags]


def render_skill_md(skill: Skill) -> str:
    """The SKILL.md text for `skill`: spec fields only, then the body."""
    fields: dict[str, Any] = {"name": skill.name, "description": skill.description}
    if skill.license is not None:
        fields["license"] = skill.license
    if skill.compatibility is not None:
        fields["compatibility"] = skill.compatibility
    if skill.allowed_tools:
        fields["allowed-tools"] = " ".join(skill.allowed_tools)
    if skill.metadata:
        fields["metadata"] = dict(skill.metadata)
    head = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=1 << 20)
    body = skill.body().strip("\n")
    return f"---\n{head}---\n\n{body}\n" if body else f"---\n{head}---\n"


def write_skill(directory: str | os.PathLike[str], skill: Skill) -> Path:
    """Write `skill` as `<directory>/<name>/SKILL.md` (atomically) and return the path."""
    problem = name_problem(skill.name)
    if problem is not None:
        raise ValueError(f"cannot write a skill whose name {skill.name!r} {problem}")
    target_dir = Path(directory) / skill.name
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / "SKILL.md"
    write_atomic(target, render_skill_md(skill))
    return target

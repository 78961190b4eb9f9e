"""The `Skill` value: frontmatter fields, where it came from, and a lazy body."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import SkillBodyError
from satchel.foundations import frontmatter
from satchel.foundations.origin import NO_ORIGIN, Origin, Originated

__all__ = ["MAX_SKILL_FILE", "Skill"]

MAX_SKILL_FILE = 1024 * 1024

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model(eq=False, slots=True)
class Skill(Originated):
    """One skill. Metadata is read at discovery; the body only when `body()` is called.

    `path` is the SKILL.md file (None for a skill defined in code and not yet
    written), `origin` the root it came from: its `scope` and `family` (for example
    ``project`` and ``.claude``). `stamp` is the file's (size, modification time in
    ns) when it was read: `Environment.reload` compares it.

    The Claude Code fields beyond the spec are typed (their raw values also stay in
    `extras`): `when_to_use` (joined to the description in the index),
    `paths` (a conditional skill: listed once a matching file is touched),
    `disallowed_tools` (refused by the tool gate while the skill is active),
    `model`, `effort`, `shell`, `context` (``inline`` or ``fork``), `agent` and
    `background`.
    """

    name: str
    description: str
    license: str | None = None
    compatibility: str | None = None
    metadata: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    allowed_tools: tuple[str, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    path: Path | None = None
    origin: Origin = NO_ORIGIN
    instructions: str | None = None
    stamp: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    when_to_use: str | None = None
    paths: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None
    effort: str | int | None = None
    shell: str | None = None
    context: str | None = None
    agent: str | None = None
    background: bool | None = None

    @property
    def directory(self) -> Path | None:
        """The skill directory: relative paths in the body resolve against it."""
        return None if self.path is None else self.path.parent

    def body(self) -> str:
        """The Markdown body, read now. Raise `SkillBodyError` if it cannot be read."""
        if self.instructions is not None:
            return self.instructions
        if self.path is None:
            return ""
        try:
            data = read_bounded(self.path, MAX_SKILL_FILE)
        except FileProblem as e:
            raise SkillBodyError(
                diagnostic("skill.read.error", f"cannot read the body: {e.message}", self.path)
            ) from None
        problem = frontmatter.check_text(data, 0, self.path)
        if problem is not None:
            raise SkillBodyError(problem)
        where = frontmatter.locate(data, complete=True)
        if where.status != "ok":
            raise SkillBodyError(
                diagnostic("skill.read.error", "the frontmatter fences are gone", self.path)
            )
        return frontmatter.decode_body(data, where.body_start)

    def to_json(self) -> dict[str, Any]:
        """The skill as JSON-ready data, without the body."""
        return {
            "name": self.name,
            "description": self.description,
            "license": self.license,
            "compatibility": self.compatibility,
            "metadata": dict(self.metadata),
            "allowed_tools": list(self.allowed_tools),
            "extras": jsonable(dict(self.extras)),
            "path": None if self.path is None else str(self.path),
            "scope": self.scope,
            "family": self.family,
            "when_to_use": self.when_to_use,
            "paths": None if self.paths is None else list(self.paths),
            "disallowed_tools": list(self.disallowed_tools),
            "model": self.model,
            "effort": self.effort,
            "shell": self.shell,
            "context": self.context,
            "agent": self.agent,
            "background": self.background,
        }

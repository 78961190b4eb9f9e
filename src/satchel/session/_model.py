"""The values a `Session` hands to its host: tools, results, events, context."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.foundations._segments import ContextSegment
from satchel.foundations.permissions import RuleSet
from satchel.skills._model import Skill

__all__ = [
    "ERROR_PREFIX",
    "ActiveSkill",
    "ContextSegment",
    "Shape",
    "SkillEvent",
    "Tool",
    "ToolReceipt",
    "ToolResult",
    "Via",
]

Via = Literal["explicit", "tool", "resume"]
Shape = Literal["block", "body"]  # an activation's text: the whole block, or the body
ERROR_PREFIX = "Error ("
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class ToolResult:
    """What a tool call gives back: `text` for the model, `is_error` for the transcript.

    `data` is the structured result when there is one (a script's exit code and
    output); `code` the diagnostic code of an error.
    """

    text: str
    is_error: bool = False
    code: str | None = None
    data: Mapping[str, Any] | None = None

    @classmethod
    def error(cls, problem: Diagnostic) -> ToolResult:
        return cls(f"{ERROR_PREFIX}{problem.code}): {problem.message}", True, problem.code)

    @classmethod
    def of_data(
        cls, data: Mapping[str, Any], *, is_error: bool = False, code: str | None = None
    ) -> ToolResult:
        text = json.dumps(data, ensure_ascii=False)
        return cls(text, is_error, code, MappingProxyType(dict(data)))


@model
class Tool:
    """A tool as plain values: the name the model calls, what it is for, the JSON schema
    of its input, and the callable that runs it. `kind` is satchel's own name for it
    (``load_skill``, ``skills_use``, ...) whatever the host renamed it to."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    call: Callable[[Mapping[str, Any]], ToolResult] = field(repr=False, compare=False)
    kind: str = ""

    def definition(self) -> dict[str, Any]:
        """Name, description and schema as plain JSON-ready data."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": _plain(self.input_schema),
        }


@model
class SkillEvent:
    """``skills:activate`` or ``skills:deactivate``, and how (zidane's `via`)."""

    type: Literal["skills:activate", "skills:deactivate"]
    name: str
    via: Via
    skill: Skill | None = field(default=None, repr=False, compare=False)


@model
class ActiveSkill:
    """A skill active in a session: how it got there, what tools it allows (`rules`)
    and what tools it refuses (`denied`, its `disallowed-tools`).

    `in_context` is True when the host activated it through the API, so the body is in
    no transcript and `Session.context()` carries it instead (`content`).
    """

    skill: Skill
    via: Via
    rules: RuleSet
    in_context: bool = False
    content: str = field(default="", repr=False)
    denied: RuleSet = field(default_factory=lambda: RuleSet(()))

    @property
    def name(self) -> str:
        return self.skill.name


@model
class ToolReceipt:
    """How often the model called one tool, and how many calls failed."""

    name: str
    calls: int = 0
    errors: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "calls": self.calls, "errors": self.errors}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value

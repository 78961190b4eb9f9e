"""A tool call's arguments as the model sent them: a mapping, or the JSON string
OpenAI sends, at most `MAX_ARGUMENTS` bytes; anything else is an error result."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from satchel.core._json import loads
from satchel.core.diagnostics import diagnostic
from satchel.session._model import ToolResult

__all__ = ["MAX_ARGUMENTS", "bad_arguments", "parse_arguments"]

MAX_ARGUMENTS = 1024 * 1024


def parse_arguments(arguments: str | Mapping[str, Any] | None) -> Mapping[str, Any] | ToolResult:
    """A tool call's arguments as a mapping (OpenAI sends a JSON string)."""
    if arguments is None or arguments == "":
        return MappingProxyType({})
    if isinstance(arguments, Mapping):
        return arguments
    if not isinstance(arguments, str) or len(arguments) > MAX_ARGUMENTS:
        return bad_arguments("the arguments must be a JSON object of at most 1 MiB")
    try:
        parsed = loads(arguments)
    except ValueError:
        return bad_arguments("the arguments are not valid JSON, or nest too deep")
    if not isinstance(parsed, dict):
        return bad_arguments("the arguments must be a JSON object")
    return parsed


def bad_arguments(message: str) -> ToolResult:
    """The error result for arguments the model got wrong (`session.tool.arguments`)."""
    return ToolResult.error(diagnostic("session.tool.arguments", message))

"""Render a session's tools and results in the shapes of the big model APIs.

* OpenAI Chat Completions: ``{"type": "function", "function": {name, description,
  parameters, strict}}``; a result is a ``{"role": "tool", ...}`` message.
* OpenAI Responses: ``{"type": "function", name, description, parameters, strict}``;
  a result is a ``function_call_output`` item.
* Anthropic Messages: ``{name, description, input_schema}``; a result is a
  ``tool_result`` block (with ``is_error``).

With ``strict=True`` the OpenAI schemas follow structured outputs' rules: every
property is required, and an optional one also accepts null.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from satchel.session._model import Tool, ToolResult

__all__ = [
    "anthropic_result",
    "anthropic_tools",
    "openai_chat_result",
    "openai_chat_tools",
    "openai_responses_result",
    "openai_responses_tools",
]


def openai_chat_tools(tools: Iterable[Tool], *, strict: bool = False) -> list[dict[str, Any]]:
    """Tools for ``client.chat.completions.create(tools=...)``."""
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": _parameters(t, strict),
                "strict": strict,
            },
        }
        for t in tools
    ]


def openai_responses_tools(tools: Iterable[Tool], *, strict: bool = False) -> list[dict[str, Any]]:
    """Tools for ``client.responses.create(tools=...)``."""
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": _parameters(t, strict),
            "strict": strict,
        }
        for t in tools
    ]


def anthropic_tools(tools: Iterable[Tool]) -> list[dict[str, Any]]:
    """Tools for ``client.messages.create(tools=...)``."""
    return [t.definition() for t in tools]


def openai_chat_result(call_id: str, result: ToolResult) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": result.text}


def openai_responses_result(call_id: str, result: ToolResult) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": result.text}


def anthropic_result(tool_use_id: str, result: ToolResult) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": result.text,
        "is_error": result.is_error,
    }


def _parameters(tool: Tool, strict: bool) -> dict[str, Any]:
    schema = tool.definition()["input_schema"]
    return _strict(schema) if strict else schema


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    required = set(schema.get("required", ()))
    properties: dict[str, Any] = {}
    for name, spec in schema.get("properties", {}).items():
        properties[name] = spec if name in required else _nullable(spec)
    return {**schema, "properties": properties, "required": list(properties)}


def _nullable(spec: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(spec)
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out

"""What running servers tell the host, and what they ask of it, as plain frozen values.

`McpEvent` is one thing a server did that the host may show: a log message (``log``),
the progress of a tool call (``progress``), a request given up (``cancelled``: a tool
call that timed out or that the host cancelled, whose server is told; or a question
the server withdrew), and a new list of tools (``tools_changed``). The supervisor hands
each to its ``on_event`` callback.

`Elicitation` is a question a server asks the user in the middle of a request: a form
(``form``: `schema` is the JSON Schema of the answer) or a page to open (``url``). The
host's ``elicit`` callback answers with an `ElicitAnswer`: ``accept`` (with `content`
for a form), ``decline`` or ``cancel``. With no callback every question is declined,
as the MCP specification has a client answer what its user refused, and the server's
report gets ``mcp.elicitation.declined``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model

__all__ = ["ElicitAnswer", "Elicitation", "Elicit", "McpEvent", "OnEvent"]

EventKind = Literal["log", "progress", "cancelled", "tools_changed"]
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class McpEvent:
    """One thing server `server` (its id, `ServerReport.id`) did: `kind` says what.
    ``log``: `level`, `logger` and `data`; ``progress``: `tool`, `progress`, `total`
    and `message`; ``cancelled``: `tool` (or None for a withdrawn question) and
    `message`, why; ``tools_changed``: the supervisor's tools are new."""

    kind: EventKind
    server: str
    message: str = ""
    tool: str | None = None
    level: str | None = None
    logger: str | None = None
    data: Any = None
    progress: float | None = None
    total: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "server": self.server,
            "message": self.message,
            "tool": self.tool,
            "level": self.level,
            "logger": self.logger,
            "data": self.data,
            "progress": self.progress,
            "total": self.total,
        }


@model
class Elicitation:
    """A question server `server` asks: ``form`` (answer by `schema`) or ``url`` (open
    `url`; `elicitation_id` names the interaction)."""

    server: str
    mode: Literal["form", "url"]
    message: str
    schema: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    url: str | None = None
    elicitation_id: str | None = None


@model
class ElicitAnswer:
    """The user's answer: ``accept`` (a form's `content`), ``decline`` or ``cancel``."""

    action: Literal["accept", "decline", "cancel"]
    content: Mapping[str, Any] | None = None


OnEvent = Callable[[McpEvent], None]
Elicit = Callable[[Elicitation], "ElicitAnswer | Awaitable[ElicitAnswer]"]

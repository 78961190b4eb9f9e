"""The SDK callbacks of one server's connection, in satchel's terms (`_events`).

Imports the ``mcp`` SDK's types inside its methods only. A `Listener` answers the
server's elicitations through the host's ``elicit`` callback (declining each when
there is none), hands log messages, progress and cancellations to ``on_event``, and
tells the supervisor when the server's tools changed (`changed`). A host callback
that raises is not let through to the connection: its event is dropped.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from satchel.runtime.mcp._events import Elicit, ElicitAnswer, Elicitation, McpEvent, OnEvent

if TYPE_CHECKING:
    from mcp.client.session import ClientRequestContext, IncomingMessage
    from mcp.shared.dispatcher import ProgressFnT
    from mcp_types import ElicitRequestParams, ElicitResult, LoggingMessageNotificationParams

__all__ = ["Listener"]


@dataclass(eq=False)
class Listener:
    """The callbacks of server `server` (its id)."""

    server: str
    on_event: OnEvent | None
    elicit: Elicit | None
    declined: Callable[[Elicitation], None]
    changed: Callable[[], None]

    def emit(self, event: McpEvent) -> None:
        if self.on_event is not None:
            with contextlib.suppress(Exception):
                self.on_event(event)

    async def elicitation(
        self, context: ClientRequestContext, params: ElicitRequestParams
    ) -> ElicitResult:
        """The answer to one elicitation (form or URL)."""
        import anyio
        from mcp_types import ElicitRequestURLParams, ElicitResult

        if isinstance(params, ElicitRequestURLParams):
            question = Elicitation(
                self.server,
                "url",
                params.message,
                url=params.url,
                elicitation_id=params.elicitation_id,
            )
        else:
            question = Elicitation(self.server, "form", params.message, params.requested_schema)
        if self.elicit is None:
            self.declined(question)
            return ElicitResult(action="decline")
        try:
            answer = self.elicit(question)
            if inspect.isawaitable(answer):
                answer = await answer
        except anyio.get_cancelled_exc_class():
            self.emit(McpEvent("cancelled", self.server, "the server withdrew its question"))
            raise
        assert isinstance(answer, ElicitAnswer)
        content = None if answer.content is None else dict(answer.content)
        return ElicitResult(action=answer.action, content=content)

    async def logging(self, params: LoggingMessageNotificationParams) -> None:
        self.emit(
            McpEvent("log", self.server, level=params.level, logger=params.logger, data=params.data)
        )

    async def messages(self, message: IncomingMessage) -> None:
        """A notification: a new list of tools is fetched (`changed`)."""
        from mcp_types import ToolListChangedNotification

        if isinstance(message, ToolListChangedNotification):
            self.changed()

    def progress(self, tool: str) -> ProgressFnT | None:
        """The progress callback of a call to `tool` (None when nobody listens)."""
        if self.on_event is None:
            return None

        async def report(progress: float, total: float | None, message: str | None) -> None:
            event = McpEvent(
                "progress", self.server, message or "", tool, progress=progress, total=total
            )
            self.emit(event)

        return report

    def cancelled(self, tool: str, why: str) -> None:
        self.emit(McpEvent("cancelled", self.server, why, tool))

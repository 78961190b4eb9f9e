"""The handshake and the listing of one server: what it is and what it offers.

Tools, prompts and resources are listed only when the server declares the capability,
page after page (at most `MAX_PAGES` of each), and turned into satchel's frozen values
under the names the host sees (`satchel.mcp._names`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from satchel._model import model
from satchel.mcp._names import exposed_name
from satchel.mcp._spec import McpServer
from satchel.runtime.mcp._catalog import McpPrompt, McpResource, McpTool, PromptArgument

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["MAX_PAGES", "Offer", "handshake"]

MAX_PAGES = 100


@model
class Offer:
    """What the handshake and the lists gave (tools before any toolOverrides)."""

    name: str
    version: str | None
    instructions: str | None
    tools: tuple[McpTool, ...]
    prompts: tuple[McpPrompt, ...]
    resources: tuple[McpResource, ...]


async def handshake(server: McpServer, session: ClientSession) -> Offer:
    """Initialize, then list what the server declares it has."""
    init = await session.initialize()
    caps = init.capabilities
    tools: list[McpTool] = []
    prompts: list[McpPrompt] = []
    resources: list[McpResource] = []
    if caps.tools is not None:
        for t in await _pages(session.list_tools, "tools"):
            name, schema = exposed_name(server, t.name), dict(t.input_schema or {})
            tools.append(
                McpTool(name, t.name, server.name, server.plugin, t.description or "", schema)
            )
    if caps.prompts is not None:
        for p in await _pages(session.list_prompts, "prompts"):
            args = tuple(
                PromptArgument(a.name, a.description or "", bool(a.required))
                for a in p.arguments or ()
            )
            name = exposed_name(server, p.name)
            prompts.append(
                McpPrompt(name, p.name, server.name, server.plugin, p.description or "", args)
            )
    if caps.resources is not None:
        for r in await _pages(session.list_resources, "resources"):
            about = r.description or ""
            resources.append(
                McpResource(str(r.uri), r.name, server.name, server.plugin, about, r.mime_type)
            )
    info = init.server_info
    return Offer(
        info.name,
        info.version or None,
        init.instructions,
        tuple(tools),
        tuple(prompts),
        tuple(resources),
    )


async def _pages(fetch: Callable[..., Awaitable[Any]], field: str) -> list[Any]:
    from mcp_types import PaginatedRequestParams

    items: list[Any] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
        page = await fetch(params=params)
        items.extend(getattr(page, field))
        cursor = page.next_cursor
        if not cursor:
            break
    return items

"""The handshake and the listing of one server: what it is and what it offers.

The handshake is the one the SDK's ``auto`` client did on entering (`satchel.mcp._connect`):
``server/discover`` at 2026-07-28, or ``initialize`` at 2025-11-25; `Offer.protocol`
says which. A 2026-07-28 server need not say its name (`Offer.name` is then None).
Tools, prompts and resources are listed only when the server declares the capability,
page after page (at most `MAX_PAGES` of each), and turned into satchel's frozen values
under the names the host sees (`satchel.mcp._names`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from satchel.core._model import model
from satchel.mcp._names import exposed_name
from satchel.mcp._spec import McpServer
from satchel.runtime.mcp._catalog import McpPrompt, McpResource, McpTool, PromptArgument

if TYPE_CHECKING:
    from mcp.client.client import Client
    from mcp.client.session import ClientSession

__all__ = ["MAX_PAGES", "Offer", "handshake", "list_tools"]

MAX_PAGES = 100


@model
class Offer:
    """What the handshake and the lists gave (tools before any toolOverrides)."""

    name: str | None
    version: str | None
    instructions: str | None
    protocol: str
    tools: tuple[McpTool, ...]
    prompts: tuple[McpPrompt, ...]
    resources: tuple[McpResource, ...]


async def handshake(server: McpServer, connection: Client) -> Offer:
    """What the connected server is, and what it declares it has."""
    caps = connection.server_capabilities
    session = connection.session
    prompts: list[McpPrompt] = []
    resources: list[McpResource] = []
    tools = await list_tools(server, session) if caps.tools is not None else ()
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
    info = connection.server_info
    return Offer(
        None if info is None else info.name,
        None if info is None else info.version or None,
        connection.instructions,
        connection.protocol_version,
        tuple(tools),
        tuple(prompts),
        tuple(resources),
    )


async def list_tools(server: McpServer, session: ClientSession) -> tuple[McpTool, ...]:
    """The server's tools, every page, under the names the host sees."""
    tools: list[McpTool] = []
    for t in await _pages(session.list_tools, "tools"):
        name, schema = exposed_name(server, t.name), dict(t.input_schema or {})
        tools.append(McpTool(name, t.name, server.name, server.plugin, t.description or "", schema))
    return tuple(tools)


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

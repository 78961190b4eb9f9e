"""What every method of `satchel serve` shares on the wire: its MCP errors, its
cursors and the MIME type a file's name suggests. The SDK is imported only when an
error is made."""

from __future__ import annotations

import mimetypes

from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = ["DIRECTORY_MIME", "cursor", "mcp_error", "mime"]

DIRECTORY_MIME = "inode/directory"


def mcp_error(problem: Diagnostic, uri: str | None = None) -> Exception:
    """An MCP error (invalid params, -32602) carrying satchel's code and message, and
    the `uri` a resource request named (the 2026-07-28 revision: a read's error
    SHOULD say which resource it is about, in ``data.uri``)."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    from satchel.session import ToolResult

    text = ToolResult.error(problem).text
    data = {"code": problem.code} if uri is None else {"code": problem.code, "uri": uri}
    return MCPError(code=INVALID_PARAMS, message=text, data=data)


def cursor(given: str | None) -> int:
    """The offset a cursor this server gave stands for (0 for none); an MCP error
    (``mcp.serve.cursor.invalid``) for any other."""
    if given is None:
        return 0
    if given.isdigit() and len(given) < 12:
        return int(given)
    message = f"the cursor {given!r} is not one this server gave"
    raise mcp_error(diagnostic("mcp.serve.cursor.invalid", message))


def mime(path: str) -> str | None:
    """The MIME type a file's name suggests (Markdown is ``text/markdown``), if any."""
    if path.endswith((".md", ".markdown")):
        return "text/markdown"
    guessed, _ = mimetypes.guess_type(path, strict=False)
    return guessed

"""`satchel mcp logout NAME`: forget the OAuth tokens ``satchel mcp login`` kept."""

from __future__ import annotations

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, located
from satchel.cli._plugin import masked_url
from satchel.cli._workspace import loaded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._names import server_id
from satchel.runtime.mcp._oauth_target import TargetRefused, remote_target

STORE = "mcp.oauth.store"

PARAMS = (click.Argument(["name"]), located(), json_option())


def run(
    *,
    name: str,
    here: Here,
    as_json: bool,
) -> int:
    """Forget the OAuth tokens kept for the remote MCP server NAME.

    The server's tokens and client registration are removed from the system keyring;
    its next connection is unauthorized until `satchel mcp login NAME`. NAME is a
    server's name, a plugin's as plugin:PLUGIN:SERVER, or a server's URL. Exit 1 when
    the keyring cannot remove them."""
    import os

    from satchel.mcp._oauth_store import StoreFailed
    from satchel.runtime.mcp._oauth import logout

    env = loaded(here)
    found: list[Diagnostic] = []
    removed = False
    who = url = None
    try:
        remote = remote_target(env, name, os.environ, login=False)
        who, url = server_id(remote.server), masked_url(remote.url)
        removed = logout(env.layout, remote.server, remote.url)
    except TargetRefused as refused:
        found.append(refused.diagnostic)
    except StoreFailed as e:
        message = f"the system keyring cannot remove the tokens of MCP server {who!r} ({e})"
        found.append(diagnostic(STORE, message))
    if as_json:
        out.print_json({"server": who, "url": url, "removed": removed}, found)
    elif who is not None and not found:
        said = "its tokens were removed from" if removed else "no tokens for it were in"
        out.say(f"Logged out of MCP server {who!r}: {said} the system keyring.")
    if found and not as_json:
        out.diagnostic_report(out.console(stderr=True), found)
    return PROBLEMS if found else OK

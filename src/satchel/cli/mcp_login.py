"""`satchel mcp login NAME`: authorize satchel for a remote MCP server with OAuth.

As ``claude mcp login``, ``codex mcp login`` and Gemini CLI's ``/mcp auth`` do: the
authorization URL is printed on stderr (and opened in a browser on a terminal, unless
--no-browser), the redirect comes back to a listener on 127.0.0.1, and the tokens go to
the system keyring (`satchel.runtime.mcp._oauth`). No token is ever printed.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, located
from satchel.cli._plugin import masked_url
from satchel.cli._workspace import loaded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._names import server_id
from satchel.mcp._sdk import INSTALL_HINT, sdk_available
from satchel.runtime.mcp._oauth_target import Remote, TargetRefused, remote_target

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.runtime.mcp._oauth import LoginResult

SDK_MISSING = "cli.mcp.sdk-missing"
FAILED = "mcp.oauth.failed"
NOT_REQUIRED = "mcp.oauth.not_required"
STORE = "mcp.oauth.store"
DEFAULT_TIMEOUT = 300.0
SECRET_VARIABLE = "MCP_CLIENT_SECRET"  # as Claude Code reads it

PARAMS = (
    click.Argument(["name"]),
    located(),
    click.Option(
        ["--timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help="Seconds the whole login may take, the authorization in the browser included.",
    ),
    click.Option(
        ["--no-browser", "no_browser"],
        is_flag=True,
        help="Only print the authorization URL; open no browser.",
    ),
    click.Option(
        ["--scope", "scopes"],
        multiple=True,
        help="OAuth scopes to ask for besides those the server asks for (repeatable; "
        "space-separated values allowed).",
    ),
    click.Option(
        ["--client-secret", "client_secret"],
        is_flag=True,
        help=f"The entry's oauth.clientId has a secret: read it from {SECRET_VARIABLE}, "
        "else ask for it on the terminal. It is kept in the system keyring.",
    ),
    json_option(),
)


def run(
    *,
    name: str,
    here: Here,
    timeout: float,
    no_browser: bool,
    scopes: tuple[str, ...],
    client_secret: bool,
    as_json: bool,
) -> int:
    """Authorize satchel for the remote MCP server NAME with OAuth.

    The server's authorization server is found from its metadata; satchel registers
    itself there when the server offers dynamic registration (else the entry's
    oauth.clientId is used, with its secret given by --client-secret; or satchel's
    Client ID Metadata Document, when MCP_OAUTH_CLIENT_METADATA_URL names one and the
    server accepts such documents), prints the authorization URL on stderr (and opens
    it in a browser on a terminal, unless --no-browser) and waits on 127.0.0.1 for the
    redirect (the entry's oauth.callbackPort, else a free port). The scopes asked are
    the server's, those kept tokens hold, and --scope's. The tokens go to the system
    keyring, never to a file; connections refresh them when they expire. NAME is a
    server's name, a plugin's as plugin:PLUGIN:SERVER, or a server's URL (a skill
    server, an mcp+https:// source, a gateway's). Exit 1 when the login failed."""
    if not sdk_available():
        message = "logging in to an MCP server needs the mcp SDK, which is not installed; "
        message += INSTALL_HINT
        return out.fail(SDK_MISSING, message, as_json=as_json)
    import os

    import anyio

    env = loaded(here)
    try:
        remote = remote_target(env, name, os.environ)
    except TargetRefused as refused:  # refused, whatever the diagnostic's severity
        return _report(None, None, [refused.diagnostic], as_json=as_json, failed=True)
    secret = None
    if client_secret:
        secret, problem = _secret(remote)
        if problem is not None:
            return _report(remote, None, [problem], as_json=as_json)
    asked = " ".join(" ".join(scopes).split()) or None
    result, found = anyio.run(_login, env, remote, timeout, not no_browser, asked, secret)
    return _report(remote, result, found, as_json=as_json)


def _secret(remote: Remote) -> tuple[str | None, Diagnostic | None]:
    """The client secret --client-secret gives: MCP_CLIENT_SECRET, else asked for on a
    terminal (never echoed)."""
    import os

    from satchel.runtime.mcp._oauth import oauth_entry

    if oauth_entry(remote.server).client_id is None:
        why = "has no oauth.clientId in its entry, which a client secret goes with"
        return None, _said(FAILED, remote, why)
    found = os.environ.get(SECRET_VARIABLE)
    if found:
        return found, None
    if not sys.stdin.isatty():
        why = f"needs its client secret: set {SECRET_VARIABLE}, or run on a terminal to be asked"
        return None, _said(FAILED, remote, why)
    typed: str = click.prompt("Client secret", hide_input=True, err=True)
    return typed, None


async def _login(
    env: Environment,
    remote: Remote,
    timeout: float,
    browse: bool,
    scopes: str | None,
    secret: str | None,
) -> tuple[LoginResult | None, list[Diagnostic]]:
    from satchel.mcp._oauth_store import StoreFailed
    from satchel.runtime.mcp._oauth import LoginFailed, login

    who = server_id(remote.server)

    async def show(url: str) -> None:
        show_authorization(who, url, browse=browse)

    import os

    try:
        done = await login(
            env.layout,
            remote.server,
            remote.url,
            on_url=show,
            headers=remote.server.headers,
            timeout=timeout,
            scopes=scopes,
            client_secret=secret,
            environ=os.environ,
        )
    except LoginFailed as e:
        return None, [_said(FAILED, remote, f"could not be logged in to: {e}")]
    except StoreFailed as e:
        why = f"the system keyring cannot keep its tokens ({e}); they are not kept anywhere else"
        return None, [_said(STORE, remote, why)]
    if not done.authorized:
        return done, [
            _said(NOT_REQUIRED, remote, "did not ask for authorization; nothing was kept")
        ]
    return done, []


def interactive() -> bool:
    """Whether a person is at a terminal to authorize in a browser."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def show_authorization(who: str, url: str, *, browse: bool) -> None:
    """Print the authorization URL of server `who` on stderr, and open it in a browser
    when `browse` and a person is at the terminal (in a worker thread; not waited
    for)."""
    err = out.console(stderr=True)
    err.print(out.safe(f"Open this URL to authorize satchel for MCP server {who!r}:"))
    err.print(out.safe(url), soft_wrap=True)
    if browse and interactive():
        import threading
        import webbrowser

        # in a worker thread: a browser in the terminal blocks until it is closed, and
        # the event loop (the redirect listener, the deadline) must run on meanwhile
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()


def _said(code: str, remote: Remote, what: str) -> Diagnostic:
    who = f"MCP server {remote.server.name!r}"
    if remote.server.plugin is not None:
        who += f" of plugin {remote.server.plugin!r}"
    return diagnostic(code, f"{who} {what}", remote.server.path)


def _report(
    remote: Remote | None,
    result: LoginResult | None,
    found: list[Diagnostic],
    *,
    as_json: bool,
    failed: bool = False,
) -> int:
    failed = failed or any(d.severity == "error" for d in found)
    if as_json:
        document: dict[str, Any] = {
            "server": None if remote is None else server_id(remote.server),
            "url": None if remote is None else masked_url(remote.url),
            "authorized": bool(result is not None and result.authorized),
            "registered": bool(result is not None and result.registered),
            "configured_client": bool(result is not None and result.configured_client),
            "protocol": None if result is None else result.protocol,
        }
        out.print_json(document, found)
        return PROBLEMS if failed else OK
    if remote is not None and result is not None and result.authorized:
        how = "registered now" if result.registered else "registered before"
        if result.configured_client:
            how = "the entry's oauth.clientId"
        who = server_id(remote.server)
        out.say(
            f"Logged in to MCP server {who!r} (client: {how}); its tokens are in the system "
            "keyring."
        )
    if found:
        out.diagnostic_report(out.console(stderr=failed), found)
    return PROBLEMS if failed else OK

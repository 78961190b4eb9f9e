"""OAuth for remote MCP servers, as Claude Code, Codex and Gemini CLI do it: the
authorization code grant with PKCE, the authorization server found from the server's
protected-resource metadata (RFC 9728) and its own metadata (RFC 8414), the client
registered dynamically (RFC 7591) where the server offers it, satchel's Client ID
Metadata Document where one is set (``MCP_OAUTH_CLIENT_METADATA_URL``) and the server
takes such documents, or the entry's configured ``oauth.clientId`` (with the secret
given to `login`, sent as the authorization server asks). The flow is the MCP SDK's
(``mcp.client.auth.OAuthClientProvider``: scope step-up with the union of scopes,
SEP-2350; credentials bound to the authorization server that issued them, SEP-2352);
satchel gives it the keyring store and the flow without a person
(`satchel.mcp._oauth_store`, `satchel.mcp._oauth_kept`: what every connection to a
remote server sends, the skills client's included) and, here, the loopback redirect
listener (`satchel.runtime.mcp._oauth_callback`).

`login` runs the flow for one server, connecting as connections do
(`satchel.mcp._connect`): it shows the authorization URL (``on_url``), waits for the
redirect on 127.0.0.1 (the entry's ``oauth.callbackPort``, else a free port) and keeps
the tokens in the keyring; `logout` forgets them. The whole login has one deadline
(`timeout`); each HTTP request has its own too.

`StoredAuth` is what the supervisor hands its HTTP client (`satchel.mcp._oauth_kept.KeptAuth`
with the host's callback): a request goes out as it is,
and only when the server answers 401 (or 403 with a challenge) is the keyring read;
with tokens there the SDK's flow takes over (an expired access token is refreshed
first, at the token endpoint kept with it; one the server refuses before it expired is
refreshed once and the request sent again, as the hosts do). An authorization the kept
tokens cannot give (more scopes, a refusal past refreshing, another authorization
server, nothing kept) is run only through the host's ``authorize`` callback
(`Authorization`), once per challenge; without one the refusal stands and
``satchel mcp login`` is the way on. Tokens and secrets are never written to a file or
a log.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

import anyio
import httpx2

from satchel.core._model import model
from satchel.mcp._oauth_kept import (
    KeptAuth,
    LoginNeeded,
    Provider,
    challenged,
    client_metadata,
    leaf,
    quiet,
    words,
)
from satchel.mcp._oauth_store import KeyringStore, entry_name, resource_index, service

if TYPE_CHECKING:
    from satchel.core.layout import Layout
    from satchel.mcp._spec import McpServer

__all__ = [
    "DEFAULT_LOGIN_TIMEOUT",
    "LoginFailed",
    "LoginNeeded",
    "LoginResult",
    "OAuthEntry",
    "StoredAuth",
    "login",
    "logout",
    "oauth_entry",
]

DEFAULT_LOGIN_TIMEOUT = 300.0  # seconds for the whole login, a person's part included
REQUEST_TIMEOUT = 30.0  # seconds for one HTTP request of the flow
METADATA_URL_VARIABLE = "MCP_OAUTH_CLIENT_METADATA_URL"


class LoginFailed(Exception):
    """A login did not end with tokens; the message says why (never a token)."""


@model
class OAuthEntry:
    """What a server's entry says of OAuth (Claude Code's and Gemini CLI's ``oauth``
    object): a client id registered by hand and the fixed callback port it was
    registered with."""

    client_id: str | None = None
    callback_port: int | None = None


@model
class LoginResult:
    """What a login did: whether the server asked for authorization at all, and
    whether the client was registered now (dynamic registration) or configured."""

    authorized: bool
    registered: bool
    configured_client: bool
    protocol: str | None = None  # the revision the server was spoken to at


def oauth_entry(server: McpServer) -> OAuthEntry:
    """The ``oauth`` object of `server`'s entry (ignored fields and bad values dropped)."""
    found = server.extras.get("oauth")
    if not isinstance(found, Mapping):
        return OAuthEntry()
    client = found.get("clientId")
    port = found.get("callbackPort")
    good_port = isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536
    return OAuthEntry(
        client_id=client if isinstance(client, str) and client else None,
        callback_port=port if good_port else None,
    )


def metadata_url(environ: Mapping[str, str]) -> str | None:
    """The URL of satchel's Client ID Metadata Document, when one is set
    (``MCP_OAUTH_CLIENT_METADATA_URL``, as Claude Code names it): used as the client id
    where the authorization server supports such documents. An https URL with a path,
    else none."""
    from mcp.client.auth.utils import is_valid_client_metadata_url

    found = environ.get(METADATA_URL_VARIABLE)
    return found if is_valid_client_metadata_url(found) else None


def store_for(layout: Layout, server: McpServer, url: str) -> KeyringStore:
    return KeyringStore(service(layout), entry_name(server, url), index=resource_index(url))


# -- the connection's auth ----------------------------------------------------------


@model
class Authorization:
    """A new authorization a connection needs, handed to the host's ``authorize``
    callback: the server's id (`satchel.mcp._names.server_id`), the authorization `url`
    to open for the user, the `scopes` it asks for, and `why`: ``scope`` (the server
    asked for more scopes than were granted: a step-up), ``refused`` (it refused the
    kept authorization, which could not be refreshed, or moved to another
    authorization server) or ``none`` (nothing was kept)."""

    server: str
    url: str
    scopes: tuple[str, ...]
    why: str


Authorize = Callable[[Authorization], "Awaitable[None] | None"]


class StoredAuth(KeptAuth):
    """The supervisor's auth for one remote server: the keyring is read only once the
    server asks for authorization; `stored` then says whether it held any. With an
    `authorize` callback, an authorization the kept tokens cannot give (more scopes,
    a refusal past refreshing, another authorization server) is run in the request
    that needed it: the callback opens the URL, the redirect comes to a listener on
    127.0.0.1, and the new tokens go to the keyring. Without one, such a request's
    refusal is let through: `refused`, and `scopes_needed` for a step-up."""

    def __init__(
        self,
        layout: Layout,
        server: McpServer,
        url: str,
        *,
        authorize: Authorize | None = None,
        environ: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> None:
        from satchel.mcp._names import server_id

        store = store_for(layout, server, url)
        super().__init__(store, url, document=metadata_url(environ or {}))
        self._entry = oauth_entry(server)
        self._who = server_id(server)
        self._authorize = authorize
        self._timeout = DEFAULT_LOGIN_TIMEOUT if timeout is None else timeout  # a person's
        self._asked: set[tuple[str, str | None]] = set()
        self.authorized = 0  # authorizations run through `authorize`
        self.failure: str | None = None  # why the last one failed
        self.on_person: Callable[[bool], None] | None = None  # a person's part starts, ends

    def _may_ask(self, answer: httpx2.Response, why: str) -> bool:
        """Whether this refusal is one to authorize anew for: there is an `authorize`
        callback, and this connection has not yet asked for this challenge (a server
        that refuses again what it was just granted is not asked for in a loop)."""
        if self._authorize is None:
            return False
        key = (why, challenged(answer))
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    async def _anew(
        self, request: httpx2.Request, answer: httpx2.Response, why: str
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """A new authorization through `authorize`, in the flow of `request`, which the
        server answered `answer`; then `request` again with the new token. When the
        authorization fails, `request` is sent again as it was (its refusal is the
        answer) and `failure` says why."""
        from pydantic import AnyUrl

        from satchel.runtime.mcp._oauth_callback import callback_listener

        self.failure = None
        entry, store = self._entry, self._store
        async with callback_listener(*_ports(entry, store), serve=False) as callback:
            redirect = callback.redirect_uri()
            _choose_client(store, entry, redirect)  # a kept secret stays
            provider = self._provider or self._new_provider()
            self._provider = provider
            context = provider.context
            if getattr(provider, "_initialized", False):
                context.client_info = store.client
            context.client_metadata.redirect_uris = [AnyUrl(redirect)]

            async def opened(url: str) -> None:
                try:
                    with anyio.fail_after(self._timeout):
                        await callback.opened(url, lambda: self._open(url, why))
                except TimeoutError:
                    late = f"the authorization did not finish within {self._timeout:g} s"
                    raise LoginFailed(late) from None

            context.redirect_handler = opened
            context.callback_handler = callback.result
            flow = provider.async_auth_flow(request)
            failed = False
            try:
                outgoing = await flow.__anext__()
                if outgoing is request:
                    outgoing = await flow.asend(answer)  # its answer is known already
                while True:
                    outgoing = await flow.asend((yield outgoing))
            except StopAsyncIteration:
                self.authorized += 1
                self.stored = True
            except Exception as e:  # noqa: BLE001  # a failed authorization: the refusal stands
                self.failure = words(leaf(e))
                failed = True
            finally:
                await flow.aclose()
                context.redirect_handler, context.callback_handler = self._refuse, self._no_code
        if failed:
            if why == "none":
                self._provider = None  # still nothing kept
            self._refuse_answer(answer, why)
            yield request

    async def _open(self, url: str, why: str) -> None:
        """Hand the authorization URL to the host's callback (a person's part: the
        connection's clocks stop meanwhile, `on_person`); a plain function runs in a
        worker thread, since opening a browser may block until it is closed."""
        import inspect
        from urllib.parse import parse_qs, urlsplit

        assert self._authorize is not None
        scope = parse_qs(urlsplit(url).query).get("scope", [""])[0]
        asked = Authorization(self._who, url, tuple(scope.split()), why)
        if self.on_person is not None:
            self.on_person(True)
        try:
            authorize = self._authorize
            if inspect.iscoroutinefunction(authorize):
                await authorize(asked)
            else:  # a plain function may block (a browser opened in the foreground)
                done = await anyio.to_thread.run_sync(authorize, asked)
                if inspect.isawaitable(done):
                    await done
        finally:
            if self.on_person is not None:
                self.on_person(False)

    def _new_provider(self) -> Provider:
        """A provider over the store as it is (nothing kept: a first authorization)."""
        return Provider(
            self._url,
            client_metadata("http://127.0.0.1/callback"),  # replaced by the listener's
            self._store,
            client_metadata_url=self._document,
        )


# -- login and logout ---------------------------------------------------------------


async def login(
    layout: Layout,
    server: McpServer,
    url: str,
    *,
    on_url: Callable[[str], Awaitable[None]],
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_LOGIN_TIMEOUT,
    scopes: str | None = None,
    client_secret: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> LoginResult:
    """Authorize satchel for the remote `server` at `url`: a new authorization, its
    tokens kept in the keyring. `on_url` is handed the authorization URL to open.
    `scopes` (space-separated) are asked for beside those the server asks for and those
    the kept tokens hold; `client_secret` goes with the entry's configured client id
    (and is kept with it in the keyring); `environ` may set satchel's Client ID
    Metadata Document (`metadata_url`). The server is spoken to as connections speak
    to it (`satchel.mcp._connect`: 2026-07-28 first). Raises `LoginFailed` (and the
    keyring's `StoreFailed`)."""
    from mcp.client.auth import OAuthFlowError, OAuthRegistrationError, OAuthTokenError
    from mcp.client.auth.utils import union_scopes

    from satchel.runtime.mcp._oauth_callback import CallbackRefused, callback_listener

    quiet()
    entry = oauth_entry(server)
    document = metadata_url(environ or {})
    store = store_for(layout, server, url)
    store.read()
    store.deferred = True  # nothing is written until the new tokens come
    kept = store.tokens  # a login always asks anew; these stay until then
    failures = (OAuthFlowError, OAuthRegistrationError, OAuthTokenError, CallbackRefused)
    provider: Provider | None = None
    try:
        with anyio.fail_after(timeout):
            try:
                async with callback_listener(*_ports(entry, store)) as callback:
                    redirect = callback.redirect_uri()
                    configured = _choose_client(store, entry, redirect, client_secret)
                    had_client = store.client is not None

                    async def opened(authorization_url: str) -> None:
                        callback.expect(authorization_url)
                        await on_url(authorization_url)

                    provider = Provider(
                        url,
                        client_metadata(redirect),
                        store,
                        fresh=True,
                        scopes=union_scopes(kept.scope if kept else None, scopes),
                        redirect_handler=opened,
                        callback_handler=callback.result,
                        client_metadata_url=document,
                    )
                    protocol = await _probe(server.transport, url, provider, headers or {})
            except BaseExceptionGroup as group:  # the listener's task group wraps
                raise leaf(group) from None
    except TimeoutError:
        raise LoginFailed(f"the authorization did not finish within {timeout:g} s") from None
    except failures as e:
        raise LoginFailed(words(e)) from None
    except OSError as e:
        why = f"the redirect listener could not listen on 127.0.0.1: {words(e)}"
        raise LoginFailed(why) from None
    except Exception as e:  # noqa: BLE001  # the connection failed: said, never a traceback
        raise LoginFailed(_failed(e, provider, store.tokens is not kept)) from None
    authorized = store.tokens is not kept
    client = store.client
    cimd = client is not None and client.client_id == document
    registered = authorized and not had_client and not cimd
    return LoginResult(authorized, registered, configured, protocol)


def _failed(e: BaseException, provider: Provider | None, authorized: bool) -> str:
    """Why the login's connection failed: its authorization's failure, else the server's
    refusal of the new token, else the connection's."""
    if provider is not None and provider.failure is not None:
        return words(provider.failure)
    status = None if provider is None else provider.refusal
    if authorized and status is not None:
        return f"the server still answered HTTP {status} with the new token"
    inner = leaf(e)
    if isinstance(inner, httpx2.HTTPError):
        return f"the server could not be reached: {type(inner).__name__}"
    return f"the server could not be reached or did not finish the MCP handshake: {words(inner)}"


def _ports(entry: OAuthEntry, store: KeyringStore) -> tuple[int, ...]:
    """The ports to listen on, the first free one taken: the entry's callbackPort; else
    the kept registration's (so that it can be used again), then any."""
    if entry.callback_port is not None:
        return (entry.callback_port,)
    from urllib.parse import urlsplit

    uris = store.client.redirect_uris or [] if store.client is not None else []
    before = [urlsplit(str(u)).port for u in uris if urlsplit(str(u)).hostname == "127.0.0.1"]
    return (*(p for p in before[:1] if p), 0)


def _choose_client(
    store: KeyringStore, entry: OAuthEntry, redirect: str, secret: str | None = None
) -> bool:
    """Which client to authorize as: the entry's configured client id (whether it is
    one), with `secret` when given, else with the secret kept for it; else a kept
    registration whose redirect URI is this one; else none (a Client ID Metadata
    Document, or a new dynamic registration)."""
    from mcp.shared.auth import OAuthClientInformationFull
    from pydantic import AnyUrl

    if entry.client_id is not None:
        same = store.client is not None and store.client.client_id == entry.client_id
        if not same or secret is not None:
            store.client = OAuthClientInformationFull(
                client_id=entry.client_id,
                client_secret=secret,
                redirect_uris=[AnyUrl(redirect)],
                token_endpoint_auth_method="client_secret_basic" if secret else "none",
            )
        return True
    kept = store.client
    if kept is not None and redirect not in [str(u) for u in kept.redirect_uris or ()]:
        store.client = None
    return False


async def _probe(transport: str, url: str, provider: Provider, headers: Mapping[str, str]) -> str:
    """Connect to `url` as a connection does, with `provider` as its auth (which runs
    the flow when the server asks), and, when the handshake was let through without a
    token, list its tools, since a server may ask for authorization only past it. The
    protocol revision it was spoken to at."""
    from satchel.mcp._connect import client, revision
    from satchel.mcp._transports import Wire, remote_streams

    wire = Wire()
    streams = remote_streams(transport, url, headers, wire, timeout=REQUEST_TIMEOUT, auth=provider)
    async with client(streams) as connection:
        if provider.context.current_tokens is None:
            await connection.list_tools()
        return revision(connection)


def logout(layout: Layout, server: McpServer, url: str) -> bool:
    """Forget `server`'s tokens and client registration; whether any were kept.
    Raises the keyring's `StoreFailed`."""
    return store_for(layout, server, url).forget()

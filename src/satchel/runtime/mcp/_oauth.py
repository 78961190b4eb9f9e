"""OAuth for remote MCP servers, as Claude Code, Codex and Gemini CLI do it: the
authorization code grant with PKCE, the authorization server found from the server's
protected-resource metadata (RFC 9728) and its own metadata (RFC 8414), the client
registered dynamically (RFC 7591) where the server offers it, or the entry's
configured ``oauth.clientId`` otherwise. The flow is the MCP SDK's
(``mcp.client.auth.OAuthClientProvider``); satchel gives it the keyring store
(`satchel.runtime.mcp._oauth_store`) and the loopback redirect listener
(`satchel.runtime.mcp._oauth_callback`).

`login` runs the flow for one server: it shows the authorization URL (``on_url``), waits
for the redirect on 127.0.0.1 (the entry's ``oauth.callbackPort``, else a free port) and
keeps the tokens in the keyring; `logout` forgets them. The whole login has one
deadline (`timeout`); each HTTP request has its own too.

`StoredAuth` is what the supervisor hands its HTTP client: a request goes out as it is,
and only when the server answers 401 (or 403 with a challenge) is the keyring read;
with tokens there the SDK's flow takes over (an expired access token is refreshed
first, at the token endpoint kept with it; one the server refuses before it expired is
refreshed once and the request sent again, as the hosts do). It never starts an
interactive login: when the stored authorization is refused and cannot be refreshed,
the connection fails and ``satchel mcp login`` is the way on. Tokens are never written
to a file or a log.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio
import httpx2
from mcp.client.auth import OAuthClientProvider

from satchel.core._model import model
from satchel.runtime.mcp._oauth_store import KeyringStore, entry_name, service

if TYPE_CHECKING:
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

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
_PROBE_VERSION = "2025-11-25"  # the protocol revision the login's first request names


class LoginNeeded(Exception):
    """A connection's stored authorization was refused: only a new login helps."""


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


def store_for(layout: Layout, server: McpServer, url: str) -> KeyringStore:
    return KeyringStore(service(layout), entry_name(server, url))


# -- the provider -----------------------------------------------------------------


class _Provider(OAuthClientProvider):
    """The SDK's provider, which on its first use also restores, from the store, when
    the access token expires and the authorization server's metadata (the SDK keeps
    neither across processes)."""

    def __init__(
        self,
        url: str,
        metadata: OAuthClientMetadata,
        store: KeyringStore,
        *,
        fresh: bool = False,
        **more: Any,
    ) -> None:
        super().__init__(url, metadata, store, **more)
        self.store = store
        self.fresh = fresh  # a login: the kept tokens are not used (nor lost until replaced)

    async def _initialize(self) -> None:
        await super()._initialize()
        context = self.context
        if self.fresh:
            context.current_tokens = None
        context.token_expiry_time = None if self.fresh else self.store.expires_at
        context.oauth_metadata = context.oauth_metadata or self.store.metadata
        context.protected_resource_metadata = (
            context.protected_resource_metadata or self.store.resource
        )
        resource = context.protected_resource_metadata
        if context.auth_server_url is None and resource and resource.authorization_servers:
            context.auth_server_url = str(resource.authorization_servers[0])

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        self.store.metadata = self.context.oauth_metadata
        self.store.resource = self.context.protected_resource_metadata
        await super()._handle_token_response(response)


def _client_metadata(redirect: str) -> OAuthClientMetadata:
    from mcp.shared.auth import OAuthClientMetadata
    from pydantic import AnyUrl

    return OAuthClientMetadata(
        client_name="satchel",
        redirect_uris=[AnyUrl(redirect)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )


# -- the connection's auth ----------------------------------------------------------


class StoredAuth(httpx2.Auth):
    """The supervisor's auth for one remote server: the keyring is read only once the
    server asks for authorization; `stored` then says whether it held any."""

    requires_response_body = True

    def __init__(self, layout: Layout, server: McpServer, url: str) -> None:
        _quiet()
        self._store = store_for(layout, server, url)
        self._url = url
        self._provider: _Provider | None = None
        self.stored: bool | None = None  # None: never asked
        self.refused = False  # the stored authorization was refused, past refreshing

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self._provider is None:
            response = yield request
            if not _asks(response) or not await self._load():
                return
        assert self._provider is not None
        for retry in (False, True):
            flow = self._provider.async_auth_flow(request)
            try:
                outgoing = await flow.__anext__()
                while True:
                    answer = yield outgoing
                    if outgoing is request and _asks(answer):
                        break  # refused: before the SDK would start a new authorization
                    outgoing = await flow.asend(answer)
            except StopAsyncIteration:
                return
            finally:
                await flow.aclose()
            if retry or not self._expire():
                self.refused = True  # only a new login helps, which is not ours to run
                return

    def _expire(self) -> bool:
        """Take the access token the server refused as expired, so that the next flow
        refreshes it first (as the hosts do once on a 401); whether it can."""
        assert self._provider is not None
        context = self._provider.context
        if not context.can_refresh_token():
            return False
        context.token_expiry_time = 1.0  # long past (the SDK reads 0 as "no expiry")
        return True

    async def _load(self) -> bool:
        """Read the keyring (once, off the event loop); whether tokens are kept."""
        if self.stored is None:
            await anyio.to_thread.run_sync(self._store.read)
            self.stored = self._store.tokens is not None
            if self.stored:
                metadata = _client_metadata("http://127.0.0.1/callback")  # never used
                self._provider = _Provider(
                    self._url,
                    metadata,
                    self._store,
                    redirect_handler=self._refuse,
                    callback_handler=self._no_code,
                )
        return self._provider is not None

    async def _refuse(self, url: str) -> None:
        """The SDK's redirect handler, never reached: a refusal of the authorized
        request ends the flow before the SDK would start a new authorization."""
        self.refused = True
        raise LoginNeeded("the stored authorization was refused")

    async def _no_code(self) -> AuthorizationCodeResult:
        raise LoginNeeded("the stored authorization was refused")


def _asks(response: httpx2.Response) -> bool:
    challenged = "www-authenticate" in response.headers
    return response.status_code == 401 or (response.status_code == 403 and challenged)


# -- login and logout ---------------------------------------------------------------


async def login(
    layout: Layout,
    server: McpServer,
    url: str,
    *,
    on_url: Callable[[str], Awaitable[None]],
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_LOGIN_TIMEOUT,
) -> LoginResult:
    """Authorize satchel for the remote `server` at `url`: a new authorization, its
    tokens kept in the keyring. `on_url` is handed the authorization URL to open.
    Raises `LoginFailed` (and the keyring's `StoreFailed`)."""
    from mcp.client.auth import OAuthFlowError, OAuthRegistrationError, OAuthTokenError

    from satchel.runtime.mcp._oauth_callback import CallbackRefused, callback_listener

    _quiet()
    entry = oauth_entry(server)
    store = store_for(layout, server, url)
    store.read()
    store.deferred = True  # nothing is written until the new tokens come
    kept = store.tokens  # a login always asks anew; these stay until then
    failures = (OAuthFlowError, OAuthRegistrationError, OAuthTokenError, CallbackRefused)
    try:
        with anyio.fail_after(timeout):
            try:
                async with callback_listener(*_ports(entry, store)) as callback:
                    redirect = callback.redirect_uri(named=entry.callback_port is not None)
                    configured = _choose_client(store, entry, redirect)
                    had_client = store.client is not None

                    async def opened(authorization_url: str) -> None:
                        callback.expect(authorization_url)
                        await on_url(authorization_url)

                    provider = _Provider(
                        url,
                        _client_metadata(redirect),
                        store,
                        fresh=True,
                        redirect_handler=opened,
                        callback_handler=callback.result,
                    )
                    status = await _probe(url, provider, headers or {})
            except BaseExceptionGroup as group:  # the listener's task group wraps
                raise _leaf(group) from None
    except TimeoutError:
        raise LoginFailed(f"the authorization did not finish within {timeout:g} s") from None
    except failures as e:
        raise LoginFailed(_words(e)) from None
    except httpx2.HTTPError as e:
        raise LoginFailed(f"the server could not be reached: {type(e).__name__}") from None
    except OSError as e:
        why = f"the redirect listener could not listen on 127.0.0.1: {_words(e)}"
        raise LoginFailed(why) from None
    if status in (401, 403):
        raise LoginFailed(f"the server still answered HTTP {status} with the new token")
    authorized = store.tokens is not kept
    return LoginResult(authorized, authorized and not had_client, configured)


def _ports(entry: OAuthEntry, store: KeyringStore) -> tuple[int, ...]:
    """The ports to listen on, the first free one taken: the entry's callbackPort; else
    the kept registration's (so that it can be used again), then any."""
    if entry.callback_port is not None:
        return (entry.callback_port,)
    from urllib.parse import urlsplit

    uris = store.client.redirect_uris or [] if store.client is not None else []
    before = [urlsplit(str(u)).port for u in uris if urlsplit(str(u)).hostname == "127.0.0.1"]
    return (*(p for p in before[:1] if p), 0)


def _choose_client(store: KeyringStore, entry: OAuthEntry, redirect: str) -> bool:
    """Which client the login authorizes as: the entry's configured client id (whether
    it is one), else a kept registration whose redirect URI is this one, else none (a
    new dynamic registration)."""
    from mcp.shared.auth import OAuthClientInformationFull
    from pydantic import AnyUrl

    if entry.client_id is not None:
        if store.client is None or store.client.client_id != entry.client_id:
            store.client = OAuthClientInformationFull(
                client_id=entry.client_id,
                redirect_uris=[AnyUrl(redirect)],
                token_endpoint_auth_method="none",
            )
        return True
    kept = store.client
    if kept is not None and redirect not in [str(u) for u in kept.redirect_uris or ()]:
        store.client = None
    return False


async def _probe(url: str, provider: _Provider, headers: Mapping[str, str]) -> int:
    """MCP requests to `url` with `provider` as their auth (which runs the flow on the
    server's 401): an ``initialize``, and, when that was let through without a token,
    ``tools/list`` in its session, since a server may ask for authorization only past
    the handshake. The status of the last answer. A session it opened is closed."""
    sent = {
        **headers,
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": _PROBE_VERSION,
    }
    limits = httpx2.Timeout(REQUEST_TIMEOUT)
    async with httpx2.AsyncClient(timeout=limits, follow_redirects=False) as client:

        async def post(body: dict[str, Any], more: Mapping[str, str]) -> httpx2.Response:
            response = await client.post(url, json=body, headers={**sent, **more}, auth=provider)
            await response.aclose()
            return response

        response = await post(_request(1, "initialize", _hello()), {})
        session = response.headers.get("mcp-session-id")
        kept = {"mcp-session-id": session} if session else {}
        if response.is_success and provider.context.current_tokens is None:
            await post({"jsonrpc": "2.0", "method": "notifications/initialized"}, kept)
            response = await post(_request(2, "tools/list", {}), kept)
        if session:
            gone = {**headers, **kept, "mcp-protocol-version": _PROBE_VERSION}
            await client.delete(url, headers=gone, auth=provider)
    return response.status_code


def _hello() -> dict[str, Any]:
    return {
        "protocolVersion": _PROBE_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "satchel", "version": _version()},
    }


def _request(number: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": params}


def logout(layout: Layout, server: McpServer, url: str) -> bool:
    """Forget `server`'s tokens and client registration; whether any were kept.
    Raises the keyring's `StoreFailed`."""
    return store_for(layout, server, url).forget()


def _quiet() -> None:
    """The SDK logs a failed flow with its traceback (``logger.exception``): with no
    handler of the host's, Python would print it on stderr. A failure is a diagnostic
    here, so the SDK's auth logger gets a null handler (a host's own handlers still
    receive its records)."""
    import logging

    logger = logging.getLogger(OAuthClientProvider.__module__)  # the SDK's flow logs there
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def _version() -> str:
    from satchel.foundations._version import __version__

    return __version__


def _leaf(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def _words(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__

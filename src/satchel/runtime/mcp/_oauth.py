"""OAuth for remote MCP servers, as Claude Code, Codex and Gemini CLI do it: the
authorization code grant with PKCE, the authorization server found from the server's
protected-resource metadata (RFC 9728) and its own metadata (RFC 8414), the client
registered dynamically (RFC 7591) where the server offers it, satchel's Client ID
Metadata Document where one is set (``MCP_OAUTH_CLIENT_METADATA_URL``) and the server
takes such documents, or the entry's configured ``oauth.clientId`` (with the secret
given to `login`, sent as the authorization server asks). The flow is the MCP SDK's
(``mcp.client.auth.OAuthClientProvider``: scope step-up with the union of scopes,
SEP-2350; credentials bound to the authorization server that issued them, SEP-2352);
satchel gives it the keyring store (`satchel.runtime.mcp._oauth_store`) and the
loopback redirect listener (`satchel.runtime.mcp._oauth_callback`).

`login` runs the flow for one server, connecting as connections do
(`satchel.mcp._connect`): it shows the authorization URL (``on_url``), waits for the
redirect on 127.0.0.1 (the entry's ``oauth.callbackPort``, else a free port) and keeps
the tokens in the keyring; `logout` forgets them. The whole login has one deadline
(`timeout`); each HTTP request has its own too.

`StoredAuth` is what the supervisor hands its HTTP client: a request goes out as it is,
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
METADATA_URL_VARIABLE = "MCP_OAUTH_CLIENT_METADATA_URL"


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
    return KeyringStore(service(layout), entry_name(server, url))


# -- the provider -----------------------------------------------------------------


class _Provider(OAuthClientProvider):
    """The SDK's provider, which on its first use also restores, from the store, when
    the access token expires and the authorization server's metadata (the SDK keeps
    neither across processes); asks for `scopes` beyond the server's choice too; and
    sends a configured client's secret as the authorization server's metadata asks
    (``client_secret_basic``, its default, or ``client_secret_post``)."""

    def __init__(
        self,
        url: str,
        metadata: OAuthClientMetadata,
        store: KeyringStore,
        *,
        fresh: bool = False,
        scopes: str | None = None,
        **more: Any,
    ) -> None:
        super().__init__(url, metadata, store, **more)
        self.store = store
        self.fresh = fresh  # a login: the kept tokens are not used (nor lost until replaced)
        self.scopes = scopes
        self.failure: Exception | None = None  # what ended a flow
        self.refusal: int | None = None  # the status of a refusal of a request with a token

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = super().async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                answer = yield outgoing
                if outgoing is request and _asks(answer) and "authorization" in request.headers:
                    self.refusal = answer.status_code
                outgoing = await flow.asend(answer)
        except StopAsyncIteration:
            return
        except Exception as e:
            self.failure = e
            raise
        finally:
            await flow.aclose()

    async def _perform_authorization_code_grant(self) -> tuple[str, str]:
        from mcp.client.auth.utils import union_scopes

        metadata = self.context.client_metadata
        metadata.scope = union_scopes(metadata.scope, self.scopes)
        return await super()._perform_authorization_code_grant()

    async def _exchange_token_authorization_code(
        self, auth_code: str, code_verifier: str
    ) -> httpx2.Request:
        self._fit_secret()
        return await super()._exchange_token_authorization_code(auth_code, code_verifier)

    async def _refresh_token(self) -> httpx2.Request:
        self._fit_secret()
        return await super()._refresh_token()

    def _fit_secret(self) -> None:
        """A client with a secret authenticates at the token endpoint as the
        authorization server's metadata says it may: Basic when it lists
        ``client_secret_basic`` or lists nothing (RFC 8414's default), else in the body
        when it lists ``client_secret_post``."""
        client = self.context.client_info
        if client is None or not client.client_secret:
            return
        offered = self.context.oauth_metadata
        methods = (offered.token_endpoint_auth_methods_supported if offered else None) or []
        method = client.token_endpoint_auth_method
        if not methods or "client_secret_basic" in methods:
            method = "client_secret_basic"
        elif "client_secret_post" in methods:
            method = "client_secret_post"
        if method != client.token_endpoint_auth_method:
            client = client.model_copy(update={"token_endpoint_auth_method": method})
            self.context.client_info = client

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


class StoredAuth(httpx2.Auth):
    """The supervisor's auth for one remote server: the keyring is read only once the
    server asks for authorization; `stored` then says whether it held any. With an
    `authorize` callback, an authorization the kept tokens cannot give (more scopes,
    a refusal past refreshing, another authorization server) is run in the request
    that needed it: the callback opens the URL, the redirect comes to a listener on
    127.0.0.1, and the new tokens go to the keyring. Without one, such a request's
    refusal is let through: `refused`, and `scopes_needed` for a step-up."""

    requires_response_body = True

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
        _quiet()
        from satchel.mcp._names import server_id

        self._store = store_for(layout, server, url)
        self._store.deferred = True  # a new registration is kept with its tokens only
        self._entry = oauth_entry(server)
        self._document = metadata_url(environ or {})
        self._who = server_id(server)
        self._url = url
        self._authorize = authorize
        self._timeout = DEFAULT_LOGIN_TIMEOUT if timeout is None else timeout  # a person's
        self._provider: _Provider | None = None
        self._asked: set[tuple[str, str | None]] = set()
        self.stored: bool | None = None  # None: never asked
        self.refused = False  # the stored authorization was refused, past refreshing
        self.scopes_needed: str | None = None  # a step-up was refused: the scopes to ask
        self.authorized = 0  # authorizations run through `authorize`
        self.failure: str | None = None  # why the last one failed
        self.on_person: Callable[[bool], None] | None = None  # a person's part starts, ends

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        answer: httpx2.Response | None = None
        why = "none"
        if self._provider is None:
            answer = yield request
            if not _asks(answer):
                return
            if await self._load():
                answer = None
        if answer is None:
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
                if _step_up(answer) or retry or not self._expire():
                    break
            why = "scope" if _step_up(answer) else "refused"
        assert answer is not None
        if not self._may_ask(answer, why):
            self._refuse_answer(answer, why)
            return
        inner = self._anew(request, answer, why)
        try:
            outgoing = await inner.__anext__()
            while True:
                outgoing = await inner.asend((yield outgoing))
        except StopAsyncIteration:
            return
        finally:
            await inner.aclose()

    def _may_ask(self, answer: httpx2.Response, why: str) -> bool:
        """Whether this refusal is one to authorize anew for: there is an `authorize`
        callback, and this connection has not yet asked for this challenge (a server
        that refuses again what it was just granted is not asked for in a loop)."""
        if self._authorize is None:
            return False
        key = (why, _challenged(answer))
        if key in self._asked:
            return False
        self._asked.add(key)
        return True

    def _refuse_answer(self, answer: httpx2.Response, why: str) -> None:
        """The refusal is let through: say what only a new login can give."""
        if why == "none":
            return
        self.refused = True
        if why == "scope":
            from mcp.client.auth.utils import union_scopes

            held = self._provider.context.current_tokens if self._provider else None
            self.scopes_needed = union_scopes(held.scope if held else None, _challenged(answer))

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
            redirect = callback.redirect_uri(named=entry.callback_port is not None)
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
                self.failure = _words(_leaf(e))
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

    def _new_provider(self) -> _Provider:
        """A provider over the store as it is (nothing kept: a first authorization)."""
        return _Provider(
            self._url,
            _client_metadata("http://127.0.0.1/callback"),  # replaced by the listener's
            self._store,
            client_metadata_url=self._document,
        )

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
                    client_metadata_url=self._document,
                )
        return self._provider is not None

    async def _refuse(self, url: str) -> None:
        """The SDK's redirect handler, never reached: a refusal of the authorized
        request ends the flow before the SDK would start a new authorization."""
        self.refused = True
        raise LoginNeeded("the stored authorization was refused")

    async def _no_code(self) -> AuthorizationCodeResult:
        raise LoginNeeded("the stored authorization was refused")


def _step_up(response: httpx2.Response | None) -> bool:
    """Whether `response` asks for more scopes (403 ``insufficient_scope``)."""
    from mcp.client.auth.utils import extract_field_from_www_auth

    if response is None or response.status_code != 403:
        return False
    return extract_field_from_www_auth(response, "error") == "insufficient_scope"


def _challenged(response: httpx2.Response) -> str | None:
    from mcp.client.auth.utils import extract_scope_from_www_auth

    return extract_scope_from_www_auth(response)


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

    _quiet()
    entry = oauth_entry(server)
    document = metadata_url(environ or {})
    store = store_for(layout, server, url)
    store.read()
    store.deferred = True  # nothing is written until the new tokens come
    kept = store.tokens  # a login always asks anew; these stay until then
    failures = (OAuthFlowError, OAuthRegistrationError, OAuthTokenError, CallbackRefused)
    provider: _Provider | None = None
    try:
        with anyio.fail_after(timeout):
            try:
                async with callback_listener(*_ports(entry, store)) as callback:
                    redirect = callback.redirect_uri(named=entry.callback_port is not None)
                    configured = _choose_client(store, entry, redirect, client_secret)
                    had_client = store.client is not None

                    async def opened(authorization_url: str) -> None:
                        callback.expect(authorization_url)
                        await on_url(authorization_url)

                    provider = _Provider(
                        url,
                        _client_metadata(redirect),
                        store,
                        fresh=True,
                        scopes=union_scopes(kept.scope if kept else None, scopes),
                        redirect_handler=opened,
                        callback_handler=callback.result,
                        client_metadata_url=document,
                    )
                    protocol = await _probe(server.transport, url, provider, headers or {})
            except BaseExceptionGroup as group:  # the listener's task group wraps
                raise _leaf(group) from None
    except TimeoutError:
        raise LoginFailed(f"the authorization did not finish within {timeout:g} s") from None
    except failures as e:
        raise LoginFailed(_words(e)) from None
    except OSError as e:
        why = f"the redirect listener could not listen on 127.0.0.1: {_words(e)}"
        raise LoginFailed(why) from None
    except Exception as e:  # noqa: BLE001  # the connection failed: said, never a traceback
        raise LoginFailed(_failed(e, provider, store.tokens is not kept)) from None
    authorized = store.tokens is not kept
    client = store.client
    cimd = client is not None and client.client_id == document
    registered = authorized and not had_client and not cimd
    return LoginResult(authorized, registered, configured, protocol)


def _failed(e: BaseException, provider: _Provider | None, authorized: bool) -> str:
    """Why the login's connection failed: its authorization's failure, else the server's
    refusal of the new token, else the connection's."""
    if provider is not None and provider.failure is not None:
        return _words(provider.failure)
    status = None if provider is None else provider.refusal
    if authorized and status is not None:
        return f"the server still answered HTTP {status} with the new token"
    leaf = _leaf(e)
    if isinstance(leaf, httpx2.HTTPError):
        return f"the server could not be reached: {type(leaf).__name__}"
    return f"the server could not be reached or did not finish the MCP handshake: {_words(leaf)}"


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


async def _probe(transport: str, url: str, provider: _Provider, headers: Mapping[str, str]) -> str:
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


def _quiet() -> None:
    """The SDK logs a failed flow with its traceback (``logger.exception``): with no
    handler of the host's, Python would print it on stderr. A failure is a diagnostic
    here, so the SDK's auth logger gets a null handler (a host's own handlers still
    receive its records)."""
    import logging

    logger = logging.getLogger(OAuthClientProvider.__module__)  # the SDK's flow logs there
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def _leaf(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def _words(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__

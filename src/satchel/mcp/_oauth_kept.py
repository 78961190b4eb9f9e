"""A kept OAuth login, sent by every connection to a remote MCP server without a person:
the keyring store (`satchel.mcp._oauth_store`), the MCP SDK's flow as satchel runs it
(`Provider`: the access token's expiry and the authorization server's metadata restored
from the store, a configured client's secret sent as the metadata asks), and `KeptAuth`,
the ``httpx`` auth that sends the kept token.

A request goes out as it is, and only when the server answers 401 (or 403 with a
challenge) is the keyring read; with tokens there the SDK's flow takes over (an expired
access token is refreshed first, at the token endpoint kept with it; one the server
refuses before it expired is refreshed once and the request sent again, as the hosts
do). Nothing here starts a new authorization: a refusal the kept tokens cannot mend is
let through (`KeptAuth.refused`, `KeptAuth.stored`), and the caller names
``satchel mcp login``. The interactive parts (the browser, the loopback redirect
listener, the host's ``authorize`` callback, the login itself) are
`satchel.runtime.mcp._oauth`'s. Tokens and secrets are never written to a file or a log.
Of a refusal's body at most `MAX_REFUSAL` bytes are read (`capped`); of a token
endpoint's failure only its status and OAuth error code and description are said
(`oauth_error`); a client the authorization server issued tokens to is bound to it
(SEP-2352), a configured one with its secret included.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any

import anyio
import httpx2
from mcp.client.auth import OAuthClientProvider

from satchel.mcp._oauth_store import KeyringStore

if TYPE_CHECKING:
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

__all__ = [
    "KeptAuth",
    "LoginNeeded",
    "Provider",
    "capped",
    "challenged",
    "client_metadata",
    "leaf",
    "quiet",
    "words",
]


MAX_REFUSAL = 4096  # bytes of a 401's (or 403's) body read before it is closed


class LoginNeeded(Exception):
    """A connection's stored authorization was refused: only a new login helps."""


# -- the provider -----------------------------------------------------------------


class Provider(OAuthClientProvider):
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
                if outgoing is request and _asks(answer):
                    await capped(answer)
                    if "authorization" in request.headers:
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

    def _bind_client(self) -> None:
        """Bind a client the authorization server issued tokens to, which no issuer
        bound yet (a configured client id, with its secret), to that server, as the SDK
        binds a registration (SEP-2352): a later flow whose metadata names another
        authorization server drops it (and registers anew there) instead of sending it
        the client id and secret."""
        context = self.context
        client = context.client_info
        if client is None or client.issuer is not None or context.oauth_metadata is None:
            return
        if client.client_id == context.client_metadata_url:
            return  # a Client ID Metadata Document is every authorization server's
        client = client.model_copy(update={"issuer": self._expected_issuer()})
        context.client_info = client
        self.store.client = client

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
        """The SDK's, but what the token endpoint said is never in the error (its body
        may hold a token): only the status and the OAuth error code and description."""
        from mcp.client.auth import OAuthTokenError

        self.store.metadata = self.context.oauth_metadata
        self.store.resource = self.context.protected_resource_metadata
        status = response.status_code
        if status not in {200, 201}:
            await capped(response)
            said = oauth_error(response.content)
            raise OAuthTokenError(f"Token exchange failed ({status}){said}")
        self._bind_client()
        try:
            await super()._handle_token_response(response)
        except OAuthTokenError:
            why = f"Invalid token response (HTTP {status}): not an OAuth token response"
            raise OAuthTokenError(why) from None


def oauth_error(body: bytes) -> str:
    """The OAuth error code and description of a token endpoint's error `body` (RFC
    6749 5.2), each in printable ASCII and capped, as ``: code: description``; nothing
    else of the body."""
    import json

    try:
        found = json.loads(body)
    except ValueError:
        return ""
    if not isinstance(found, dict):
        return ""
    said = [_printable(found.get(k), n) for k, n in (("error", 64), ("error_description", 200))]
    return "".join(f": {part}" for part in said if part)


def _printable(value: object, most: int) -> str | None:
    if not isinstance(value, str):
        return None
    text = "".join(c for c in value if " " <= c <= "~")
    return text[:most] + ("..." if len(text) > most else "") or None


def client_metadata(redirect: str) -> OAuthClientMetadata:
    """What satchel registers itself as: a public client named ``satchel`` redirected
    to `redirect`, for the authorization code and refresh grants."""
    from mcp.shared.auth import OAuthClientMetadata
    from pydantic import AnyUrl

    return OAuthClientMetadata(
        client_name="satchel",
        redirect_uris=[AnyUrl(redirect)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )


class KeptAuth(httpx2.Auth):
    """The auth of one connection to a remote server, over the kept login in `store`:
    the keyring is read only once the server asks for authorization; `stored` then says
    whether it held any. A refusal the kept tokens cannot mend is let through:
    `refused`, and `scopes_needed` for a step-up. `document`: satchel's Client ID
    Metadata Document's URL, when one is set. A subclass may authorize anew
    (`_may_ask`, `_anew`: the supervisor's, with the host's ``authorize`` callback)."""

    requires_response_body = True

    def __init__(self, store: KeyringStore, url: str, *, document: str | None = None) -> None:
        quiet()
        self._store = store
        self._store.deferred = True  # a new registration is kept with its tokens only
        self._document = document
        self._url = url
        self._provider: Provider | None = None
        self.stored: bool | None = None  # None: never asked
        self.refused = False  # the stored authorization was refused, past refreshing
        self.scopes_needed: str | None = None  # a step-up was refused: the scopes to ask

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        answer: httpx2.Response | None = None
        why = "none"
        if self._provider is None:
            answer = yield request
            if not _asks(answer):
                return
            await capped(answer)
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
                            await capped(answer)
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
        """Whether to authorize anew for this refusal: never, without a person."""
        return False

    def _anew(
        self, request: httpx2.Request, answer: httpx2.Response, why: str
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """A new authorization in the flow of `request` (only where `_may_ask`)."""
        raise NotImplementedError

    def _refuse_answer(self, answer: httpx2.Response, why: str) -> None:
        """The refusal is let through: say what only a new login can give."""
        if why == "none":
            return
        self.refused = True
        if why == "scope":
            from mcp.client.auth.utils import union_scopes

            held = self._provider.context.current_tokens if self._provider else None
            self.scopes_needed = union_scopes(held.scope if held else None, challenged(answer))

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
                metadata = client_metadata("http://127.0.0.1/callback")  # never used
                self._provider = Provider(
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


def challenged(response: httpx2.Response) -> str | None:
    from mcp.client.auth.utils import extract_scope_from_www_auth

    return extract_scope_from_www_auth(response)


async def capped(response: httpx2.Response) -> None:
    """Read at most `MAX_REFUSAL` bytes of a refusal's body, then close it: the request
    is sent again (or the refusal is the answer), and the client would otherwise read
    the whole body first, which a server may never end."""
    if hasattr(response, "_content"):
        return  # read already
    body = b""
    try:
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) >= MAX_REFUSAL:
                break
    except httpx2.HTTPError:
        pass  # what came is enough: only the status and the headers are read
    finally:
        await response.aclose()
    response._content = body[:MAX_REFUSAL]


def _asks(response: httpx2.Response) -> bool:
    challenged = "www-authenticate" in response.headers
    return response.status_code == 401 or (response.status_code == 403 and challenged)


def quiet() -> None:
    """The SDK logs a failed flow with its traceback (``logger.exception``): with no
    handler of the host's, Python would print it on stderr. A failure is a diagnostic
    here, so the SDK's auth logger gets a null handler (a host's own handlers still
    receive its records)."""
    import logging

    logger = logging.getLogger(OAuthClientProvider.__module__)  # the SDK's flow logs there
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def leaf(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def words(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__

"""An MCP server written with the SDK that requires OAuth, and the authorization
server it trusts, both served by one uvicorn process on 127.0.0.1 (printed as
``port=N``), with the SDK's own server-side auth pieces.

The MCP server is at ``/mcp``; its protected-resource metadata (RFC 9728) names the
authorization server at the origin, which publishes its metadata (RFC 8414), registers
clients dynamically (RFC 7591; ``--no-registration`` turns that off, leaving only the
client ``fixed-client`` registered by hand for ``http://127.0.0.1:<--client-port>/callback``,
a confidential one with ``--client-secret``, authenticated with Basic credentials),
and approves every authorization request at once (its ``/authorize`` redirects to the
client's redirect URI with a code: no person in the loop). Access tokens live an hour.

The tool ``publish`` wants the scope ``write`` besides: a call with a token that lacks
it is answered 403 ``insufficient_scope`` with ``scope="write"`` (a step-up), as an
MCP server guarding one operation does; every client is registered with ``write``
allowed, and a token holds the scopes its authorization asked for.

For the tests, two routes outside OAuth: ``POST /test/expire`` makes every access token
issued so far invalid (as if an hour had passed; with ``?refresh=revoke`` every refresh
token too), and ``GET /test/stats`` counts the
registrations and the grants of each kind, and the access tokens that are valid;
``POST /test/token`` with ``{"status": N, "body": "..."}`` makes ``/token`` answer that
instead (``null``: the token endpoint again); ``POST /test/move`` with ``{"to": URL}``
makes the protected-resource metadata name the authorization server at URL instead;
``GET /test/presented`` lists the client ids ``/authorize`` and ``/token`` were given.
"""

from __future__ import annotations

import argparse
import json
import secrets
import socket
import time
from typing import Any

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

LIFETIME = 3600  # seconds an access token is valid
WRITE = "write"  # the scope ``publish`` wants
WELL_KNOWN_RESOURCE = "/.well-known/oauth-protected-resource"


class Approving:
    """An authorization server that approves every request, in memory."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.access: dict[str, AccessToken] = {}
        self.counts = {"registrations": 0, "authorization_code": 0, "refresh_token": 0}
        self.token_answer: tuple[int, str] | None = None  # what /token answers instead
        self.moved_to: str | None = None  # the authorization server the resource names
        self.presented: list[str] = []  # the client ids /authorize and /token were given

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        self.counts["registrations"] += 1

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        code = secrets.token_urlsafe(16)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id or "",
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        del self.codes[authorization_code.code]
        self.counts["authorization_code"] += 1
        return self._issue(client, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        del self.refresh[refresh_token.token]
        self.counts["refresh_token"] += 1
        return self._issue(client, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(
        self, client: OAuthClientInformationFull, scopes: list[str], resource: str | None
    ) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        client_id = client.client_id or ""
        expires = int(time.time()) + LIFETIME
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource
        )
        return OAuthToken(
            access_token=access,
            expires_in=LIFETIME,
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )


def build(
    port: int, *, registration: bool, client_port: int | None, secret: str | None = None
) -> tuple[MCPServer, Approving]:
    base = f"http://127.0.0.1:{port}"
    provider = Approving()
    if client_port is not None:
        provider.clients["fixed-client"] = OAuthClientInformationFull(
            client_id="fixed-client",
            redirect_uris=[AnyUrl(f"http://127.0.0.1:{client_port}/callback")],
            client_secret=secret,
            token_endpoint_auth_method="client_secret_basic" if secret else "none",
            scope=WRITE,
        )
    auth = AuthSettings(
        issuer_url=base,
        resource_server_url=f"{base}/mcp",
        validate_token_resource=False,
        client_registration_options=ClientRegistrationOptions(
            enabled=registration, default_scopes=[WRITE]
        ),
    )
    app = MCPServer(
        "guarded", instructions="An OAuth fixture.", auth=auth, auth_server_provider=provider
    )

    @app.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @app.tool()
    def publish(text: str) -> str:
        """Publish the text (a call that needs the scope ``write``)."""
        return f"published {text}"

    @app.custom_route("/test/expire", methods=["POST"])
    async def expire(request: Request) -> JSONResponse:
        for token in provider.access.values():
            token.expires_at = 0
        if request.query_params.get("refresh") == "revoke":
            provider.refresh.clear()
        return JSONResponse({"expired": len(provider.access)})

    @app.custom_route("/test/token", methods=["POST"])
    async def token(request: Request) -> JSONResponse:
        asked = await request.json()
        provider.token_answer = None if asked is None else (asked["status"], asked["body"])
        return JSONResponse({"token": asked})

    @app.custom_route("/test/move", methods=["POST"])
    async def move(request: Request) -> JSONResponse:
        provider.moved_to = (await request.json())["to"]
        return JSONResponse({"moved_to": provider.moved_to})

    @app.custom_route("/test/presented", methods=["GET"])
    async def presented(request: Request) -> JSONResponse:
        return JSONResponse(provider.presented)

    @app.custom_route("/test/stats", methods=["GET"])
    async def stats(request: Request) -> JSONResponse:
        valid = [t for t in provider.access.values() if t.expires_at]
        return JSONResponse({**provider.counts, "valid": len(valid)})

    return app, provider


class StepUp:
    """ASGI middleware: a ``tools/call`` of ``publish`` whose bearer token lacks the
    scope ``write`` is answered 403 ``insufficient_scope`` before the server sees it."""

    def __init__(self, app: Any, provider: Approving, base: str) -> None:
        self.app, self.provider, self.base = app, provider, base

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        instead = self.provider.token_answer
        if scope["type"] == "http" and scope["path"] == "/token" and instead is not None:
            status, text = instead
            await Response(text, status, media_type="application/json")(scope, receive, send)
            return
        to = self.provider.moved_to
        if scope["type"] == "http" and to and scope["path"].startswith(WELL_KNOWN_RESOURCE):
            moved = {"resource": f"{self.base}/mcp", "authorization_servers": [to]}
            await JSONResponse(moved)(scope, receive, send)
            return
        if scope["type"] == "http" and scope["path"] in ("/authorize", "/token"):
            messages, body = await _received(receive)
            self.provider.presented += _client_ids(scope, body)
            await self.app(scope, _replay(messages, receive), send)
            return
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/mcp":
            await self.app(scope, receive, send)
            return
        messages, body = await _received(receive)
        if self._lacks(scope, body):
            challenge = (
                f'Bearer error="insufficient_scope", scope="{WRITE}", '
                f'resource_metadata="{self.base}/.well-known/oauth-protected-resource/mcp"'
            )
            answer = JSONResponse(
                {"error": "insufficient_scope"},
                status_code=403,
                headers={"WWW-Authenticate": challenge},
            )
            await answer(scope, receive, send)
            return

        await self.app(scope, _replay(messages, receive), send)

    def _lacks(self, scope: Any, body: bytes) -> bool:
        try:
            request = json.loads(body)
        except ValueError:
            return False
        params = request.get("params") if isinstance(request, dict) else None
        if request.get("method") != "tools/call" or not isinstance(params, dict):
            return False
        if params.get("name") != "publish":
            return False
        headers = dict(scope["headers"])
        bearer = headers.get(b"authorization", b"").decode().removeprefix("Bearer ")
        token = self.provider.access.get(bearer)
        return token is not None and WRITE not in token.scopes


async def _received(receive: Any) -> tuple[list[Any], bytes]:
    messages, body = [], b""
    while True:
        message = await receive()
        messages.append(message)
        body += message.get("body", b"")
        if not message.get("more_body"):
            return messages, body


def _replay(messages: list[Any], receive: Any) -> Any:
    async def replay() -> Any:
        return messages.pop(0) if messages else await receive()

    return replay


def _client_ids(scope: Any, body: bytes) -> list[str]:
    """The client ids a request presents: in its query, its form body, its Basic
    credentials."""
    import base64
    from urllib.parse import parse_qs

    found = parse_qs(scope.get("query_string", b"").decode()).get("client_id", [])
    found += parse_qs(body.decode("latin-1")).get("client_id", [])
    basic = dict(scope["headers"]).get(b"authorization", b"")
    if basic.startswith(b"Basic "):
        found.append(base64.b64decode(basic[6:]).decode().split(":", 1)[0])
    return found


def main() -> None:
    import anyio
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--no-registration", action="store_true")
    parser.add_argument("--client-port", type=int)
    parser.add_argument("--client-secret")
    args = parser.parse_args()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    app, provider = build(
        port,
        registration=not args.no_registration,
        client_port=args.client_port,
        secret=args.client_secret,
    )
    print(f"port={port}", flush=True)
    guarded = StepUp(app.streamable_http_app(), provider, f"http://127.0.0.1:{port}")
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    main()

"""satchel's own skills server (`satchel.server.build_server`: the Skills extension
over streamable HTTP at ``/mcp``) behind OAuth, with the authorization server of
``oauth_server.py`` beside it (the SDK's server-side auth pieces, approving every
request at once), in one uvicorn process on 127.0.0.1 (printed as ``port=N``).

``oauth_skills_server.py ROOT`` serves the skills of the project ROOT (its
``.satchel/skills``). Every MCP request needs a bearer token the authorization server
issued; ``POST /test/expire`` makes every access token issued so far invalid (with
``?refresh=revoke`` every refresh token too), and ``GET /test/stats`` counts the
registrations and the grants of each kind.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

from mcp.server.auth.provider import ProviderTokenVerifier
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from oauth_server import WRITE, Approving
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

import satchel
from satchel.server import build_server


def main() -> None:
    import anyio
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    args = parser.parse_args()
    root = Path(args.root)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    provider = Approving()

    async def expire(request: Request) -> JSONResponse:
        for token in provider.access.values():
            token.expires_at = 0
        if request.query_params.get("refresh") == "revoke":
            provider.refresh.clear()
        return JSONResponse({"expired": len(provider.access)})

    async def stats(request: Request) -> JSONResponse:
        return JSONResponse(provider.counts)

    layout = satchel.Layout.default(root, home=root / "home", project=root, env={})
    env = satchel.load(layout=layout, trusted=False)
    app = build_server(env).streamable_http_app(
        streamable_http_path="/mcp",
        auth=AuthSettings(
            issuer_url=base,
            resource_server_url=f"{base}/mcp",
            validate_token_resource=False,
            client_registration_options=ClientRegistrationOptions(
                enabled=True, default_scopes=[WRITE]
            ),
        ),
        token_verifier=ProviderTokenVerifier(provider),
        auth_server_provider=provider,
        custom_starlette_routes=[
            Route("/test/expire", expire, methods=["POST"]),
            Route("/test/stats", stats, methods=["GET"]),
        ],
    )
    print(f"port={port}", flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    main()

"""streamable-http and sse servers: the SDK fixture served by uvicorn on 127.0.0.1
(one process for the module, each transport at a path of its own), with literal
headers, and a path that answers 401."""

from __future__ import annotations

import os
from collections.abc import Iterator

import anyio
import pytest

from satchel.runtime.mcp._supervisor import McpSupervisor
from tests.support.keyring_file import use_file_keyring

from .supervisor_support import http_server, load, supervisor, write_plugin

AUTH = "MCP server '{}' answered HTTP 401: it needs authorization, and satchel keeps none for it"


@pytest.fixture(scope="module")
def web() -> Iterator[int]:
    """The SDK fixture over HTTP, started once for the module: streamable HTTP at /mcp,
    SSE at /sse, and /guarded/mcp, which answers 401 without the token ``t0ken``."""
    with http_server("--http", "--token", "t0ken") as port:
        yield port


async def _echo(sup: McpSupervisor, name: str) -> str:
    async with sup:
        result = await sup.call_tool(name, {"text": "over http"})
        return result.text


def test_streamable_http_and_sse_servers(layout, web):
    given = {
        "web": {"url": f"http://127.0.0.1:{web}/mcp"},
        "old": {"type": "sse", "url": f"http://127.0.0.1:{web}/sse"},
    }
    sup = supervisor(load(layout, mcp_servers=given))

    async def run() -> tuple[str, str]:
        async with sup:
            a = await sup.call_tool("mcp__web__echo", {"text": "streamable"})
            b = await sup.call_tool("mcp__old__echo", {"text": "sse"})
            return a.text, b.text

    assert anyio.run(run) == ("streamable", "sse")
    assert [(r.name, r.status, r.server_name) for r in sup.servers] == [
        ("web", "stopped", "fixture"),
        ("old", "stopped", "fixture"),
    ]
    assert sup.servers[0].instructions == "A fixture server."


def test_literal_headers_are_sent_and_a_401_is_authorization_required(
    layout, project, web, tmp_path
):
    url = f"http://127.0.0.1:{web}/guarded/mcp"
    given = {
        "with-token": {"url": url, "headers": {"Authorization": "Bearer t0ken"}},
        "without": {"url": url},
    }
    write_plugin(project, "kit", {"remote": {"type": "streamable-http", "url": url}})
    sup = supervisor(load(layout, mcp_servers=given))
    with use_file_keyring(tmp_path / "keyring.json"):  # a 401 reads it: an empty one
        assert anyio.run(_echo, sup, "mcp__with-token__echo") == "over http"
    assert not (tmp_path / "keyring.json").exists()
    status = {r.name: r.status for r in sup.servers}
    assert status == {"with-token": "stopped", "without": "failed", "remote": "failed"}
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        ("mcp.server.authorization_required", AUTH.format("without")),
        (
            "plugin.mcp.authorization_required",
            AUTH.format("remote").replace("'remote'", "'remote' of plugin 'kit'"),
        ),
    ]
    assert [d.hint for d in sup.diagnostics] == [
        f"run `satchel mcp login {name}`, or put the credentials in the headers of the "
        "server's entry (literal values)"
        for name in ("without", "plugin:kit:remote")
    ]


def test_a_server_nobody_listens_to_fails_without_echoing_its_url(layout):
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp?key=secret"
    sup = supervisor(load(layout, mcp_servers={"gone": {"url": url}}), timeout=10)

    async def run() -> None:
        async with sup:
            pass

    anyio.run(run)
    [found] = sup.diagnostics
    assert found.code == "mcp.server.connection_failed"
    assert found.message.startswith("MCP server 'gone' could not be reached")
    assert "secret" not in found.message


def test_a_url_takes_its_variables_from_the_environment_when_it_connects(layout, web):
    """Claude Code's ${VAR:-default} in a server's url: it loads, judged as its
    default, and the supervisor fills it from its environment when it connects."""
    given = {"web": {"url": "http://127.0.0.1:${FIXTURE_PORT:-1}/mcp"}}
    env = load(layout, mcp_servers=given)
    [server] = env.mcp_servers.servers
    assert server.url == "http://127.0.0.1:${FIXTURE_PORT:-1}/mcp"  # kept as written
    environ = {"PATH": os.environ["PATH"], "FIXTURE_PORT": str(web)}
    sup = supervisor(env, environ=environ)
    assert anyio.run(_echo, sup, "mcp__web__echo") == "over http"


def test_a_url_its_variables_make_unsafe_does_not_connect(layout):
    given = {"web": {"url": "${SECRET_URL:-https://api.example.com/mcp}"}}
    environ = {"PATH": os.environ["PATH"], "SECRET_URL": "http://remote.example.com/k3y"}
    sup = supervisor(load(layout, mcp_servers=given), environ=environ)

    async def run() -> None:
        async with sup:
            pass

    anyio.run(run)
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            "mcp.server.connection_failed",
            "MCP server 'web' was not started: its url, its variables filled in, uses plain "
            "http, allowed only for localhost and loopback addresses; use https",
        )
    ]

"""A server of 2025-11-25 that answers 2026-07-28's ``server/discover`` with a bare HTTP
error status (400, 404, 405: what a server that knows nothing of the method may send)
is spoken to at 2025-11-25 at once: the status is the probe's answer, and no probe
timeout is waited out. Here the SDK's probe timeout is an hour and the start's 20 s,
so a connection that waited would fail its start instead of running."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import anyio
import pytest

from .supervisor_support import SERVERS, load, port_printed, supervisor

LEGACY = "2025-11-25"


@pytest.fixture(scope="module")
def era() -> Iterator[int]:
    with port_printed([sys.executable, str(SERVERS / "era_server.py"), "--http"]) as port:
        yield port


@pytest.mark.parametrize("status", [400, 404, 405])
def test_a_bare_http_refusal_of_discover_is_a_quick_fallback(era, layout, status, monkeypatch):
    import mcp.client.session

    monkeypatch.setattr(mcp.client.session, "DISCOVER_TIMEOUT_SECONDS", 3600.0)
    url = f"http://127.0.0.1:{era}/status-{status}/mcp"
    env = load(layout, mcp_servers={"plain": {"type": "http", "url": url}})
    sup = supervisor(env, timeout=20)

    async def run() -> tuple[str | None, str | None, str]:
        async with sup:
            (report,) = sup.servers
            result = await sup.call_tool("mcp__plain__echo", {"text": "legacy"})
            return report.status, report.protocol, result.text

    assert anyio.run(run) == ("running", LEGACY, "legacy"), sup.diagnostics

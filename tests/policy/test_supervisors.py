"""The MCP and LSP supervisors under a policy, for servers handed to them directly (not
chosen by `load()`): a refused server never starts, and its refusal is reported."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys

import anyio

import satchel
from satchel.plugins import read_plugin
from satchel.runtime.lsp import LspSupervisor
from tests.mcp.supervisor_support import SERVERS, script, stdio, supervisor, write_plugin
from tests.policy.support import system_policy
from tests.support import put


def test_the_mcp_supervisor_never_starts_a_server_the_policy_refuses(
    layout, project, tmp_path, monkeypatch
):
    root = write_plugin(project, "kit", {})
    marker = tmp_path / "evil-ran"
    evil = stdio(script(root, "evil", put(tmp_path / "evil.py", f"open({str(marker)!r}, 'w')\n")))
    write_plugin(project, "kit", {"api": stdio(script(root, "api", SERVERS / "launch_server.py")),
                                  "evil": evil})  # fmt: skip
    handed = satchel.load(layout=layout).mcp_servers  # a host's own choice of servers
    path = system_policy(tmp_path, monkeypatch, '[mcp]\ndeny = ["evil"]\n')
    env = dataclasses.replace(satchel.load(layout=layout), mcp_servers=handed)

    mcp = supervisor(env)

    async def run() -> list[tuple[str, str]]:
        async with mcp:
            return [(r.name, r.status) for r in mcp.servers]

    assert anyio.run(run) == [("api", "running"), ("evil", "refused")]
    assert not marker.exists()
    assert [(d.code, d.message) for d in mcp.diagnostics] == [
        ("policy.denied", f"MCP server 'evil' is refused by policy key `mcp.deny` in {path}")
    ]


def test_the_lsp_supervisor_starts_no_server_under_disabled_lsp_or_a_closed_policy(
    layout, tmp_path, monkeypatch
):
    marker = tmp_path / "lsp-ran"
    entry = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"],
             "extensionToLanguage": {".py": "python"}}  # fmt: skip
    kit = put(tmp_path / "kit" / ".claude-plugin" / "plugin.json", '{"name": "kit"}').parent.parent
    put(kit / ".lsp.json", json.dumps({"py": entry}))
    found, _ = read_plugin(kit)
    assert found is not None
    (server,) = found.lsp_servers

    async def start() -> tuple[object, list[tuple[str, str]]]:
        env = satchel.load(layout=layout, plugin_dirs=(kit,), trusted=True)
        assert env.lsp_servers == ()
        async with LspSupervisor(env) as lsp:
            client = await lsp.start(server)  # handed directly
            return client, [(d.code, d.message) for d in lsp.diagnostics]

    path = system_policy(tmp_path, monkeypatch, 'disabled_components = ["lsp"]\n')
    assert asyncio.run(start()) == (
        None,
        [
            (
                "policy.denied",
                "language server 'py' of plugin 'kit' is refused by policy key "
                f"`disabled_components` in {path}",
            )
        ],
    )
    put(path, "disabled_components = [\n")
    assert asyncio.run(start()) == (
        None,
        [
            (
                "policy.denied",
                f"language server 'py' of plugin 'kit' is refused: the policy file {path} "
                "could not be read (fail closed)",
            )
        ],
    )
    assert not marker.exists()

"""What port writes for Claude Code is what the pinned Claude Code reads: ``claude
plugin validate --json`` accepts it with no error, and its ``provides`` lists the
source's skills, hooks and MCP servers minus exactly what port dropped."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from satchel.hooks._events import canonical
from satchel.plugins import read_plugin
from satchel.port import hook_key, port
from tests.tools import claude_validate

from .plugins import codex_plugin, kimi_plugin, vibe_plugin

SOURCES = {"codex": codex_plugin, "kimi": kimi_plugin, "vibe": vibe_plugin}
# Kimi's server with `cwd: ./data`: Claude Code starts a plugin's server in the
# session's folder whatever its cwd (observed: tests/port/test_hooks_in_hosts.py)
DROPS = {"codex": [], "kimi": ["port.hook.event", "port.mcp.field"], "vibe": []}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_claude_code_reads_what_port_wrote(claude_code: Path, tmp_path: Path, source: str):
    root = SOURCES[source](tmp_path / "plugins" / source)
    plugin, _ = read_plugin(root)
    assert plugin is not None
    (target,) = port(root, ["claude-code"]).targets
    home = tmp_path / "home"
    home.mkdir()
    report = claude_validate(claude_code, root, home)
    assert report["success"] is True
    assert report["manifest"]["errors"] == []
    provides = report["provides"]
    dropped = {(d.kind, d.name) for d in target.drops if d.whole}
    assert [d.diagnostic.code for d in target.drops] == DROPS[source]
    skills = sorted(f"{plugin.name}:{s.name}" for s in plugin.skills)
    assert sorted(provides["skills"]) == skills
    servers = sorted(s.name for s in plugin.mcp_servers if ("mcp_server", s.name) not in dropped)
    assert sorted(s["name"] for s in provides["mcpServers"]) == servers
    hooks = Counter(hook_key(h) for h in plugin.hooks)
    hooks -= Counter(d.name for d in target.drops if d.kind == "hook" and d.whole)
    assert (
        Counter(canonical(h["event"], "claude") or h["event"] for h in provides["hooks"]) == hooks
    )

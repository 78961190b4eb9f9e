"""What port writes for Gemini CLI is what the pinned Gemini CLI reads: ``gemini
extensions validate`` accepts it, and once linked, ``gemini extensions list -o json``
shows the source's skills, MCP servers, agents and hook events minus exactly what port
dropped (with Gemini's event names, and ``${extensionPath}`` expanded)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.plugins import read_plugin
from satchel.port import hook_key, port
from satchel.port._targets import TARGETS, fires
from tests.tools import GEMINI_SETTINGS, gemini_env

from .plugins import claude_plugin, codex_plugin, kimi_plugin, vibe_plugin

CALL = 120  # seconds: a "did not hang" bound, not a speed claim
SOURCES = {
    "claude": claude_plugin,
    "codex": codex_plugin,
    "kimi": kimi_plugin,
    "vibe": vibe_plugin,
}


def run(script: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Gemini CLI with HOME=`home`, updates and statistics off (`GEMINI_SETTINGS`), and
    the machine's system settings not read."""
    settings = home / ".gemini" / "settings.json"
    if not settings.exists():
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(GEMINI_SETTINGS), encoding="utf-8")
    env = gemini_env(home)
    node = shutil.which("node") or "node"
    return subprocess.run(
        [node, str(script), *args], capture_output=True, text=True, timeout=CALL, env=env, cwd=home
    )


@pytest.fixture(scope="module")
def linked(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every source ported, each port validated (in a HOME of its own, beside the links),
    all linked into one HOME and listed once: the extension Gemini lists for each plugin,
    by source."""
    base = tmp_path_factory.mktemp("port")
    home = base / "home"
    home.mkdir()
    roots = {source: make(base / "plugins" / source) for source, make in SOURCES.items()}
    for root in roots.values():
        port(root, ["gemini"])

    def validate(source: str) -> subprocess.CompletedProcess[str]:
        (base / "validate" / source).mkdir(parents=True)  # it only reads: a HOME of its own
        return run(gemini, base / "validate" / source, "extensions", "validate", str(roots[source]))

    with ThreadPoolExecutor(max_workers=1) as pool:  # the validations beside the links
        checks = [pool.submit(validate, source) for source in roots]
        for root in roots.values():
            linked = run(gemini, home, "extensions", "link", str(root), "--consent")
            assert linked.returncode == 0, linked.stderr
        for checked in checks:
            assert checked.result().returncode == 0, checked.result().stderr
    done = run(gemini, home, "extensions", "list", "-o", "json")
    text = done.stdout or done.stderr  # 0.61.0 writes the list to stderr
    extensions = {e["name"]: e for e in json.loads(text[text.index("[") :])}
    names = {source: read_plugin(root)[0] for source, root in roots.items()}
    return {source: extensions[plugin.name] for source, plugin in names.items() if plugin}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_gemini_cli_reads_what_port_wrote(linked, tmp_path: Path, source: str):
    root = SOURCES[source](tmp_path / "plugins" / source)
    plugin, _ = read_plugin(root)
    assert plugin is not None
    (target,) = port(root, ["gemini"]).targets
    extension = linked[source]
    dropped = {(d.kind, d.name) for d in target.drops if d.whole}

    def kept(kind: str, names: list[str]) -> list[str]:
        return sorted(n for n in names if (kind, n) not in dropped)

    assert sorted(extension["mcpServers"] or {}) == kept(
        "mcp_server", [s.name for s in plugin.mcp_servers]
    )
    assert sorted(s["name"] for s in extension["skills"]) == kept(
        "skill", [s.name for s in plugin.skills]
    )
    agents = kept("agent", [a.name for a in plugin.agents])
    assert sorted(a["name"] for a in extension["agents"]) == [a.split(":")[-1] for a in agents]
    if "hooks/hooks.json" in {f.path for f in target.files}:
        hooks = Counter(hook_key(h) for h in plugin.hooks)
        hooks -= Counter(d.name for d in target.drops if d.kind == "hook")
        names = TARGETS["gemini"].hooks.events or {}
        events = Counter(names[key] for key in hooks.elements())
        # the listing is the file's whole object; where port added Gemini CLI's keys to
        # Claude Code's own file, Gemini CLI skips Claude Code's events at run time
        fired = set(TARGETS["gemini"].events)
        written = {e: gs for e, gs in extension["hooks"].items() if e in fired}
        assert all(fires(plugin.format, e) for e in extension["hooks"] if e not in fired)
        assert Counter({e: sum(len(g["hooks"]) for g in gs) for e, gs in written.items()}) == events
        commands = [h["command"] for gs in written.values() for g in gs for h in g["hooks"]]
        assert not any("${" in c for c in commands)

"""Declarative-only loading (caveman, ``executable=False``): hooks, MCP servers and
agents are recognised and left alone, each with one diagnostic naming the path; the
declarative parts still load; nothing is spawned. And bad trees never raise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from tests.plugins.formats.test_bundle import bundle_tree
from tests.plugins.formats.test_claude import claude_tree
from tests.plugins.formats.test_codex_kimi import codex_tree, kimi_tree
from tests.plugins.formats.test_vibe_extension import vibe_tree
from tests.plugins.helpers import add_skill, audited, mcp_json, native, only, vibe, write_json
from tests.support import codes, put

UNSUPPORTED = ["plugin.mcp.unsupported", "plugin.hooks.unsupported", "plugin.agents.unsupported"]


def native_tree(root: Path) -> None:
    native(root, name="my-plugin", extensions=vibe("myPlugin"))
    vibe_tree(root)
    add_skill(root, "skills/lint")
    mcp_json(root, {"lookup": {"type": "stdio", "command": "node"}})


def test_native_hooks_mcp_and_agents_are_recognised_and_left_alone(plugin_dir: Path):
    native_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None
    assert (plugin.hooks, plugin.mcp_servers, plugin.agents) == ((), (), ())
    assert sorted(codes(diags)) == sorted(UNSUPPORTED)
    assert {d.severity for d in diags} == {"info"}
    root = plugin.root
    assert only(diags, "plugin.mcp.unsupported")[0].path == root / "mcp.json"
    assert only(diags, "plugin.hooks.unsupported")[0].path == root / "ai.mistral.vibe/hooks.toml"
    assert only(diags, "plugin.agents.unsupported")[0].path == root / "ai.mistral.vibe/agents"
    # the declarative parts load as usual
    assert [s.name for s in plugin.skills] == ["lint"]
    assert [k.name for k in plugin.knowledge] == ["accounting-policy"]
    assert len(plugin.libraries) == len(plugin.connectors) == 1
    assert plugin.diagnostics == tuple(diags)


def test_nothing_to_recognise_means_no_diagnostic(plugin_dir: Path):
    native(plugin_dir)
    add_skill(plugin_dir, "skills/lint")
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None and diags == []


def test_without_the_extension_vibe_hooks_are_not_even_recognised(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "ai.mistral.vibe/hooks.toml", "[[hooks]]\n")
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None and diags == []


def test_claude_declarative_only(plugin_dir: Path):
    claude_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None
    assert (plugin.hooks, plugin.mcp_servers, plugin.agents) == ((), (), ())
    assert sorted(codes(diags)) == sorted(UNSUPPORTED)
    root = plugin.root
    assert only(diags, "plugin.hooks.unsupported")[0].path == root / "hooks" / "hooks.json"
    assert only(diags, "plugin.mcp.unsupported")[0].path == root / ".mcp.json"
    assert only(diags, "plugin.agents.unsupported")[0].path == root / "agents"
    assert len(plugin.skills) == 1 and len(plugin.commands) == 2  # declarative: kept


def test_claude_inline_servers_are_named_by_the_manifest(plugin_dir: Path):
    claude_tree(plugin_dir, mcpServers={"inline": {"command": "x"}})
    os.remove(plugin_dir / ".mcp.json")
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None
    [mcp] = only(diags, "plugin.mcp.unsupported")
    assert mcp.path == plugin.root / ".claude-plugin" / "plugin.json"


def test_bundle_declarative_only(plugin_dir: Path):
    bundle_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir, executable=False)
    assert plugin is not None
    assert (plugin.mcp_servers, plugin.agents) == ((), ())
    assert sorted(codes(diags)) == ["plugin.agents.unsupported", "plugin.mcp.unsupported"]
    assert only(diags, "plugin.mcp.unsupported")[0].path == plugin.root / "servers.toml"
    assert len(plugin.commands) == 2 and len(plugin.skills) == 3


def test_codex_and_kimi_declarative_only(tmp_path: Path):
    codex_tree(tmp_path / "codex")
    kimi_tree(tmp_path / "kimi")
    codex, diags = read_plugin(tmp_path / "codex", executable=False)
    assert codex is not None and codex.mcp_servers == ()
    assert codes(diags) == ["plugin.mcp.unsupported", "plugin.apps.unavailable"]
    kimi, diags = read_plugin(tmp_path / "kimi", executable=False)
    assert kimi is not None and (kimi.mcp_servers, kimi.hooks) == ((), ())
    assert sorted(codes(diags)) == ["plugin.hooks.unsupported", "plugin.mcp.unsupported"]
    assert len(kimi.skills) == 2


def test_declarative_loading_spawns_nothing(tmp_path: Path):
    trees = {"native": native_tree, "claude": claude_tree, "bundle": bundle_tree}
    for name, make in trees.items():
        make(tmp_path / name)
    calls = "".join(f"read_plugin({str(tmp_path / n)!r}, executable=False)\n" for n in trees)
    code = "from satchel.plugins import read_plugin\n" + calls
    events = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.fork",
              "socket.connect")  # fmt: skip
    assert audited(code, events) == []


# -- bad input never raises ---------------------------------------------------------


def _fifo(root: Path, relative: str) -> None:
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / relative)


HOSTILE = {
    "binary plugin.json": lambda r: (r / "plugin.json").write_bytes(b"\xff\xfe\x00{\x00"),
    "plugin.json directory": lambda r: (r / "plugin.json").mkdir(),
    "plugin.json fifo": lambda r: _fifo(r, "plugin.json"),
    "plugin.json loop": lambda r: (r / "plugin.json").symlink_to(r / "plugin.json"),
    "huge plugin.json": lambda r: (r / "plugin.json").write_bytes(b" " * (1024 * 1024 + 1)),
    "deep json": lambda r: put(r, "plugin.json", "[" * 100_000 + "]" * 100_000),
    "claude manifest fifo": lambda r: _fifo(r, ".claude-plugin/plugin.json"),
    "claude hooks fifo": lambda r: (
        write_json(r, ".claude-plugin/plugin.json", {"name": "x"}),
        _fifo(r, "hooks/hooks.json"),
    ),
    "skills loop": lambda r: (
        native(r),
        (r / "skills").mkdir(),
        (r / "skills" / "a").symlink_to(r / "skills" / "a"),
    ),
    "kimi binary": lambda r: (r / "kimi.plugin.json").write_bytes(b"\x00\x01\x02"),
    "toml garbage": lambda r: (r / "plugin.toml").write_bytes(b"\xc3\x28 = = ["),
    "nul in bundle path": lambda r: put(r, "plugin.toml", 'prompts = ["a\\u0000b.md"]\n'),
    "opencode package loop": lambda r: (
        (r / "package.json").symlink_to(r / "package.json"),
        put(r, ".opencode/plugins/x.js", "1\n"),
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_bad_trees_never_raise(plugin_dir: Path, case: str):
    HOSTILE[case](plugin_dir)
    for executable in (True, False):
        plugin, diags = read_plugin(plugin_dir, executable=executable)
        assert plugin is not None or any(d.severity == "error" for d in diags)

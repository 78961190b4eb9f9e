"""satchel reads a plugin's monitors and bin/ as the pinned Claude Code does: its
``provides.monitors`` (``{name, command}``) and ``provides.bin`` (file names) equal
satchel's, and a top-level ``monitors`` gets the same deprecation warning."""

from __future__ import annotations

import json
import os
from pathlib import Path

from satchel.plugins import read_plugin
from satchel.plugins.components._monitors import DEPRECATED
from tests.support import put
from tests.tools import claude_validate

WATCH = {"name": "watch", "command": "tail -F log", "description": "Watches the log"}
SHIP = {"name": "ship", "command": "./ship.sh", "description": "d", "when": "on-skill-invoke:s"}


def test_monitors_and_bin_equal_claude_codes_provides(claude_code: Path, tmp_path: Path):
    root = tmp_path / "kit"
    manifest = {"name": "kit", "version": "1.0.0", "experimental": {"monitors": "./watch.json"}}
    put(root, ".claude-plugin/plugin.json", json.dumps(manifest))
    put(root, "watch.json", json.dumps([WATCH, SHIP]))
    put(root, "monitors/monitors.json", json.dumps([{**WATCH, "name": "unread"}]))
    put(root, "bin/tool", "#!/bin/sh\n", mode=0o755)
    put(root, "bin/plain", "text\n")
    put(root, "bin/.hidden", "#!/bin/sh\n", mode=0o755)
    put(root, "bin/sub/inner", "x")
    os.symlink("tool", root / "bin" / "alias")
    provides = claude_validate(claude_code, root, tmp_path)["provides"]
    plugin, _ = read_plugin(root)
    assert plugin is not None
    assert [{"name": m.name, "command": m.command} for m in plugin.monitors] == provides["monitors"]
    assert list(plugin.bin) == provides["bin"] == [".hidden", "alias", "plain", "tool"]


def test_top_level_monitors_are_deprecated_in_claude_codes_words(claude_code: Path, tmp_path: Path):
    root = tmp_path / "kit"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", "monitors": [WATCH]}))
    report = claude_validate(claude_code, root, tmp_path)
    warned = [w["message"] for w in report["manifest"]["warnings"] if w["path"] == "monitors"]
    plugin, _ = read_plugin(root)
    assert plugin is not None
    assert [m.name for m in plugin.monitors] == [m["name"] for m in report["provides"]["monitors"]]
    ours = [d.message for d in plugin.diagnostics if d.code == "plugin.monitor.deprecated"]
    assert ours == warned == [DEPRECATED]

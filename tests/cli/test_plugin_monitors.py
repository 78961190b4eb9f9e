"""`satchel plugin inspect` shows a Claude Code plugin's monitors and bin/."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import put

from .support import check_golden

MONITORS = [
    {"name": "watch", "command": "tail -F log", "description": "Watches the log"},
    {
        "name": "ship",
        "command": "./ship.sh",
        "description": "Deploys",
        "when": "on-skill-invoke:ship",
    },
]


def test_inspect_lists_monitors_and_bin(satchel, tmp_path: Path, monkeypatch):
    root = tmp_path / "kit"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    put(root, "monitors/monitors.json", json.dumps(MONITORS))
    put(root, "bin/kit-tool", "#!/bin/sh\n", mode=0o755)
    monkeypatch.chdir(tmp_path)
    result = satchel("plugin", "inspect", "kit")
    assert (result.code, result.err) == (0, "")
    check_golden("plugin-inspect-monitors.txt", result.out)
    doc = satchel("plugin", "inspect", "--json", "kit").json()
    assert [m["name"] for m in doc["monitors"]] == ["watch", "ship"]
    assert doc["bin"] == ["kit-tool"]
    assert (doc["components"]["monitors"], doc["components"]["bin"]) == (2, 1)

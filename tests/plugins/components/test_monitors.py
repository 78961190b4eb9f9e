"""A Claude Code plugin's monitors (``monitors/monitors.json``, ``experimental.monitors``)
and its ``bin/``: what loads, and each problem by code and exact message."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from satchel.plugins import Monitor, Plugin, read_plugin
from satchel.plugins.components._bin import bin_dir
from satchel.plugins.components._monitors import DEPRECATED
from tests.support import codes, put

WATCH = {"name": "watch", "command": "tail -F log", "description": "Watches the log"}
DEPLOY = {
    "name": "deploy",
    "command": "./deploy-watch.sh",
    "description": "Deploys",
    "when": "on-skill-invoke:ship",
}


def plugin(root: Path, manifest: dict[str, Any] | None = None, monitors: Any = None) -> Plugin:
    """The plugin ``kit`` at `root`, with `monitors` as its monitors/monitors.json."""
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", **(manifest or {})}))
    if monitors is not None:
        put(root, "monitors/monitors.json", json.dumps(monitors))
    found, _ = read_plugin(root)
    assert found is not None
    return found


def problems(found: Plugin, prefix: str = "plugin.monitor") -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in found.diagnostics if d.code.startswith(prefix)]


def test_the_default_file_loads_with_its_arm_triggers(root):
    found = plugin(root, monitors=[WATCH, DEPLOY])
    real = root.resolve() / "monitors/monitors.json"
    assert found.monitors == (
        Monitor("watch", "tail -F log", "Watches the log", "always", "kit", real),
        Monitor("deploy", "./deploy-watch.sh", "Deploys", "on-skill-invoke:ship", "kit", real),
    )
    assert [m.skill for m in found.monitors] == [None, "ship"]
    assert found.components()["monitors"] == 2
    assert found.to_json()["monitors"][1] == {
        "name": "deploy",
        "command": "./deploy-watch.sh",
        "description": "Deploys",
        "when": "on-skill-invoke:ship",
        "plugin": "kit",
    }
    assert problems(found) == []


def test_experimental_monitors_inline_or_a_path_replaces_the_default_file(root):
    inline = plugin(root, {"experimental": {"monitors": [DEPLOY]}}, monitors=[WATCH])
    assert [m.name for m in inline.monitors] == ["deploy"]
    put(root, "watchers.json", json.dumps([WATCH]))
    listed = plugin(root, {"experimental": {"monitors": "./watchers.json"}})
    assert [(m.name, m.path) for m in listed.monitors] == [
        ("watch", root.resolve() / "watchers.json")
    ]
    assert problems(inline) == problems(listed) == []


def test_top_level_monitors_load_with_claude_codes_deprecation_warning(root):
    found = plugin(root, {"monitors": [WATCH]})
    assert [m.name for m in found.monitors] == ["watch"]
    assert problems(found) == [("plugin.monitor.deprecated", DEPRECATED)]
    assert "plugin.manifest.field.unknown" not in codes(found.diagnostics)


def test_every_problem_is_named_and_no_monitor_of_the_plugin_loads(root):
    """Claude Code drops the plugin's whole inventory for a bad monitors file (its
    `provides` is null); satchel drops only the monitors, on purpose."""
    entries = [
        {"name": "a", "command": "x"},
        {"name": "b", "command": "y", "description": "d", "when": "on-skill-invoke:"},
        {"name": "c", "command": "z", "description": "d", "env": {"A": "1"}},
        {"name": "d", "command": "z", "description": "d", "when": "sometimes"},
        "watch",
        WATCH,
        WATCH,
    ]
    found = plugin(root, monitors=entries)
    tail = "; no monitor of this plugin loads"
    assert found.monitors == ()
    assert problems(found) == [
        (
            "plugin.monitor.invalid",
            f"monitor #1: description must be a non-empty string, not null{tail}",
        ),
        ("plugin.monitor.invalid", f"monitor #2: on-skill-invoke: must specify a skill name{tail}"),
        ("plugin.monitor.invalid", f"monitor #3: unknown field 'env'{tail}"),
        (
            "plugin.monitor.invalid",
            'monitor #4: when must be "always" or "on-skill-invoke:<skill>", '
            f"not 'sometimes'{tail}",
        ),
        ("plugin.monitor.invalid", f"monitor #5: must be an object, not a string{tail}"),
        ("plugin.monitor.invalid", f"monitor #7: the name 'watch' is used twice{tail}"),
    ]
    assert {d.severity for d in found.diagnostics if d.code == "plugin.monitor.invalid"} == {
        "error"
    }


def test_a_file_that_is_not_an_array_or_not_json_loads_no_monitor(root):
    found = plugin(root, monitors={"monitors": []})
    assert problems(found) == [
        (
            "plugin.monitor.invalid",
            "monitors must be an array, not a mapping; no monitor of this plugin loads",
        )
    ]
    put(root, "monitors/monitors.json", "[")
    broken, _ = read_plugin(root)
    assert broken is not None and broken.monitors == ()
    assert codes(broken.diagnostics) == ["plugin.monitor.invalid"]


def test_a_command_using_user_config_is_refused_and_the_others_load(root):
    secret = {**DEPLOY, "command": "watch --token ${user_config.token}"}
    found = plugin(root, monitors=[WATCH, secret])
    assert [m.name for m in found.monitors] == ["watch"]
    assert problems(found) == [
        (
            "plugin.monitor.user_config",
            "monitor 'deploy' refers to ${user_config.*} in its command; the value would "
            "reach a shell, so the monitor does not load",
        )
    ]


def test_bin_lists_file_names_and_reports_what_a_shell_cannot_use(root, tmp_path):
    put(root, "bin/tool", "#!/bin/sh\necho tool\n", mode=0o755)
    put(root, "bin/plain", "not a program\n")
    put(root, "bin/sub/inner", "x")
    outside = put(tmp_path, "elsewhere/prog", "#!/bin/sh\n", mode=0o755)
    os.symlink(outside, root / "bin" / "ext")
    os.symlink("tool", root / "bin" / "alias")
    found = plugin(root)
    assert found.bin == ("alias", "ext", "plain", "tool")  # Claude Code's provides.bin
    assert found.components()["bin"] == 4
    assert problems(found, "plugin.bin") == [
        (
            "plugin.bin.outside_root",
            "bin/ext leads outside the plugin root; bin/ is not put on PATH",
        ),
        ("plugin.bin.not_executable", "bin/plain is not an executable file; a shell cannot run it"),
    ]
    assert bin_dir(found.root, found.bin) is None
    os.unlink(root / "bin" / "ext")
    again = plugin(root)
    assert bin_dir(again.root, again.bin) == again.root / "bin"

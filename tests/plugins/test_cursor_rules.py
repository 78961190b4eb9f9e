"""A Cursor plugin's rules (`rules/**/*.mdc`) load as `Plugin.rules`, each with the
condition Cursor gives it, read as a project's Cursor rules are: never outside the
plugin's root."""

from __future__ import annotations

import json
import os
from pathlib import Path

from satchel.plugins import read_plugin
from tests.support import codes, put


def plugin_with(root: Path, manifest: dict[str, object] | None = None) -> Path:
    put(root, ".cursor-plugin/plugin.json", json.dumps({"name": "styled", **(manifest or {})}))
    return root


def test_each_rule_carries_its_cursor_condition(tmp_path: Path):
    root = plugin_with(tmp_path / "p")
    put(root, "rules/always.mdc", "---\nalwaysApply: true\n---\nBe terse.\n")
    put(root, "rules/python.mdc", "---\nglobs: '*.py'\n---\nUse type hints.\n")
    put(root, "rules/deep/review.mdc", "---\ndescription: When reviewing.\n---\nBe kind.\n")
    put(root, "rules/notes.md", "Not a Cursor rule: only .mdc files are.\n")
    plugin, diags = read_plugin(root)
    assert plugin is not None and diags == []
    shown = [(r.path.relative_to(root).as_posix(), r.condition.applies, r.condition.globs,
              r.condition.description) for r in plugin.rules]  # fmt: skip
    assert shown == [
        ("rules/always.mdc", "always", (), None),
        ("rules/deep/review.mdc", "description", (), "When reviewing."),
        ("rules/python.mdc", "globs", ("*.py",), None),
    ]
    assert plugin.to_json()["rules"][0]["text"] == "Be terse.\n"


def test_the_rules_field_replaces_the_default_folder(tmp_path: Path):
    root = plugin_with(tmp_path / "p", {"rules": "./house-rules/"})
    put(root, "rules/ignored.mdc", "---\nalwaysApply: true\n---\nNo.\n")
    put(root, "house-rules/chosen.mdc", "---\nalwaysApply: true\n---\nYes.\n")
    plugin, _ = read_plugin(root)
    assert plugin is not None
    assert [r.path.name for r in plugin.rules] == ["chosen.mdc"]


def test_a_rule_linked_outside_the_plugin_is_refused(tmp_path: Path):
    secret = put(tmp_path / "elsewhere" / "secret.mdc", "---\nalwaysApply: true\n---\nSecret.\n")
    root = plugin_with(tmp_path / "p")
    (root / "rules").mkdir()
    os.symlink(secret, root / "rules" / "leak.mdc")
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert plugin.rules == ()
    assert codes(diags) == ["instructions.read.error"]

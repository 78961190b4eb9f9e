"""The claude-code profile against Claude Code 2.1.332 itself (`claude plugin validate
--json`, offline): a plugin loaded with `load(host="claude-code", plugin_dirs=[DIR])`
provides what Claude Code says it provides, under the same ids, and a directory whose
only manifest is another host's provides nothing in either."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from tests.plugins.multihost import NAME, multihost_plugin
from tests.plugins.test_claude_code_parity import (
    TREES,
    Validated,
    claude_inventory,
    satchel_inventory,
    validated_trees,
)
from tests.support import codes, put, skill_md
from tests.tools import claude_validate


def validated(binary: Path, plugin: Path, home: Path) -> dict[str, Any]:
    """Claude Code's report on `plugin`, with `home` as its scratch HOME."""
    home.mkdir(exist_ok=True)
    return claude_validate(binary, plugin, home)


def as_claude_code(tmp_path: Path, plugin: Path) -> satchel.Environment:
    """The environment of an empty project with `plugin` named, as Claude Code reads it."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    layout = hosts.get("claude-code").layout(project, home=home, env={})
    return satchel.load(layout=layout, host="claude-code", trusted=True, plugin_dirs=[plugin])


@pytest.fixture(scope="module")
def trees(claude_code: Path, tmp_path_factory: pytest.TempPathFactory) -> Validated:
    """Claude Code's report on each of the parity tests' trees (one run per tree,
    shared with tests/plugins/test_claude_code_parity.py)."""
    return validated_trees(claude_code, tmp_path_factory)


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_claude_code_profile_provides_what_claude_code_provides(
    trees: Validated, tmp_path: Path, name: str
):
    base, reports = trees
    root, report = base / "plugins" / name, reports[name]
    env = as_claude_code(tmp_path, root)
    (plugin,) = env.plugins.plugins.values()
    assert satchel_inventory(plugin) == claude_inventory(report["provides"])


def test_a_plugin_for_six_hosts_is_read_by_its_claude_code_manifest(
    claude_code: Path, tmp_path: Path
):
    root = multihost_plugin(tmp_path / NAME)
    report = validated(claude_code, root, tmp_path / "home")
    env = as_claude_code(tmp_path, root)
    assert env.plugins.plugins[NAME].format == "claude"
    assert satchel_inventory(env.plugins.plugins[NAME]) == claude_inventory(report["provides"])


def test_a_directory_with_only_a_cursor_manifest_provides_nothing_to_claude_code(
    claude_code: Path, tmp_path: Path
):
    root = tmp_path / "tool"
    put(root, ".cursor-plugin/plugin.json", '{"name": "tool"}')
    put(root, "skills/helper/SKILL.md", skill_md("helper", "Helps."))
    report = validated(claude_code, root, tmp_path / "home")
    env = as_claude_code(tmp_path, root)
    assert (report["manifest"], report["provides"]) == (None, None)
    assert dict(env.plugins.plugins) == {}
    assert "plugin.compatibility.host_unread" in codes(env.diagnostics)

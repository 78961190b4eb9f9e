"""`satchel plugins` and `satchel list` under the claude-code profile, with plugins Claude
Code installed in a temp home: each listed with its Claude Code id and status, the
enabled one's skills namespaced, the disabled one's not listed (golden)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugins.claude_installed import ClaudeHome, claude_home, plugin_id

from .support import check_golden


@pytest.fixture
def claude(tmp_path: Path) -> ClaudeHome:
    made = claude_home(tmp_path)
    made.install("hello", "quiet")
    made.user_settings({plugin_id("hello"): True, plugin_id("quiet"): True})
    made.project_settings({plugin_id("quiet"): False})
    return made


def _where(claude: ClaudeHome) -> tuple[str, ...]:
    return ("--project", str(claude.project), "--home", str(claude.home), "--trust")


def _clean(text: str, tmp_path: Path) -> str:
    return text.replace(str(tmp_path), "<tmp>")


def test_satchel_plugins_lists_claude_codes_installs(satchel, claude, tmp_path):
    result = satchel("plugins", *_where(claude), "--host", "claude-code")
    assert result.code == 0
    check_golden("plugins-claude-installed.txt", _clean(result.out, tmp_path))


def test_satchel_list_shows_the_enabled_installs_skills(satchel, claude, tmp_path):
    result = satchel("list", *_where(claude), "--host", "claude-code")
    assert result.code == 0
    check_golden("list-claude-installed.txt", _clean(result.out, tmp_path))


def test_satchel_plugins_json_names_each_install(satchel, claude):
    result = satchel("plugins", *_where(claude), "--json")
    found = {p["name"]: (p["installed"], p["enabled"]) for p in result.json()["plugins"]}
    assert found == {"hello": ("hello@team-tools", True), "quiet": ("quiet@team-tools", False)}

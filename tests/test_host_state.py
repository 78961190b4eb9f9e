"""Reading what other hosts keep for themselves: their MCP server files
(`satchel.mcp._hosts`, through `host_servers`) and their settings
(`satchel.foundations._host_settings`): bad input is reported and read as empty, a project's files
count only when trusted, nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.core.layout import Layout
from satchel.foundations._host_settings import (
    HostSettings,
    PluginEnablement,
    read_host_settings,
)
from satchel.hosts._gemini import GEMINI as gemini_host
from satchel.hosts._mcp import CLAUDE_MCP, GEMINI_MCP, SATCHEL_MCP
from satchel.mcp import host_servers
from tests.support import put

GEMINI = gemini_host.settings or HostSettings()  # Gemini CLI's own, as its definition says


@pytest.mark.parametrize(
    ("rules", "cwd", "enabled"),
    [
        ((), "{b}/app", True),  # no rule: enabled
        (("!{b}/app/",), "{b}/app", False),
        (("!{b}/app/",), "{b}/app/sub", True),  # no `*`: that folder only
        (("!{b}/app/*",), "{b}/app/sub", False),
        (("!{b}/app/*",), "{b}/application", True),  # a folder, not a prefix
        (("!{b}/*", "{b}/app/*"), "{b}/app/x", True),  # the last match decides
        (("{b}/app/*", "!{b}/*"), "{b}/app/x", False),
        (("!{b}/app",), "{b}/app", True),  # no trailing slash matches no folder, as in Gemini
        (("!{b}/a.p/",), "{b}/axp", True),  # `.` is a character, not any character
    ],
)
def test_plugin_enablement_follows_gemini_clis_rules(rules, cwd, enabled, tmp_path):
    """Each rule and folder is written below a temp folder (``{b}``)."""
    given = tuple(rule.format(b=tmp_path) for rule in rules)
    found = PluginEnablement(None, {"ext": given}).enabled("ext", Path(cwd.format(b=tmp_path)))
    assert found is enabled


def test_host_settings_join_the_disabled_lists_and_the_workspace_names_win(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "repo"
    put(home / ".gemini/settings.json", json.dumps({
        "skills": {"disabled": ["One", "two"]}, "context": {"fileName": "USER.md"},
    }))  # fmt: skip
    put(cwd / ".gemini/settings.json", json.dumps({
        "skills": {"disabled": ["three"]}, "context": {"fileName": ["A.md", "B.md"]},
    }))  # fmt: skip
    layout = Layout.default(cwd, home=home, env={})
    state, problems = read_host_settings(GEMINI, layout, trust_project=True)
    assert (state.disabled_skills, state.context_names) == (
        frozenset({"one", "two", "three"}),
        ["A.md", "B.md"],
    )
    assert problems == ()
    untrusted, _ = read_host_settings(GEMINI, layout, trust_project=False)
    assert (untrusted.disabled_skills, untrusted.context_names) == (
        frozenset({"one", "two"}),
        "USER.md",
    )


def test_bad_host_settings_are_reported_and_read_as_empty(tmp_path):
    home = tmp_path / "home"
    put(home / ".gemini/settings.json", json.dumps({"skills": {"disabled": "all"}}))
    put(
        home / ".gemini/extensions/extension-enablement.json",
        json.dumps({"good": {"overrides": ["!/x/*"]}, "bad": {"overrides": "!/x/*"}}),
    )
    layout = Layout.default(tmp_path, home=home, env={})
    state, problems = read_host_settings(GEMINI, layout, trust_project=True)
    assert state.disabled_skills == frozenset()
    assert dict(state.enablement.rules) == {"good": ("!/x/*",)}
    assert [(d.code, d.message) for d in problems] == [
        (
            "config.invalid",
            "the list of disabled skills is a string, not a list of names; it is ignored",
        ),
        (
            "config.invalid",
            "the rules of 'bad' are not an object with a list of overrides; they are ignored",
        ),
    ]


def test_settings_with_comments_are_reported_not_read(tmp_path):
    home = tmp_path / "home"
    put(home / ".gemini/settings.json", '{\n  // off\n  "skills": {"disabled": ["x"]}\n}\n')
    layout = Layout.default(tmp_path, home=home, env={})
    state, problems = read_host_settings(GEMINI, layout, trust_project=True)
    assert state.disabled_skills == frozenset()
    assert [d.code for d in problems] == ["config.invalid"]
    assert problems[0].path == home / ".gemini/settings.json"


def _servers(tmp_path: Path, files, *, trusted: bool = True, environ=None):
    project, home = tmp_path / "repo", tmp_path / "home"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    layout = Layout.default(project, home=home, env={})
    return host_servers(layout, given={}, trust_project=trusted, files=files, environ=environ)


def test_an_unreadable_claude_json_is_reported_and_the_other_files_still_count(tmp_path):
    put(tmp_path / "home/.claude.json", '{"mcpServers": {')
    put(tmp_path / "repo/.mcp.json", json.dumps({"mcpServers": {"db": {"command": "db"}}}))
    found, problems = _servers(tmp_path, CLAUDE_MCP)
    assert [s.name for s in found] == ["db"]
    assert [(d.code, d.path) for d in problems] == [
        ("config.invalid", tmp_path / "home/.claude.json")
    ]


def test_a_project_settings_file_may_not_inject_code_and_counts_only_when_trusted(tmp_path):
    entry = {"command": "srv", "env": {"LD_PRELOAD": "x.so"}}
    put(tmp_path / "repo/.gemini/settings.json", json.dumps({"mcpServers": {"bad": entry}}))
    put(tmp_path / "home/.gemini/settings.json", json.dumps({"mcpServers": {"mine": entry}}))
    found, problems = _servers(tmp_path, GEMINI_MCP)
    assert [(s.name, s.scope) for s in found] == [("mine", "user")]  # the user's own may
    (said,) = problems
    assert said.code == "config.mcp.invalid"
    assert said.message.startswith("MCP server 'bad': env sets LD_PRELOAD, which a project")
    untrusted, quiet = _servers(tmp_path, GEMINI_MCP, trusted=False)
    assert ([s.name for s in untrusted], quiet) == (["mine"], [])


def test_a_managed_file_takes_the_place_of_the_others_only_when_it_exists(tmp_path):
    state = {"mcpServers": {"mine": {"command": "m"}}}
    put(tmp_path / "home/.claude.json", json.dumps(state))
    managed = tmp_path / "managed"
    managed.mkdir()
    environ = {"SATCHEL_CLAUDE_MANAGED_DIR": str(managed)}
    assert [s.name for s in _servers(tmp_path, CLAUDE_MCP, environ=environ)[0]] == ["mine"]
    put(managed / "managed-mcp.json", json.dumps({"mcpServers": {"org": {"url": "https://o/x"}}}))
    found, _ = _servers(tmp_path, CLAUDE_MCP, environ=environ)
    assert [(s.name, s.origin.family, s.path) for s in found] == [
        ("org", "managed", managed / "managed-mcp.json")
    ]


def test_a_claude_json_without_servers_is_not_parsed(tmp_path):
    # ~/.claude.json grows to megabytes: one that names no mcpServers is not parsed, so
    # not even a broken one is reported (Claude Code's own file is not satchel's to judge)
    put(tmp_path / "home/.claude.json", '{"numStartups": 3, "projects": {')
    assert _servers(tmp_path, SATCHEL_MCP) == ((), [])


def test_satchels_own_table_never_reads_a_managed_file_and_keeps_a_bare_mcp_json(tmp_path):
    assert not any(row.exclusive for row in SATCHEL_MCP)
    put(tmp_path / "repo/.mcp.json", json.dumps({"plain": {"command": "p"}}))
    found, problems = _servers(tmp_path, SATCHEL_MCP)
    assert ([s.name for s in found], problems) == (["plain"], [])


def test_one_loads_state_files_are_parsed_once_and_a_broken_one_reported_once(tmp_path):
    from satchel.foundations._host_files import StateFiles

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    put(good, json.dumps({"mcpServers": {"a": {}}, "disabledMcpServers": ["a"]}))
    put(bad, '{"mcpServers": ')
    state = StateFiles()
    first, _ = state.read(good, needle="mcpServers")
    assert state.read(good, needle="disabledMcpServers")[0] is first  # not parsed again
    assert state.read(good, needle="nothing") == (first, None)  # parsed: the needle is moot
    assert state.read(bad, needle="mcpServers")[1] is not None
    assert state.read(bad, needle="mcpServers") == ({}, None)
    assert state.read(tmp_path / "missing.json") == ({}, None)

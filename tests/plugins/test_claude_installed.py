"""The plugins Claude Code installed (`~/.claude/plugins/installed_plugins.json`), read on
real files in a temp HOME: enabled by the settings that win, a project install only in
its project, and a missing, escaping or bad record a diagnostic with its code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.plugins.claude_installed import ClaudeHome, claude_home, plugin_id
from tests.support import codes, put, skill_md


@pytest.fixture
def claude(tmp_path: Path) -> ClaudeHome:
    return claude_home(tmp_path)


def _messages(env, prefix: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in env.diagnostics if d.code.startswith(prefix)]


@pytest.mark.parametrize("host", ["claude-code", None])
def test_an_enabled_installed_plugin_loads_every_component_namespaced(
    claude: ClaudeHome, host: str | None
):
    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    env = claude.load(host)
    plugin = env.plugins.plugins["hello"]
    assert (plugin.enabled, plugin.installed, plugin.scope) == (True, "hello@team-tools", "user")
    assert plugin.root == claude.cache("hello")
    assert list(env.skills) == ["hello:greet"]
    assert "hello:hi" in env.commands.commands
    assert "hello:helper" in env.agents.agents
    assert [s.name for s in env.mcp_servers.servers] == ["hello-api"]
    assert [h.spec.command for h in env.hooks.hooks] == ["echo checked"]
    origin = env.skills["hello:greet"].origin
    assert (origin.scope, origin.plugin, origin.path) == ("plugin", "hello", claude.cache("hello"))
    assert _messages(env, "plugin.") == []


def test_a_host_that_does_not_read_them_sees_none(claude: ClaudeHome):
    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    env = claude.load("codex")
    assert dict(env.plugins.plugins) == {}
    assert "hello:greet" not in env.skills
    assert _messages(env, "plugin.") == []


def test_a_disabled_plugin_is_listed_and_loads_nothing(claude: ClaudeHome):
    claude.install("hello")
    settings = claude.user_settings({plugin_id("hello"): False})
    env = claude.load()
    assert env.plugins.plugins["hello"].enabled is False
    assert list(env.skills) == []
    assert env.mcp_servers.servers == ()
    assert _messages(env, "plugin.") == [
        (
            "plugin.disabled",
            f"plugin 'hello' (hello@team-tools) is not enabled: it is disabled in {settings}; "
            "nothing of it loads",
        )
    ]


def test_a_plugin_no_settings_file_names_is_not_enabled(claude: ClaudeHome):
    claude.install("hello")
    env = claude.load()
    assert env.plugins.plugins["hello"].enabled is False
    assert _messages(env, "plugin.") == [
        (
            "plugin.disabled",
            "plugin 'hello' (hello@team-tools) is not enabled: no Claude Code settings file "
            "enables it; nothing of it loads",
        )
    ]


@pytest.mark.parametrize(
    ("user", "project", "local", "enabled"),
    [
        (True, None, None, True),
        (True, False, None, False),  # the project's settings over the user's
        (False, True, None, True),
        (True, False, True, True),  # the local settings over the project's
        (True, True, False, False),
        (None, None, True, True),
    ],
)
def test_local_settings_win_over_the_projects_which_win_over_the_users(
    claude: ClaudeHome, user: bool | None, project: bool | None, local: bool | None, enabled: bool
):
    claude.install("hello")
    key = plugin_id("hello")
    if user is not None:
        claude.user_settings({key: user})
    if project is not None:
        claude.project_settings({key: project})
    if local is not None:
        claude.project_settings({key: local}, local=True)
    env = claude.load()
    assert env.plugins.plugins["hello"].enabled is enabled
    assert ("hello:greet" in env.skills) is enabled


def test_an_untrusted_project_has_its_settings_and_project_installs_left_unread(
    claude: ClaudeHome,
):
    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    claude.project_settings({plugin_id("hello"): False})
    env = claude.load(trusted=False)
    assert env.plugins.plugins["hello"].enabled is True
    claude.install("tool", scope="project")
    claude.project_settings({plugin_id("tool"): True})
    assert "tool" not in claude.load(trusted=False).plugins.plugins


@pytest.mark.parametrize("scope", ["project", "local"])
def test_a_project_install_applies_only_in_its_project(
    claude: ClaudeHome, tmp_path: Path, scope: str
):
    claude.install("tool", scope=scope)
    claude.user_settings({plugin_id("tool"): True})
    here = claude.load()
    assert (here.plugins.plugins["tool"].scope, list(here.skills)) == ("project", ["tool:greet"])
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".git").mkdir(parents=True)
    assert dict(claude.load(cwd=elsewhere).plugins.plugins) == {}


def test_the_first_record_that_applies_is_the_one_read(claude: ClaudeHome, tmp_path: Path):
    old, new = claude.plugin("tool", "1.0.0"), claude.plugin("tool", "2.0.0")
    other = str(tmp_path / "other")
    claude.records(
        {
            plugin_id("tool"): [
                claude.record(old, "project", projectPath=other),
                claude.record(new, "local", projectPath=str(claude.project)),
                claude.record(old, "user"),
            ]
        }
    )
    claude.user_settings({plugin_id("tool"): True})
    assert claude.load().plugins.plugins["tool"].root == new


def test_a_version_directory_without_a_manifest_is_named_by_its_record(claude: ClaudeHome):
    root = claude.plugin("notes", "unknown", manifest=False)
    claude.records({plugin_id("notes"): [claude.record(root)]})
    claude.user_settings({plugin_id("notes"): True})
    env = claude.load()
    assert list(env.plugins.plugins) == ["notes"]
    assert list(env.skills) == ["notes:greet"]


def test_version_one_records_are_user_installs(claude: ClaudeHome):
    root = claude.plugin("hello")
    claude.records({plugin_id("hello"): {"installPath": str(root), "version": "1.0.0"}}, 1)
    claude.user_settings({plugin_id("hello"): True})
    env = claude.load()
    assert (env.plugins.plugins["hello"].scope, list(env.skills)) == ("user", ["hello:greet"])


def test_a_missing_cache_directory_is_a_diagnostic(claude: ClaudeHome):
    claude.install("hello", "gone")
    root = claude.cache("gone")
    for path in sorted(root.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    root.rmdir()
    claude.user_settings({plugin_id("hello"): True, plugin_id("gone"): True})
    env = claude.load()
    assert list(env.plugins.plugins) == ["hello"]
    assert _messages(env, "plugin.installed") == [
        (
            "plugin.installed.missing",
            f"the installPath of 'gone@team-tools' is not a directory: {root}; "
            "reinstall it with claude plugin install",
        )
    ]


@pytest.mark.parametrize("spelled", ["outside", "../../../outside", "link"])
def test_an_install_path_that_escapes_the_plugins_directory_is_refused(
    claude: ClaudeHome, tmp_path: Path, spelled: str
):
    outside = tmp_path / "outside"
    put(outside, "skills/steal/SKILL.md", "---\nname: steal\ndescription: Steals.\n---\n")
    given = {"outside": str(outside), "../../../outside": spelled}.get(spelled)
    if given is None:  # a symlink in the cache pointing out of it
        link = claude.cache("evil")
        link.parent.mkdir(parents=True)
        os.symlink(outside, link)
        given = str(link)
    path = claude.records({plugin_id("evil"): [claude.record(given)]})
    claude.user_settings({plugin_id("evil"): True})
    env = claude.load()
    assert dict(env.plugins.plugins) == {}
    assert "evil:steal" not in env.skills
    assert [(d.code, d.message, d.path) for d in env.diagnostics if "installed" in d.code] == [
        (
            "plugin.installed.outside",
            f"the installPath {given!r} of 'evil@team-tools' is outside {claude.plugins}; "
            "it is not read",
            path,
        )
    ]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{", "it is not valid JSON: Expecting property name enclosed in double quotes: "
         "line 1 column 2 (char 1)"),
        ('{"version": 2, "plugins": []}', "it is not an object holding a plugins object"),
        ('{"version": 3, "plugins": {}}', "version 3 is not one of 1, 2"),
    ],
)  # fmt: skip
def test_a_record_file_that_cannot_be_read_is_a_diagnostic(claude: ClaudeHome, text: str, why: str):
    path = put(claude.plugins, "installed_plugins.json", text)
    env = claude.load()
    assert dict(env.plugins.plugins) == {}
    assert [(d.code, d.message, d.path) for d in env.diagnostics if "installed" in d.code] == [
        (
            "plugin.installed.unreadable",
            "Claude Code's installed plugins are not read: " + why,
            path,
        )
    ]


def test_a_corrupt_settings_file_is_a_diagnostic_and_the_others_still_decide(
    claude: ClaudeHome,
):
    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    local = put(claude.project, ".claude/settings.local.json", "{not json")
    env = claude.load()
    assert env.plugins.plugins["hello"].enabled is True
    assert [(d.code, d.path) for d in env.diagnostics if "installed" in d.code] == [
        ("plugin.installed.unreadable", local)
    ]
    assert _messages(env, "plugin.installed")[0][1].startswith(
        "its enabledPlugins are not read: it is not valid JSON: "
    )


def test_bad_records_are_skipped_and_the_good_ones_load(claude: ClaudeHome):
    good = claude.plugin("hello")
    path = claude.records(
        {
            "no-marketplace": [claude.record(good)],
            plugin_id("flat"): {"installPath": str(good)},
            plugin_id("pathless"): [{"scope": "user"}],
            plugin_id("odd"): [claude.record(good, "team")],
            plugin_id("hello"): [claude.record(good)],
        }
    )
    claude.user_settings({plugin_id("hello"): True})
    env = claude.load()
    assert list(env.plugins.plugins) == ["hello"]
    assert [(d.code, d.message, d.path) for d in env.diagnostics if "installed" in d.code] == [
        (
            "plugin.installed.invalid",
            f"Claude Code's record of {key!r} is not used: {why}",
            path,
        )
        for key, why in (
            ("no-marketplace", "an id is <plugin>@<marketplace>"),
            ("flat@team-tools", "its records must be a list, not a mapping"),
            ("pathless@team-tools", "a record needs an installPath string"),
            ("odd@team-tools", "scope 'team' is not known"),
        )
    ]


def test_no_plugins_directory_says_nothing(claude: ClaudeHome):
    env = claude.load()
    assert dict(env.plugins.plugins) == {}
    assert "plugin.installed.unreadable" not in codes(env.diagnostics)


def test_the_option_turns_them_off(claude: ClaudeHome):
    import satchel
    from satchel import hosts

    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    layout = hosts.get("claude-code").layout(claude.project, home=claude.home, env={})
    env = satchel.load(
        layout=layout, host="claude-code", trusted=True, claude_installed_plugins=False
    )
    assert dict(env.plugins.plugins) == {}
    assert json.loads(json.dumps(env.plugins.to_json()))["plugins"] == []


def _directory_market(claude: ClaudeHome, market: Path, source: object) -> Path:
    """`market` recorded as a directory marketplace of team-tools whose entry for
    `hello` is `source`; `hello` installed (its copy in the cache) and enabled."""
    known = {"source": {"source": "directory", "path": str(market)}}
    put(claude.plugins, "known_marketplaces.json", json.dumps({"team-tools": {
        **known, "installLocation": str(market)}}))  # fmt: skip
    entry = {"name": "hello", "source": source}
    catalogue = {"name": "team-tools", "owner": {"name": "T"}, "plugins": [entry]}
    put(market, ".claude-plugin/marketplace.json", json.dumps(catalogue))
    claude.install("hello")
    claude.user_settings({plugin_id("hello"): True})
    return market / ".claude-plugin/marketplace.json"


def test_a_directory_marketplace_plugin_is_read_in_its_folder(claude: ClaudeHome, tmp_path: Path):
    market = tmp_path / "market"
    put(market, "plugins/hello/skills/fresh/SKILL.md", skill_md("fresh", "Edited in place."))
    _directory_market(claude, market, "./plugins/hello")
    env = claude.load("claude-code")
    assert env.plugins.plugins["hello"].root == market / "plugins/hello"
    assert {n: s.description for n, s in env.skills.items()} == {"hello:fresh": "Edited in place."}
    assert _messages(env, "plugin.") == []


def test_a_directory_marketplace_entry_outside_its_folder_is_refused(
    claude: ClaudeHome, tmp_path: Path
):
    put(tmp_path / "elsewhere/skills/steal/SKILL.md", skill_md("steal", "Steals."))
    manifest = _directory_market(claude, tmp_path / "market", "../elsewhere")
    env = claude.load("claude-code")
    assert dict(env.plugins.plugins) == {}
    found = [(d.code, d.message, d.path) for d in env.diagnostics if "installed" in d.code]
    assert found == [
        (
            "plugin.installed.outside",
            f"the folder of 'hello@team-tools' that {manifest} names, {tmp_path / 'elsewhere'}, "
            f"is outside its marketplace {tmp_path / 'market'}; it is not read",
            manifest,
        )
    ]


def test_a_plugin_whose_marketplace_entry_is_not_a_folder_path_is_read_from_its_copy(
    claude: ClaudeHome, tmp_path: Path
):
    _directory_market(claude, tmp_path / "market", {"source": "github", "repo": "o/r"})
    env = claude.load("claude-code")
    assert env.plugins.plugins["hello"].root == claude.cache("hello")

"""Trusted folders: the user's list, what an untrusted folder holds back, and that a
project can never trust itself."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import satchel
from satchel.foundations.origin import Trust
from satchel.plugins._detect import NATIVE_SCHEMA
from satchel.session import Session
from satchel.trust._trust import (
    STORE,
    Pins,
    TrustDecision,
    TrustStoreError,
    decide_trust,
    read_trust,
    store_path,
    trust,
    untrust,
)
from tests.support import put, skill_md, write_skill


def skill(root: Path, name: str, text: str, body: str = "Body.") -> Path:
    return write_skill(root, name, skill_md(name, text, f"{body}\n", gap=False))


@pytest.fixture
def bare(project: Path, home: Path) -> satchel.Layout:
    """The layout of a project nobody has trusted yet."""
    return satchel.Layout.default(project, home=home, env={})


@pytest.fixture
def both(project: Path, home: Path) -> None:
    """A skill, a command and an agent of one name each in the project and the user's."""
    skill(project / ".agents" / "skills", "deploy", "From the project.")
    skill(home / ".agents" / "skills", "deploy", "From the user.")
    for root, who in ((project, "project"), (home, "user")):
        put(root / ".claude" / "commands" / "ship.md", f"Ship from the {who}.\n")
        agent = f"---\nname: helper\ndescription: From the {who}.\n---\nHelp.\n"
        put(root / ".claude" / "agents" / "helper.md", agent)


# -- the list ----------------------------------------------------------------------------


def test_no_list_trusts_nothing_and_opens_nothing(bare, project):
    listed = read_trust(bare)
    assert listed.folders == () and listed.problem is None
    assert listed.trusting(project) is None
    assert listed.path == bare.config_home / "satchel" / STORE
    assert not listed.path.parent.exists()


def test_trust_records_the_real_path_privately_and_once(bare, project, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(project)
    assert trust(bare, link) is True
    assert trust(bare, project) is False  # the same real folder
    path = store_path(bare)
    assert json.loads(path.read_text()) == {"version": 1, "folders": [str(project.resolve())]}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == [STORE]  # no temporary file left


def test_a_folder_below_a_trusted_one_is_trusted_through_it(bare, project, tmp_path):
    trust(bare, tmp_path)
    assert read_trust(bare).trusting(project / "src") == tmp_path.resolve()
    assert read_trust(bare).trusting(tmp_path.parent) is None
    assert untrust(bare, project) is False  # not on the list itself
    assert untrust(bare, tmp_path) is True
    assert read_trust(bare).trusting(project) is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not JSON (Expecting property name enclosed in double quotes: "
         "line 1 column 2 (char 1))"),
        ('{"folders": "/"}', '"folders" is not a list of paths'),
        ('["/"]', '"folders" is not a list of paths'),
    ],
)  # fmt: skip
def test_a_malformed_list_trusts_nothing_says_why_and_is_not_written_over(bare, project, text, why):
    path = put(store_path(bare), text)
    env = satchel.load(layout=bare)
    assert env.trusted is False
    problems = [(d.code, d.message) for d in env.diagnostics]
    assert problems == [
        ("config.trust.invalid", f"{STORE} could not be read ({why}); no folder is trusted")
    ]
    with pytest.raises(TrustStoreError, match="fix or remove"):
        trust(bare, project)
    assert path.read_text() == text


def test_relative_entries_in_a_hand_written_list_are_ignored(bare, project):
    put(store_path(bare), json.dumps({"folders": ["project", str(project)]}))
    assert read_trust(bare).folders == (project,)


# -- what load() does with it --------------------------------------------------------------


def test_the_host_can_say_trusted_or_not_whatever_the_list_says(bare, project):
    assert satchel.load(layout=bare).trusted is False
    assert satchel.load(layout=bare, trusted=True).trusted is True
    trust(bare, project)
    assert satchel.load(layout=bare).trusted is True
    assert satchel.load(layout=bare, trusted=False).trusted is False


def test_in_an_untrusted_folder_user_skills_commands_and_agents_win(bare, both, project, home):
    env = satchel.load(layout=bare)
    assert env.skills["deploy"].description == "From the user."
    assert [(s.winner.scope, s.loser.scope) for s in env.shadowed] == [("user", "project")]
    assert env.commands.find("ship").path == home / ".claude" / "commands" / "ship.md"
    assert env.agents.agents["helper"].description == "From the user."
    assert env.layout == bare  # the host's layout, not the reordered one


def test_in_a_trusted_folder_the_project_wins(bare, both, project):
    trust(bare, project)
    env = satchel.load(layout=bare)
    assert env.skills["deploy"].description == "From the project."
    assert env.commands.find("ship").path == project / ".claude" / "commands" / "ship.md"
    assert env.agents.agents["helper"].description == "From the project."


def test_an_untrusted_folder_loads_no_project_plugin_and_no_workspace(bare, project, home):
    manifest = json.dumps({"$schema": NATIVE_SCHEMA, "name": "tools"})
    put(project / ".satchel" / "plugins" / "tools" / "plugin.json", manifest)
    skill(project / "skills", "local", "A workspace skill.")
    put(project / "commands" / "triage.md", "Triage.\n")
    put(home / ".agents" / "plugins" / "notes" / ".claude-plugin" / "plugin.json", "{}")
    env = satchel.load(layout=bare)
    assert list(env.plugins.plugins) == ["notes"]
    assert list(env.skills) == []
    assert [(d.code, d.message, d.path) for d in env.diagnostics] == [
        (
            "discovery.untrusted",
            f"the workspace plugin's {folder} are not loaded: the project is not trusted",
            project / folder,
        )
        for folder in ("skills", "commands")
    ] + [
        (
            "discovery.untrusted",
            "project plugins here are not loaded: the project is not trusted",
            project / ".satchel" / "plugins",
        )
    ]
    trust(bare, project)
    assert list(satchel.load(layout=bare).plugins.plugins) == ["project", "tools", "notes"]


def test_an_untrusted_project_skill_runs_no_command(bare, project, tmp_path):
    canary = tmp_path / "canary"
    canary.mkdir()
    skill(project / ".agents" / "skills", "p", "P.", f"Now: !`touch {canary}/ran`")
    env = satchel.load(layout=bare)
    session = Session(env, environ={"PATH": os.environ["PATH"]})
    text = session.call("load_skill", {"name": "p"}).text
    assert (
        f"Now: [satchel: not run, skills from the project scope may not run commands: "
        f"touch {canary}/ran]" in text
    )
    assert list(canary.iterdir()) == []
    trust(bare, project)
    session = Session(satchel.load(layout=bare), environ={"PATH": os.environ["PATH"]})
    session.call("load_skill", {"name": "p"})
    assert [p.name for p in canary.iterdir()] == ["ran"]


def test_a_project_cannot_mark_itself_trusted(bare, project):
    listed = json.dumps({"version": 1, "folders": [str(project)]})
    for place in (".satchel", ".config/satchel", ".agents", ".claude"):
        put(project / place / STORE, listed)
    put(project / ".satchel" / "config.toml", "trusted = true\n[trust]\nproject = true\n")
    assert satchel.load(layout=bare).trusted is False


def test_reload_sees_a_folder_trusted_since(bare, both, project):
    env = satchel.load(layout=bare)
    trust(bare, project)
    fresh, _ = env.reload()
    assert fresh.trusted is True
    assert fresh.skills["deploy"].description == "From the project."


# -- the one decision ----------------------------------------------------------------------


def test_the_host_decides_trust_without_the_list(bare):
    decided = decide_trust(bare, given=True, load_project=True)
    assert decided == TrustDecision(Trust("trusted", folder=True))
    assert not store_path(bare).exists()


def test_the_list_decides_trust_and_carries_the_folders_pins(bare, project):
    assert decide_trust(bare, given=None, load_project=True).trust.state == "untrusted"
    trust(bare, project, approved={"hook x": "abc"})
    decided = decide_trust(bare, given=None, load_project=True)
    assert decided.trust == Trust("trusted", folder=True)
    assert decided.pins == Pins(project.resolve(), {"hook x": "abc"})
    assert decided.problems == ()


def test_hidden_project_content_keeps_the_folders_trust_and_pins(bare, project):
    trust(bare, project, approved={"hook x": "abc"})
    decided = decide_trust(bare, given=None, load_project=False)
    assert decided.trust == Trust("hidden", folder=True)
    assert decided.pins == Pins(project.resolve(), {"hook x": "abc"})


def test_an_unreadable_list_is_a_problem_of_the_decision(bare):
    path = store_path(bare)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    decided = decide_trust(bare, given=None, load_project=True)
    assert decided.trust.state == "untrusted"
    assert [d.code for d in decided.problems] == ["config.trust.invalid"]


@pytest.mark.parametrize(
    ("options", "state", "trusted"),
    [
        ({}, "untrusted", False),
        ({"trusted": True}, "trusted", True),
        ({"trusted": True, "trust_project_skills": False}, "hidden", True),
        ({"trust_project_skills": False}, "hidden", False),
    ],
)
def test_the_environment_carries_the_one_trust_value(bare, options, state, trusted):
    env = satchel.load(layout=bare, **options)
    assert env.trust.state == state
    assert env.trusted is trusted


# -- what an untrusted folder holds back, read once ------------------------------------


def held_project(project: Path, canary: Path) -> Path:
    """A project that would run things once trusted: a ``.mcp.json`` server and a
    plugin ``lens`` with a server, a hook, a language server and a monitor, each of
    which touches `canary` if it ever runs."""
    touch = f"touch '{canary}'"
    servers = {"mcpServers": {"db": {"command": "sh", "args": ["-c", touch]}}}
    put(project / ".mcp.json", json.dumps(servers))
    root = project / ".satchel" / "plugins" / "lens"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "lens"}))
    put(
        root,
        ".mcp.json",
        json.dumps({"mcpServers": {"lens-db": {"command": "sh", "args": ["-c", touch]}}}),
    )
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": touch}]}
    put(root, "hooks/hooks.json", json.dumps({"hooks": {"PreToolUse": [group]}}))
    lsp = {"lens-ls": {"command": "sh", "args": ["-c", touch], "extensionToLanguage": {".x": "x"}}}
    put(root, ".lsp.json", json.dumps(lsp))
    put(
        root,
        "monitors/monitors.json",
        json.dumps([{"name": "w", "command": touch, "description": "d"}]),
    )
    return root


def test_an_untrusted_load_reads_what_trust_holds_back_and_runs_none_of_it(bare, project, tmp_path):
    import asyncio

    from satchel.runtime import MonitorRunner
    from satchel.runtime.mcp._supervisor import McpSupervisor

    canary = tmp_path / "canary"
    held_project(project, canary)
    env = satchel.load(layout=bare, read_held=True)
    assert list(env.plugins.held) == ["lens"] and "lens" not in env.plugins.plugins
    assert [(s.name, s.scope) for s in env.mcp_servers.held] == [
        ("db", "project"),
        ("lens-db", "plugin"),
    ]
    assert env.mcp_servers.servers == () and env.lsp_servers == ()
    [hook] = env.hooks.hooks
    assert (hook.source, hook.status, hook.why) == (
        "plugin:lens",
        "skipped",
        "the project is not trusted",
    )

    async def run() -> tuple[str, ...]:
        supervisor = McpSupervisor(env, environ={"PATH": os.environ["PATH"]})
        await supervisor.start()
        await supervisor.stop()
        monitors = MonitorRunner(env)
        await monitors.start()
        return tuple(r.name for r in supervisor.servers) + monitors.running

    assert asyncio.run(run()) == ()
    Session(env, environ={"PATH": "/usr/bin:/bin"}).before_tool_use("Bash", {"command": "ls"})
    assert not canary.exists()
    trusted = satchel.load(layout=bare, trusted=True)
    assert (trusted.mcp_servers.held, dict(trusted.plugins.held)) == ((), {})
    assert [s.name for s in trusted.mcp_servers.servers] == ["db", "lens-db"]


def test_a_hosts_load_reads_nothing_trust_holds_back(bare, project, tmp_path):
    """What an untrusted project holds back is read only for a report that asks
    (`read_held`): a host's load of a fresh clone reads none of its plugins."""
    held_project(project, tmp_path / "canary")
    env = satchel.load(layout=bare)
    assert (dict(env.plugins.held), env.mcp_servers.held, env.hooks.hooks) == ({}, (), ())
    assert env.plugins.plugins == {} and env.mcp_servers.servers == ()


def user_lens(home: Path, canary: Path) -> Path:
    """The user's own plugin ``lens``: a language server that touches `canary` when it
    starts (the project's plugin of that name is held back)."""
    root = home / ".config" / "satchel" / "plugins" / "lens"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "lens"}))
    touch = f"touch '{canary}'"
    lsp = {"own-ls": {"command": "sh", "args": ["-c", touch], "extensionToLanguage": {".y": "y"}}}
    put(root, ".lsp.json", json.dumps(lsp))
    return root


def test_a_held_project_plugins_language_server_never_starts_though_the_users_may(
    bare, project, home, tmp_path
):
    """Language servers follow `Trust.runs` as hooks do: the supervisor starts only the
    servers the trust decision lets run, so the held project plugin's server is not
    started under the name of the user's plugin ``lens``; the user's own starts in an
    untrusted folder, as the user's plugins' hooks run there."""
    import asyncio

    from satchel.runtime.lsp import LspSupervisor

    held_canary, user_canary = tmp_path / "held-ran", tmp_path / "user-ran"
    held_project(project, held_canary)
    user_lens(home, user_canary)
    env = satchel.load(layout=bare, read_held=True)
    assert env.plugins.plugins["lens"].scope == "user" and "lens" in env.plugins.held
    assert [s.name for s in env.lsp_servers] == ["own-ls"]
    [held] = env.plugins.held["lens"].lsp_servers

    async def run() -> tuple[object, object]:
        async with LspSupervisor(env, environ={"PATH": os.environ["PATH"]}) as lsp:
            return await lsp.start(held), await lsp.client_for("a.y")

    assert asyncio.run(run()) == (None, None)  # the user's exits at once: start_failed
    assert not held_canary.exists()
    assert user_canary.exists()


def test_a_trusted_folder_whose_project_is_hidden_lists_the_users_language_servers_only(
    layout, project, home, tmp_path
):
    held_project(project, tmp_path / "held-ran")
    user_lens(home, tmp_path / "user-ran")
    hidden = satchel.load(layout=layout, trust_project_skills=False)
    assert (hidden.trust.state, [s.name for s in hidden.lsp_servers]) == ("hidden", ["own-ls"])
    trusted = satchel.load(layout=layout)
    assert [(s.plugin, s.name) for s in trusted.lsp_servers] == [("lens", "lens-ls")]

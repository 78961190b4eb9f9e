"""`satchel mcp list` and `mcp check` in a folder that is not trusted: the servers
are held back by trust, said so with the command that trusts it; and the user's servers
of every host's own config, each with its file."""

from __future__ import annotations

import json

import pytest

from tests.cli.support import check_golden


@pytest.fixture
def untrusted(project, home):
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"db": {"command": "db-srv"}}}))
    return ("--project", project, "--home", home)


def test_untrusted_mcp_list_names_what_trust_holds_back(satchel, untrusted, project, home):
    result = satchel("mcp", "list", *untrusted)
    assert result.code == 0
    assert "No MCP servers are configured" not in result.out
    assert result.err.splitlines()[1] == (
        "1 MCP server is held back because the project is not trusted: db; "
        f"`satchel trust {project} --home {home}` trusts it."
    )


def test_untrusted_mcp_list_as_json(satchel, untrusted):
    doc = satchel("mcp", "list", *untrusted, "--json").json()
    assert (doc["trusted"], doc["held_back"], doc["servers"]) == (False, ["db"], [])


def test_trusted_it_is_listed_and_nothing_is_held_back(satchel, untrusted):
    doc = satchel("mcp", "list", *untrusted, "--trust", "--json").json()
    assert (doc["trusted"], doc["held_back"]) == (True, [])
    assert [s["name"] for s in doc["servers"]] == ["db"]


def test_untrusted_without_servers_still_says_trust_holds_them_back(satchel, project, home):
    result = satchel("mcp", "list", "--project", project, "--home", home)
    assert "No MCP servers are configured" not in result.err
    assert result.err.splitlines()[1] == (
        "The project is not trusted, so its MCP servers would not load; "
        f"`satchel trust {project} --home {home}` trusts it."
    )


def test_trusted_without_servers_says_none_are_configured(satchel, project, home):
    result = satchel("mcp", "list", "--project", project, "--home", home, "--trust")
    assert result.out == ""
    assert result.err.splitlines()[1] == "No MCP servers are configured."


def test_untrusted_mcp_check_says_the_same(satchel, untrusted, project, home):
    result = satchel("mcp", "check", *untrusted)
    assert result.code == 0
    assert "No MCP servers are configured" not in result.err
    assert result.err.splitlines()[-1] == (
        "1 MCP server is held back because the project is not trusted: db; "
        f"`satchel trust {project} --home {home}` trusts it."
    )


def test_mcp_list_says_what_trust_holds_back_from_its_one_load(
    satchel, untrusted, project, monkeypatch
):
    """The project's config and its plugins' servers, read by the load the verb makes
    (held back, `McpServerSet.held`), not by a second load as if trusted."""
    from satchel.assembly._environment import _Builder

    root = project / ".satchel" / "plugins" / "lens"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "lens"}))
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"lens-db": {"command": "x"}}}))
    built = []
    build = _Builder.build
    monkeypatch.setattr(_Builder, "build", lambda *a, **k: built.append(1) or build(*a, **k))
    doc = satchel("mcp", "list", *untrusted, "--json").json()
    assert (doc["trusted"], doc["held_back"], doc["servers"]) == (False, ["db", "lens-db"], [])
    assert len(built) == 1


def _hosts_home(home):
    """A home where Claude Code, Gemini CLI and Codex each keep MCP servers of their own."""
    state = {
        "mcpServers": {"notes": {"command": "notes-mcp"}, "shared": {"command": "claude-one"}},
        "projects": {"/elsewhere": {"mcpServers": {"other": {"command": "not-here"}}}},
    }
    (home / ".claude.json").write_text(json.dumps(state))
    (home / ".gemini").mkdir()
    gemini = {"mcpServers": {"docs": {"httpUrl": "https://docs.example/mcp"},
                             "shared": {"command": "gemini-one"}}}  # fmt: skip
    (home / ".gemini" / "settings.json").write_text(json.dumps(gemini))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        '[mcp_servers.tickets]\ncommand = "tickets-mcp"\n\n'
        '[mcp_servers.shared]\ncommand = "codex-one"\n'
    )


def test_without_a_host_mcp_list_names_every_hosts_user_servers_and_their_file(
    satchel, project, home
):
    _hosts_home(home)
    result = satchel("mcp", "list", "--project", project, "--home", home, "--trust")
    check_golden("mcp-list-hosts.txt", result.out)
    assert result.err.splitlines()[1] == (
        "shared of user config (~/.gemini/settings.json) is hidden by the one of user "
        "config (~/.claude.json)."
    )
    doc = satchel("mcp", "list", "--project", project, "--home", home, "--trust", "--json").json()
    assert [(s["name"], s["origin"], s["file"]) for s in doc["servers"]] == [
        ("notes", "user config", str(home / ".claude.json")),
        ("shared", "user config", str(home / ".claude.json")),
        ("docs", "user config", str(home / ".gemini" / "settings.json")),
        ("tickets", "user config", str(home / ".codex" / "config.toml")),
    ]
    assert doc["shadowed"] == [{
        "name": "shared", "winner": "user config", "loser": "user config",
        "winner_file": str(home / ".claude.json"), "loser_file": str(home / loser),
    } for loser in (".gemini/settings.json", ".codex/config.toml")]  # fmt: skip


def test_under_a_host_mcp_list_reads_that_hosts_files_only(satchel, project, home):
    _hosts_home(home)
    doc = satchel(
        "mcp", "list", "--project", project, "--home", home, "--trust", "--host", "gemini", "--json"
    ).json()
    assert [(s["name"], s["file"]) for s in doc["servers"]] == [
        ("docs", str(home / ".gemini" / "settings.json")),
        ("shared", str(home / ".gemini" / "settings.json")),
    ]

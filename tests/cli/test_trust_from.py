"""`satchel trust --from claude-code`: the folders Claude Code trusts (their trust
dialog accepted, ``projects[path].hasTrustDialogAccepted`` in ``~/.claude.json``) go on
satchel's own list when, and only when, the user asks, each named."""

from __future__ import annotations

import json
from pathlib import Path

import satchel
from satchel.core.layout import Layout
from satchel.trust._trust import read_trust
from tests.support import put


def _claude_state(home: Path, projects: dict[str, dict[str, object]]) -> None:
    put(home / ".claude.json", json.dumps({"numStartups": 3, "projects": projects}))


def _folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    accepted, declined = tmp_path / "accepted", tmp_path / "declined"
    (accepted / ".git").mkdir(parents=True)
    declined.mkdir()
    return accepted, declined, tmp_path / "gone"


def test_trust_from_claude_code_trusts_the_folders_whose_dialog_was_accepted(
    satchel, tmp_path, home
):
    accepted, declined, gone = _folders(tmp_path)
    _claude_state(home, {
        str(accepted): {"hasTrustDialogAccepted": True},
        str(declined): {"hasTrustDialogAccepted": False},
        str(gone): {"hasTrustDialogAccepted": True},
        "relative/path": {"hasTrustDialogAccepted": True},
        str(tmp_path / "no-record"): {"allowedTools": []},
    })  # fmt: skip
    result = satchel("trust", "--from", "claude-code", "--home", home)
    assert result.code == 0
    assert result.out == (
        f"Trusted {accepted}, as Claude Code does: its plugins, hooks, MCP servers and "
        "!`cmd` lines load.\n"
        f"{gone} is gone; it was not trusted.\n"
    )
    layout = Layout.default(tmp_path, home=home)
    assert read_trust(layout).folders == (accepted,)
    again = satchel("trust", "--from", "claude-code", "--home", home)
    assert again.out.splitlines()[0] == f"{accepted} was already trusted."


def test_trust_from_claude_code_as_json(satchel, tmp_path, home):
    accepted, _, gone = _folders(tmp_path)
    put(accepted / ".claude" / "settings.json", json.dumps({"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "echo done"}]}
    ]}}))  # fmt: skip
    _claude_state(home, {str(p): {"hasTrustDialogAccepted": True} for p in (accepted, gone)})
    doc = satchel("trust", "--from", "claude-code", "--home", home, "--json").json()
    assert doc == {
        "version": 1,
        "from": "claude-code",
        "source": str(home / ".claude.json"),
        "folders": [
            {"folder": str(accepted), "trusted": True, "changed": True, "pinned": 1},
            {"folder": str(gone), "trusted": False, "changed": False},
        ],
        "diagnostics": [],
    }


def test_satchel_never_takes_claude_codes_trust_unasked(tmp_path, home):
    accepted, _, _ = _folders(tmp_path)
    _claude_state(home, {str(accepted): {"hasTrustDialogAccepted": True}})
    for host in (None, "claude-code"):
        env = satchel.load(layout=Layout.default(accepted, home=home), host=host)
        assert not env.trusted


def test_trust_from_a_host_without_a_list_refuses(satchel, home):
    result = satchel("trust", "--from", "gemini", "--home", home)
    assert result.code == 1
    assert result.err == (
        "satchel: host.trust.none: satchel takes no trusted folders from Gemini CLI: its "
        "profile names no list\n"
    )


def test_trust_from_and_a_folder_is_a_usage_error(satchel, tmp_path, home):
    result = satchel("trust", tmp_path, "--from", "claude-code", "--home", home)
    assert result.code == 2
    assert "give DIR or --from HOST, not both" in result.err


def test_an_unreadable_claude_json_trusts_nothing_and_says_why(satchel, home):
    put(home / ".claude.json", "{not json")
    result = satchel("trust", "--from", "claude-code", "--home", home)
    assert result.code == 1
    assert result.err.startswith(
        "satchel: config.invalid: not valid JSON: Expecting property name enclosed in double "
        "quotes (line 1, column 2)"
    )
    assert read_trust(Layout.default(home, home=home)).folders == ()


def test_trust_from_a_user_profile_says_what_was_wrong_in_its_table(satchel, tmp_path, home):
    accepted, _declined, _gone = _folders(tmp_path)
    _claude_state(home, {str(accepted): {"hasTrustDialogAccepted": True}})
    put(home / ".config" / "satchel" / "config.toml", '[hosts.acme]\nbase = "claude-code"\nx = 1\n')
    said = ("host.config.invalid", "[hosts.acme]: unknown key 'x'; left out")
    result = satchel("trust", "--from", "acme", "--home", home)
    assert result.code == 0
    assert result.out.splitlines()[-1] == f"warning {said[0]}: {said[1]}"
    doc = json.loads(satchel("trust", "--from", "acme", "--home", home, "--json").out)
    assert [(d["code"], d["message"]) for d in doc["diagnostics"]] == [said]

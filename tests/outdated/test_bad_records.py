"""Records `satchel outdated` cannot use: each is a diagnostic with its code and exact
message, the install it names still listed, and never a traceback. The files are
written by hand here because they are what no host writes (broken, or of a kind
satchel does not read again); the hosts' real records are tests/outdated/
test_real_installs.py's."""

from __future__ import annotations

import json
from pathlib import Path

from satchel import hosts
from satchel.cli import main
from satchel.core.layout import Layout
from satchel.reports.outdated import outdated
from tests.support.tree import put, skill_md


def _check(home: Path, project: Path, *names: str):
    layout = Layout.default(project, home=home, project=project, env={})
    return outdated(layout=layout, hosts=[hosts.get(n) for n in names], offline=True)


def _claude_install(home: Path) -> Path:
    root = home / ".claude/plugins/cache/m/p/1.0.0"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "p", "version": "1.0.0"}))
    record = {"scope": "user", "installPath": str(root), "version": "1.0.0"}
    put(home, ".claude/plugins/installed_plugins.json",
        json.dumps({"version": 2, "plugins": {"p@m": [record]}}))  # fmt: skip
    return root


def test_an_unreadable_marketplaces_file_leaves_the_plugin_without_a_source(home, project):
    _claude_install(home)
    known = put(home, ".claude/plugins/known_marketplaces.json", "{not json")
    result = _check(home, project, "claude-code")
    (d,) = result.diagnostics
    assert (d.code, d.severity, d.path) == ("outdated.record.unreadable", "warning", known)
    assert d.message.startswith("the marketplaces the host knows are not read: ")
    (r,) = result.reports
    assert (r.install.id, r.state) == ("p@m", "unknown-source")
    (why,) = r.diagnostics
    assert (why.code, why.message) == (
        "outdated.source.unknown",
        "Claude Code's plugin 'p@m': Claude Code knows no marketplace 'm'",
    )


def test_a_marketplace_folder_that_is_gone_is_unreachable(home, project, tmp_path):
    _claude_install(home)
    gone = tmp_path / "gone"
    known = {"m": {"source": {"source": "directory", "path": str(gone)}}}
    put(home, ".claude/plugins/known_marketplaces.json", json.dumps(known))
    (r,) = _check(home, project, "claude-code").reports
    (d,) = r.diagnostics
    assert (r.state, d.code) == ("source-unreachable", "outdated.source.unreachable")
    assert d.message == f"Claude Code's plugin 'p@m': its source {gone} is gone"


def _extension(home: Path, name: str, meta: str) -> Path:
    root = home / ".gemini/extensions" / name
    put(root, "gemini-extension.json", json.dumps({"name": name, "version": "2.0.0"}))
    put(root, "skills/s/SKILL.md", skill_md("s"))
    put(root, ".gemini-extension-install.json", meta)
    return root


def test_gemini_install_records_that_cannot_be_read_again(home, project, tmp_path):
    bad = _extension(home, "bad", "[]")
    _extension(home, "release", json.dumps({"source": "acme/ext", "type": "github-release"}))
    linked = tmp_path / "linked-source"
    _extension(home, "linked", json.dumps({"source": str(linked), "type": "link"}))
    result = _check(home, project, "gemini")
    (d,) = result.diagnostics
    assert (d.code, d.path) == (
        "outdated.record.unreadable",
        bad / ".gemini-extension-install.json",
    )
    assert d.message == ".gemini-extension-install.json is not read: it holds no source string"
    states = {r.install.id: (r.state, r.install.version) for r in result.reports}
    assert states == {
        "bad": ("unknown-source", None),
        "linked": ("current", "2.0.0"),
        "release": ("unknown-source", "2.0.0"),
    }
    (why,) = next(r for r in result.reports if r.install.id == "release").diagnostics
    assert why.message == (
        "Gemini CLI's extension 'release': an install of type 'github-release' is not one "
        "satchel reads again"
    )


def test_nothing_installed_is_said_once_and_exits_zero(home, project, capsys):
    code = main(["outdated", "--project", str(project), "--home", str(home), "--exit-code"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (0, "")
    assert captured.err == "Nothing is installed by satchel or by a host this reads.\n"

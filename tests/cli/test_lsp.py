"""`satchel lsp list` and `lsp check`: a project plugin's language servers, listed
without starting them, started for real (python-lsp-server), and held back by trust."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support import put

from .support import check_golden

PYLSP = str(Path(sys.executable).with_name("pylsp"))
PY = {".py": "python", ".pyi": "python"}


@pytest.fixture
def where(project, home):
    """A project whose plugin `kit` declares two language servers."""
    kit = project / ".agents" / "plugins" / "kit"
    put(kit, ".claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    lsp = {
        "py": {"command": "pylsp", "extensionToLanguage": PY},
        "go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"},
               "env": {"GOPLS_LOG": "verbose"}},
    }  # fmt: skip
    put(kit, ".lsp.json", json.dumps(lsp))
    return ("--project", project, "--home", home)


def test_lsp_list_shows_each_server_its_languages_and_what_it_runs(satchel, where, project):
    result = satchel("lsp", "list", *where, "--trust")
    assert result.code == 0
    check_golden("lsp-list.txt", result.out.replace(str(project), "<project>"))


def test_lsp_list_json_gives_env_names_never_values(satchel, where):
    doc = satchel("lsp", "list", *where, "--trust", "--json").json()
    assert (doc["trusted"], doc["started"]) == (True, False)
    assert [(s["id"], s["scope"], s["languages"], s["env"]) for s in doc["servers"]] == [
        ("kit:py", "project", ["python"], []),
        ("kit:go", "project", ["go"], ["GOPLS_LOG"]),
    ]


def test_an_untrusted_project_lists_no_server_and_says_how_to_trust_it(
    satchel, where, project, home
):
    result = satchel("lsp", "list", *where)
    assert "py" not in result.out.split()
    assert result.err.splitlines()[2] == (
        "The project is not trusted, so its plugins' language servers would not load; "
        f"`satchel trust {project} --home {home}` trusts it."
    )
    assert satchel("lsp", "check", *where, "--json").json()["servers"] == []


def test_lsp_check_starts_pylsp_reports_it_and_fails_for_a_missing_server(satchel, where, project):
    path = project / ".agents/plugins/kit/.lsp.json"
    entries = json.loads(path.read_text())
    entries["py"]["command"] = PYLSP
    entries["go"]["command"] = "no-such-gopls-for-satchel"
    path.write_text(json.dumps(entries))
    result = satchel("lsp", "check", *where, "--trust", "--json")
    assert result.code == 1
    doc = result.json()
    py, go = doc["servers"]
    assert (py["id"], py["status"], py["server_name"]) == ("kit:py", "ok", "pylsp")
    assert py["capabilities"]["hoverProvider"] is True
    assert (go["status"], [d["code"] for d in doc["diagnostics"]]) == (
        "failed",
        ["plugin.lsp.start_failed"],
    )
    only = satchel("lsp", "check", "kit:go", *where, "--trust", "--json").json()
    assert [s["id"] for s in only["servers"]] == ["kit:go"]

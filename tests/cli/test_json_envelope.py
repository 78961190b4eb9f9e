"""`--json`: one envelope for every verb, refusals and usage errors included.

``{"version": 1, <the verb's data>, "diagnostics": [...]}``; a refusal puts its code
and message under ``error``. The table below runs every verb of the dispatch table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.cli import VERBS

from .support import Run

SKILL = "---\nname: {name}\ndescription: {name} things. Use when asked to.\n---\n\nDo it.\n"


@pytest.fixture
def where(project: Path, home: Path, tmp_path: Path) -> dict[str, Path]:
    """A project with a skill and a source to install from, and a home."""
    skill = project / ".satchel" / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL.format(name="tidy"))
    source = tmp_path / "source" / "polish"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(SKILL.format(name="polish"))
    return {"project": project, "home": home, "source": source.parent, "tmp": tmp_path}


def _args(w: dict[str, Path]) -> dict[tuple[str, ...], tuple[str | Path, ...]]:
    """Every verb with arguments that run it offline, in temporary folders only."""
    at = ("--project", w["project"], "--home", w["home"])
    return {
        ("doctor",): at,
        ("audit",): (w["project"], *at),
        ("compat",): at,
        ("list",): at,
        ("show",): ("tidy", *at),
        ("validate",): (w["project"] / ".satchel" / "skills",),
        ("index",): at,
        ("new", "skill"): ("fresh", "--dir", w["tmp"] / "new"),
        ("commands",): at,
        ("expand",): ("/tidy now", *at),
        ("agents",): at,
        ("instructions",): at,
        ("plugins",): at,
        ("hosts",): ("--home", w["home"]),
        ("plugin", "inspect"): (w["tmp"] / "no-plugin",),
        ("plugin", "configure"): ("no-such-plugin", *at),
        ("port",): (w["tmp"] / "no-plugin", "--to", "codex"),
        ("policy", "check"): at,
        ("policy", "export"): ("--to", "codex"),
        ("mcp", "list"): at,
        ("mcp", "check"): at,
        ("mcp", "login"): ("no-such-server", *at),
        ("mcp", "logout"): ("no-such-server", *at),
        ("lsp", "list"): at,
        ("lsp", "check"): at,
        ("hooks", "run"): ("stop", *at),
        ("hooks",): at,
        ("trust",): (w["project"], "--home", w["home"]),
        ("untrust",): (w["project"], "--home", w["home"]),
        ("serve",): ("--http", "192.0.2.1:0", *at),  # refused: not loopback
        ("browse",): (w["source"], *at),
        ("install",): (w["source"], *at),
        ("update",): at,
        ("remove",): ("no-such-skill", *at),
        ("prune",): at,
        ("marketplace", "add"): ("./no-such-folder", *at),
        ("marketplace", "build"): (w["tmp"] / "no-plugins", "--owner", "Owner"),
        ("marketplace", "list"): at,
        ("marketplace", "update"): ("no-such-marketplace", *at),
        ("marketplace", "remove"): ("no-such-marketplace", *at),
        ("diff",): at,
        ("verify",): at,
        ("outdated",): (*at, "--offline"),
        ("tag",): (w["tmp"] / "no-plugin",),
        ("publish",): (w["source"] / "polish", "oci://ghcr.io/Not/lowercase"),  # refused
    }


def test_the_table_covers_every_verb(where):
    assert sorted(_args(where)) == sorted(v.words for v in VERBS)


@pytest.mark.parametrize("words", sorted(v.words for v in VERBS), ids=" ".join)
def test_every_verb_prints_the_envelope(satchel, where, words):
    result: Run = satchel(*words, *_args(where)[words], "--json")
    # `serve` writes its one JSON object to stderr: stdout is the MCP channel
    text = result.err if words == ("serve",) else result.out
    doc = json.loads(text)
    assert isinstance(doc, dict)
    assert doc["version"] == 1
    assert isinstance(doc["diagnostics"], list)
    assert all({"code", "severity", "message"} <= set(d) for d in doc["diagnostics"])
    if result.code != 0 and "error" in doc:
        assert set(doc["error"]) >= {"code", "message"}
    assert len(doc) > 2 or "error" in doc  # the verb's own data is there too


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--no-such-option", "--json"],
        ["show", "--json"],
        ["index", "--max-skills", "-1", "--json"],
        ["doctor", "no-such-dir", "--json"],
        ["instructions", "--mode", "nope", "--json"],
        ["no-such-verb", "--json"],
    ],
    ids=["bad-option", "missing-name", "negative-cap", "missing-dir", "bad-mode", "bad-verb"],
)
def test_usage_errors_with_json_are_the_envelope_with_exit_2(satchel, tmp_path, args, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = satchel(*args)
    assert result.code == 2
    assert result.err == ""
    doc = json.loads(result.out)
    assert set(doc) == {"version", "error", "diagnostics"}
    assert (doc["version"], doc["error"]["code"], doc["diagnostics"]) == (1, "cli.usage", [])
    assert doc["error"]["message"]


def test_a_usage_error_message_is_clicks(satchel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = json.loads(satchel("list", "--bogus", "--json").out)
    message = "No such option '--bogus'. Did you mean '--host'?"
    assert doc["error"] == {"code": "cli.usage", "message": message}


def test_json_after_a_double_dash_is_an_argument_not_the_flag(satchel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = satchel("expand", "--bogus", "--", "--json")
    assert result.code == 2
    assert result.out == ""
    assert "No such option '--bogus'." in result.err

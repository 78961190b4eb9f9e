"""`--plugin-dir DIR` on every verb that loads an environment, as Claude Code's flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satchel.cli import VERBS

SKILL = "---\nname: helper\ndescription: Help with things. Use when asked to.\n---\n\nHelp.\n"
AGENT = "---\nname: bot\ndescription: A bot. Use when asked to.\n---\n\nBe a bot.\n"
HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}
SERVERS = {"mcpServers": {"helper-api": {"command": "no-such-command-for-satchel-tests"}}}
LSP = {
    "helper-ls": {
        "command": "no-such-command-for-satchel-tests",
        "extensionToLanguage": {".x": "x"},
    }
}


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    """A Claude Code plugin with one of each component, outside every searched root."""
    root = tmp_path / "extra"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "extra"}))
    (root / "skills" / "helper").mkdir(parents=True)
    (root / "skills" / "helper" / "SKILL.md").write_text(SKILL)
    (root / "commands").mkdir()
    (root / "commands" / "go.md").write_text("---\ndescription: Go.\n---\n\nGo $ARGUMENTS.\n")
    (root / "agents").mkdir()
    (root / "agents" / "bot.md").write_text(AGENT)
    (root / "hooks").mkdir()
    (root / "hooks" / "hooks.json").write_text(json.dumps(HOOKS))
    (root / ".mcp.json").write_text(json.dumps(SERVERS))
    (root / ".lsp.json").write_text(json.dumps(LSP))
    return root


LOADING = {
    ("doctor",): (),
    ("list",): (),
    ("show",): ("extra:helper",),
    ("index",): (),
    ("commands",): (),
    ("expand",): ("/extra:go now",),
    ("agents",): (),
    ("plugins",): (),
    ("mcp", "list"): (),
    ("mcp", "check"): ("--timeout", "5"),
    ("mcp", "login"): ("plugin:extra:helper-api",),  # refused: a stdio server
    ("mcp", "logout"): ("plugin:extra:helper-api",),
    ("lsp", "list"): (),
    ("lsp", "check"): ("--timeout", "5"),
    ("hooks",): (),
    ("hooks", "run"): ("stop",),
    ("audit",): (),
    ("plugin", "configure"): ("extra",),
    ("policy", "check"): (),
}


def _found(words: tuple[str, ...], doc: dict) -> bool:
    """Whether the verb's JSON holds what the plugin brings."""
    text = json.dumps(doc)
    marks = {
        ("doctor",): '"extra"',
        ("list",): '"extra:helper"',
        ("show",): '"extra:helper"',
        ("index",): "extra:helper",
        ("commands",): '"extra:go"',
        ("expand",): "Go now.",
        ("agents",): '"extra:bot"',
        ("plugins",): '"extra"',
        ("mcp", "list"): "helper-api",
        ("mcp", "check"): "helper-api",
        ("mcp", "login"): "'helper-api' of plugin 'extra' is a stdio server",
        ("mcp", "logout"): "'helper-api' of plugin 'extra' is a stdio server",
        ("lsp", "list"): '"extra:helper-ls"',
        ("lsp", "check"): '"extra:helper-ls"',
        ("hooks",): '"plugin:extra"',
        ("hooks", "run"): '"plugin:extra"',
        ("audit",): '"plugin:extra',
        ("plugin", "configure"): '"plugin": "extra"',
        ("policy", "check"): '"plugins": ["extra"]',
    }
    return marks[words] in text


def test_every_verb_that_loads_an_environment_is_listed():
    """The verbs whose options are the location ones load an Environment; serve is
    tested below (it serves instead of printing)."""
    loading = {v.words for v in VERBS if "plugin_dirs" in {p.name for p in v.load().PARAMS}}
    assert loading == {*LOADING, ("serve",)}


@pytest.mark.parametrize("words", sorted(LOADING), ids=" ".join)
def test_plugin_dir_loads_the_plugin(satchel, project, home, plugin, words):
    where = ("--project", project, "--home", home, "--json")
    without = satchel(*words, *LOADING[words], *where)
    assert not _found(words, without.json())
    result = satchel(*words, *LOADING[words], *where, "--plugin-dir", plugin)
    assert _found(words, result.json()), result.out


def test_serve_plugin_dir_serves_its_skill(satchel, project, home, plugin, monkeypatch):
    async def no_transport(server):
        return None

    monkeypatch.setattr("satchel.server._serve.run_stdio", no_transport)
    where = ("--project", project, "--home", home, "--json")
    before = json.loads(satchel("serve", *where).err)
    after = json.loads(satchel("serve", *where, "--plugin-dir", plugin).err)
    assert (before["skills"], after["skills"]) == (0, 1)


def test_plugin_dir_must_exist(satchel, project, home, tmp_path):
    result = satchel("list", "--project", project, "--plugin-dir", tmp_path / "nope")
    assert result.code == 2
    assert "Invalid value for '--plugin-dir'" in result.err
    assert "does not exist" in result.err

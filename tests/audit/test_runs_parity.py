"""`satchel audit` lists everything Claude Code 2.1.337's ``claude plugin validate
--json`` lists under ``runs`` (what a plugin makes run beyond its hooks and servers):
for the parity tests' plugin trees, the examples' plugins and one plugin that has each
kind, every entry of ``runs`` has its audit finding. Claude Code runs once per tree."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.audit._scan import audit_path
from tests.plugins.test_claude_code_parity import TREES, manifest, put_json
from tests.support import put
from tests.tools import claude_validate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "release-notes": ROOT / "examples/marketplace/plugins/release-notes",
    "pr-tools": ROOT / "examples/workspace/.satchel/plugins/pr-tools",
}
SKILL = """---
name: deploy
description: Deploy things
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./check.sh
---
Status: !`git status --short`
"""


def runs_everything(root: Path) -> None:
    """A server env, a headers helper, a language server env, a skill's hooks and its
    inline shell, a subagent status line, and option defaults in a server's argv and env."""
    options = {
        "token": {"type": "string", "title": "Token", "description": "t", "default": "abc"},
        "level": {"type": "string", "title": "Level", "description": "l", "default": "2"},
        "unset": {"type": "string", "title": "Unset", "description": "u"},
    }
    manifest(root, "rich", userConfig=options)
    local = {
        "command": "node",
        "args": ["server.js", "--key", "${user_config.token}", "${user_config.unset}"],
        "env": {"API_KEY": "x", "LEVEL": "${user_config.level}"},
    }
    remote = {"type": "http", "url": "https://a.example.com/mcp", "headersHelper": "./h.sh"}
    put_json(root, ".mcp.json", {"mcpServers": {"local": local, "remote": remote}})
    lsp = {"command": "pylsp", "extensionToLanguage": {".py": "python"}, "env": {"PX": "1"}}
    put_json(root, ".lsp.json", {"py": lsp})
    put(root, "skills/deploy/SKILL.md", SKILL)
    put_json(
        root, "settings.json", {"subagentStatusLine": {"type": "command", "command": "./s.sh"}}
    )


TREES_HERE = {**TREES, "runs-everything": runs_everything}


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory, claude_code_next: Path) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("runs")
    home = base / "home"
    home.mkdir()
    plugins = dict(EXAMPLES)
    for name, tree in TREES_HERE.items():
        tree(base / name)
        plugins[name] = base / name
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = pool.map(
            lambda p: claude_validate(claude_code_next, p, home)["runs"], plugins.values()
        )
        return {
            name: (path, runs, home)
            for (name, path), runs in zip(plugins.items(), found, strict=True)
        }


MCP = 'MCP server "{name}" of plugin {{plugin}}'
LSP = 'language server "{name}" of plugin {{plugin}}'
# each kind of ``runs`` -> the audit rule and the message it asks for (" ... ": any text)
ASKS = {
    "mcpHeadersHelpers": (
        "A-MCP-HEADERS-HELPER", MCP + ' runs "{command}" for its request headers'),
    "lspServerEnv": ("A-LSP-SERVER", LSP + " ... with env {env}"),
    "mcpServerEnv": ("A-MCP-SERVER", MCP + " ... with env {env}"),
    "skillHooks": ("A-HOOK-PRESENT", 'skill:{skill} hook on {event}{matcher} runs "{hook}"'),
    "inlineShell": (
        "A-EXEC-SHELL-INTERP", 'an inline !`...` runs "{command}" when the skill is invoked'),
    "subagentStatusLine": (
        "A-STATUS-LINE", "plugin {{plugin}}'s settings run \"{command}\" as the subagent "
        "status line"),
    "optionDefaults": (
        "A-OPTION-DEFAULT", MCP + ' runs with the default of its option "{option}" until the '
        "user sets one"),
}  # fmt: skip


def _fields(entry: dict[str, Any]) -> dict[str, str]:
    hook = entry.get("hook", {})
    matcher = f' (matcher "{hook["matcher"]}")' if hook.get("matcher") else ""
    return {
        **{k: v for k, v in entry.items() if isinstance(v, str)},
        "env": ", ".join(sorted(entry.get("env", []))),
        "skill": entry.get("name", "").split(":", 1)[-1],
        "event": hook.get("event", ""),
        "matcher": matcher,
        "hook": hook.get("command", ""),
    }


def _expected(runs: dict[str, Any]) -> set[tuple[str, str]]:
    """The audit finding (rule, message) each entry of `runs` asks for."""
    return {
        (ASKS[kind][0], ASKS[kind][1].format(**_fields(entry)))
        for kind, entries in runs.items()
        if kind in ASKS
        for entry in entries
    }


def _covered(want: tuple[str, str], found: set[tuple[str, str]], plugin: str) -> bool:
    rule, message = want
    head, _, tail = message.replace("{plugin}", plugin).partition(" ... ")
    return any(
        r == rule and (m == head if not tail else m.startswith(head) and m.endswith(tail))
        for r, m in found
    )


@pytest.mark.parametrize("name", sorted([*TREES_HERE, *EXAMPLES]))
def test_the_audit_lists_everything_claude_code_says_runs(observed: dict[str, Any], name: str):
    path, runs, home = observed[name]
    assert runs["mcpBundlesNotListed"] == []  # no MCP bundle in these trees (not covered)
    report = audit_path(path, home=home)
    found = {(f.rule, f.message) for f in report.findings}
    plugin = json.loads((path / ".claude-plugin/plugin.json").read_text())["name"]
    missing = [w for w in sorted(_expected(runs)) if not _covered(w, found, plugin)]
    assert missing == []


def test_the_plugin_that_runs_everything_has_every_kind(observed: dict[str, Any]):
    """The control: every kind of ``runs`` is present, so the test above compares each."""
    _, runs, _ = observed["runs-everything"]
    kinds = {kind for kind, entries in runs.items() if entries}
    assert kinds == set(runs) - {"mcpBundlesNotListed"}
    assert runs["optionDefaults"] == [
        {"name": "local", "option": "token", "default": "abc"},
        {"name": "local", "option": "level"},
    ]

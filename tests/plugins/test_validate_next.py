"""What Claude Code 2.1.337's ``claude plugin validate --json --profile directory``
adds, and satchel's side of it, for the plugin trees of the parity tests, the
examples' plugins and trees built for each rule (Claude Code runs once per tree, for
the module):

- ``directory``: `satchel validate --profile directory` reports the same findings, with
  the same codes, severities, blocking, files, fields, messages and fixes;
- ``runs`` (what a plugin makes run beside its hooks and servers): `satchel audit`
  has a finding for every entry."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.audit._scan import audit_path
from satchel.cli import main
from tests.plugins.test_claude_code_parity import TREES, manifest, markdown, put_json
from tests.support import put
from tests.tools import claude_plugin

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "release-notes": ROOT / "examples/marketplace/plugins/release-notes",
    "pr-tools": ROOT / "examples/workspace/.satchel/plugins/pr-tools",
}
WORDS = " ".join(f"word{n}" for n in range(45))


def described(root: Path) -> None:
    """A README of enough words, a license field, an icon file: nothing to report."""
    manifest(root, "described", license="MIT")
    put(root, "README.md", f"# Described\n\n{WORDS}\n")
    put(root, ".claude-plugin/icon.png", "not really a png")
    put(root, "skills/one/SKILL.md", markdown(name="one", description="One"))


def terse(root: Path) -> None:
    """A README whose words are in a code fence and links; a LICENSE file."""
    manifest(root, "terse", icon="assets/logo.png")
    fence = "\n".join(["```", WORDS, "```"])
    put(root, "README.md", f"# Terse\n\n{fence}\n\nSee [the docs](https://example.com/x) now.\n")
    put(root, "LICENSE", "MIT License\n")
    put(root, "skills/one/SKILL.md", markdown(name="one", description="One"))


def remote(root: Path) -> None:
    """An http hook and a remote MCP server, a privacy URL; a .DS_Store and __MACOSX."""
    hooks = {"Stop": [{"hooks": [{"type": "http", "url": "https://hooks.example.com/x"}]}]}
    manifest(root, "remote", hooks=hooks, privacyPolicyUrl="https://example.com/privacy")
    put(
        root,
        ".mcp.json",
        json.dumps({"mcpServers": {"api": {"type": "http", "url": "https://a.example.com/mcp"}}}),
    )
    put(root, ".DS_Store", "x")
    put(root, "__MACOSX/skills/._one", "x")
    put(root, "readme.md", f"{WORDS}\n")


def remote_unsaid(root: Path) -> None:
    """A remote MCP server and no privacy URL."""
    manifest(root, "remote-unsaid", license="Apache-2.0")
    put(
        root,
        ".mcp.json",
        json.dumps({"mcpServers": {"api": {"type": "sse", "url": "https://a.example.com/sse"}}}),
    )


def in_repository(root: Path) -> None:
    """A plugin below a repository root that has the README (too short) and LICENSE."""
    plugin = root / "plugins" / "nested"
    manifest(plugin, "nested")
    (root / ".git").mkdir(parents=True)
    put(root, "README.md", "Short.\n")
    put(root, "COPYING", "GPL\n")


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


def climbing(root: Path) -> None:
    """`..` in the icon, the servers' and the hooks' paths (a list of each)."""
    manifest(
        root,
        "climbing",
        license="MIT",
        icon="./i/../icon.png",
        mcpServers=["./ok.json", "../s.json"],
        hooks=["./h.json", "x/../h.json"],
    )
    put(root, "README.md", f"# Climbing\n\n{WORDS}\n")


def named_icon(root: Path) -> None:
    """`icon` names the file the check also finds by itself, and it is not an image."""
    manifest(root, "named-icon", license="MIT", icon="./.claude-plugin/icon.png")
    put(root, "README.md", f"# Named\n\n{WORDS}\n")
    put(root, ".claude-plugin/icon.png", "not really a png")


BUILT: dict[str, Callable[[Path], None]] = {
    "climbing": climbing,
    "named-icon": named_icon,
    "runs-everything": runs_everything,
    "described": described,
    "terse": terse,
    "remote": remote,
    "remote-unsaid": remote_unsaid,
    "in-repository": in_repository,
}
WHERE = {"in-repository": "plugins/nested"}
FIELDS = ("code", "severity", "blocking", "file", "field", "message", "fix")


def _claude(binary: Path, home: Path, plugin: Path) -> dict[str, Any]:
    done = claude_plugin(binary, home, home, "validate", "--json", "--profile", "directory",
                         str(plugin))  # fmt: skip
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["directory"]["profile"] == "directory"
    return report


def _findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: f[k] for k in FIELDS} for f in report["directory"]["findings"]]


def _satchel(capsys: pytest.CaptureFixture[str], plugin: Path, *profile: str) -> tuple[int, Any]:
    home = plugin.parent / ".satchel-home"
    code = main(["validate", *profile, "--json", "--home", str(home), str(plugin)])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def observed(tmp_path_factory: pytest.TempPathFactory, claude_code_next: Path) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("directory")
    home = base / "home"
    home.mkdir()
    plugins: dict[str, Path] = {}
    for name, tree in {**TREES, **BUILT}.items():
        tree(base / name)
        plugins[name] = base / name / WHERE.get(name, "")
    for name, source in EXAMPLES.items():
        plugins[name] = source  # read in place: the repository's README and LICENSE count
    with ThreadPoolExecutor(max_workers=2) as pool:  # one run per tree, two at a time
        found = pool.map(lambda path: _claude(claude_code_next, home, path), plugins.values())
        return {
            name: (path, claude, home)
            for (name, path), claude in zip(plugins.items(), found, strict=True)
        }


@pytest.mark.parametrize("name", sorted([*TREES, *BUILT, *EXAMPLES]))
def test_the_findings_are_claude_codes(observed: dict[str, Any], name: str, capsys):
    plugin, found, _ = observed[name]
    claude = _findings(found)
    code, report = _satchel(capsys, plugin, "--profile", "directory")
    (checked,) = report["checked"]
    ours = [{k: f[k] for k in FIELDS} for f in checked["directory"]]
    assert ours == claude
    if any(f["blocking"] for f in claude):  # a refused submission fails validate
        assert (code, checked["ok"]) == (1, False)


def test_each_finding_is_a_satchel_diagnostic_naming_the_directorys_code(
    observed: dict[str, Any], capsys
):
    plugin, found, _ = observed["remote"]
    claude = _findings(found)
    _, report = _satchel(capsys, plugin, "--profile", "directory")
    (checked,) = report["checked"]
    said = [(d["code"], d["severity"], d["message"], d["hint"]) for d in checked["diagnostics"]
            if d["code"].startswith("plugin.directory.")]  # fmt: skip
    assert said == [
        (
            f"plugin.directory.{f['code'].lower().replace('archive_', '')}",
            f["severity"],
            f"{f['code']}: {f['message']}",
            f["fix"],
        )
        for f in claude
    ]


def test_without_the_profile_nothing_of_the_directory_is_said(tmp_path: Path, capsys):
    TREES["solo"](tmp_path / "solo")
    _, report = _satchel(capsys, tmp_path / "solo")
    (checked,) = report["checked"]
    assert "directory" not in checked
    assert not [d for d in checked["diagnostics"] if d["code"].startswith("plugin.directory.")]


# -- runs: what the audit lists --------------------------------------------------

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


# Claude Code reads no `runs` of a plugin whose manifest paths climb out of it.
NO_RUNS = frozenset(("climbing",))


def test_claude_code_reads_no_runs_of_a_plugin_whose_paths_climb_out(observed: dict[str, Any]):
    assert [observed[name][1]["runs"] for name in sorted(NO_RUNS)] == [None]


@pytest.mark.parametrize("name", sorted({*TREES, *BUILT, *EXAMPLES} - NO_RUNS))
def test_the_audit_lists_everything_claude_code_says_runs(observed: dict[str, Any], name: str):
    path, found, home = observed[name]
    runs = found["runs"]
    assert runs["mcpBundlesNotListed"] == []  # no MCP bundle in these trees (not covered)
    report = audit_path(path, home=home)
    audited = {(f.rule, f.message) for f in report.findings}
    plugin = json.loads((path / ".claude-plugin/plugin.json").read_text())["name"]
    missing = [w for w in sorted(_expected(runs)) if not _covered(w, audited, plugin)]
    assert missing == []


def test_the_plugin_that_runs_everything_has_every_kind(observed: dict[str, Any]):
    """The control: every kind of ``runs`` is present, so the test above compares each."""
    runs = observed["runs-everything"][1]["runs"]
    kinds = {kind for kind, entries in runs.items() if entries}
    assert kinds == set(runs) - {"mcpBundlesNotListed"}
    assert runs["optionDefaults"] == [
        {"name": "local", "option": "token", "default": "abc"},
        {"name": "local", "option": "level"},
    ]

"""`satchel validate --profile directory` reports the plugin directory's submission
findings as Claude Code 2.1.337's ``claude plugin validate --json --profile directory``
does: the same codes, severities, blocking, files, fields, messages and fixes, for the
plugin trees of the parity tests, the examples' plugins, and trees built for each rule.
Claude Code runs once per tree, for the module."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.cli import main
from tests.plugins.test_claude_code_parity import TREES, manifest, markdown
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


BUILT: dict[str, Callable[[Path], None]] = {
    "described": described,
    "terse": terse,
    "remote": remote,
    "remote-unsaid": remote_unsaid,
    "in-repository": in_repository,
}
WHERE = {"in-repository": "plugins/nested"}
FIELDS = ("code", "severity", "blocking", "file", "field", "message", "fix")


def _claude(binary: Path, home: Path, plugin: Path) -> list[dict[str, Any]]:
    done = claude_plugin(binary, home, home, "validate", "--json", "--profile", "directory",
                         str(plugin))  # fmt: skip
    report = json.loads(done.stdout)
    assert report["directory"]["profile"] == "directory"
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
            name: (path, claude)
            for (name, path), claude in zip(plugins.items(), found, strict=True)
        }


@pytest.mark.parametrize("name", sorted([*TREES, *BUILT, *EXAMPLES]))
def test_the_findings_are_claude_codes(observed: dict[str, Any], name: str, capsys):
    plugin, claude = observed[name]
    code, report = _satchel(capsys, plugin, "--profile", "directory")
    (checked,) = report["checked"]
    ours = [{k: f[k] for k in FIELDS} for f in checked["directory"]]
    assert ours == claude
    if any(f["blocking"] for f in claude):  # a refused submission fails validate
        assert (code, checked["ok"]) == (1, False)


def test_each_finding_is_a_satchel_diagnostic_naming_the_directorys_code(
    observed: dict[str, Any], capsys
):
    plugin, claude = observed["remote"]
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

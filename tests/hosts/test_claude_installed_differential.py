"""The plugins Claude Code installed, against Claude Code 2.1.332 itself: a scratch HOME,
a local marketplace, `claude plugin marketplace add`, `install` (user and project
scope), `disable` (user and local scope), all offline; then the plugins satchel sees
under host claude-code equal what `claude plugin list --json` lists (id, enabled,
the folder it reads: ``readFromFolder``, the marketplace's own folder for a directory
marketplace such as this one, else ``installPath``), and the enabled ones' skills load
namespaced. `quiet` says
``defaultEnabled: false``: Claude Code installs it disabled, and so satchel sees it,
until `enable` turns it on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import satchel
from satchel import hosts
from tests.support import put, write_skill
from tests.tools import claude_plugin

MARKETPLACE = "local-tools"


def _claude(binary: Path, home: Path, cwd: Path, *args: str) -> str:
    done = claude_plugin(binary, home, cwd, *args)
    assert done.returncode == 0, f"claude plugin {' '.join(args)} failed: {done.stderr}"
    return done.stdout


def _marketplace(root: Path) -> Path:
    """A catalogue of four plugins, each a relative path; `notes` has no manifest,
    `quiet` is off by default."""
    names = ("hello", "notes", "tool", "quiet")
    entries = [{"name": n, "source": f"./plugins/{n}"} for n in names]
    catalogue = {"name": MARKETPLACE, "owner": {"name": "Team"}, "plugins": entries}
    put(root, ".claude-plugin/marketplace.json", json.dumps(catalogue))
    for name in names:
        plugin = root / "plugins" / name
        manifest = {"name": name, "version": "1.0.0"}
        if name == "quiet":
            manifest["defaultEnabled"] = False
        if name != "notes":
            put(plugin, ".claude-plugin/plugin.json", json.dumps(manifest))
        write_skill(plugin / "skills", f"{name}-skill", description=f"The {name} skill.")
    return root


def _listed(binary: Path, home: Path, project: Path) -> dict[str, tuple[bool, Path]]:
    found: list[dict[str, Any]] = json.loads(_claude(binary, home, project, "list", "--json"))
    return {
        p["id"]: (p["enabled"], Path(p.get("readFromFolder", p["installPath"])))
        for p in found
        if not p["id"].endswith("@builtin")
    }


def test_satchel_sees_the_plugins_claude_code_installed_and_lists(
    claude_code: Path, tmp_path: Path
):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    market = _marketplace(tmp_path / "market")
    run = lambda *args: _claude(claude_code, home, project, *args)  # noqa: E731
    run("marketplace", "add", str(market))
    run("install", f"hello@{MARKETPLACE}")
    run("install", f"notes@{MARKETPLACE}", "--scope", "project")
    run("install", f"tool@{MARKETPLACE}")
    run("disable", f"tool@{MARKETPLACE}")
    run("disable", f"hello@{MARKETPLACE}", "--scope", "local")
    run("install", f"quiet@{MARKETPLACE}")
    listed = _listed(claude_code, home, project)
    layout = hosts.get("claude-code").layout(project, home=home, env={})
    env = satchel.load(layout=layout, host="claude-code", trusted=True)
    seen = {p.installed: (p.enabled, p.root) for p in env.plugins.plugins.values() if p.installed}
    assert seen == listed
    assert {i: on for i, (on, _) in listed.items()} == {
        f"hello@{MARKETPLACE}": False,
        f"notes@{MARKETPLACE}": True,
        f"tool@{MARKETPLACE}": False,
        f"quiet@{MARKETPLACE}": False,
    }
    assert list(env.skills) == ["notes:notes-skill"]
    run("enable", f"quiet@{MARKETPLACE}")
    env = satchel.load(layout=layout, host="claude-code", trusted=True)
    assert _listed(claude_code, home, project)[f"quiet@{MARKETPLACE}"][0] is True
    assert env.plugins.plugins["quiet"].enabled
    assert list(env.skills) == ["notes:notes-skill", "quiet:quiet-skill"]

"""One scratch machine for ``satchel doctor --hosts``: a HOME and a project holding each
host's installed state as the host itself writes it, built once per test run (`built`).

What each host is asked to do, offline, from local sources under ``~/src``, and the
files it wrote (`Built.written` lists them per host, as measured on each build):

* Claude Code 2.1.332: ``claude plugin marketplace add ~/src/claude-market``, then
  ``install notes@local-tools``, ``install tool@local-tools``, ``disable
  tool@local-tools`` and ``install review@local-tools --scope project``. It wrote
  ``~/.claude/plugins/known_marketplaces.json``, ``~/.claude/plugins/installed_plugins.json``,
  a copy of each plugin in ``~/.claude/plugins/cache/local-tools/<name>/1.0.0/``,
  ``~/.claude/settings.json`` (``enabledPlugins``: notes on, tool off; the marketplace in
  ``extraKnownMarketplaces``), the project's ``.claude/settings.json`` (``enabledPlugins``:
  review), ``~/.claude.json`` and a backup of it in ``~/.claude/backups/``. Then
  ``claude mcp add --scope project docs -- docs-mcp --stdio`` wrote the project's
  ``.mcp.json`` (a server Claude Code has not approved here).
* Codex 0.171.0: ``codex plugin marketplace add ~/src/codex-market`` and ``codex plugin
  add guard@local``. It wrote ``~/.codex/config.toml`` (``[marketplaces.local]`` and
  ``[plugins."guard@local"] enabled = true``) and its copy of the plugin in
  ``~/.codex/plugins/cache/local/guard/1.0.0/``. Codex 0.171.0 has no command that
  disables an installed plugin (``codex plugin``: add, list, marketplace, remove), so
  there is none disabled here; its hook is one Codex has never been asked to trust.
  ``codex mcp add docs -- docs-mcp --stdio --v2`` added ``[mcp_servers.docs]`` to
  ``~/.codex/config.toml``: the same name, other arguments, a program on no PATH.
* Gemini CLI 0.61.0: ``gemini extensions install ~/src/gemini-ext/helper --consent``,
  the same for ``paused``, then ``gemini extensions disable paused --scope workspace``
  in the project. It wrote a copy of each in ``~/.gemini/extensions/<name>/`` (with
  ``.gemini-extension-install.json`` naming the source),
  ``~/.gemini/extensions/extension-enablement.json`` (both on under ``~/*``, ``paused``
  off in the project), ``~/.gemini/extension_integrity.json``, ``~/.gemini/projects.json``,
  ``~/.gemini/installation_id``, ``~/.gemini/gemini-credentials.json`` and
  ``.project_root`` files under ``~/.gemini/history`` and ``~/.gemini/tmp``. Its
  ``~/.gemini/settings.json`` (updates and statistics off) and ``trustedFolders.json``
  (the project and the extensions' source trusted, else the install asks) are written
  first, as Gemini CLI's own dialogs would. ``gemini mcp add --scope user docs docs-mcp
  --http`` added a third definition of ``docs`` to ``~/.gemini/settings.json``.

The project is a git folder (``.git``) with a CLAUDE.md, an AGENTS.md, a GEMINI.md and
two skills in ``.claude/skills``, one named ``Release Notes`` (not lowercase), and a
``.claude/commands`` symlink to a folder that does not exist.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.hostloop.hosts import Turn
from tests.hostloop.shared import once
from tests.support import put, write_skill
from tests.tools import CALL, GEMINI_SETTINGS, claude_code, codex, gemini_cli

__all__ = ["HOSTS", "Built", "built", "copy_of", "snapshot_files"]

HOSTS = ("claude-code", "codex", "gemini")
# the folders (relative to the machine) each host's commands write into
FOLDERS = {
    "claude-code": ("home/.claude/", "home/.claude.json", "project/.claude/", "project/.mcp.json"),
    "codex": ("home/.codex/",),
    "gemini": ("home/.gemini/",),
}
CLAUDE_MARKET = "local-tools"


def _run(argv: list[str], env: Mapping[str, str], cwd: Path) -> Turn:
    done = subprocess.run(
        argv, env=dict(env), cwd=cwd, capture_output=True, text=True, timeout=CALL,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{' '.join(argv)} failed: {done.stdout}\n{done.stderr}"
    return Turn(done.returncode, done.stdout, done.stderr, ())


def _base_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


# ------------------------------------------------------------------ the sources


def _claude_market(root: Path) -> None:
    names = ("notes", "tool", "review")
    entries = [{"name": n, "source": f"./plugins/{n}"} for n in names]
    catalogue = {"name": CLAUDE_MARKET, "owner": {"name": "Team"}, "plugins": entries}
    put(root / ".claude-plugin/marketplace.json", json.dumps(catalogue, indent=2))
    for name in names:
        plugin = root / "plugins" / name
        put(plugin / ".claude-plugin/plugin.json", json.dumps({"name": name, "version": "1.0.0"}))
        write_skill(plugin / "skills", f"{name}-skill", description=f"The {name} skill.")
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": "echo notes done"}]}]}
    put(root / "plugins/notes/hooks/hooks.json", json.dumps({"hooks": hooks}, indent=2))


def _codex_market(root: Path) -> None:
    entries = []
    for name in ("guard", "quiet"):
        plugin = root / "plugins" / name
        put(plugin / ".codex-plugin/plugin.json", json.dumps({"name": name, "version": "1.0.0"}))
        write_skill(plugin / "skills", f"{name}-skill", description=f"The {name} skill.")
        entries.append({"name": name, "category": "Productivity",
                        "source": {"source": "local", "path": f"./plugins/{name}"},
                        "policy": {"installation": "AVAILABLE"}})  # fmt: skip
    hook = {"type": "command", "command": "echo guard checked"}
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    put(root / "plugins/guard/hooks/hooks.json", json.dumps(hooks, indent=2))
    market = {"name": "local", "plugins": entries}
    put(root / ".agents/plugins/marketplace.json", json.dumps(market))


def _gemini_extensions(root: Path) -> None:
    for name in ("helper", "paused"):
        folder = root / name
        manifest = {"name": name, "version": "1.0.0"}
        put(folder / "gemini-extension.json", json.dumps(manifest, indent=2))
        write_skill(folder / "skills", f"{name}-skill", description=f"The {name} skill.")


def _gemini_settings(home: Path, project: Path) -> None:
    """Updates and statistics off; the project and the extensions' source trusted, as
    Gemini CLI's own trust dialog writes it (the extension install asks otherwise)."""
    put(home / ".gemini/settings.json", json.dumps(GEMINI_SETTINGS, indent=2))
    trusted = {str(home / "src/gemini-ext"): "TRUST_PARENT", str(project): "TRUST_FOLDER"}
    put(home / ".gemini/trustedFolders.json", json.dumps(trusted, indent=2))


def _project(project: Path) -> None:
    (project / ".git").mkdir(parents=True)
    put(project / "CLAUDE.md", "# Project\n\nRun the tests before a commit.\n")
    put(project / "AGENTS.md", "# Project\n\nRun the tests before a commit.\n")
    put(project / "GEMINI.md", "# Project\n\nRun the tests before a commit.\n")
    write_skill(project / ".claude/skills", "release", description="Cut a release.")
    notes = "---\nname: Release Notes\ndescription: Write the release notes.\n---\nGroup them.\n"
    put(project / ".claude/skills/release-notes/SKILL.md", notes)  # not lowercase
    os.symlink("../.agents/commands", project / ".claude/commands")  # to no folder


# ------------------------------------------------------------------ the hosts


def _claude(binary: Path, home: Path, project: Path) -> dict[str, Turn]:
    env = {
        **_base_env(home),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    steps = {
        "claude-market": ["marketplace", "add", str(home / "src/claude-market")],
        "claude-notes": ["install", f"notes@{CLAUDE_MARKET}"],
        "claude-tool": ["install", f"tool@{CLAUDE_MARKET}"],
        "claude-tool-off": ["disable", f"tool@{CLAUDE_MARKET}"],
        "claude-review": ["install", f"review@{CLAUDE_MARKET}", "--scope", "project"],
    }
    turns = {k: _run([str(binary), "plugin", *a], env, project) for k, a in steps.items()}
    mcp = ["mcp", "add", "--scope", "project", "docs", "--", "docs-mcp", "--stdio"]
    return turns | {"claude-mcp": _run([str(binary), *mcp], env, project)}


def _codex(binary: Path, home: Path, project: Path) -> dict[str, Turn]:
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    env = {**_base_env(home), "CODEX_HOME": str(codex_home)}
    steps = {
        "codex-market": ["marketplace", "add", str(home / "src/codex-market")],
        "codex-guard": ["add", "guard@local"],
    }
    turns = {k: _run([str(binary), "plugin", *a], env, project) for k, a in steps.items()}
    mcp = ["mcp", "add", "docs", "--", "docs-mcp", "--stdio", "--v2"]
    return turns | {"codex-mcp": _run([str(binary), *mcp], env, project)}


def _gemini(script: Path, home: Path, project: Path) -> dict[str, Turn]:
    source = home / "src/gemini-ext"
    env = {
        **_base_env(home),
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / ".gemini-system/settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / ".gemini-system/defaults.json"),
    }
    node = shutil.which("node") or "node"
    steps = {
        "gemini-helper": ["install", str(source / "helper"), "--consent"],
        "gemini-paused": ["install", str(source / "paused"), "--consent"],
        "gemini-paused-off": ["disable", "paused", "--scope", "workspace"],
    }
    turns = {k: _run([node, str(script), "extensions", *a], env, project) for k, a in steps.items()}
    mcp = ["mcp", "add", "--scope", "user", "docs", "docs-mcp", "--http"]
    return turns | {"gemini-mcp": _run([node, str(script), *mcp], env, project)}


def snapshot_files(root: Path) -> frozenset[str]:
    """Every file and symlink below `root`, relative to it."""
    return frozenset(
        (Path(d) / f).relative_to(root).as_posix()
        for d, dirs, files in os.walk(root)
        for f in [*files, *(x for x in dirs if (Path(d) / x).is_symlink())]
    )


def _make(base: Path) -> dict[str, Turn]:
    pinned = {"claude-code": claude_code(), "codex": codex(), "gemini": gemini_cli()}
    binaries = {h: b for h, b in pinned.items() if b is not None}
    if len(binaries) < len(pinned):
        return {"missing": Turn(1, ",".join(h for h in pinned if h not in binaries), "", ())}
    home, project = base / "home", base / "project"
    _claude_market(home / "src/claude-market")
    _codex_market(home / "src/codex-market")
    _gemini_extensions(home / "src/gemini-ext")
    _project(project)
    _gemini_settings(home, project)
    before = snapshot_files(base)
    # Gemini CLI (a node start per command, the slowest) beside the other two: each
    # host writes only its own folders (`FOLDERS`), which `_written` checks
    with ThreadPoolExecutor(2) as pool:
        gemini = pool.submit(_gemini, binaries["gemini"], home, project)
        turns = _claude(binaries["claude-code"], home, project)
        turns |= _codex(binaries["codex"], home, project)
        turns |= gemini.result()
    return turns | _written(sorted(snapshot_files(base) - before))


def _written(added: list[str]) -> dict[str, Turn]:
    """The files each host added, by the folders it owns; a file in none fails."""
    owner = {f: [h for h, own in FOLDERS.items() if f.startswith(own)] for f in added}
    stray = [f for f, hosts in owner.items() if len(hosts) != 1]
    assert not stray, f"written outside one host's own folders: {stray}"
    return {
        f"written-{host}": Turn(0, "\n".join(f for f in added if owner[f] == [host]), "", ())
        for host in FOLDERS
    }


class Built:
    """The machine: its folder (`base`: ``home`` and ``project`` below it) and what
    each host command printed; `written[host]` the files that host added."""

    def __init__(self, base: Path, turns: Mapping[str, Turn]) -> None:
        self.base = base
        self.home = base / "home"
        self.project = base / "project"
        self.turns = dict(turns)

    def written(self, host: str) -> list[str]:
        return self.turns[f"written-{host}"].stdout.splitlines()


def built(factory: pytest.TempPathFactory) -> Built:
    """The machine, built once per test run (skips when a pinned host is missing).
    Tests must not write into it: `copy_of` gives a copy to change."""
    base, turns = once(factory, "checkup-machine", _make)
    if "missing" in turns:
        pytest.skip(f"not in .tools/: {turns['missing'].stdout} (scripts/tools installs them)")
    return Built(base, turns)


def copy_of(machine: Built, target: Path) -> Built:
    """A copy of `machine` in `target`, symlinks kept as symlinks. The hosts' own
    files name the original's folders (Claude Code's ``installPath``, Codex's
    marketplace ``source``, Gemini CLI's enablement rules), so the copy still points
    there where they do."""
    shutil.copytree(machine.base, target, symlinks=True)
    return Built(target, machine.turns)

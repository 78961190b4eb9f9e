"""`satchel doctor --host codex` on a machine with plugins Codex installed: each is
listed with its enabled state, and the hooks Codex will skip are named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import put, skill_md


def codex_home(home: Path) -> Path:
    """A ``~/.codex`` with one enabled and one disabled installed plugin, the enabled
    one holding a hook Codex has never trusted."""
    cache = home / ".codex/plugins/cache/team"
    for name in ("notes", "quiet"):
        root = cache / name / "1.0.0"
        put(root / ".codex-plugin/plugin.json", json.dumps({"name": name}))
        put(root / "skills" / f"{name}-skill/SKILL.md", skill_md(f"{name}-skill", "helps"))
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}
    put(home / ".codex/hooks.json", json.dumps(hooks))
    put(
        home / ".codex/config.toml",
        '[plugins."notes@team"]\nenabled = true\n[plugins."quiet@team"]\nenabled = false\n',
    )
    return cache


def test_doctor_lists_the_plugins_codex_installed(satchel, tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    cache = codex_home(home)
    args = ("doctor", project, "--host", "codex", "--home", home, "--trust")
    doc = satchel(*args, "--json").json()
    assert doc["plugins"]["installed"] == [
        {"id": "notes@team", "name": "notes", "root": str(cache / "notes/1.0.0"), "enabled": True},
        {"id": "quiet@team", "name": "quiet", "root": str(cache / "quiet/1.0.0"), "enabled": False},
    ]
    assert "installed by the host: notes@team (enabled), quiet@team (disabled)" in (
        satchel(*args).out
    )


def test_doctor_names_the_hooks_codex_will_skip(satchel, tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    codex_home(home)
    doc = satchel("doctor", project, "--host", "codex", "--home", home, "--trust", "--json").json()
    hooks_file, config = home / ".codex/hooks.json", home / ".codex/config.toml"
    assert [d["message"] for d in doc["diagnostics"] if d["code"] == "hook.host.untrusted"] == [
        f"Codex skips the Stop hook 'echo done' of {hooks_file} without a word: it has never "
        f"been trusted (no trusted_hash for '{hooks_file}:stop:0:0' in {config})"
    ]
    assert doc["hooks"]["loaded"] == 0


def _plugin_hook_home(home: Path) -> None:
    """A ``~/.codex`` whose one installed plugin holds a hook Codex has never trusted."""
    root = home / ".codex/plugins/cache/team/guard/1.0.0"
    put(root / ".codex-plugin/plugin.json", json.dumps({"name": "guard"}))
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo guard"}]}]}}
    put(root / "hooks/hooks.json", json.dumps(hooks))
    put(home / ".codex/config.toml", '[plugins."guard@team"]\nenabled = true\n')


def test_an_installed_plugin_hook_is_judged_however_the_home_is_spelled(satchel, tmp_path):
    """Through a symlinked or relative home the cache is the same folder: Codex's hook
    trust still judges the plugin's hook (real paths are compared)."""
    real, project = tmp_path / "real", tmp_path / "project"
    project.mkdir()
    _plugin_hook_home(real / "home")
    (tmp_path / "link").symlink_to(real)
    for home in (real / "home", tmp_path / "link/home"):
        doc = satchel("doctor", project, "--host", "codex", "--home", home, "--trust", "--json")
        found = doc.json()
        assert found["hooks"]["loaded"] == 0, home
        assert [d["code"] for d in found["diagnostics"] if d["code"] == "hook.host.untrusted"] == [
            "hook.host.untrusted"
        ]


def test_codex_reads_no_mcp_json_and_trust_pins_its_own_project_config(satchel, tmp_path):
    """Under the codex profile a project's servers are its trusted `.codex/config.toml`'s,
    not `.mcp.json`'s; `satchel trust` pins them, so they are not held back as changed."""
    home, project = tmp_path / "home", tmp_path / "project"
    put(project / ".git/HEAD", "ref: refs/heads/main\n")
    put(project / ".mcp.json", json.dumps({"mcpServers": {"dotmcp": {"command": "x"}}}))
    put(project / ".codex/config.toml", '[mcp_servers.projserver]\ncommand = "proj-mcp"\n')
    trusted = f'[projects."{project.resolve()}"]\ntrust_level = "trusted"\n'
    put(home / ".codex/config.toml", trusted)
    satchel("trust", project, "--home", home)
    doc = satchel("mcp", "list", "--project", project, "--home", home, "--host", "codex", "--json")
    servers = doc.json()["servers"]
    assert [(s["name"], s["status"]) for s in servers] == [("projserver", "configured")]


def test_codex_hook_files_are_named_as_codex_s(satchel, tmp_path):
    """A hook of ``~/.codex/hooks.json`` is Codex's (``codex-user``), not Claude Code's:
    the two hosts' settings hooks never share a source or a pin."""
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    codex_home(home)
    doc = satchel("hooks", "--host", "codex", "--project", project, "--home", home, "--json")
    assert [(h["source"], h["event"]) for h in doc.json()["hooks"]] == [("codex-user", "stop")]

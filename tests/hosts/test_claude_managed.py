"""Claude Code's managed settings under the claude-code profile: a lock of
``strictPluginOnlyCustomization`` on ``skills`` or ``agents`` drops the ``.claude``
roots of that surface and any lock the skills-directory plugins; ``disableSideloadFlags``
refuses the plugin directories given. satchel reads them from
``$SATCHEL_CLAUDE_MANAGED_DIR`` here; Claude Code 2.1.337 reads them from
``/etc/claude-code`` only, so the differential run gives it that folder in a private
mount namespace (an overlay on /etc seen by that process alone), when the machine
allows one (root and ``unshare``), and is skipped otherwise."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from satchel.foundations._claude_managed import ENV_DIR, read_claude_managed
from tests.support import put

LISTING = "The following skills are available for use with the Skill tool:\n\n"


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} skill\n---\nDo it.\n"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("managed")
    home, project, given = base / "home", base / "project", base / "given"
    (project / ".git").mkdir(parents=True)
    put(home, ".claude/skills/mine/SKILL.md", _skill("mine"))
    put(home, ".claude/skills/kit/.claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    put(home, ".claude/skills/kit/skills/tool/SKILL.md", _skill("tool"))
    put(home, ".claude/agents/helper.md", "---\nname: helper\ndescription: Helps\n---\nHelp.\n")
    put(project, ".claude/skills/ours/SKILL.md", _skill("ours"))
    put(given, ".claude-plugin/plugin.json", json.dumps({"name": "given"}))
    put(given, "skills/extra/SKILL.md", _skill("extra"))
    hook = {"type": "command", "command": 'touch "$CLAUDE_PROJECT_DIR/fired"'}
    put(
        project,
        ".claude/settings.json",
        json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}),
    )
    put(project, ".mcp.json", json.dumps({"mcpServers": {"local": {"command": "true"}}}))
    managed, hooks = base / "managed", base / "managed-hooks"
    put(managed, "managed-settings.json", json.dumps({"strictPluginOnlyCustomization": ["skills"]}))
    put(
        hooks,
        "managed-settings.json",
        json.dumps({"strictPluginOnlyCustomization": ["hooks", "mcp"]}),
    )
    return {"home": home, "project": project, "given": given, "managed": managed,
            "managed-hooks": hooks, "base": base}  # fmt: skip


def _load(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch, which: str = "managed"
) -> satchel.Environment:
    monkeypatch.setenv(ENV_DIR, str(tree[which]))
    layout = hosts.get("claude-code").layout(tree["project"], home=tree["home"], env={})
    return satchel.load(layout=layout, host="claude-code", trusted=True,
                        plugin_dirs=(tree["given"],))  # fmt: skip


def test_the_locks_are_read_as_claude_code_reads_them(tmp_path: Path):
    put(tmp_path, "managed-settings.json", json.dumps({"strictPluginOnlyCustomization": True}))
    put(tmp_path, "managed-settings.d/10-more.json", json.dumps({"disableSideloadFlags": True}))
    put(tmp_path, "managed-settings.d/20-hooks.json", json.dumps({"allowManagedHooksOnly": True}))
    managed, problems = read_claude_managed({ENV_DIR: str(tmp_path)})
    assert problems == ()
    assert managed.locked == {"skills", "agents", "hooks", "mcp"}
    assert (managed.sideload_flags_off, managed.command_sources_off) == (True, True)
    put(
        tmp_path,
        "managed-settings.json",
        json.dumps({"strictPluginOnlyCustomization": ["skills", "typo"]}),
    )
    put(
        tmp_path,
        "managed-settings.d/20-hooks.json",
        json.dumps({"disableCommandPluginSources": False, "allowManagedHooksOnly": True}),
    )
    managed, _ = read_claude_managed({ENV_DIR: str(tmp_path)})
    assert (managed.locked, managed.command_sources_off) == ({"skills"}, False)


def test_a_skills_lock_keeps_the_claude_roots_and_skills_dir_plugins_out(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch
):
    env = _load(tree, monkeypatch)
    assert sorted(env.skills) == ["given:extra"]
    assert "helper" in env.agents.agents  # agents are not locked
    (said,) = [d for d in env.diagnostics if d.code == "host.managed.locked"]
    assert said.message == (
        "~/.claude/skills/ and .claude/skills/ are not read: Claude Code's managed settings "
        "lock skills to plugins (strictPluginOnlyCustomization)"
    )


def test_sideload_flags_off_refuses_the_plugin_directories_given(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    put(tmp_path, "managed-settings.json", json.dumps({"disableSideloadFlags": True}))
    monkeypatch.setenv(ENV_DIR, str(tmp_path))
    layout = hosts.get("claude-code").layout(tree["project"], home=tree["home"], env={})
    env = satchel.load(layout=layout, host="claude-code", trusted=True,
                       plugin_dirs=(tree["given"],))  # fmt: skip
    assert "given" not in env.plugins.plugins
    assert sorted(env.skills) == ["kit:tool", "mine", "ours"]
    assert [d.code for d in env.diagnostics if d.code.startswith("host.managed")] == [
        "host.managed.sideload_refused"
    ]


def _namespaced() -> bool:
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], check=False)
    return done.returncode == 0 and not os.path.exists("/etc/claude-code")


DRIVER = """
import json, sys
from pathlib import Path
from tests.hostloop.hosts import run_claude
from tests.hostloop.model import Text
binary, project, home = (Path(a) for a in sys.argv[1:4])
turn = run_claude(binary, project, home, "hi", [Text("ok")])
print(json.dumps({"code": turn.returncode, "body": turn.turns[0].body if turn.turns else None}))
"""


def _claude_under(tree: dict[str, Path], binary: Path, which: str) -> dict[str, Any]:
    upper, work = tree["base"] / f"upper-{which}", tree["base"] / f"work-{which}"
    shutil.copytree(tree[which], upper / "claude-code")
    work.mkdir()
    mount = f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc"
    script = tree["base"] / "driver.py"
    script.write_text(DRIVER)
    run = f'{mount} && exec "$0" "$@"'
    argv = ["unshare", "-m", "--propagation", "private", "sh", "-c", run, sys.executable,
            str(script), str(binary), str(tree["project"]), str(tree["home"])]  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=root, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(root)}, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_claude_code_under_the_same_lock_lists_what_satchel_loads(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch, claude_code_next: Path
):
    if not _namespaced():
        pytest.skip("needs root and unshare to give Claude Code its own /etc/claude-code")
    (tree["project"] / "fired").unlink(missing_ok=True)
    seen = _claude_under(tree, claude_code_next, "managed")
    assert (tree["project"] / "fired").exists()  # hooks are not locked here: it ran
    blocks = [
        [{"text": m["content"]}] if isinstance(m["content"], str) else m["content"]
        for m in seen["body"]["messages"]
    ]
    texts = [b.get("text", "") for group in blocks for b in group]
    (listing,) = [t.split(LISTING, 1)[1].split("\n\n", 1)[0] for t in texts if LISTING in t]
    names = [line[2:].split(": ", 1)[0] for line in listing.splitlines() if line.startswith("- ")]
    for locked_out in ("mine", "ours", "kit:tool"):  # Claude Code: none of them is listed
        assert locked_out not in names
    env = _load(tree, monkeypatch)
    assert not {"mine", "ours", "kit:tool"} & set(env.skills)


def test_a_hooks_and_mcp_lock_keeps_settings_hooks_and_mcp_json_out(
    tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch
):
    env = _load(tree, monkeypatch, "managed-hooks")
    assert [h.spec.event for h in env.hooks.hooks] == []
    assert "local" not in [s.name for s in env.mcp_servers.servers]
    # skills are not locked; any lock turns the skills-directory plugins (kit) off
    assert sorted(env.skills) == ["given:extra", "mine", "ours"]
    (said,) = [d for d in env.diagnostics if d.code == "host.managed.locked"]
    assert said.message == (
        ".mcp.json not read (1 server(s)): Claude Code's managed settings lock mcp to "
        "plugins (strictPluginOnlyCustomization)"
    )
    unlocked = _load(tree, monkeypatch, "managed")
    assert [h.spec.event for h in unlocked.hooks.hooks] == ["SessionStart"]
    assert "local" in [s.name for s in unlocked.mcp_servers.servers]


def test_claude_code_under_a_hooks_lock_runs_no_settings_hook(
    tree: dict[str, Path], claude_code_next: Path
):
    if not _namespaced():
        pytest.skip("needs root and unshare to give Claude Code its own /etc/claude-code")
    fired = tree["project"] / "fired"
    fired.unlink(missing_ok=True)
    seen = _claude_under(tree, claude_code_next, "managed-hooks")
    assert seen["code"] == 0
    assert not fired.exists()

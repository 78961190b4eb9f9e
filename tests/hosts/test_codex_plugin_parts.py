"""What Codex 0.171.0 keeps of a plugin it installed, by the plugin's manifest, against
what satchel's `compat` says Codex keeps (`Host.carries`, the table `port` reads too).

The plugin is a copy of the bundled example pr-tools (skills, commands, agents,
hooks/hooks.json, .mcp.json), once as it is (``.claude-plugin/plugin.json``) and once
as `satchel port --to codex` writes it with the Claude Code manifest taken away
(``.codex-plugin/plugin.json``). Each is installed the way a user does it (``codex
plugin marketplace add`` of a local marketplace, ``codex plugin add``) into a scratch
CODEX_HOME and run through one ``codex exec`` turn against a scripted model, with
``--dangerously-bypass-hook-trust`` (Codex skips hooks it was never asked to trust).
Its hooks and MCP server write a marker file when Codex runs them; what the model is
shown is in the requests. Both runs start at once, once per test run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from satchel.compat import compat
from satchel.plugins import read_plugin
from satchel.port import port
from tests.hostloop.hosts import Turn, run_codex
from tests.hostloop.model import Call, Text
from tests.hostloop.shared import once
from tests.support import put
from tests.tools import CALL

EXAMPLE = Path(__file__).resolve().parents[2] / "examples/workspace/.satchel/plugins/pr-tools"
MANIFESTS = ("claude", "codex")
_SHELL = 'text(JSON.stringify(await tools.exec_command({cmd: "echo hi"})));'


def plugin_copy(base: Path, manifest: str) -> Path:
    """pr-tools in a local marketplace, its hooks and MCP server writing markers."""
    root = base / "market/plugins/pr-tools"
    shutil.copytree(EXAMPLE, root)
    marks = base / "marks"
    marks.mkdir()
    hooks = json.loads((root / "hooks/hooks.json").read_text(encoding="utf-8"))
    start = {"type": "command", "command": f'echo "$PLUGIN_ROOT" > "{marks}/session_start"'}
    pre = {"type": "command", "command": f'touch "{marks}/pre_tool_use"'}
    hooks["hooks"]["SessionStart"] = [{"hooks": [start]}]
    hooks["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [pre]})
    (root / "hooks/hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    server = {"command": "sh", "args": ["-c", f'touch "{marks}/mcp_started"']}
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": server}}), "utf-8")
    if manifest == "codex":
        port(root, ["codex"])
        shutil.rmtree(root / ".claude-plugin")
    market = {
        "name": "local",
        "plugins": [
            {
                "name": "pr-tools",
                "source": {"source": "local", "path": "./plugins/pr-tools"},
                "policy": {"installation": "AVAILABLE"},
                "category": "Productivity",
            }
        ],
    }
    (base / "market/.agents/plugins").mkdir(parents=True)
    (base / "market/.agents/plugins/marketplace.json").write_text(json.dumps(market), "utf-8")
    return root


# the manifest's `hooks`: a hooks file's object, the event map alone, none
SHAPES = ("wrapped", "bare", "none")


def hook_shapes(base: Path) -> None:
    """One Codex plugin per shape of `hooks`, each with a hooks/hooks.json too; every
    SessionStart hook writes a marker named after its plugin and where it was read."""
    marks = base / "marks"
    marks.mkdir(parents=True)

    def start(tag: str) -> dict[str, object]:
        hook = {"type": "command", "command": f'touch "{marks}/{tag}"'}
        return {"SessionStart": [{"hooks": [hook]}]}

    entries = []
    for name in SHAPES:
        root = base / "market/plugins" / name
        manifest: dict[str, object] = {"name": name, "version": "1.0.0"}
        if name == "wrapped":
            manifest["hooks"] = {"hooks": start(f"{name}-manifest")}
        elif name == "bare":
            manifest["hooks"] = start(f"{name}-manifest")
        put(root / ".codex-plugin/plugin.json", json.dumps(manifest))
        put(root / "hooks/hooks.json", json.dumps({"hooks": start(f"{name}-file")}))
        entries.append({"name": name, "category": "Productivity",
                        "source": {"source": "local", "path": f"./plugins/{name}"},
                        "policy": {"installation": "AVAILABLE"}})  # fmt: skip
    market = {"name": "local", "plugins": entries}
    put(base / "market/.agents/plugins/marketplace.json", json.dumps(market))


def install(binary: Path, base: Path, home: Path, plugins: tuple[str, ...] = ("pr-tools",)) -> str:
    """``codex plugin marketplace add`` and ``codex plugin add``: the config.toml Codex
    wrote (the marketplace and the enabled plugins)."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    env = {"HOME": str(home), "CODEX_HOME": str(codex_home), "PATH": os.environ["PATH"]}
    adds = [["add", f"{name}@local"] for name in plugins]
    for args in (["marketplace", "add", str(base / "market")], *adds):
        done = subprocess.run(
            [str(binary), "plugin", *args], env=env, capture_output=True, text=True,
            timeout=CALL, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    return (codex_home / "config.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def runs(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Turn]]:
    def one(base: Path, manifest: str) -> Turn:
        plugin_copy(base, manifest)
        home, project = base / "home", base / "project"
        config = install(codex, base, home)
        (project / ".git").mkdir(parents=True)
        script = (Call("exec", _SHELL), Text("done"))
        return run_codex(
            codex, project, home, "go", script,
            args=["--dangerously-bypass-hook-trust"], config=config,
        )  # fmt: skip

    def shapes(base: Path) -> Turn:
        hook_shapes(base)
        home, project = base / "home", base / "project"
        config = install(codex, base, home, SHAPES)
        (project / ".git").mkdir(parents=True)
        return run_codex(
            codex, project, home, "go", (Text("done"),),
            args=["--dangerously-bypass-hook-trust"], config=config,
        )  # fmt: skip

    def make(base: Path) -> Mapping[str, Turn]:
        with ThreadPoolExecutor(max_workers=len(MANIFESTS) + 1) as pool:
            turns = pool.map(lambda m: one(base / m, m), MANIFESTS)
            shaped = pool.submit(shapes, base / "shapes")
            return {**dict(zip(MANIFESTS, turns, strict=True)), "shapes": shaped.result()}

    base, turns = once(tmp_path_factory, "codex-plugin-parts", make)
    return {m: (base / m, turns[m]) for m in (*MANIFESTS, "shapes")}


def shown(turn: Turn) -> str:
    return json.dumps([r.body for r in turn.requests])


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_codex_lists_the_plugin_skill_and_shows_no_command_or_agent(runs, manifest):
    _, turn = runs[manifest]
    assert turn.returncode == 0, turn.stderr
    text = shown(turn)
    assert "pr-tools:pr-triage" in text
    assert "pr-summary" not in text and "pr-reviewer" not in text


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_codex_runs_the_plugin_hooks_and_starts_its_mcp_server(runs, manifest):
    base, _ = runs[manifest]
    marks = base / "marks"
    assert {"session_start", "pre_tool_use", "mcp_started"} <= set(os.listdir(marks))
    # a hook has the installed plugin's root as PLUGIN_ROOT in its environment
    root = (marks / "session_start").read_text(encoding="utf-8").strip()
    assert root == str(base / "home/.codex/plugins/cache/local/pr-tools/0.9.2")


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_satchel_compat_keeps_what_codex_keeps(runs, manifest):
    base, _ = runs[manifest]
    installed = base / "home/.codex/plugins/cache/local/pr-tools/0.9.2"
    (seen,) = compat(installed, hosts=["codex"]).hosts
    assert seen.loads.skills == ("pr-tools:pr-triage",)
    assert seen.loads.commands == () and seen.loads.agents == ()
    assert len(seen.loads.hooks) == 4  # the example's two, and the two markers
    assert seen.loads.mcp_servers == ("plugin:pr-tools:github",)
    unread = {(d.component, d.id) for d in seen.drops if d.code == "compat.component.unread"}
    # from the Claude Code manifest, which other hosts read them from, compat names the
    # commands and agents Codex leaves out; no host reads them from a Codex manifest
    left = {("command", "pr-tools:pr-summary"), ("agent", "pr-tools:pr-reviewer")}
    assert unread == (left if manifest == "claude" else set())


def test_codex_reads_manifest_hooks_only_as_a_hooks_files_object(runs):
    base, turn = runs["shapes"]
    assert turn.returncode == 0, turn.stderr
    # {"hooks": {...}} replaces hooks/hooks.json; the event map alone is ignored
    assert sorted(os.listdir(base / "marks")) == ["bare-file", "none-file", "wrapped-manifest"]


def test_satchel_reads_the_same_hooks_of_each_shape(runs):
    base, _ = runs["shapes"]
    for name in SHAPES:
        plugin, _ = read_plugin(base / "market/plugins" / name)
        assert plugin is not None
        commands = [h.command.rsplit("/", 1)[-1].strip('"') for h in plugin.hooks]
        expected = "wrapped-manifest" if name == "wrapped" else f"{name}-file"
        assert commands == [expected], name


# --- which manifest: a root Agent Plugins plugin.json before .codex-plugin --------------

NATIVE_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"


def two_manifests(base: Path, *, native: bool) -> Path:
    """A plugin whose `.codex-plugin/plugin.json` lists only ``other/`` and, when
    `native`, a root Agent Plugins ``plugin.json`` (its skills: ``skills/``)."""
    root = base / "market/plugins/dk"
    for folder, name in (("skills", "from-default"), ("other", "from-codex")):
        put(root / folder / name / "SKILL.md", f"---\nname: {name}\ndescription: {name}.\n---\n")
    manifest = {"name": "dk", "version": "1.0.0", "skills": ["./other/"]}
    put(root / ".codex-plugin/plugin.json", json.dumps(manifest))
    if native:
        put(root / "plugin.json", json.dumps({"$schema": NATIVE_SCHEMA, "name": "dk"}))
    market = {"name": "local", "plugins": [{"name": "dk", "category": "Productivity",
              "source": {"source": "local", "path": "./plugins/dk"},
              "policy": {"installation": "AVAILABLE"}}]}  # fmt: skip
    put(base / "market/.agents/plugins/marketplace.json", json.dumps(market))
    return root


@pytest.mark.parametrize("native", [True, False])
def test_codex_reads_a_root_agent_plugins_manifest_before_its_own(codex: Path, tmp_path, native):
    two_manifests(tmp_path, native=native)
    home = tmp_path / "home"
    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PATH": os.environ["PATH"]}
    (home / ".codex").mkdir(parents=True)
    for args in (["marketplace", "add", str(tmp_path / "market")], ["add", "dk@local"]):
        subprocess.run([str(codex), "plugin", *args], env=env, check=True, capture_output=True,
                       timeout=CALL)  # fmt: skip
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    done = subprocess.run(
        [str(codex), "debug", "prompt-input", "hi"], env=env, cwd=project, capture_output=True,
        text=True, timeout=CALL, check=True,
    )  # fmt: skip
    listed = {n for n in ("dk:from-default", "dk:from-codex") if f"- {n}:" in done.stdout}
    assert listed == ({"dk:from-default"} if native else {"dk:from-codex"})


def test_port_writes_nothing_for_codex_beside_a_manifest_codex_reads_first(tmp_path):
    root = two_manifests(tmp_path, native=True)
    (root / ".codex-plugin/plugin.json").unlink()
    (report,) = port(root, ["codex"]).targets
    assert report.skipped
    assert [d.message for d in report.problems] == [
        "codex: Codex reads the plugin's own agent-plugins manifest before a "
        ".codex-plugin/plugin.json (its order: agent-plugins, codex, claude, cursor); "
        "nothing is written"
    ]

"""`satchel doctor --hosts`: MCP servers. The real Claude Code, Codex and Gemini CLI
write their own configs (``claude mcp add``, ``codex mcp add``, ``gemini mcp add``, all
offline, in a scratch HOME); each host's own listing (``mcp list``) on the same HOME
and project says which servers it will not start, and the report agrees with it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from satchel.reports.checkup import MachineReport, check_hosts
from tests.tools import CALL, GEMINI_SETTINGS

HOSTS = ("claude-code", "codex", "gemini")


def _run(argv: list[str], home: Path, cwd: Path, path: str) -> tuple[str, str]:
    env = {
        "HOME": str(home),
        "PATH": path,
        "CODEX_HOME": str(home / ".codex"),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
    }
    done = subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=CALL, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def _edit(path: Path, change: Any) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


@pytest.fixture(scope="module")
def machine(
    tmp_path_factory: pytest.TempPathFactory, claude_code: Path, codex: Path, gemini: Path
) -> dict[str, Any]:
    """One HOME and project, each host's servers added by the host itself, and what
    each host's own `mcp list` says of them."""
    base = tmp_path_factory.mktemp("mcp")
    home, project, bin_dir = base / "home", base / "project", base / "bin"
    trusted = base / "trusted"  # a project Gemini CLI trusts
    for folder in (
        *(home / ".codex", home / ".gemini", trusted / ".git"),
        *(project / ".git", project / ".claude"),
    ):
        folder.mkdir(parents=True)
    tools = base / "tools"  # a Codex server's own cwd
    for program in (bin_dir / "docs-server", project / "bin" / "tool", tools / "bin" / "srv"):
        program.parent.mkdir(parents=True, exist_ok=True)
        program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        program.chmod(0o755)
    shutil.copy(tools / "bin" / "srv", project / "bin" / "srv")
    path = os.pathsep.join((str(bin_dir), "/usr/bin", "/bin"))
    node = shutil.which("node") or "node"

    def claude(*args: str) -> str:
        return _run([str(claude_code), "mcp", *args], home, project, path)[0]

    def codex_(*args: str) -> str:
        return _run([str(codex), "mcp", *args], home, project, path)[0]

    def gemini_(*args: str, cwd: Path = project) -> str:
        return "".join(_run([node, str(gemini), "mcp", *args], home, cwd, path))  # both

    def gemini_side() -> tuple[str, str]:  # Gemini CLI's files are its own: run beside
        settings = home / ".gemini" / "settings.json"
        settings.write_text(json.dumps(GEMINI_SETTINGS), encoding="utf-8")
        folders = {str(trusted): "TRUST_FOLDER"}  # not `project`
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(folders), "utf-8")
        gemini_("add", "-s", "user", "docs", "docs-server", "--port", "3", "-e", "TOKEN=3")
        gemini_("add", "-s", "user", "blocked", "docs-server")
        user = {"excluded": ["blocked"], "allowed": ["docs", "blocked"]}
        _edit(settings, lambda document: document.update(mcp=user))
        # the trusted project's own lists: neither replaces the user's
        (trusted / ".gemini").mkdir()
        workspace = {"mcp": {"excluded": [], "allowed": ["blocked"]}}
        (trusted / ".gemini" / "settings.json").write_text(json.dumps(workspace), "utf-8")
        with ThreadPoolExecutor(1) as beside:  # two listings that only read
            listed = beside.submit(gemini_, "list", cwd=trusted)
            return gemini_("list"), listed.result()

    with ThreadPoolExecutor(2) as pool:  # each host writes only its own files
        gemini_list = pool.submit(gemini_side)
        codex_listed = pool.submit(_codex_side, codex_, home, tools)
        claude_list, above_only = _claude_side(claude, home, project)
        codex_list = codex_listed.result()
        return {
            "home": home,
            "project": project,
            "trusted": trusted,
            "path": path,
            "claude": claude_list,
            "claude above only": above_only,
            "codex": codex_list,
            "gemini": gemini_list.result()[0],
            "gemini trusted": gemini_list.result()[1],
        }


def _claude_side(
    claude: Callable[..., str], home: Path, project: Path
) -> tuple[str, tuple[str, str]]:
    """Claude Code's servers, as it adds them, a project it was told to trust (its
    trust dialog and /mcp menu write these keys), and its `mcp list`; before that, its
    state and `mcp list` with trust given only to the folder above the project."""
    claude("add", "-s", "user", "docs", "-e", "TOKEN=1", "--", "docs-server", "--port", "1")
    claude("add", "-s", "user", "--transport", "http", "web", "http://127.0.0.1:9/mcp")
    claude("add", "-s", "local", "gone", "--", "no-such-server")
    claude("add", "-s", "local", "quiet", "--", "docs-server")
    claude("add", "-s", "user", "tool", "--", "./bin/tool")  # in the project, its cwd
    for name in ("lint", "fmt", "old"):
        claude("add", "-s", "project", name, "--", f"./bin/{name}")
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["fmt"], "disabledMcpjsonServers": ["old"]}),
        encoding="utf-8",
    )

    def above(document: dict[str, Any]) -> None:  # trust given to the folder above only
        document["projects"][str(project)]["disabledMcpServers"] = ["quiet"]
        document["projects"][str(project.parent)] = {"hasTrustDialogAccepted": True}

    def accept(document: dict[str, Any]) -> None:
        document["projects"][str(project)]["hasTrustDialogAccepted"] = True

    state = home / ".claude.json"
    _edit(state, above)
    above_only = (state.read_text(encoding="utf-8"), claude("list"))
    _edit(state, accept)
    return claude("list"), above_only


def _codex_side(codex: Callable[..., str], home: Path, tools: Path) -> Any:
    """Codex's servers as it adds them, one turned off (``enabled = false``, which it
    has no command for), one started in a folder of its own (``cwd``, which it has no
    option for), and its `mcp list --json`."""
    codex("add", "docs", "--env", "TOKEN=2", "--env", "EXTRA=1", "--", "docs-server", "--port", "2")
    codex("add", "web", "--url", "http://127.0.0.1:9/other")
    codex("add", "paused", "--", "docs-server")
    codex("add", "own-cwd", "--", "./bin/srv")  # in `tools`
    codex("add", "here", "--", "bin/srv")  # in the project, its working folder
    config = home / ".codex" / "config.toml"
    text = config.read_text(encoding="utf-8")
    text = text.replace("[mcp_servers.paused]\n", "[mcp_servers.paused]\nenabled = false\n")
    text = text.replace(
        "[mcp_servers.own-cwd]\n", f"[mcp_servers.own-cwd]\ncwd = {json.dumps(str(tools))}\n"
    )
    config.write_text(text, encoding="utf-8")
    return json.loads(codex("list", "--json"))


@pytest.fixture(scope="module")
def report(machine: dict[str, Any]) -> MachineReport:
    env = {"PATH": machine["path"]}
    return check_hosts(machine["project"], home=machine["home"], names=HOSTS, env=env)


def _mcp(report: MachineReport, code: str) -> set[tuple[str, str]]:
    return {(f.host, f.message) for f in report.findings if f.code == code}


def _claude_line(listing: str, name: str) -> str:
    return next(line for line in listing.splitlines() if line.startswith(f"{name}: "))


def test_the_hosts_wrote_their_own_configs(machine: dict[str, Any]):
    home = machine["home"]
    claude = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    assert claude["mcpServers"]["docs"] == {
        "type": "stdio", "command": "docs-server", "args": ["--port", "1"], "env": {"TOKEN": "1"}
    }  # fmt: skip
    codex = (home / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert '[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--port", "2"]' in codex
    gemini = json.loads((home / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    assert gemini["mcpServers"]["docs"]["args"] == ["--port", "3"]


def test_a_server_of_one_name_that_differs_is_named_with_what_differs(report: MachineReport):
    claude, codex, gemini = "~/.claude.json", "~/.codex/config.toml", "~/.gemini/settings.json"
    assert _mcp(report, "hosts.mcp.differs") == {
        ("claude-code",
         f"MCP server 'docs' of {claude} differs from Codex's ({codex}: args --port 2 not "
         f"--port 1; env keys EXTRA, TOKEN not TOKEN) and Gemini CLI's ({gemini}: args "
         "--port 3 not --port 1)"),
        ("claude-code",
         f"MCP server 'web' of {claude} differs from Codex's ({codex}: url "
         "http://127.0.0.1:9/other not http://127.0.0.1:9/mcp)"),
        ("codex",
         f"MCP server 'docs' of {codex} differs from Claude Code's ({claude}: args --port 1 "
         f"not --port 2; env keys TOKEN not EXTRA, TOKEN) and Gemini CLI's ({gemini}: args "
         "--port 3 not --port 2; env keys TOKEN not EXTRA, TOKEN)"),
        ("codex",
         f"MCP server 'web' of {codex} differs from Claude Code's ({claude}: url "
         "http://127.0.0.1:9/mcp not http://127.0.0.1:9/other)"),
        ("gemini",
         f"MCP server 'docs' of {gemini} differs from Claude Code's ({claude}: args --port 1 "
         f"not --port 3) and Codex's ({codex}: args --port 2 not --port 3; env keys EXTRA, "
         "TOKEN not TOKEN)"),
    }  # fmt: skip


def test_a_command_on_no_folder_of_path_is_missing_as_claude_code_finds(
    report: MachineReport, machine: dict[str, Any]
):
    assert _mcp(report, "hosts.mcp.missing-command") == {
        ("claude-code",
         "MCP server 'gone' of ~/.claude.json will fail to start: no-such-server is on no "
         "folder of PATH"),
        ("claude-code",
         "MCP server 'fmt' of .mcp.json will fail to start: ./bin/fmt is not a program in ."),
    }  # fmt: skip
    listing = machine["claude"]
    assert _claude_line(listing, "gone").endswith(
        '✘ Failed to connect — ENOENT: Executable not found in $PATH: "no-such-server"'
    )
    assert _claude_line(listing, "fmt").endswith(
        "✘ Failed to connect — ENOENT: no such file or directory, posix_spawn './bin/fmt'"
    )
    assert "Executable not found" not in _claude_line(listing, "docs")  # on PATH: started
    assert "ENOENT" not in _claude_line(listing, "tool")  # started from its working folder


def test_a_relative_command_is_found_in_its_cwd_else_in_the_working_folder(
    machine: dict[str, Any],
):
    listed = {s["name"]: s["transport"] for s in machine["codex"]}
    tools = str(machine["project"].parent / "tools")
    assert (listed["own-cwd"]["command"], listed["own-cwd"]["cwd"]) == ("./bin/srv", tools)
    assert (listed["here"]["command"], listed["here"]["cwd"]) == ("bin/srv", None)


def test_a_project_server_claude_code_has_not_approved_is_untrusted(
    report: MachineReport, machine: dict[str, Any]
):
    assert _mcp(report, "hosts.mcp.untrusted") >= {
        ("claude-code",
         "MCP server 'lint' of .mcp.json is not started: Claude Code has not approved it for "
         "this project"),
    }  # fmt: skip
    assert _claude_line(machine["claude"], "lint").endswith(
        "⏸ Pending approval (run `claude` to approve)"
    )


def test_trust_given_only_to_the_folder_above_approves_none_as_claude_code_approves_none(
    machine: dict[str, Any], tmp_path: Path
):
    state, listing = machine["claude above only"]
    (tmp_path / ".claude.json").write_text(state, encoding="utf-8")
    env = {"PATH": machine["path"]}
    found = check_hosts(machine["project"], home=tmp_path, names=("claude-code",), env=env)
    said = "is not started: Claude Code has not approved it for this project"
    assert _mcp(found, "hosts.mcp.untrusted") == {
        ("claude-code", f"MCP server 'lint' of .mcp.json {said}"),
        ("claude-code", f"MCP server 'fmt' of .mcp.json {said}"),
    }
    for name in ("lint", "fmt"):
        assert _claude_line(listing, name).endswith("⏸ Pending approval (run `claude` to approve)")


def test_servers_turned_off_are_named_with_where(report: MachineReport, machine: dict[str, Any]):
    assert _mcp(report, "hosts.mcp.off") == {
        ("claude-code",
         "MCP server 'quiet' of ~/.claude.json is turned off for this project: Claude Code "
         "does not start it"),
        ("claude-code", "MCP server 'old' of .mcp.json is refused in Claude Code's settings"),
        ("codex",
         "MCP server 'paused' of ~/.codex/config.toml is turned off in its config: Codex does "
         "not start it"),
    }  # fmt: skip
    assert _claude_line(machine["claude"], "quiet").endswith(
        "⊘ Disabled for this project (re-enable via /mcp)"
    )
    assert "old: " not in machine["claude"]  # refused: not even listed
    enabled = {s["name"]: s["enabled"] for s in machine["codex"]}
    assert enabled == {"docs": True, "web": True, "paused": False, "own-cwd": True, "here": True}


def test_gemini_starts_no_server_in_a_folder_it_does_not_trust(
    report: MachineReport, machine: dict[str, Any]
):
    gemini = {f for f in _mcp(report, "hosts.mcp.untrusted") if f[0] == "gemini"}
    said = "is not started: Gemini CLI starts no MCP server in a folder it does not trust"
    assert gemini == {
        ("gemini", f"MCP server 'docs' of ~/.gemini/settings.json {said}"),
        ("gemini", f"MCP server 'blocked' of ~/.gemini/settings.json {said}"),
    }
    listing = machine["gemini"]
    assert "MCP servers are configured but disabled because this folder is untrusted." in listing
    assert "○ docs: docs-server --port 3 (stdio) - Disabled" in listing


def test_the_load_word_that_no_server_starts_gives_way_to_one_finding_a_server(
    machine: dict[str, Any],
):
    # a policy that lets only the user's lists decide trust: the load itself finds that
    # Gemini CLI's list does not trust the project, and says so once
    policy = machine["home"] / ".config" / "satchel" / "policy.toml"
    policy.parent.mkdir(parents=True)
    policy.write_text("require_trust = true\n", encoding="utf-8")
    try:
        env = {"PATH": machine["path"]}
        found = check_hosts(machine["project"], home=machine["home"], names=("gemini",), env=env)
    finally:
        policy.unlink()
    view = found.machine.view("gemini")
    assert view is not None
    assert [d.code for d in view.env.diagnostics if d.code == "mcp.server.untrusted"] == [
        "mcp.server.untrusted"
    ]
    codes = [f.code for f in found.findings if "untrusted" in f.code]
    assert codes == ["hosts.mcp.untrusted", "hosts.mcp.untrusted"]


def test_a_server_is_blocked_by_any_excluded_list_and_by_each_allowed_list_of_gemini(
    machine: dict[str, Any],
):
    env = {"PATH": machine["path"]}
    trusted = check_hosts(machine["trusted"], home=machine["home"], names=("gemini",), env=env)
    found = [(f.code, f.message, f.fix) for f in trusted.findings if f.code.startswith("hosts.mcp")]
    fix = "change the host's mcp lists, if you mean it to run"
    assert sorted(found) == [
        ("hosts.mcp.policy",
         "MCP server 'blocked' of ~/.gemini/settings.json is blocked: mcp.excluded of "
         "~/.gemini/settings.json names it", fix),
        ("hosts.mcp.policy",
         "MCP server 'docs' of ~/.gemini/settings.json is blocked: mcp.allowed of "
         ".gemini/settings.json does not name it", fix),
    ]  # fmt: skip
    listing = machine["gemini trusted"]
    assert "⛔ docs: docs-server --port 3 (stdio) - Blocked" in listing  # the workspace's allowed
    assert "⛔ blocked: docs-server  (stdio) - Blocked" in listing  # the user's excluded


def test_severities(report: MachineReport):
    found = {f.code: f.severity for f in report.findings if f.code.startswith("hosts.mcp")}
    assert found == {
        "hosts.mcp.differs": "warning",
        "hosts.mcp.missing-command": "error",
        "hosts.mcp.off": "info",
        "hosts.mcp.untrusted": "warning",
    }

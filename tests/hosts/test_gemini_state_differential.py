"""What Gemini CLI keeps for itself, against Gemini CLI 0.61.0: a scratch HOME whose
settings turn skills off (``skills.disabled``, in the user's and the workspace's
``settings.json``), rename the context file (``context.fileName``), hold MCP servers
(``mcpServers``, both files), and whose ``extension-enablement.json`` disables one
extension in the project and another only in the home; two extensions hold one skill.
`gemini skills list --all --debug`, `gemini extensions list -o json` and `gemini mcp list`
say what Gemini CLI made of it, in the trusted project and, for the workspace's
settings, in the same project untrusted; satchel under the gemini profile must agree.

Observed: the disabled lists of both files count, compared without case; a workspace's
``context.fileName`` replaces the user's and names the user's file in ``~/.gemini`` too;
of two extensions holding one skill the one in the later folder (name order) wins; a
workspace server beats the user's of the same name, and a settings server an extension's;
in an untrusted folder no server
starts, not even the user's, and `gemini mcp list` lists them all "Disabled"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from tests.hostloop.hosts import GEMINI_SETTINGS, Turn
from tests.hostloop.shared import once
from tests.support import put
from tests.tools import gemini_env, parse_gemini_list

SERVER = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {}
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": []}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""
REMOTE = "http://127.0.0.1:9/mcp"  # nothing listens
LISTED = re.compile(r"^\S (\S+)(?: \(from \S+\))?: (.+) \((?:stdio|http|sse)\) - (\w+)")


def _skill(root: Path, name: str, where: str) -> None:
    put(
        root / name / "SKILL.md", f"---\nname: {name}\ndescription: {name} from {where}\n---\nDo.\n"
    )


def _extension(home: Path, name: str, *skills: str, **manifest: Any) -> None:
    folder = home / ".gemini" / "extensions" / name
    put(folder / "gemini-extension.json", json.dumps({"name": name, "version": "1", **manifest}))
    for skill in skills:
        _skill(folder / "skills", skill, name)


def _tree(base: Path) -> tuple[Path, Path]:
    home, project = base / "home", base / "project"
    (project / ".git").mkdir(parents=True)
    server = base / "server.py"
    put(server, SERVER)

    def stdio(*args: str) -> dict[str, Any]:
        return {"command": sys.executable, "args": [str(server), *args]}

    user = {
        **GEMINI_SETTINGS,
        "skills": {"disabled": ["USEROFF"]},
        "context": {"fileName": "AGENTS.md"},
        "mcpServers": {
            "usersrv": stdio(),
            "both": stdio("user"),
            "remote": {"httpUrl": REMOTE},
            "clash": stdio("settings"),  # an extension's server of this name loses
        },
    }
    put(home / ".gemini" / "settings.json", json.dumps(user))
    workspace = {
        "skills": {"disabled": ["projoff"]},
        "context": {"fileName": ["AGENTS.md", "CTX.md"]},
        "mcpServers": {"projsrv": stdio(), "both": stdio("project")},
    }
    put(project / ".gemini" / "settings.json", json.dumps(workspace))
    for root, names in ((home, ("useroff", "keepme")), (project, ("projoff", "pkeep"))):
        for name in names:
            _skill(root / ".gemini" / "skills", name, root.name)
    servers = {"extsrv": stdio(), "clash": stdio("extension")}
    _extension(home, "exta", "shared", "exta-skill", mcpServers=servers)
    _extension(home, "extb", "shared")
    _extension(home, "extoff", "extoff-skill", "keepme")
    _extension(home, "exthome", "exthome-skill")
    rules = {"extoff": {"overrides": [f"!{project}/*"]}, "exthome": {"overrides": [f"!{home}/*"]}}
    put(home / ".gemini" / "extensions" / "extension-enablement.json", json.dumps(rules))
    put(home / ".gemini" / "AGENTS.md", "User agents.\n")
    put(home / ".gemini" / "GEMINI.md", "Not read: the file is renamed.\n")
    put(project / "CTX.md", "Project context.\n")
    put(project / "GEMINI.md", "Not read either.\n")
    return home, project


def _gemini(script: Path, home: Path, project: Path, trusted: bool, *args: str) -> Turn:
    folders = {str(project): "TRUST_FOLDER"} if trusted else {}
    put(home / ".gemini" / "trustedFolders.json", json.dumps(folders))
    env = gemini_env(home)
    node = shutil.which("node") or "node"
    argv = [node, str(script), *args]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=project,
                          timeout=180, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    return Turn(done.returncode, done.stdout, done.stderr, ())


@pytest.fixture(scope="module")
def seen(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Turn]]:
    def make(base: Path) -> dict[str, Turn]:
        home, project = _tree(base)
        runs = {
            "skills": _gemini(gemini, home, project, True, "skills", "list", "--all", "--debug"),
            "extensions": _gemini(gemini, home, project, True, "extensions", "list", "-o", "json"),
            "mcp": _gemini(gemini, home, project, True, "mcp", "list"),
        }
        untrusted = base / "untrusted-home"
        shutil.copytree(home, untrusted, symlinks=True)
        runs["untrusted-mcp"] = _gemini(gemini, untrusted, project, False, "mcp", "list")
        return runs

    return once(tmp_path_factory, "gemini-own-state", make)


def satchel_gemini(base: Path, home: str = "home") -> Any:
    """satchel's Environment for the project as Gemini CLI sees it (the same HOME)."""
    layout = hosts.get("gemini").layout(base / "project", home=base / home, env={})
    return satchel.load(layout=layout, host="gemini")


def extensions(turn: Turn) -> dict[str, bool]:
    """`gemini extensions list -o json` (on stderr): extension name -> active here."""
    lines = turn.stderr.splitlines()
    start = lines.index("[")
    found = json.loads("\n".join(lines[start : lines.index("]", start) + 1]))
    return {e["name"]: e["isActive"] for e in found}


def servers(turn: Turn, *, status: bool = False) -> dict[str, str]:
    """`gemini mcp list` (on stderr): server name -> what it runs, or its URL (or, with
    `status`, its status: Connected, Disconnected, Disabled)."""
    found = (LISTED.match(line) for line in turn.stderr.splitlines())
    return {m.group(1): m.group(3 if status else 2) for m in found if m}


def test_gemini_turns_off_the_skills_of_both_settings_files_and_keeps_the_later_extensions(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    home = base / "home" / ".gemini"
    view = parse_gemini_list(runs["skills"].stdout, runs["skills"].stderr)
    assert {s.name: (s.path, s.enabled) for s in view.own} == {
        "useroff": (home / "skills/useroff/SKILL.md", False),
        "keepme": (home / "skills/keepme/SKILL.md", True),
        "projoff": (base / "project/.gemini/skills/projoff/SKILL.md", False),
        "pkeep": (base / "project/.gemini/skills/pkeep/SKILL.md", True),
        "shared": (home / "extensions/extb/skills/shared/SKILL.md", True),
        "exta-skill": (home / "extensions/exta/skills/exta-skill/SKILL.md", True),
        "exthome-skill": (home / "extensions/exthome/skills/exthome-skill/SKILL.md", True),
    }
    assert [(c.name, c.winner.parent.parent.parent.name) for c in view.conflicts] == [
        ("shared", "extb")
    ]


def test_satchel_matches_gemini_skills_on_and_off(seen: tuple[Path, dict[str, Turn]]):
    base, runs = seen
    view = parse_gemini_list(runs["skills"].stdout, runs["skills"].stderr)
    env = satchel_gemini(base)
    ours = {n: (s.path, env.skill_overrides.get(n, "on") != "off") for n, s in env.skills.items()}
    assert ours == {s.name: (s.path, s.enabled) for s in view.own}
    assert [(p.winner.path, p.loser.path) for p in env.shadowed] == [
        (c.winner, c.loser) for c in view.conflicts
    ]


def test_gemini_enables_each_extension_as_its_enablement_rules_say_for_this_folder(
    seen: tuple[Path, dict[str, Turn]],
):
    _, runs = seen
    assert extensions(runs["extensions"]) == {
        "exta": True,
        "extb": True,
        "exthome": True,  # disabled below the home only
        "extoff": False,
    }


def test_satchel_matches_gemini_extension_enablement(seen: tuple[Path, dict[str, Turn]]):
    base, runs = seen
    env = satchel_gemini(base)
    assert {n: p.enabled for n, p in env.plugins.plugins.items()} == extensions(runs["extensions"])
    (said,) = [d for d in env.diagnostics if d.code == "plugin.disabled"]
    assert said.message == (
        "plugin 'extoff' is disabled in this folder by extension-enablement.json; "
        "nothing of it loads"
    )


def test_gemini_reads_the_named_context_files_and_still_gemini_md(
    seen: tuple[Path, dict[str, Turn]],
):
    # context.fileName adds names: GEMINI.md is still read, in the home and the project
    base, runs = seen
    view = parse_gemini_list(runs["skills"].stdout, runs["skills"].stderr)
    home, project = base / "home/.gemini", base / "project"
    read = {home / "AGENTS.md", home / "GEMINI.md", project / "CTX.md", project / "GEMINI.md"}
    assert set(view.memory) == read  # its debug lines come in the order reads finish
    env = satchel_gemini(base)
    assert {f.path for f in env.instructions} == read


def test_satchel_matches_gemini_mcp_servers_workspace_over_user(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    server = f"{sys.executable} {base / 'server.py'}"
    assert servers(runs["mcp"]) == {
        "usersrv": server,
        "both": f"{server} project",
        "remote": REMOTE,
        "clash": f"{server} settings",
        "projsrv": server,
        "extsrv": server,
    }
    env = satchel_gemini(base)
    ours = {s.name: s.url or " ".join((s.command or "", *s.args)) for s in env.mcp_servers.servers}
    assert ours == servers(runs["mcp"])
    files = {s.name: s.path for s in env.mcp_servers.servers if s.plugin is None}
    assert files["both"] == base / "project/.gemini/settings.json"
    assert files["usersrv"] == base / "home/.gemini/settings.json"


def test_in_an_untrusted_folder_gemini_starts_no_server_not_even_the_users(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    listed = servers(runs["untrusted-mcp"], status=True)
    names = ("usersrv", "both", "remote", "clash", "projsrv", "extsrv")
    assert listed == dict.fromkeys(names, "Disabled")
    assert "User-level servers are also suppressed in untrusted folders" in (
        runs["untrusted-mcp"].stderr
    )
    layout = hosts.get("gemini").layout(base / "project", home=base / "untrusted-home", env={})
    env = satchel.load(layout=layout, host="gemini", read_held=True)
    assert not env.trusted
    assert env.mcp_servers.enabled() == ()  # none starts
    ours = {s.name for s in (*env.mcp_servers.servers, *env.mcp_servers.held)}
    assert ours == set(listed)  # the workspace's are listed, held back by trust
    (said,) = [d for d in env.diagnostics if d.code == "mcp.server.untrusted"]
    assert said.message == (
        "5 MCP server(s) are not started: the host starts none in a folder it does not "
        "trust, not even the user's"
    )

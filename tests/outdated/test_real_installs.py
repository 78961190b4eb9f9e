"""`satchel outdated` on one scratch machine whose plugins the real hosts installed,
offline, from local marketplaces and folders: Claude Code 2.1.332 (`claude plugin
marketplace add DIR`, `claude plugin install`), Codex 0.171.0 (`codex plugin
marketplace add DIR`, `codex plugin add`), Gemini CLI 0.61.0 (`gemini extensions
install DIR`), and satchel itself (a skill from a file:// git repository). Then each
source changes without its version being bumped (a skill added, a file changed, a
hook or MCP server added), the git remote moves on, and one more git remote goes away.

Each test reads the same machine: the stale copies are reported outdated with their
exact files, the load change and the audit's new risk (Claude Code's: a plugin of a
marketplace it cloned from git, whose clone `marketplace update` refreshed while the
cached copy stayed); a Claude Code plugin of a folder marketplace, which Claude Code
reads in place, is `in-place`, never stale; an offline run names the git source it
could not check and does not fail; nothing under the scratch machine is written and no
hook of a plugin is run."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest

from satchel.cli import main
from satchel.core.layout import Layout
from satchel.install import add_marketplace, install_from_spec, install_plugin
from satchel.install._tree import entries
from tests.hostloop.shared import once
from tests.install.support import Server, bare, commit, git, git_repo, http_backend, serve
from tests.support import golden
from tests.support.tree import put, skill_md
from tests.tools import CALL, GEMINI_SETTINGS, claude_plugin

HOOK = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "touch ran-hook"}]}
        ]
    }
}
MCP = {"mcpServers": {"fresh": {"command": "fresh-server", "args": ["--stdio"]}}}
GOLDEN = Path(__file__).parent / "golden"


def _ok(done: subprocess.CompletedProcess[str], what: str) -> None:
    assert done.returncode == 0, f"{what} failed: {done.stdout}\n{done.stderr}"


def _claude_market(root: Path, remote: Path) -> Path:
    """A folder marketplace of plugins at version 1.0.0: `stale`, `steady` and `dropped`
    in its folder, `fetched` from the git repository `remote`."""
    plugins: list[dict[str, Any]] = [
        {"name": n, "source": f"./plugins/{n}"} for n in ("stale", "steady", "dropped")
    ]
    plugins.append({"name": "fetched", "source": {"source": "url", "url": f"file://{remote}"}})
    put(root, ".claude-plugin/marketplace.json",
        json.dumps({"name": "team", "owner": {"name": "Team"}, "plugins": plugins}))  # fmt: skip
    for name in ("stale", "steady", "dropped"):
        put(root, f"plugins/{name}/.claude-plugin/plugin.json",
            json.dumps({"name": name, "version": "1.0.0"}))  # fmt: skip
        put(root, f"plugins/{name}/skills/{name}-skill/SKILL.md", skill_md(f"{name}-skill"))
    git("init", "-q", cwd=root / "plugins/steady")  # its own .git: Claude Code copies none
    return root


def _codex_market(root: Path) -> Path:
    entry = {
        "name": "cstale",
        "source": {"source": "local", "path": "./plugins/cstale"},
        "policy": {"installation": "AVAILABLE"},
        "category": "Productivity",
    }
    put(root, ".agents/plugins/marketplace.json",
        json.dumps({"name": "cteam", "plugins": [entry]}))  # fmt: skip
    put(root, "plugins/cstale/.codex-plugin/plugin.json",
        json.dumps({"name": "cstale", "version": "2.0.0", "skills": "./skills/"}))  # fmt: skip
    put(root, "plugins/cstale/skills/cskill/SKILL.md", skill_md("cskill"))
    return root


def beside(*chains: Callable[[], object]) -> None:
    """Each chain (one host's commands, in their order) beside the others': each host
    writes only its own folders."""
    with ThreadPoolExecutor(max_workers=len(chains)) as pool:
        for done in [pool.submit(chain) for chain in chains]:
            done.result()


def _git_sources(
    base: Path, claude: Any, codex: Any, gemini: Any, ahead: Callable[[], object]
) -> None:
    """What the hosts clone from git, served on 127.0.0.1 for the while: Claude Code's
    marketplace `gitm` with `gp` (after its commands `ahead`), Codex's `cgm` with `cp`,
    Gemini CLI's extension `gx`, each host beside the others.
    Then each remote moves on without a version bump (`gp`: a skill added, one
    changed, a hook added), and each host updates its
    marketplace clone: `claude plugin marketplace update` leaves the cached copy as it
    was, `codex plugin marketplace upgrade` refreshes it too. The server is gone after."""
    served = base / "served"
    catalogue = {"name": "gitm", "owner": {"name": "T"},
                 "plugins": [{"name": "gp", "source": "./plugins/gp"}]}  # fmt: skip
    gitm = git_repo(base / "gitm", {
        ".claude-plugin/marketplace.json": json.dumps(catalogue),
        "plugins/gp/.claude-plugin/plugin.json": json.dumps({"name": "gp", "version": "1.0.0"}),
        "plugins/gp/skills/g/SKILL.md": skill_md("g"),
    })  # fmt: skip
    entry = {"name": "cp", "source": {"source": "local", "path": "./plugins/cp"},
             "policy": {"installation": "AVAILABLE"}, "category": "Productivity"}  # fmt: skip
    cgm = git_repo(base / "cgm", {
        ".agents/plugins/marketplace.json": json.dumps({"name": "cgm", "plugins": [entry]}),
        "plugins/cp/.codex-plugin/plugin.json":
            json.dumps({"name": "cp", "version": "1.0.0", "skills": "./skills/"}),
        "plugins/cp/skills/c/SKILL.md": skill_md("c"),
    })  # fmt: skip
    gx = git_repo(base / "gx", {
        "gemini-extension.json": json.dumps({"name": "gx", "version": "1.0.0"}),
        "skills/x/SKILL.md": skill_md("x"),
    })  # fmt: skip
    remotes = {repo: bare(repo, served / f"{repo.name}.git") for repo in (gitm, cgm, gx)}
    server = Server()
    server.routes["/git/*"] = http_backend(served)
    with contextmanager(serve)(server):
        beside(
            lambda: (ahead(), claude("marketplace", "add", f"{server.url}/git/gitm.git"),
                     claude("install", "gp@gitm")),
            lambda: (codex("plugin", "marketplace", "add", f"{server.url}/git/cgm.git"),
                     codex("plugin", "add", "cp@cgm")),
            lambda: gemini(f"{server.url}/git/gx.git"),
        )  # fmt: skip
        commit(gitm, {
            "plugins/gp/skills/g2/SKILL.md": skill_md("g2"),
            "plugins/gp/skills/g/SKILL.md": skill_md("g", body="Longer body now.\n"),
            "plugins/gp/hooks/hooks.json": json.dumps(HOOK),
        })  # fmt: skip
        commit(cgm, {"plugins/cp/skills/c2/SKILL.md": skill_md("c2")})
        commit(gx, {"skills/x2/SKILL.md": skill_md("x2")})
        for repo, remote in remotes.items():
            git("push", "-q", remote, "main", cwd=repo)
        beside(
            lambda: claude("marketplace", "update", "gitm"),
            lambda: codex("plugin", "marketplace", "upgrade", "cgm"),
        )


def _codex(binary: Path, home: Path, cwd: Path, *args: str) -> None:
    (home / ".codex").mkdir(exist_ok=True)
    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PATH": os.environ["PATH"]}
    done = subprocess.run([str(binary), *args], capture_output=True, text=True,
                          timeout=CALL, env=env, cwd=cwd, check=False)  # fmt: skip
    _ok(done, f"codex {' '.join(args)}")


def _gemini(script: Path, home: Path, source: str) -> None:
    put(home, ".gemini/settings.json", json.dumps(GEMINI_SETTINGS))
    put(home, ".gemini/trustedFolders.json", json.dumps({source: "TRUST_FOLDER"}))
    env = {
        "HOME": str(home),
        "PATH": os.environ["PATH"],
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "system-settings.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "system-defaults.json"),
    }
    node = shutil.which("node") or "node"
    args = [node, str(script), "extensions", "install", source, "--consent"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=CALL, env=env,
                          cwd=home, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    _ok(done, "gemini extensions install")


@pytest.fixture(scope="module")
def machine(
    tmp_path_factory: pytest.TempPathFactory, claude_code: Path, codex: Path, gemini: Path
) -> dict[str, Any]:
    """The scratch machine, built once per test run (`once`: every worker reads the
    same one, which no test changes)."""
    make = lambda base: _build(base, claude_code, codex, gemini)  # noqa: E731
    base, _ = once(tmp_path_factory, "outdated-machine", make)
    return {"base": base, "home": base / "home", "project": base / "project",
            "repo": base / "work"}  # fmt: skip


def _build(base: Path, claude_code: Path, codex: Path, gemini: Path) -> dict[str, Any]:
    """Each host's real install, then each source changed."""
    home, project = base / "home", base / "project"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    claude = lambda *a: _ok(claude_plugin(claude_code, home, project, *a), "claude")  # noqa: E731
    fetched = git_repo(base / "fetched", {
        ".claude-plugin/plugin.json": json.dumps({"name": "fetched", "version": "1.0.0"}),
        "skills/fskill/SKILL.md": skill_md("fskill"),
    })  # fmt: skip
    fremote = bare(fetched, base / "fetched.git")
    market = _claude_market(base / "market", fremote)
    cmarket = _codex_market(base / "cmarket")
    ext = base / "gext"
    put(ext, "gemini-extension.json", json.dumps({"name": "gext", "version": "1.0.0"}))
    put(ext, "skills/gskill/SKILL.md", skill_md("gskill"))
    _git_sources(
        base,
        claude,
        lambda *a: _codex(codex, home, project, *a),
        lambda u: _gemini(gemini, home, u),
        ahead=lambda: (claude("marketplace", "add", str(market)),
                       claude("install", "fetched@team")),
    )  # fmt: skip
    beside(
        lambda: [claude("install", f"{name}@team") for name in ("stale", "steady", "dropped")],
        lambda: (_codex(codex, home, project, "plugin", "marketplace", "add", str(cmarket)),
                 _codex(codex, home, project, "plugin", "add", "cstale@cteam")),
        lambda: _gemini(gemini, home, str(ext)),
    )  # fmt: skip
    layout = Layout.default(project, home=home, project=project, env={})
    repo = git_repo(base / "work", {"skills/tdd/SKILL.md": skill_md("tdd")})
    remote = bare(repo, base / "skills.git")
    install_from_spec(f"file://{remote}#main:skills", skills=["tdd"], scope="user",
                      layout=layout, environ={})  # fmt: skip
    gone = git_repo(base / "gone-work", {"skills/pdf/SKILL.md": skill_md("pdf")})
    install_from_spec(f"file://{bare(gone, base / 'gone.git')}#main:skills", skills=["pdf"],
                      scope="user", layout=layout, environ={})  # fmt: skip
    shutil.rmtree(base / "gone.git")
    smarket = git_repo(base / "smarket", {
        ".claude-plugin/marketplace.json": json.dumps(
            {"name": "kept", "owner": {"name": "T"},
             "plugins": [{"name": "kplug", "source": "./plugins/kplug"}]}),
        "plugins/kplug/.claude-plugin/plugin.json": json.dumps({"name": "kplug"}),
        "plugins/kplug/skills/kskill/SKILL.md": skill_md("kskill"),
    })  # fmt: skip
    sremote = bare(smarket, base / "smarket.git")
    add_marketplace(f"file://{sremote}", layout=layout, environ={})
    install_plugin("kplug@kept", scope="user", layout=layout, environ={})
    # the sources move on, no version bumped; the marketplace drops a plugin
    catalogue = json.loads((market / ".claude-plugin/marketplace.json").read_text())
    catalogue["plugins"] = [p for p in catalogue["plugins"] if p["name"] != "dropped"]
    put(market, ".claude-plugin/marketplace.json", json.dumps(catalogue))
    put(market, "plugins/stale/skills/added-skill/SKILL.md", skill_md("added-skill"))
    put(cmarket, "plugins/cstale/.mcp.json", json.dumps(MCP))
    put(ext, "skills/gskill2/SKILL.md", skill_md("gskill2"))
    commit(repo, {"skills/tdd/SKILL.md": skill_md("tdd", body="Red, green, refactor.\n")})
    git("push", "-q", remote, "main", cwd=repo)
    commit(fetched, {"skills/fskill/SKILL.md": skill_md("fskill", body="Moved on.\n")})
    git("push", "-q", fremote, "main", cwd=fetched)
    commit(smarket, {"plugins/kplug/skills/kskill2/SKILL.md": skill_md("kskill2")})
    git("push", "-q", sremote, "main", cwd=smarket)
    return {}  # no host turns: the machine is the folder


def _run(machine: dict[str, Any], capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    where = ("--project", str(machine["project"]), "--home", str(machine["home"]))
    code = main(["outdated", *where, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def online(machine: dict[str, Any]) -> dict[str, Any]:
    from satchel import hosts
    from satchel.reports.outdated import outdated

    layout = Layout.default(machine["project"], home=machine["home"],
                            project=machine["project"], env={})  # fmt: skip
    chosen = [hosts.get(n) for n in ("claude-code", "codex", "gemini")]
    result = outdated(layout=layout, hosts=chosen, environ={"PATH": os.environ["PATH"]})
    return {r.install.id: r for r in result.reports}


def _files(report: Any) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.path, f.change, f.old_size, f.new_size) for f in report.files]


def test_every_install_is_found_with_its_installer(online):
    assert {i: (r.install.installer, r.state) for i, r in online.items()} == {
        "kplug": ("satchel", "outdated"),
        "tdd": ("satchel", "outdated"),
        "pdf": ("satchel", "source-unreachable"),
        "fetched@team": ("Claude Code", "outdated"),
        "gp@gitm": ("Claude Code", "outdated"),
        "stale@team": ("Claude Code", "in-place"),
        "steady@team": ("Claude Code", "in-place"),
        "dropped@team": ("Claude Code", "unknown-source"),
        "cp@cgm": ("Codex", "current"),
        "cstale@cteam": ("Codex", "outdated"),
        "gext": ("Gemini CLI", "outdated"),
        "gx": ("Gemini CLI", "source-unreachable"),
    }


def test_a_claude_code_plugin_of_a_git_marketplace_changed_without_a_version_bump_is_outdated(
    online, machine
):
    r = online["gp@gitm"]
    clone = machine["home"] / ".claude/plugins/marketplaces/gitm/plugins/gp"
    assert (r.install.version, r.state, r.network) == ("1.0.0", "outdated", False)
    assert r.install.root == machine["home"] / ".claude/plugins/cache/gitm/gp/1.0.0"
    assert r.source == str(clone)  # the clone `marketplace update` refreshed, on disk
    assert _files(r) == [
        ("hooks/hooks.json", "added", None, len(json.dumps(HOOK))),
        ("skills/g/SKILL.md", "changed", len(skill_md("g")),
         len(skill_md("g", body="Longer body now.\n"))),
        ("skills/g2/SKILL.md", "added", None, len(skill_md("g2"))),
    ]  # fmt: skip
    assert r.load.added == (("hook", "PreToolUse Bash: touch ran-hook"), ("skill", "g2"))
    assert r.load.removed == ()
    assert [(k.what, k.rule, k.severity, k.path) for k in r.risks] == [
        ("new hook", "A-HOOK-PRESENT", "medium", "hooks/hooks.json")
    ]
    assert r.risks[0].message == (
        'plugin:gp hook on PreToolUse (matcher "Bash") runs "touch ran-hook"'
    )
    (d,) = r.diagnostics
    assert (d.code, d.severity) == ("outdated.stale", "warning")
    assert d.message == (
        "Claude Code's plugin 'gp@gitm' (version 1.0.0) is not what its source holds now: "
        f"3 files differ from {clone}"
    )


def test_a_claude_code_plugin_of_a_folder_marketplace_is_read_in_place_never_stale(online, machine):
    cache = machine["home"] / ".claude/plugins/cache/team"
    for name in ("stale", "steady"):
        r = online[f"{name}@team"]
        folder = machine["base"] / "market/plugins" / name
        assert (r.state, r.install.root, r.source) == ("in-place", folder, str(folder))
        assert (r.network, r.files, r.load.added, r.risks) == (False, (), (), ())
        (d,) = r.diagnostics
        assert (d.code, d.severity) == ("outdated.in_place", "info")
        assert d.message == (
            f"Claude Code's plugin '{name}@team' is read in place from {folder}: Claude Code "
            "loads it as it is, no copy to go stale (its installed copy is not used)"
        )
    # the folder moved on and the unused cache copy did not: nothing is said of it
    assert (machine["base"] / "market/plugins/stale/skills/added-skill/SKILL.md").is_file()
    assert not (cache / "stale/1.0.0/skills/added-skill").exists()


def test_a_claude_code_plugin_from_a_git_url_is_fetched_and_its_markers_left_out(online, machine):
    r = online["fetched@team"]
    assert (r.install.root / ".in_use").is_dir()  # Claude Code's marker, not a difference
    assert (r.network, r.source) == (True, f"file://{machine['base'] / 'fetched.git'}")
    assert _files(r) == [("skills/fskill/SKILL.md", "changed", len(skill_md("fskill")),
                          len(skill_md("fskill", body="Moved on.\n")))]  # fmt: skip


def test_a_plugin_its_marketplace_no_longer_lists_has_an_unknown_source(online, machine):
    r = online["dropped@team"]
    (d,) = r.diagnostics
    assert (d.code, d.severity) == ("outdated.source.unknown", "warning")
    assert d.message == (
        "Claude Code's plugin 'dropped@team': marketplace 'team' "
        f"({machine['base'] / 'market'}) no longer lists it"
    )


def test_a_codex_plugin_of_a_git_marketplace_is_read_in_codexs_clone(online, machine):
    r = online["cp@cgm"]
    clone = machine["home"] / ".codex/.tmp/marketplaces/cgm"
    assert (r.state, r.network, r.source) == ("current", False, str(clone / "plugins/cp"))
    assert (r.install.root / "skills/c2/SKILL.md").is_file()  # the upgrade refreshed it


def test_a_codex_plugin_with_a_new_mcp_server_is_outdated(online, machine):
    r = online["cstale@cteam"]
    assert r.install.root == machine["home"] / ".codex/plugins/cache/cteam/cstale/2.0.0"
    assert _files(r) == [(".mcp.json", "added", None, len(json.dumps(MCP)))]
    assert r.load.added == (("mcp server", "fresh"),)
    assert [(k.what, k.rule) for k in r.risks] == [("new MCP server", "A-MCP-SERVER")]


def test_a_gemini_extension_with_a_new_skill_is_outdated_and_its_install_file_ignored(online):
    r = online["gext"]
    ignored = (".gemini-extension-install.json", ".git")
    assert (r.install.version, r.install.ignored) == ("1.0.0", ignored)
    assert _files(r) == [("skills/gskill2/SKILL.md", "added", None, len(skill_md("gskill2")))]
    assert r.load.added == (("skill", "gskill2"),)
    assert r.risks == ()


def test_a_gemini_extension_cloned_from_a_git_remote_that_is_gone(online, machine):
    r = online["gx"]
    (d,) = r.diagnostics
    assert (r.network, d.code) == (True, "outdated.source.unreachable")
    assert (r.install.root / ".git").is_dir()  # Gemini CLI's clone: no difference
    assert re.fullmatch(
        r"Gemini CLI's extension 'gx': http://127\.0\.0\.1:\d+/git/gx\.git was not read: .+",
        d.message,
    )


def test_a_satchel_skill_whose_git_remote_moved_on_is_outdated(online, machine):
    r = online["tdd"]
    assert r.network
    assert r.source == f"file://{machine['base'] / 'skills.git'}#main:skills"
    assert _files(r) == [("SKILL.md", "changed", len(skill_md("tdd")),
                          len(skill_md("tdd", body="Red, green, refactor.\n")))]  # fmt: skip


def test_a_satchel_plugin_is_read_online_from_its_remote_offline_from_the_kept_copy(
    online, machine, capsys
):
    r = online["kplug"]
    assert (r.state, r.network) == ("outdated", True)
    assert _files(r) == [("skills/kskill2/SKILL.md", "added", None, len(skill_md("kskill2")))]
    assert r.load.added == (("skill", "kskill2"),)
    doc = json.loads(_run(machine, capsys, "--offline", "--json")[1])
    (kept,) = [i for i in doc["installs"] if i["id"] == "kplug"]
    copy = machine["home"] / ".config/satchel/marketplaces/kept"
    assert (kept["state"], kept["network"]) == ("current", False)
    assert kept["origin"]["clone"] == str(copy)


def test_a_satchel_skill_whose_git_remote_is_gone_is_unreachable(online, machine):
    r = online["pdf"]
    (d,) = r.diagnostics
    assert (d.code, d.severity) == ("outdated.source.unreachable", "warning")
    assert d.message.startswith(
        f"satchel's skill 'pdf': file://{machine['base'] / 'gone.git'}#main:skills was not read: "
    )


def test_offline_names_the_git_sources_it_did_not_check_and_does_not_fail(machine, capsys):
    code, out, _ = _run(machine, capsys, "--offline", "--json")
    doc = json.loads(out)
    states = {i["id"]: i["state"] for i in doc["installs"]}
    assert code == 0
    assert states == {
        "kplug": "current",
        "tdd": "not-checked",
        "pdf": "not-checked",
        "fetched@team": "not-checked",
        "gp@gitm": "outdated",
        "stale@team": "in-place",
        "steady@team": "in-place",
        "dropped@team": "unknown-source",
        "cp@cgm": "current",
        "cstale@cteam": "outdated",
        "gext": "outdated",
        "gx": "not-checked",
    }
    offline = [d for d in doc["diagnostics"] if d["code"] == "outdated.source.offline"]
    gx = offline.pop(-1)["message"]
    assert re.fullmatch(
        r"Gemini CLI's extension 'gx' was not checked: its source "
        r"http://127\.0\.0\.1:\d+/git/gx\.git needs the network \(run without --offline\)",
        gx,
    )
    assert offline.pop(-1)["message"] == (
        "Claude Code's plugin 'fetched@team' was not checked: its source "
        f"file://{machine['base'] / 'fetched.git'} needs the network (run without --offline)"
    )
    assert [d["message"] for d in offline] == [
        f"satchel's skill '{name}' was not checked: its source file://{machine['base'] / git}"
        "#main:skills needs the network (run without --offline)"
        for name, git in (("pdf", "gone.git"), ("tdd", "skills.git"))
    ]
    assert doc["offline"] is True


def test_exit_code_is_one_when_something_is_outdated(machine, capsys):
    assert _run(machine, capsys, "--offline", "--exit-code")[0] == 1
    assert _run(machine, capsys, "--offline", "--exit-code", "--hosts", "gemini")[0] == 1


def _snapshot(root: Path) -> dict[str, str]:
    return entries(root, source=False)


def test_it_writes_nothing_and_runs_no_hook(machine, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where its fetches go
    made: list[Path] = []
    mkdtemp = tempfile.mkdtemp

    def watched(*args: Any, **kw: Any) -> str:
        made.append(Path(mkdtemp(*args, **kw)))
        return str(made[-1])

    monkeypatch.setattr(tempfile, "mkdtemp", watched)
    before = _snapshot(machine["base"])
    _run(machine, capsys)
    _run(machine, capsys, "--offline", "--json")
    assert _snapshot(machine["base"]) == before
    assert made and all(p.parent == tmp_path for p in made)
    assert list(tmp_path.iterdir()) == []  # each fetch's temporary folder is removed
    assert not any(p.name == "ran-hook" for p in machine["base"].rglob("ran-hook"))


def _clean(machine: dict[str, Any]) -> Any:
    def clean(text: str) -> str:
        text = text.replace(str(machine["base"]), "<machine>")
        text = re.sub(r"\b[0-9a-f]{40}\b", "<commit>", text)
        text = re.sub(r"http://127\.0\.0\.1:\d+/", "http://127.0.0.1:<port>/", text)
        text = re.sub(r"^(satchel \w+ \S+) [0-9a-f]{12} ", r"\1 <commit> ", text, flags=re.M)
        return "\n".join(line.rstrip() for line in text.split("\n"))

    return clean


def test_golden_text_and_json_offline(machine, capsys):
    _, out, err = _run(machine, capsys, "--offline")
    golden.check_golden("outdated.txt", out, GOLDEN, clean=_clean(machine))
    assert err.strip().endswith(
        "12 installs: 3 outdated, 4 not-checked, 1 unknown-source, 2 in-place, 2 current; "
        "offline: remote sources were not fetched."
    )
    _, doc, _ = _run(machine, capsys, "--offline", "--json")
    golden.check_golden("outdated.json", doc, GOLDEN, clean=_clean(machine))


def test_the_docs_show_the_golden_report():
    page = (Path(__file__).parents[2] / "docs" / "outdated.md").read_text(encoding="utf-8")
    report = (GOLDEN / "outdated.txt").read_text(encoding="utf-8")
    assert f"```text\n{report}```" in page


def _outdated(machine: dict[str, Any], **given: Any) -> dict[str, Any]:
    from satchel import hosts
    from satchel.reports.outdated import outdated

    project = given.pop("project", machine["project"])
    layout = Layout.default(project, home=machine["home"], project=project, env={})
    chosen = [hosts.get(n) for n in ("claude-code", "codex", "gemini")]
    found = outdated(layout=layout, hosts=chosen, environ={"PATH": os.environ["PATH"]}, **given)
    return {r.install.id: r for r in found.reports}


def test_the_policy_source_rules_are_asked_before_a_fetch(machine, tmp_path):
    project = tmp_path / "strict"
    put(project, ".satchel/policy.toml", '[sources]\ndeny = ["*"]\n')
    reports = _outdated(machine, project=project)
    for name in ("pdf", "tdd"):
        r = reports[name]
        (d,) = r.diagnostics
        assert (r.state, d.severity) == ("not-checked", "warning")
        assert d.code == "outdated.source.refused"
        assert d.message.startswith(f"satchel's skill '{name}' was not checked: ")
        assert "is refused by policy key `sources.deny`" in d.message
    assert reports["gp@gitm"].state == "outdated"  # a clone on disk is no fetch


def test_every_fetch_shares_one_deadline(machine):
    reports = _outdated(machine, deadline=1e-6)
    for name, remote in (("pdf", "gone.git"), ("tdd", "skills.git")):
        (d,) = reports[name].diagnostics
        assert reports[name].state == "source-unreachable"
        assert d.code == "outdated.source.unreachable"
        assert d.message == (
            f"satchel's skill '{name}': the overall deadline of 1e-06 s passed before "
            f"file://{machine['base'] / remote}#main:skills was fetched"
        )


class _Watched(subprocess.Popen):  # type: ignore[type-arg]
    started: ClassVar[list[list[str]]] = []

    def __init__(self, args: Any, *rest: Any, **kw: Any) -> None:
        _Watched.started.append([str(a) for a in args])
        super().__init__(args, *rest, **kw)


def test_offline_starts_no_process_and_online_only_git(machine, capsys, monkeypatch):
    monkeypatch.setattr(subprocess, "Popen", _Watched)
    _Watched.started.clear()
    _run(machine, capsys, "--offline")
    assert _Watched.started == []
    _outdated(machine)
    assert _Watched.started
    assert {Path(args[0]).name for args in _Watched.started} == {"git"}


def test_on_an_80_column_terminal_every_line_fits_and_nothing_is_dropped(
    machine, capsys, monkeypatch
):
    _, piped, _ = _run(machine, capsys, "--offline")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    _, shown, _ = _run(machine, capsys, "--offline")
    assert max(len(line) for line in shown.splitlines()) <= 80
    summary = (
        "12 installs: 3 outdated, 4 not-checked, 1 unknown-source, 2 in-place, 2 current; "
        "offline: remote sources were not fetched."
    )
    assert "".join(shown.split()) == "".join(piped.split()) + summary.replace(" ", "")

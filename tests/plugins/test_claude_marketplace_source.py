"""Which tree Claude Code 2.1.332 reads an installed plugin from, by its marketplace's
source type, against Claude Code itself (one scratch machine, one real turn).

Two marketplaces, each with one plugin holding a skill, a command, an agent and a
UserPromptSubmit hook that appends ``$CLAUDE_PLUGIN_ROOT`` to a file:

* ``dm``, added by path (``claude plugin marketplace add <folder>``); the folder is a
  git repository, and Claude Code records it all the same as a ``directory`` source.
  Its ``z`` is named by a bare source name, below ``metadata.pluginRoot``.
  It also lists ``gone``, installed and then whose folder is removed.
* ``gm``, added by URL from a git server on 127.0.0.1 (``git http-backend``, a
  stand-in for a remote); Claude Code records a ``git`` source and clones it into
  ``~/.claude/plugins/marketplaces/gm``.

After the installs, each plugin's skill, command and agent are edited and a new skill added
where Claude Code could read them instead of the ``installPath`` copy: ``dm``'s own
folder, and ``gm``'s clone. Observed: for ``dm`` Claude Code lists the edited
descriptions and the new skill, runs the hook with ``CLAUDE_PLUGIN_ROOT`` the
marketplace's folder, ``claude plugin list --json`` names that folder
(``readFromFolder``), and ``gone`` fails to load ("Plugin directory not found"); for
``gm`` it lists what was installed and runs the hook in the ``installPath`` copy.
satchel under host claude-code must list exactly the same.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from satchel.assembly import listings
from satchel.cli import main
from tests.hostloop.claude_listing import listing, write_settings
from tests.hostloop.hosts import Turn, run_claude
from tests.hostloop.model import Text
from tests.hostloop.shared import once
from tests.hostloop.show import seen
from tests.support import put
from tests.tools import claude_plugin

GIT = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
HOOK = 'echo "$CLAUDE_PLUGIN_ROOT" >> "$CLAUDE_PROJECT_DIR/roots-{name}.txt"'


def _git(cwd: Path, home: Path, *args: str) -> None:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **GIT}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _plugin(folder: Path, name: str, said: str) -> None:
    put(folder / ".claude-plugin/plugin.json", json.dumps({"name": name, "version": "1.0.0"}))
    _parts(folder, said)
    hooks = {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": HOOK.format(name=name)}]}]
    }
    put(folder / "hooks/hooks.json", json.dumps({"hooks": hooks}))


def _parts(folder: Path, said: str) -> None:
    put(
        folder / "skills/alpha/SKILL.md", f"---\nname: alpha\ndescription: alpha {said}\n---\nDo.\n"
    )
    put(folder / "commands/cmd.md", f"---\ndescription: cmd {said}\n---\nDo.\n")
    agent = f"---\nname: helper\ndescription: helper {said}\n---\nHelp.\n"
    put(folder / "agents/helper.md", agent)


def _market(root: Path, name: str, plugins: tuple[str, ...], bare: tuple[str, ...] = ()) -> None:
    """A catalogue of `plugins` by relative path and `bare` by bare name, all in
    ``plugins/`` (its ``metadata.pluginRoot``)."""
    entries = [{"name": p, "source": f"./plugins/{p}"} for p in plugins]
    entries += [{"name": p, "source": p} for p in bare]
    catalogue = {
        "name": name,
        "owner": {"name": "Team"},
        "metadata": {"pluginRoot": "./plugins/"},
        "plugins": entries,
    }
    put(root / ".claude-plugin/marketplace.json", json.dumps(catalogue))
    for plugin in (*plugins, *bare):
        _plugin(root / "plugins" / plugin, plugin, "as installed")


class _GitServer:
    """Git's smart HTTP protocol for the bare repositories in `root`, on 127.0.0.1."""

    def __init__(self, root: Path, home: Path) -> None:
        env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **GIT}
        env |= {"GIT_PROJECT_ROOT": str(root), "GIT_HTTP_EXPORT_ALL": "1"}

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._backend()

            def do_POST(self) -> None:
                self._backend()

            def _backend(self) -> None:
                path, _, query = self.path.partition("?")
                size = int(self.headers.get("Content-Length") or 0)
                request = {
                    "PATH_INFO": path,
                    "QUERY_STRING": query,
                    "REQUEST_METHOD": self.command,
                    "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                    "CONTENT_LENGTH": str(size),
                    "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
                }
                done = subprocess.run(
                    ["git", "http-backend"],
                    input=self.rfile.read(size),
                    env={**env, **request},
                    capture_output=True,
                    timeout=60,
                    check=False,
                )
                head, _, body = done.stdout.partition(b"\r\n\r\n")
                fields = [line.partition(": ") for line in head.decode().split("\r\n") if line]
                status = next((int(v.split()[0]) for k, _, v in fields if k == "Status"), 200)
                self.send_response(status)
                for key, _, value in fields:
                    if key != "Status":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    @contextlib.contextmanager
    def serving(self) -> Iterator[str]:
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{self.server.server_address[1]}"
        finally:
            self.server.shutdown()
            self.server.server_close()


def _claude(binary: Path, home: Path, project: Path, *args: str) -> str:
    done = claude_plugin(binary, home, project, *args)
    assert done.returncode == 0, f"claude plugin {' '.join(args)}: {done.stderr}"
    return done.stdout


def _make(claude_code: Path, base: Path) -> dict[str, Turn]:
    home, project = base / "home", base / "project"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    dm, gm, served = base / "dm", base / "gm", base / "served"
    _market(dm, "dm", ("x", "gone"), bare=("z",))
    _market(gm, "gm", ("y",))
    for repo in (dm, gm):
        _git(repo, home, "init", "-q", "-b", "main")
        _git(repo, home, "add", "-A")
        _git(repo, home, "commit", "-q", "-m", "catalogue")
    served.mkdir()
    _git(base, home, "clone", "-q", "--bare", str(gm), str(served / "gm.git"))
    run = lambda *args: _claude(claude_code, home, project, *args)  # noqa: E731
    with _GitServer(served, home).serving() as url:
        run("marketplace", "add", str(dm))
        run("marketplace", "add", f"{url}/gm.git")
        for plugin in ("x@dm", "z@dm", "gone@dm", "y@gm"):
            run("install", plugin)
    clone = home / ".claude/plugins/marketplaces/gm"
    for folder in (dm / "plugins/x", dm / "plugins/z", clone / "plugins/y"):
        _parts(folder, "edited in place")
        put(folder / "skills/beta/SKILL.md", "---\nname: beta\ndescription: beta new\n---\nDo.\n")
    shutil.rmtree(dm / "plugins/gone")
    settings = json.loads((home / ".claude/settings.json").read_text(encoding="utf-8"))
    write_settings(home, settings)
    turn = run_claude(claude_code, project, home, "hi", [Text("ok")])
    return {"turn": turn, "list": Turn(0, run("list", "--json"), "", ())}


@pytest.fixture(scope="module")
def machine(claude_code: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The machine, built once per test run (every xdist worker shares it)."""
    base, runs = once(tmp_path_factory, "marketplace-source", lambda b: _make(claude_code, b))
    listed = json.loads(runs["list"].stdout)
    return {"base": base, "turn": runs["turn"], "listed": {p["id"]: p for p in listed}}


def _known(base: Path) -> dict[str, Any]:
    text = (base / "home/.claude/plugins/known_marketplaces.json").read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def test_claude_code_records_a_git_folder_added_by_path_as_a_directory(machine: dict[str, Any]):
    base = machine["base"]
    known = _known(base)
    assert known["dm"]["source"] == {"source": "directory", "path": str(base / "dm")}
    assert known["dm"]["installLocation"] == str(base / "dm")
    assert known["gm"]["source"]["source"] == "git"
    assert known["gm"]["installLocation"] == str(base / "home/.claude/plugins/marketplaces/gm")


def test_claude_code_lists_a_directory_marketplace_plugin_from_its_folder(
    machine: dict[str, Any],
):
    turn = machine["turn"]
    assert turn.returncode == 0, turn.stderr
    assert listing(turn).split("\n")[2:] == [
        "- x:cmd: cmd edited in place",
        "- z:cmd: cmd edited in place",
        "- y:cmd: cmd as installed",
        "- x:alpha: alpha edited in place",
        "- x:beta: beta new",
        "- z:alpha: alpha edited in place",
        "- z:beta: beta new",
        "- y:alpha: alpha as installed",
    ]


def _agents(turn: Turn) -> list[str]:
    """The plugins' lines of Claude Code's agent-type listing (not its own agents)."""
    return [line for line in seen("claude", turn).agents if ":" in line.split(": ", 1)[0]]


def test_claude_code_lists_the_agent_types_of_the_same_trees(machine: dict[str, Any]):
    assert _agents(machine["turn"]) == [
        "- x:helper: helper edited in place (Tools: All tools)",
        "- y:helper: helper as installed (Tools: All tools)",
        "- z:helper: helper edited in place (Tools: All tools)",
    ]


def test_claude_code_runs_each_hook_in_the_tree_it_lists(machine: dict[str, Any]):
    base = machine["base"]
    said = {
        name: (base / f"project/roots-{name}.txt").read_text(encoding="utf-8").split()
        for name in ("x", "y", "z", "gone")
        if (base / f"project/roots-{name}.txt").exists()
    }
    assert said == {
        "x": [str(base / "dm/plugins/x")],
        "z": [str(base / "dm/plugins/z")],
        "y": [str(base / "home/.claude/plugins/cache/gm/y/1.0.0")],
    }


def test_claude_code_names_the_folder_it_reads_and_fails_a_missing_one(
    machine: dict[str, Any],
):
    base, listed = machine["base"], machine["listed"]
    assert listed["x@dm"]["readFromFolder"] == str(base / "dm/plugins/x")
    assert listed["z@dm"]["readFromFolder"] == str(base / "dm/plugins/z")
    assert listed["x@dm"]["installPath"] == str(base / "home/.claude/plugins/cache/dm/x/1.0.0")
    assert "readFromFolder" not in listed["y@gm"]
    gone = base / "dm/plugins/gone"
    assert listed["gone@dm"]["errors"] == [
        f"Plugin directory not found at path: {gone}. Check that the marketplace entry has "
        "the correct path."
    ]


def _index(base: Path) -> str:
    args = ["index", "--host", "claude-code", "--home", str(base / "home"), "--trust"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*args, str(base / "project")])
    assert code == 0, err.getvalue()
    return out.getvalue()


def test_satchel_lists_what_claude_code_lists(machine: dict[str, Any]):
    assert _index(machine["base"]) == listing(machine["turn"]) + "\n"


def test_satchel_reads_each_plugin_where_claude_code_does(machine: dict[str, Any]):
    base, listed = machine["base"], machine["listed"]
    layout = hosts.get("claude-code").layout(base / "project", home=base / "home", env={})
    env = satchel.load(layout=layout, host="claude-code", trusted=True)
    roots = {p.installed: p.root for p in env.plugins.plugins.values() if p.installed}
    assert roots == {
        "x@dm": Path(listed["x@dm"]["readFromFolder"]),
        "z@dm": Path(listed["z@dm"]["readFromFolder"]),
        "y@gm": Path(listed["y@gm"]["installPath"]),
    }
    ours = listings.agent_listing(env.agents.agents.values(), "claude-code")
    assert list(ours or ()) == _agents(machine["turn"])
    # each plugin's hook comes from the root Claude Code runs it in (CLAUDE_PLUGIN_ROOT)
    hooks = {h.origin.path for h in env.hooks.hooks if h.event == "user_prompt_submit"}
    assert hooks == set(roots.values())
    [missing] = [d for d in env.diagnostics if d.code == "plugin.installed.missing"]
    gone = base / "dm/plugins/gone"
    assert (missing.path, missing.message) == (
        base / "dm/.claude-plugin/marketplace.json",
        f"Claude Code reads 'gone@dm' from its directory marketplace, and {gone} is not a "
        "directory: the plugin fails to load (its installed copy is not read)",
    )

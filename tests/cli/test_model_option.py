"""``--model`` on the verbs that size a host's skill listing: index, compat, doctor and
serve take the model whose context window the budget is taken of (serve's, checked on
a real ``satchel serve`` process over stdio: the index it gives an MCP client, and the
startup line that reports a model the host does not know)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import anyio
from mcp.client.stdio import StdioServerParameters

from mcp import Client
from satchel.cli._workspace import environment
from satchel.server._serve import SkillServer
from tests.support import write_skill


def _skills(project):
    for n in range(30):
        write_skill(project / ".claude" / "skills", f"s{n:02}", description="x" * 400)


def test_compat_takes_the_budget_of_the_model_named(satchel, project, home):
    _skills(project)
    base = ("compat", str(project), "--project", str(project), "--home", str(home))
    args = (*base, "--host", "claude-code", "--json")
    default = satchel(*args).json()["hosts"][0]["tokens"]["budget"]
    older = satchel(*args, "--model", "claude-opus-4-6").json()["hosts"][0]["tokens"]["budget"]
    assert (default["chars"], older["chars"]) == (30_000, 8_000)
    assert older["rule"] == (
        "1% of claude-opus-4-6's 200,000-token context window at 4 characters a token"
    )


def test_doctor_reports_an_unknown_model(satchel, project, home):
    _skills(project)
    args = ("doctor", "--project", project, "--home", home, "--host", "claude-code")
    found = satchel(*args, "--model", "claude-nonesuch", "--json").json()["diagnostics"]
    unknown = [d for d in found if d["code"] == "host.model-unknown"]
    assert [d["message"] for d in unknown] == [
        "model 'claude-nonesuch' is not one claude-code knows: its listing budget assumes a "
        "1,000,000-token context window at 3 characters a token"
    ]


def _serve(project, home, *extra: str) -> list[str]:
    return [sys.executable, "-m", "satchel", "serve", str(project), "--home", str(home),
            "--trust", "--host", "claude-code", *extra]  # fmt: skip


def _served_index(project, home, *extra: str) -> str:
    """The instructions (the skills index) a `satchel serve` process over stdio gives
    an MCP client."""
    argv = _serve(project, home, *extra)
    env = {
        "HOME": str(home),
        "SATCHEL_CLAUDE_MANAGED_DIR": os.environ["SATCHEL_CLAUDE_MANAGED_DIR"],
    }
    server = StdioServerParameters(command=argv[0], args=argv[1:], env=env)

    async def run() -> str:
        with anyio.fail_after(120):
            async with Client(server) as client:
                return client.instructions or ""

    return anyio.run(run)


def test_serve_lists_the_skills_in_the_budget_of_the_model_named(project, home):
    _skills(project)
    whole = "x" * 400
    default = _served_index(project, home)
    older = _served_index(project, home, "--model", "claude-opus-4-6")
    assert default.count(whole) == 30  # Claude Code's default model: 30,000 characters
    env = environment(None, project, home, "claude", True, (), "claude-code",
                      model="claude-opus-4-6")  # fmt: skip
    assert older == SkillServer(env, model="claude-opus-4-6").instructions()
    assert older.count(whole) < 30 and len(older) <= 8_000  # claude-opus-4-6: 8,000
    assert older.endswith("- s29\n")


def test_serve_reports_an_unknown_model(project, home):
    _skills(project)
    argv = _serve(project, home, "--model", "claude-nonesuch", "--json")
    env = {**os.environ, "HOME": str(home)}
    ran = subprocess.run(
        argv, input="", capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert (ran.returncode, ran.stdout) == (0, "")  # stdin closed: the server ends
    said = json.loads(ran.stderr.splitlines()[0])
    assert [d["message"] for d in said["diagnostics"] if d["code"] == "host.model-unknown"] == [
        "model 'claude-nonesuch' is not one claude-code knows: its listing budget assumes a "
        "1,000,000-token context window at 3 characters a token"
    ]

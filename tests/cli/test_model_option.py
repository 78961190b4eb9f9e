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

import satchel
from mcp import Client
from satchel.assembly.listings._listing_codex import render_codex_listing
from satchel.cli._workspace import environment
from satchel.hosts import PROFILES
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


def _codex_skills(home):
    for n in range(60):
        write_skill(home / ".agents" / "skills", f"s{n:02}", description=f"{n} " + "x" * 1_000)


def _whole(project, home, usage):
    """Codex's listing of the skills with room for them all, with or without its
    rules for using skills (gpt-5.5 gets them)."""
    layout = PROFILES["codex"].layout(project, home=home, project=project)
    skills = list(satchel.load(layout=layout, host="codex").skills.values())
    return render_codex_listing(skills, 10**9, usage=usage)


def test_compat_measures_codex_listing_uncut_for_the_model_named(satchel, project, home):
    _codex_skills(home)
    args = ("compat", str(project), "--project", str(project), "--home", str(home))
    args = (*args, "--host", "codex", "--json")
    default = satchel(*args).json()["hosts"][0]["tokens"]
    older = satchel(*args, "--model", "gpt-5.5").json()["hosts"][0]["tokens"]
    assert default["index_chars"] == len(_whole(project, home, usage=False))
    assert older["index_chars"] == len(_whole(project, home, usage=True))
    assert (default["budget"]["chars"], older["budget"]["chars"]) == (40_000, 21_760)
    assert not default["fits"] and not older["fits"]


def test_compat_measures_gemini_listing_for_the_model_named(satchel, project, home):
    for n in range(3):
        write_skill(home / ".gemini" / "skills", f"s{n}", description=f"skill {n}")
    base = ("--project", str(project), "--home", str(home), "--host", "gemini")
    for model in ("gemini-2.5-pro", "auto"):
        listed = satchel("index", *base, "--model", model).out
        found = satchel("compat", str(project), *base, "--model", model, "--json").json()
        assert found["hosts"][0]["tokens"]["index_chars"] == len(listed)


NOPE = (
    "model 'nope' is not one codex knows: its listing budget assumes a 272,000-token "
    "context window at 4 characters a token"
)


def test_compat_reports_a_model_the_host_does_not_know(satchel, project, home):
    _codex_skills(home)
    args = ("compat", str(project), "--project", str(project), "--home", str(home))
    args = (*args, "--host", "codex", "--model", "nope")
    found = satchel(*args, "--json").json()
    assert [(d["code"], d["message"]) for d in found["diagnostics"]] == [
        ("host.model-unknown", NOPE)
    ]
    said = satchel(*args)
    assert "host.model-unknown" in said.err
    assert " ".join(NOPE.split()) in " ".join(said.err.split())
    assert satchel(*args[:-2], "--json").json()["diagnostics"] == []


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

"""`satchel serve` as a gateway: the union of the sources with the host profile's
precedence, the config file's filter (names, sources, trust) everywhere the server
answers, and --workers N over HTTP, stateless per request."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from mcp import Client
from satchel import hosts
from satchel.cli import main
from satchel.server._gateway import Spec, gateway_environment, read_config
from satchel.server._serve import build_server
from satchel.trust._trust import trust

from ..support import put, skill_md, write_skill
from .skills_support import FASTMCP, TAMPERED, hostile, hostile_listing, skills_root
from .test_serve import _stop

STARTUP = 60  # seconds a server may take to say where it listens: a "did not hang" bound
REPO = Path(__file__).resolve().parents[2]
INVALID = "mcp.gateway.config.invalid"


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """A project, a home, a plugin directory and a team skills root; ``dup`` is in
    the project, the user's folder and the plugin, each saying where it is."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    plugin, team = tmp_path / "plug", tmp_path / "team"
    mine, users = project / ".agents" / "skills", home / ".agents" / "skills"
    for root, where in ((mine, "project"), (users, "user"), (plugin / "skills", "plugin")):
        write_skill(root, "dup", skill_md("dup", f"The {where}'s dup.", f"From the {where}.\n"))
    write_skill(mine, "refund-policy", description="Refunds.")
    write_skill(mine, "draft-notes", description="Notes not ready.")
    write_skill(users, "user-only", description="The user's own.")
    write_skill(team, "team-tip", description="The team's tip.")
    put(plugin / ".claude-plugin" / "plugin.json", '{"name": "plug"}')
    put(project / ".claude" / "commands" / "deploy.md", "Deploy $ARGUMENTS\n")
    put(project / ".claude" / "commands" / "draft-review.md", "Review the draft.\n")
    return {"project": project, "home": home, "plugin": plugin, "team": team, "tmp": tmp_path}


def _argv(tree: dict[str, Path], *extra: str) -> list[str]:
    where = ["serve", str(tree["project"]), "--home", str(tree["home"]), "--host", "mermaid"]
    return ["-m", "satchel", *where, *extra]


def _config(tree: dict[str, Path], text: str) -> str:
    sources = (
        '[sources.team]\nkind = "skills"\npath = "team"\n\n'
        '[sources.tools]\nkind = "plugin"\npath = "plug"\n\n'
    )
    return str(put(tree["tmp"] / "gateway.toml", sources + text))


def _served(tree: dict[str, Path], *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The startup line of `satchel serve --json` over stdio with these options (its
    first line on stderr), and what an MCP client sees of it."""
    env = {"HOME": str(tree["home"]), "PATH": os.environ.get("PATH", "")}
    argv = _argv(tree, *extra, "--json")
    params = StdioServerParameters(command=sys.executable, args=argv, env=env)
    with tempfile.TemporaryFile("w+") as errlog:
        seen = _seen(stdio_client(params, errlog=errlog))
        errlog.seek(0)
        return dict(json.loads(errlog.readline())), seen


def _served_here(tree: dict[str, Path], config: str) -> dict[str, Any]:
    """What `_served` sees with ``--trust --config CONFIG``, the gateway built in this
    process as `satchel serve` builds it, its server reached in memory (the filter
    tests: one real process, above, is enough to show the command line gives the same)."""
    where = {"directory": str(tree["project"]), "home": str(tree["home"])}
    spec = Spec(**where, host="mermaid", trust=True, config=config)
    return _seen(build_server(gateway_environment(spec).environment))


def _seen(target: Any) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def run() -> None:
        with anyio.fail_after(STARTUP * 2):
            async with Client(target) as client:
                seen["instructions"] = client.instructions or ""
                tool = (await client.list_tools()).tools[0]
                seen["tool names"] = tool.input_schema["properties"]["name"]["enum"]
                listed = (await client.list_resources()).resources
                seen["resources"] = sorted({r.uri.split("/")[2] for r in listed})
                seen["prompts"] = sorted(p.name for p in (await client.list_prompts()).prompts)
                loaded = await client.call_tool("load_skill", {"name": "dup"})
                seen["dup"] = loaded.content[0].text  # type: ignore[union-attr]
                seen["refused"] = {}
                for name in ("draft-notes", "refund-policy"):
                    try:
                        await client.read_resource(f"skill://{name}/SKILL.md")
                    except MCPError as e:
                        seen["refused"][name] = e.data

    anyio.run(run)
    return seen


def test_the_profiles_winner_is_served_and_the_others_are_shadowed(tree):
    """mermaid's rule: a plugin's skills are bare names that dedupe with the project's
    and the user's, weakest (hosts/_gemini.py); a trusted project beats the user."""
    extra = ("--trust", "--plugin-dir", str(tree["plugin"]), "--root", str(tree["team"]))
    summary, seen = _served(tree, *extra)
    dup = f"{tree['project']}/.agents/skills/dup/SKILL.md"
    assert summary["shadowed"] == [
        {"name": "dup", "served": dup, "shadowed": f"{tree['home']}/.agents/skills/dup/SKILL.md"},
        {"name": "dup", "served": dup, "shadowed": f"{tree['plugin']}/skills/dup/SKILL.md"},
    ]
    assert summary["filtered"] == []
    assert seen["dup"].startswith('<skill_content name="dup">\nFrom the project.\n')
    names = ["draft-notes", "dup", "refund-policy", "team-tip", "user-only"]
    assert sorted(seen["tool names"]) == names
    assert seen["resources"] == names
    assert seen["prompts"] == ["deploy", "draft-review"]


def test_a_name_filter_removes_a_skill_and_a_command_everywhere(tree):
    config = _config(tree, '[filter]\ndeny = ["draft-*"]\n')
    seen = _served_here(tree, config)
    assert "draft-notes" not in seen["tool names"]
    assert "draft-notes" not in seen["resources"]
    assert "draft-notes" not in seen["instructions"]
    assert "- refund-policy: Refunds." in seen["instructions"]
    assert seen["prompts"] == ["deploy"]
    draft = {"code": "session.skill.unknown", "uri": "skill://draft-notes/SKILL.md"}
    assert seen["refused"] == {"draft-notes": draft}


def test_a_source_filter_serves_the_next_candidate_of_a_name(tree):
    config = _config(tree, '[filter]\nsources = ["user", "team", "plugin:plug"]\n')
    seen = _served_here(tree, config)
    assert seen["dup"].startswith('<skill_content name="dup">\nFrom the user.\n')
    assert sorted(seen["tool names"]) == ["dup", "team-tip", "user-only"]
    assert seen["resources"] == ["dup", "team-tip", "user-only"]
    assert seen["prompts"] == []  # both commands are the project's
    assert seen["refused"] == {
        "draft-notes": {"code": "session.skill.unknown", "uri": "skill://draft-notes/SKILL.md"},
        "refund-policy": {
            "code": "session.skill.unknown",
            "uri": "skill://refund-policy/SKILL.md",
        },
    }


def test_the_trust_filter_serves_a_project_only_once_satchel_trust_recorded_it(tree):
    config = _config(tree, "[filter]\ntrusted_only = true\n")
    seen = _served_here(tree, config)  # --trust is not a record
    assert seen["dup"].startswith('<skill_content name="dup">\nFrom the user.\n')
    assert "refund-policy" not in seen["tool names"]
    assert seen["prompts"] == []
    spec = Spec(
        directory=str(tree["project"]), home=str(tree["home"]), host="mermaid", config=config
    )
    mermaid = hosts.get("mermaid").layout(tree["project"], home=tree["home"])
    trust(mermaid, tree["project"])
    served = gateway_environment(spec).environment
    assert served.skills["dup"].path == tree["project"] / ".agents/skills/dup/SKILL.md"
    assert "refund-policy" in served.skills


def test_the_trust_filter_holds_back_a_project_plugins_skills_as_the_load_decides(tree):
    """`trusted_only` is the load's one decision: a project plugin of a folder that
    `satchel trust` never recorded is not served, though ``--trust`` loaded it."""
    kit = tree["project"] / ".agents" / "plugins" / "kit"
    put(kit / ".claude-plugin" / "plugin.json", '{"name": "kit"}')
    write_skill(kit / "skills", "kit-tip", description="The kit's tip.")
    config = _config(tree, "[filter]\ntrusted_only = true\n")
    where = {"directory": str(tree["project"]), "home": str(tree["home"]), "host": "mermaid"}
    served = gateway_environment(Spec(**where, trust=True, config=config)).environment
    assert "kit-tip" not in served.skills
    assert (served.trust.state, served.trust.folder) == ("hidden", False)
    assert "kit-tip" in gateway_environment(Spec(**where, trust=True)).environment.skills
    trust(hosts.get("mermaid").layout(tree["project"], home=tree["home"]), tree["project"])
    served = gateway_environment(Spec(**where, config=config)).environment
    assert "kit-tip" in served.skills


def test_config_problems_by_code_and_message(tmp_path):
    (tmp_path / "here").mkdir()
    path = put(
        tmp_path / "gateway.toml",
        'hosts = "codex"\n'
        '[sources.ok]\nkind = "skills"\npath = "here"\ncolour = "red"\n'
        '[sources.far]\nkind = "mcp"\n'
        '[sources.odd]\nkind = "ftp"\n'
        '[sources.gone]\nkind = "plugin"\npath = "nowhere"\n'
        '[filter]\nallow = "dup"\nsources = ["ok", "teams"]\ntrusted_only = "yes"\n',
    )
    config, problems = read_config(path)
    assert [(p.code, p.severity, p.message) for p in problems] == [
        (
            "mcp.gateway.config.unknown",
            "warning",
            "gateway.toml: unknown key hosts (known: host, project, sources, filter); "
            "it is ignored",
        ),
        (
            "mcp.gateway.config.unknown",
            "warning",
            "gateway.toml: unknown key sources.ok.colour (known: sources.ok.kind, "
            "sources.ok.path); it is ignored",
        ),
        (
            "mcp.gateway.config.invalid",
            "error",
            "gateway.toml: sources.far: it needs a command (with args) or a url, not both",
        ),
        (
            "mcp.gateway.source.unavailable",
            "error",
            "gateway.toml: sources.odd.kind is 'ftp'; a source is one of 'skills', 'plugin', "
            "'mcp'",
        ),
        (
            "mcp.gateway.config.invalid",
            "error",
            "gateway.toml: sources.gone.path 'nowhere' is not a directory",
        ),
        (INVALID, "error", "gateway.toml: filter.allow must be a list of strings"),
        (
            "mcp.gateway.config.invalid",
            "error",
            "gateway.toml: filter.sources names 'teams', which is no source (known: project, "
            "user, plugins, extra, catalog, written, ok, plugin:<name>)",
        ),
        (INVALID, "error", "gateway.toml: filter.trusted_only must be true or false"),
    ]  # fmt: skip
    assert [s.label for s in config.sources] == ["ok"]
    broken = put(tmp_path / "broken.toml", "[filter\n")
    _, problems = read_config(broken)
    assert [p.code for p in problems] == ["mcp.gateway.config.invalid"]
    assert problems[0].message.startswith("broken.toml: cannot be read: ")


def test_a_config_error_is_refused_before_anything_is_served(tree, capsys):
    config = _config(tree, '[filter]\nsources = ["teams"]\n')
    code = main(["serve", str(tree["project"]), "--home", str(tree["home"]), "--config", config])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert " ".join(captured.err.split()) == (
        "satchel: mcp.gateway.config.invalid: gateway.toml: filter.sources names 'teams', "
        "which is no source (known: project, user, plugins, extra, catalog, written, team, "
        "tools, plugin:<name>)"
    )
    code = main(["serve", str(tree["project"]), "--workers", "2", "--http", "127.0.0.1:0",
                 "--tools", "skills"])  # fmt: skip
    assert code == 2
    assert "--workers above 1 needs --http and --tools load_skill" in capsys.readouterr().err


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc for parent pids")
def test_two_workers_answer_concurrent_requests_alike(tree):
    env = {
        "HOME": str(tree["home"]),
        "PATH": os.environ.get("PATH", ""),
        "SATCHEL_GATEWAY_DEBUG": "1",
    }
    argv = [*_argv(tree, "--trust", "--http", "127.0.0.1:0", "--workers", "2", "--json")]
    with contextlib.ExitStack() as stack:
        proc = stack.enter_context(
            subprocess.Popen(
                [sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        )
        stack.callback(_stop, proc)
        lines: queue.Queue[bytes] = queue.Queue()
        err = proc.stderr
        assert err is not None
        threading.Thread(target=lambda: lines.put(err.readline()), daemon=True).start()
        summary = json.loads(lines.get(timeout=STARTUP))
        assert summary["workers"] == 2
        url = summary["url"]
        answers: list[tuple[bool, str, str]] = []
        workers: list[str] = []

        async def one() -> None:
            async with Client(url) as client:
                loaded = await client.call_tool("load_skill", {"name": "dup"})
                read = await client.read_resource("skill://refund-policy/SKILL.md")
                text = loaded.content[0].text  # type: ignore[union-attr]
                answers.append((loaded.is_error, text, read.contents[0].text))  # type: ignore[union-attr]

        async def tag() -> None:
            request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
            headers = {"accept": "application/json, text/event-stream"}
            async with httpx.AsyncClient(timeout=STARTUP) as http:  # a connection of its own
                answer = await http.post(url, json=request, headers=headers)
                assert answer.status_code == 200
                workers.append(answer.headers["x-satchel-worker"])

        async def run() -> None:
            with anyio.fail_after(STARTUP * 2):
                async with anyio.create_task_group() as group:
                    for _ in range(20):
                        group.start_soon(one)
                        group.start_soon(tag)

        anyio.run(run)
        assert len(answers) == 20
        assert len(set(answers)) == 1
        is_error, text, _ = answers[0]
        assert not is_error
        assert text.startswith('<skill_content name="dup">\nFrom the project.\n')
        assert len(workers) == 20
        assert {_parent(int(pid)) for pid in set(workers)} == {proc.pid}  # workers answered


def test_the_load_bench_runs_with_tiny_numbers(tmp_path):
    """The bench runs end to end and counts no error; one session of two calls (a tool
    call and a resource read) and one worker: several workers answering alike is
    `test_two_workers_answer_concurrent_requests_alike`."""
    done = subprocess.run(
        [sys.executable, "bench/serve_load.py", "--sessions", "1", "--calls", "2",
         "--workers", "1", "--rounds", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=STARTUP * 3,
        env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "errors 0" in done.stdout


def test_a_skills_extension_server_is_a_source_its_files_served_as_published(
    tree, monkeypatch, private_cache
):
    """A FastMCP skills server over stdio as ``kind = "mcp"``: its skills are fetched,
    verified and served with their bytes, under the source's label; two of one name
    keep the first; the load keeps no discovery cache for the passing copy; the
    policy's [mcp] deny keeps the server from starting."""
    served_root = skills_root(tree["tmp"] / "remote")
    source = (
        f'[sources.docs]\nkind = "mcp"\ncommand = {json.dumps(sys.executable)}\n'
        f"args = {json.dumps([str(FASTMCP), str(served_root)])}\n\n"
    )
    config = put(tree["tmp"] / "gateway.toml", source + '[filter]\nsources = ["docs"]\n')
    spec = Spec(directory=str(tree["project"]), home=str(tree["home"]), config=str(config))
    selection = gateway_environment(spec)
    env = selection.environment
    assert sorted(env.skills) == ["pdf", "refunds"]
    pdf = env.skills["pdf"]
    assert pdf.directory is not None
    for rel in ("SKILL.md", "refs/a.md"):
        assert (pdf.directory / rel).read_bytes() == (served_root / "pdf" / rel).read_bytes()
    assert "Refunds the acme way." in env.skills["refunds"].description
    assert not private_cache.exists()  # the same gateway without the mcp source writes it
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("mcp.")] == [
        (
            "mcp.gateway.source.duplicate",
            "skill server 'docs' lists two skills named 'refunds'; "
            "skill://beta/refunds/SKILL.md is not served",
        )
    ]
    policy_dir = tree["tmp"] / "policy"
    put(policy_dir / "policy.toml", '[mcp]\ndeny = ["docs"]\n')
    monkeypatch.setenv("SATCHEL_POLICY_DIR", str(policy_dir))
    refused = gateway_environment(spec).environment
    assert dict(refused.skills) == {}
    assert [d.message for d in refused.diagnostics if d.code == "policy.denied"] == [
        f"MCP server 'docs' is refused by policy key `mcp.deny` in {policy_dir / 'policy.toml'}"
    ]


def test_a_skill_whose_files_cannot_be_kept_is_not_served(tree):
    """A manifest with a file ``refs`` and a file ``refs/a.md``: each verifies, but the
    two cannot both be kept on disk, so the skill is reported and not served."""
    source = (
        f'[sources.t]\nkind = "mcp"\ncommand = {json.dumps(sys.executable)}\n'
        f"args = {json.dumps([str(TAMPERED), '--clash'])}\n\n"
    )
    config = put(tree["tmp"] / "gateway.toml", source + '[filter]\nsources = ["t"]\n')
    spec = Spec(directory=str(tree["project"]), home=str(tree["home"]), config=str(config))
    env = gateway_environment(spec).environment
    assert dict(env.skills) == {}
    found = [(d.code, d.message) for d in env.diagnostics if d.code.startswith("mcp.")]
    assert [code for code, _ in found] == ["mcp.gateway.source.unwritable"]
    assert found[0][1].startswith("skill skill://pdf/SKILL.md of server 't' cannot be kept: ")


def test_a_source_entry_whose_path_would_leave_its_tree_is_not_copied(tree, monkeypatch):
    """The gateway copies a server's files into a private directory: every path the
    server gives goes through the archive extractor's rule first, so a hostile entry is
    refused, nothing of it written anywhere, and the good skill beside it is served."""
    skills, files, why = hostile_listing(tree["tmp"] / "abs")
    argv = hostile(tree["tmp"] / "spec.json", skills, files)
    source = (
        f'[sources.h]\nkind = "mcp"\ncommand = {json.dumps(argv[0])}\n'
        f"args = {json.dumps(argv[1:])}\n\n"
    )
    config = put(tree["tmp"] / "gateway.toml", source + '[filter]\nsources = ["h"]\n')
    spec = Spec(directory=str(tree["project"]), home=str(tree["home"]), config=str(config))
    private = tree["tmp"] / "private"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))  # the gateway's copy goes here
    env = gateway_environment(spec).environment
    assert sorted(env.skills) == ["pdf"]
    (into,) = private.iterdir()
    assert sorted(p.relative_to(into).as_posix() for p in into.rglob("*")) == [
        "h",
        "h/pdf",
        "h/pdf/SKILL.md",
    ]
    assert [(d.code, d.message) for d in env.diagnostics if d.code.startswith("mcp.")] == [
        ("mcp.skills.path", f"skill {uri} of server 'h' is refused: {reason}")
        for uri, reason in why
    ]
    assert [p for p in tree["tmp"].rglob("*") if "evil" in p.name] == []


def test_a_bad_user_profile_is_among_the_served_environments_diagnostics(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".config" / "satchel").mkdir(parents=True)
    (home / ".config" / "satchel" / "config.toml").write_text(
        '[hosts.acme]\nbase = "kimi"\ncolour = 1\n'
    )
    (project / ".git").mkdir(parents=True)
    spec = Spec(project=str(project), home=str(home), host="acme")
    found = gateway_environment(spec).environment.diagnostics
    assert (found[0].code, found[0].message) == (
        "host.config.invalid",
        "[hosts.acme]: unknown key 'colour'; left out",
    )

"""`satchel compat`: the table and the JSON envelope for the example workspace, each
example plugin and a plugin shipped for three hosts, against golden files; --require's
exit codes; --host."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

import pytest

from satchel.hosts import PROFILES
from tests.cli.support import HOME, REPO, WHERE, WORKSPACE, cli_text
from tests.support import golden

GOLDEN = Path(__file__).parent / "golden"
check_golden = partial(golden.check_golden, directory=GOLDEN, clean=cli_text)
PLUGINS = sorted(p.name for p in (WORKSPACE / ".satchel" / "plugins").iterdir())
SNIPPETS = HOME / ".agents" / "plugins" / "snippets"


def _hosts(document: dict) -> list[str]:
    return [h["host"] for h in document["hosts"]]


def test_the_workspace_as_every_host_reads_it(satchel, in_repo):
    result = satchel("compat", *WHERE)
    assert result.code == 0
    check_golden("workspace.txt", result.out)


def test_the_workspace_as_json(satchel, in_repo):
    result = satchel("compat", *WHERE, "--json")
    assert result.code == 0
    document = result.json()
    assert document["kind"] == "project"
    assert _hosts(document) == list(PROFILES)
    check_golden("workspace.json", result.out)


def test_the_workspace_given_as_path_or_with_project(satchel, in_repo):
    """--project names the project root, as on the other loading verbs; PATH alone is
    read as each host's layout decides its project root."""
    given = satchel("compat", *WHERE, "--host", "satchel", "--json").json()
    plain = satchel("compat", "examples/workspace", "--home", "examples/home", "--host", "satchel")
    assert given["kind"] == "project"
    assert given["path"] == str(WORKSPACE)
    assert plain.code == 0
    assert "compat: examples/workspace (project)" in plain.out


@pytest.mark.parametrize("name", PLUGINS)
def test_each_example_plugin(satchel, in_repo, name):
    where = f"examples/workspace/.satchel/plugins/{name}"
    text = satchel("compat", where)
    document = satchel("compat", where, "--json")
    assert document.json()["kind"] == "plugin"
    check_golden(f"plugin-{name}.txt", text.out)
    check_golden(f"plugin-{name}.json", document.out)


def test_the_user_plugin(satchel, in_repo):
    result = satchel("compat", SNIPPETS.relative_to(REPO))
    check_golden("plugin-snippets.txt", result.out)


def test_a_lone_skill(satchel, in_repo):
    result = satchel("compat", "examples/workspace/.agents/skills/db-migrations", "--json")
    document = result.json()
    assert document["kind"] == "skill"
    assert {h["host"]: h["loads"]["skills"] for h in document["hosts"]} == {
        name: ["db-migrations"] for name in PROFILES
    }
    check_golden("skill-db-migrations.json", result.out)


def _tmp(text: str, root: Path) -> str:
    return text.replace(str(root), "<tmp>")


def test_the_three_host_plugin(satchel, triple):
    text = satchel("compat", "triple")
    document = satchel("compat", "triple", "--json")
    assert text.code == document.code == 0
    check_golden("triple.txt", _tmp(text.out, triple.parent))
    check_golden("triple.json", _tmp(document.out, triple.parent))


def test_the_three_host_plugin_loads_under_each_hosts_names(satchel, triple):
    hosts = {h["host"]: h for h in satchel("compat", "triple", "--json").json()["hosts"]}
    assert hosts["claude-code"]["loads"]["skills"] == ["triple:review"]
    assert hosts["mermaid"]["loads"]["skills"] == ["review"]  # bare plugin skill names
    assert hosts["vibe"]["loads"]["hooks"] == []
    assert hosts["claude-code"]["loads"]["hooks"] == [
        "plugin:triple/PreToolUse/Bash",
        "plugin:triple/TeammateIdle/*",
    ]
    assert hosts["claude-code"]["drops"] == []


def test_require_passes_when_the_host_drops_nothing(satchel, triple):
    assert satchel("compat", "triple", "--require", "claude-code").code == 0


def test_require_fails_when_the_host_drops_something(satchel, triple):
    result = satchel("compat", "triple", "--require", "claude-code,codex")
    assert result.code == 1
    only = satchel("compat", "triple", "--host", "claude-code", "--require", "codex", "--json")
    assert only.code == 1
    assert _hosts(only.json()) == ["claude-code", "codex"]  # a required host is reported


def test_an_unknown_host_is_a_usage_error(satchel, triple):
    result = satchel("compat", "triple", "--require", "nonesuch")
    assert result.code == 2
    assert "nonesuch" in result.err
    assert satchel("compat", "triple", "--host", "claude-code,nonesuch").code == 2


def test_host_picks_and_orders_the_hosts(satchel, triple):
    document = satchel("compat", "triple", "--host", "vibe, codex,vibe", "--json").json()
    assert _hosts(document) == ["vibe", "codex"]


def test_the_scratch_view_writes_nothing_into_the_subject(satchel, triple):
    before = sorted(p.relative_to(triple) for p in triple.rglob("*"))
    satchel("compat", "triple/skills/review")
    satchel("compat", "triple")
    assert sorted(p.relative_to(triple) for p in triple.rglob("*")) == before
    assert sorted(p.name for p in triple.parent.iterdir()) == ["triple"]


def test_the_json_is_one_envelope(satchel, triple):
    document = json.loads(satchel("compat", "triple", "--json").out)
    assert set(document) == {"version", "path", "kind", "hosts", "diagnostics"}
    assert set(document["hosts"][0]) == {
        "host", "title", "loads", "drops", "tokens", "ported", "verdict"
    }  # fmt: skip
    assert set(document["hosts"][0]["ported"]) == {
        "target", "written", "loads", "drops", "problems"
    }  # fmt: skip


def test_require_fails_for_a_drop_the_loader_only_warns_about(satchel, tmp_path):
    """An agent file over Claude Code's size limit: the loader warns, and compat counts
    it as dropped, so --require claude-code fails."""
    root = tmp_path / "kit"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "kit"}\n')
    (root / "agents").mkdir()
    big = "---\nname: big\ndescription: d\n---\n" + "x" * (1 << 20) + "\n"
    (root / "agents" / "big.md").write_text(big)
    result = satchel("compat", str(root), "--require", "claude-code", "--json")
    assert result.code == 1
    hosts = {h["host"]: h for h in result.json()["hosts"]}
    assert [d["code"] for d in hosts["claude-code"]["drops"]] == ["compat.load.refused"]


PR_TOOLS = "examples/workspace/.satchel/plugins/pr-tools"


MEETING_NOTES = "examples/workspace/.satchel/plugins/meeting-notes"


def test_require_passes_when_port_makes_the_host_load_everything(satchel, in_repo):
    """Cursor reads nothing of the Kimi Code plugin (a skill, a hook, an MCP server) as
    shipped, and all of it once port wrote its manifest: --require passes,
    --require-as-shipped does not."""
    document = satchel("compat", MEETING_NOTES, "--host", "cursor", "--json").json()
    (cursor,) = document["hosts"]
    assert [d["code"] for d in cursor["drops"]] == ["compat.format.unread"]
    assert cursor["ported"]["written"] is True
    assert cursor["ported"]["drops"] == []
    loads = cursor["ported"]["loads"]
    assert (loads["skills"], loads["hooks"], loads["mcp_servers"]) == (
        ["meeting-notes:meeting-notes"],
        ["plugin:meeting-notes/sessionStart/startup"],
        ["plugin:meeting-notes:calendar"],
    )
    assert cursor["verdict"] == "port"
    assert satchel("compat", MEETING_NOTES, "--require", "cursor").code == 0
    assert satchel("compat", MEETING_NOTES, "--require-as-shipped", "cursor").code == 1


def test_a_hook_the_host_reads_otherwise_is_not_made_loadable_by_port(satchel, in_repo):
    """pr-tools' guard refuses with Claude Code's permissionDecision, which Gemini CLI
    does not read, and Cursor fires no hook for Edit: port writes both hosts' hooks and
    says what differs, so neither is a host port makes load everything; the hooks
    file both Claude Code and Gemini CLI read is not counted against Gemini CLI."""
    document = satchel("compat", PR_TOOLS, "--host", "gemini,cursor", "--json").json()
    gemini, cursor = document["hosts"]
    codes = [d["code"] for d in gemini["ported"]["drops"]]
    assert "port.hook.answer" in codes
    assert not any(
        d["message"].startswith("plugin.hooks.invalid") for d in gemini["ported"]["drops"]
    )
    assert [d["code"] for d in cursor["ported"]["drops"]] == ["port.hook.tool"]
    assert (gemini["verdict"], cursor["verdict"]) == ("neither", "neither")
    assert satchel("compat", PR_TOOLS, "--require", "cursor").code == 1


def test_require_fails_for_what_neither_the_plugin_nor_port_makes_load(satchel, in_repo):
    """Codex keeps no command or agent of a plugin either way."""
    document = satchel("compat", PR_TOOLS, "--host", "codex", "--json").json()
    (codex,) = document["hosts"]
    assert codex["verdict"] == "neither"
    assert {d["code"] for d in codex["ported"]["drops"]} >= {
        "port.command.unsupported", "port.agent.unsupported"
    }  # fmt: skip
    assert satchel("compat", PR_TOOLS, "--require", "codex").code == 1


def test_a_host_port_writes_nothing_for_is_judged_as_shipped(satchel, in_repo):
    document = satchel("compat", PR_TOOLS, "--host", "claude-code", "--json").json()
    (claude,) = document["hosts"]
    assert claude["ported"]["written"] is False
    assert [d["code"] for d in claude["ported"]["problems"]] == ["port.target.source"]
    assert claude["ported"]["loads"] == claude["loads"]
    assert claude["verdict"] == "as-shipped"


def test_a_lone_skill_and_a_project_have_no_port_view(satchel, in_repo):
    skill = satchel("compat", "examples/workspace/.agents/skills/db-migrations", "--json").json()
    assert {h["ported"] is None for h in skill["hosts"]} == {True}
    project = satchel("compat", *WHERE, "--host", "codex", "--json").json()
    assert project["hosts"][0]["ported"] is None


def test_a_named_pipe_in_the_plugin_is_left_out_of_the_port_view(satchel, triple):
    """The scratch copy port writes into takes files, folders and links only: a named
    pipe would hang a copy that read it."""
    os.mkfifo(triple / "skills" / "pipe")
    document = satchel("compat", "triple", "--host", "kimi", "--json").json()
    (kimi,) = document["hosts"]
    assert kimi["ported"]["written"] is True
    assert kimi["ported"]["problems"] == []
    assert kimi["ported"]["loads"]["skills"] == ["triple:review"]

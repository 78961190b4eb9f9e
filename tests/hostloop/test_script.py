"""`scripts/hostloop`: run once per pinned host on one small project (all at once, in
the module's fixture) and read back what it printed."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests import tools
from tests.support import put, skill_md

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "hostloop"
ALPHA = "Alpha helps with alpha."
CLAUDE_HOOK = {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre-bash"}]}]
}
GEMINI_HOOK = {
    "BeforeTool": [
        {
            "matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "echo pre-shell"}],
        }
    ]
}
CODEX_HOOK = {
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo codex-prompt"}]}]
}
AGENT = "---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep\n---\nYou review.\n"

# host option -> (finder, the script's flags)
RUNS: dict[str, tuple[Callable[[], Path | None], list[str]]] = {
    "claude-code": (
        tools.claude_code,
        [
            "--call",
            "Bash",
            '{"command": "echo hi"}',
            "--skill",
            "alpha",
            "--agent",
            "reviewer",
            "look",
            "--text",
            "reviewed",
            "--text",
            "done",
            "--allow",
            "Bash(echo:*)",
        ],
    ),
    f"claude-code-{tools.CLAUDE_NEXT_VERSION}": (
        tools.claude_code_next,
        ["--call", "Bash", '{"command": "echo hi"}', "--text", "done", "--allow", "Bash(echo:*)"],
    ),
    "codex": (tools.codex, ["--text", "done"]),
    "gemini": (
        tools.gemini_cli,
        [
            "--call",
            "run_shell_command",
            '{"command": "echo hi"}',
            "--skill",
            "alpha",
            "--text",
            "done",
        ],
    ),
}


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for family in (".claude", ".agents", ".gemini"):
        put(root, f"{family}/skills/alpha/SKILL.md", skill_md("alpha", ALPHA))
    put(root, ".claude/agents/reviewer.md", AGENT)
    put(root, "CLAUDE.md", "Claude rules.\n")
    put(root, "AGENTS.md", "Agents rules.\n")
    put(root, "GEMINI.md", "Gemini rules.\n")
    put(root, ".claude/settings.json", json.dumps({"hooks": CLAUDE_HOOK}))
    put(root, ".gemini/settings.json", json.dumps({"hooks": GEMINI_HOOK}))
    put(root, ".codex/hooks.json", json.dumps({"hooks": CODEX_HOOK}))
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _hostloop(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(project.parent / "nohome")}
    return subprocess.run(
        [str(SCRIPT), str(project), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every installed host's `--json` document, the text run's output, and whether the
    project was left as it was."""
    project = _project(tmp_path_factory.mktemp("hostloop") / "project")
    before = _tree(project)
    jobs = {h: ["--host", h, "--json", *flags] for h, (find, flags) in RUNS.items() if find()}
    if tools.codex():
        script = project.parent / "script.toml"  # the replies from a file, not flags
        script.write_text('prompt = "from the script"\nreplies = [{text = "done"}]\n')
        jobs["text"] = ["--host", "codex", "--script", str(script)]
    with ThreadPoolExecutor(len(jobs) or 1) as pool:
        done = dict(
            zip(jobs, pool.map(lambda a: _hostloop(project, *a), jobs.values()), strict=True)
        )
    return {"project": project, "done": done, "unchanged": _tree(project) == before}


def _doc(ran: dict[str, Any], host: str) -> dict[str, Any]:
    if host not in ran["done"]:
        pytest.skip(f"{host} is not in .tools/")
    done = ran["done"][host]
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def _payloads(doc: dict[str, Any], hook: str) -> list[dict[str, Any]]:
    return [h["payload"] for h in doc["hooks"] if h["hook"] == hook]


def test_the_project_is_only_read(ran: dict[str, Any]) -> None:
    assert ran["done"], "no host is installed"
    assert ran["unchanged"]


@pytest.mark.parametrize("host", ["claude-code", f"claude-code-{tools.CLAUDE_NEXT_VERSION}"])
def test_claude_code_shows_listings_files_and_the_hooks_it_ran(
    ran: dict[str, Any], host: str
) -> None:
    doc = _doc(ran, host)
    project = ran["project"].resolve()
    assert doc["host"] == "claude" and doc["model"] == "claude-opus-5-5"
    assert doc["output"].strip().endswith("done")
    assert f"- alpha: {ALPHA}" in doc["skills"]
    assert "- reviewer: Reviews code. (Tools: Read, Grep)" in doc["agents"]
    assert {"Bash", "Skill", "Agent"} <= set(doc["tools"])
    files = [(i["path"], i["kind"], i["text"]) for i in doc["instructions"]]
    assert files == [
        (
            str(project / "CLAUDE.md"),
            "project instructions, checked into the codebase",
            "Claude rules.",
        )
    ]
    [pre] = _payloads(doc, ".claude/settings.json PreToolUse#Bash echo pre-bash")
    assert pre["tool_name"] == "Bash" and pre["tool_input"] == {"command": "echo hi"}
    assert pre["cwd"] == str(project)  # the scratch copy's path is shown as the project's
    assert [h["stdout"] for h in doc["hooks"] if h["hook"].endswith("echo pre-bash")] == [
        "pre-bash\n"
    ]
    events = [h["event"] for h in doc["hooks"] if h["hook"].startswith("observer ")]
    assert events[:3] == ["SessionStart", "UserPromptSubmit", "PreToolUse"]
    assert "Stop" in events


def test_claude_code_runs_the_scripted_skill(ran: dict[str, Any]) -> None:
    doc = _doc(ran, "claude-code")
    skill = [p for p in _payloads(doc, "observer PreToolUse") if p["tool_name"] == "Skill"]
    assert [p["tool_input"] for p in skill] == [{"skill": "alpha"}]


def test_claude_code_runs_the_scripted_subagent(ran: dict[str, Any]) -> None:
    doc = _doc(ran, "claude-code")
    [start] = _payloads(doc, "observer SubagentStart")
    [stop] = _payloads(doc, "observer SubagentStop")
    assert start["agent_type"] == stop["agent_type"] == "reviewer"
    called = [p for p in _payloads(doc, "observer PreToolUse") if p["tool_name"] == "Agent"]
    assert [p["tool_input"]["subagent_type"] for p in called] == ["reviewer"]


def test_codex_shows_its_listing_agents_md_and_hooks(ran: dict[str, Any]) -> None:
    doc = _doc(ran, "codex")
    project = ran["project"].resolve()
    assert doc["host"] == "codex" and doc["output"].strip() == "done"
    assert f"- alpha: {ALPHA} (file: r1/alpha/SKILL.md)" in doc["skills"]
    assert "functions.exec" in doc["tools"]
    assert [(i["path"], i["text"]) for i in doc["instructions"]] == [
        (str(project), "Agents rules.\n")
    ]
    [hook] = [h for h in doc["hooks"] if h["hook"].startswith(".codex/hooks.json")]
    assert hook["event"] == "UserPromptSubmit" and hook["payload"]["prompt"] == "go"
    assert hook["stdout"] == "codex-prompt\n"


def test_gemini_cli_shows_its_listing_gemini_md_and_hooks(ran: dict[str, Any]) -> None:
    doc = _doc(ran, "gemini")
    project = ran["project"].resolve()
    assert doc["host"] == "gemini" and doc["output"].strip() == "done"
    assert f"- alpha: {ALPHA}" in doc["skills"]
    assert {"run_shell_command", "activate_skill"} <= set(doc["tools"])
    assert [(i["path"], i["kind"], i["text"]) for i in doc["instructions"]] == [
        (str(project / "GEMINI.md"), "project", "Gemini rules.")
    ]
    [pre] = _payloads(doc, ".gemini/settings.json BeforeTool#run_shell_command echo pre-shell")
    assert pre["tool_input"] == {"command": "echo hi"}
    names = [p["tool_name"] for p in _payloads(doc, "observer BeforeTool")]
    assert names == ["run_shell_command", "activate_skill"]


def test_the_text_report_has_each_part_under_its_heading(ran: dict[str, Any]) -> None:
    if "text" not in ran["done"]:
        pytest.skip("Codex is not in .tools/")
    done = ran["done"]["text"]
    assert done.returncode == 0, done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("== ")]
    assert [h.split(" (")[0].strip("= ") for h in heads] == [
        "tools",
        "skills listing",
        "agent types",
        "instruction files",
        "hooks run",
        "output",
    ]
    assert done.stdout.startswith("host: codex   model: gpt-6.2-sol   exit: 0\n")
    assert '"prompt": "from the script"' in done.stdout  # the UserPromptSubmit payload
    assert done.stdout.endswith("== output ==\ndone\n")


def test_a_reply_the_host_cannot_make_is_refused(ran: dict[str, Any]) -> None:
    if "text" not in ran["done"]:
        pytest.skip("Codex is not in .tools/")
    done = _hostloop(ran["project"], "--host", "codex", "--skill", "alpha")
    assert done.returncode == 2
    assert done.stderr == (
        "hostloop: Codex has no skill tool: its model reads SKILL.md with a tool call\n"
    )

"""The harness itself: each pinned host runs one turn against the scripted model,
sends it the project's skill, and runs the tool call the script asks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostloop.hosts import run_claude, run_codex, run_gemini
from tests.hostloop.model import Call, Text
from tests.support import put, skill_md


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for family in (".claude", ".agents", ".gemini"):
        put(root, f"{family}/skills/alpha/SKILL.md", skill_md("alpha", "Alpha helps with alpha."))
    return root


def _seen(texts: object) -> str:
    return str(texts)


@pytest.mark.parametrize("which", ["claude_code", "claude_code_next"])
def test_claude_code_sends_the_skill_and_runs_the_scripted_call(
    request: pytest.FixtureRequest, project: Path, tmp_path: Path, which: str
) -> None:
    binary = request.getfixturevalue(which)
    script = [Call("Bash", {"command": "echo hostloop-ran"}), Text("finished")]
    turn = run_claude(
        binary, project, tmp_path / "home", "go", script, args=["--allowedTools", "Bash(echo:*)"]
    )
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert "- alpha: Alpha helps with alpha." in _seen(turn.turns[0].body["messages"])
    assert "hostloop-ran" in _seen(turn.turns[1].body["messages"][-1])  # the tool's result


def test_codex_sends_the_skill(codex: Path, project: Path, tmp_path: Path) -> None:
    turn = run_codex(codex, project, tmp_path / "home", "go", [Text("finished")])
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert "- alpha: Alpha helps with alpha." in _seen(turn.turns[0].body["input"])


def test_gemini_cli_sends_the_skill_and_runs_the_scripted_call(
    gemini: Path, project: Path, tmp_path: Path
) -> None:
    script = [Call("run_shell_command", {"command": "echo hostloop > ran.txt"}), Text("finished")]
    turn = run_gemini(gemini, project, tmp_path / "home", "go", script, args=["--yolo"])
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert "alpha" in _seen(turn.turns[0].body["systemInstruction"])
    assert (project / "ran.txt").read_text() == "hostloop\n"

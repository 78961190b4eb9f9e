"""The harness itself: each pinned host runs one turn against the scripted model,
sends it the project's skill, and runs the tool call the script asks for (the project
and the runs: tests/hostloop/project_runs.py, shared with test_context.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostloop.hosts import Turn
from tests.hostloop.project_runs import ALPHA, ran


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Turn]]:
    """The project and each installed host's turn on it."""
    project, _, turns = ran(tmp_path_factory)
    return project, turns


def _seen(texts: object) -> str:
    return str(texts)


@pytest.mark.parametrize(
    ("which", "name"), [("claude_code", "claude-code"), ("claude_code_next", "claude-code-next")]
)
def test_claude_code_sends_the_skill_and_runs_the_scripted_call(
    request: pytest.FixtureRequest, hosted: tuple[Path, dict[str, Turn]], which: str, name: str
) -> None:
    request.getfixturevalue(which)  # skips when the version is not in .tools/
    turn = hosted[1][name]
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert f"- alpha: {ALPHA}" in _seen(turn.turns[0].body["messages"])
    assert "hostloop-ran" in _seen(turn.turns[1].body["messages"][-1])  # the tool's result


def test_codex_sends_the_skill(codex: Path, hosted: tuple[Path, dict[str, Turn]]) -> None:
    turn = hosted[1]["codex"]
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert f"- alpha: {ALPHA}" in _seen(turn.turns[0].body["input"])


def test_gemini_cli_sends_the_skill_and_runs_the_scripted_call(
    gemini: Path, hosted: tuple[Path, dict[str, Turn]]
) -> None:
    project, turns = hosted
    turn = turns["gemini"]
    assert turn.returncode == 0, turn.stderr
    assert "finished" in turn.stdout
    assert "alpha" in _seen(turn.turns[0].body["systemInstruction"])
    assert (project / "sub/ran.txt").read_text() == "hostloop\n"

"""What Claude Code 2.1.332 does with a plugin's ``hooks/hooks.json`` that Gemini CLI
reads too: the facts port's layout for a hooks file two hosts read rests on
(`satchel.port._shared`).

One plugin whose manifest names a hooks file of its own (``"hooks":
"./hooks/claude-code.json"``) and whose ``hooks/hooks.json`` holds a Claude Code event
and a Gemini CLI one. ``claude plugin validate --json`` and one ``claude -p`` turn with
``--plugin-dir`` (the model calls ``Bash`` once) say which hooks Claude Code reads and
runs: every hook writes a marker named after its file and event."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hostloop.hosts import Turn, run_claude
from tests.hostloop.model import Call, Text
from tests.hostloop.shared import once
from tests.support import put
from tests.tools import claude_validate


def _entry(marks: Path, tag: str, matcher: str | None = None) -> list[dict[str, object]]:
    hook = {"type": "command", "command": f'touch "{marks}/{tag}"'}
    return [{**({} if matcher is None else {"matcher": matcher}), "hooks": [hook]}]


def two_files(base: Path) -> Path:
    """The plugin, its markers' folder beside it."""
    marks, root = base / "marks", base / "kit"
    marks.mkdir(parents=True)
    put(
        root / ".claude-plugin/plugin.json",
        json.dumps({"name": "kit", "version": "1.0.0", "hooks": "./hooks/claude-code.json"}),
    )
    shared = {
        "PreToolUse": _entry(marks, "hooks-json-PreToolUse", "Bash"),
        "BeforeTool": _entry(marks, "hooks-json-BeforeTool", "run_shell_command"),
        "SessionStart": _entry(marks, "hooks-json-SessionStart"),
    }
    put(root / "hooks/hooks.json", json.dumps({"hooks": shared}))
    own = {"PreToolUse": _entry(marks, "claude-code-json-PreToolUse", "Bash")}
    put(root / "hooks/claude-code.json", json.dumps({"hooks": own}))
    return root


@pytest.fixture(scope="module")
def ran(claude_code: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Turn]:
    def make(base: Path) -> dict[str, Turn]:
        root = two_files(base)
        project = base / "project"
        project.mkdir()
        script = (Call("Bash", {"command": "echo hi"}), Text("done"))
        args = ["--plugin-dir", str(root), "--allowedTools", "Bash(echo:*)"]
        return {"turn": run_claude(claude_code, project, base / "home", "go", script, args=args)}

    base, turns = once(tmp_path_factory, "port-shared-hooks-file", make)
    return base, turns["turn"]


def test_claude_code_runs_hooks_json_beside_the_file_its_manifest_names(ran):
    base, turn = ran
    assert turn.returncode == 0, turn.stderr
    assert sorted(os.listdir(base / "marks")) == [
        "claude-code-json-PreToolUse", "hooks-json-PreToolUse", "hooks-json-SessionStart",
    ]  # fmt: skip


def test_claude_code_validate_lists_both_files_and_ignores_an_event_it_lacks(claude_code, ran):
    base, _ = ran
    home = base / "validate-home"
    home.mkdir(exist_ok=True)
    report = claude_validate(claude_code, base / "kit", home)
    assert report["success"] is True
    hooks = report["provides"]["hooks"]
    events = sorted((h["event"], h["command"].rsplit("/", 1)[-1]) for h in hooks)
    assert events == [
        ("PreToolUse", 'claude-code-json-PreToolUse"'), ("PreToolUse", 'hooks-json-PreToolUse"'),
        ("SessionStart", 'hooks-json-SessionStart"'),
    ]  # fmt: skip
    (contents,) = [c for c in report["contents"] if c["file"].endswith("hooks/hooks.json")]
    assert contents["errors"] == []
    assert [w["message"] for w in contents["warnings"]] == [
        "hooks.BeforeTool: unknown hook event; entry ignored at runtime"
    ]

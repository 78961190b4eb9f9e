"""A `Session` under the codex profile fills the fields Codex's payloads carry (the
dialects themselves are compared with the real hosts in test_codex_hook_loop.py and
test_gemini_hook_loop.py): a uuid session id, Codex's rollout path, the prompt's id
as ``turn_id``, the model it runs (its own, else the environment's, else Codex's
default) and the permission mode; a runner with no session sends the environment's
model or the dialect's defaults and leaves out a field Codex does not send."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import satchel
from satchel import Session
from satchel.hooks import HookMatcher
from satchel.hosts import PROFILES
from satchel.runtime.hooks import HookRunner

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def test_a_codex_session_sends_codexs_pre_tool_use_payload(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    layout = PROFILES["codex"].layout(project, home=home)
    session = Session(satchel.load(layout=layout, host="codex"), host="codex")
    seen: list[dict[str, Any]] = []

    def record(data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(data)
        return {}

    session.hooks.register_hooks("PreToolUse", HookMatcher(hooks=[record]))
    turn = session.hooks.new_prompt()
    session.before_tool_use("Bash", {"command": "ls"}, tool_use_id="call_1")
    (payload,) = seen
    assert list(payload) == ["session_id", "turn_id", "transcript_path", "cwd",
                             "hook_event_name", "model", "permission_mode", "tool_name",
                             "tool_input", "tool_use_id"]  # fmt: skip
    assert re.fullmatch(UUID, payload["session_id"])
    rollout = re.escape(str(home / ".codex" / "sessions"))
    stamp = r"\d{4}/\d{2}/\d{2}/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-"
    assert re.fullmatch(rollout + "/" + stamp + payload["session_id"] + r"\.jsonl",
                        payload["transcript_path"])  # fmt: skip
    assert (payload["turn_id"], payload["model"], payload["permission_mode"]) == (
        turn, "gpt-6.2-sol", "default")  # fmt: skip
    assert (payload["hook_event_name"], payload["tool_use_id"]) == ("PreToolUse", "call_1")


def test_a_bare_runner_under_codex_sends_codexs_defaults(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    layout = PROFILES["codex"].layout(project, home=tmp_path / "home")
    seen: list[dict[str, Any]] = []

    def record(data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(data)
        return {}

    runner = HookRunner(satchel.load(layout=layout, host="codex"), session_id="s-1")
    runner.register("SessionStart", HookMatcher(hooks=[record]))
    runner.run("SessionStart", {"source": "startup", "prompt": "not Codex's"})
    assert seen == [{"session_id": "s-1", "transcript_path": "", "cwd": str(project),
                     "hook_event_name": "SessionStart", "model": "gpt-6.2-sol",
                     "permission_mode": "default", "source": "startup"}]  # fmt: skip


def _recorder(seen: list[dict[str, Any]]) -> HookMatcher:
    def record(data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(data)
        return {}

    return HookMatcher(hooks=[record])


def _codex_env(tmp_path: Path, model: str | None = None) -> satchel.Environment:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    layout = PROFILES["codex"].layout(project, home=tmp_path / "home")
    return satchel.load(layout=layout, host="codex", model=model)


def test_a_codex_session_sends_the_model_it_runs(tmp_path: Path) -> None:
    session = Session(_codex_env(tmp_path, "gpt-5.5"), host="codex", model="gpt-5.5")
    seen: list[dict[str, Any]] = []
    session.hooks.register_hooks("PreToolUse", _recorder(seen))
    session.hooks.new_prompt()
    session.before_tool_use("Bash", {"command": "ls"}, tool_use_id="call_1")
    assert [d["model"] for d in seen] == ["gpt-5.5"]


def test_a_codex_sessions_own_model_comes_before_the_environments(tmp_path: Path) -> None:
    session = Session(_codex_env(tmp_path, "gpt-5.5"), host="codex", model="gpt-6-sol")
    seen: list[dict[str, Any]] = []
    session.hooks.register_hooks("PreToolUse", _recorder(seen))
    session.before_tool_use("Bash", {"command": "ls"}, tool_use_id="call_1")
    assert [d["model"] for d in seen] == ["gpt-6-sol"]


def test_a_codex_session_without_a_model_sends_the_environments(tmp_path: Path) -> None:
    session = Session(_codex_env(tmp_path, "gpt-5.5"), host="codex")
    seen: list[dict[str, Any]] = []
    session.hooks.register_hooks("PreToolUse", _recorder(seen))
    session.before_tool_use("Bash", {"command": "ls"}, tool_use_id="call_1")
    assert [d["model"] for d in seen] == ["gpt-5.5"]


def test_a_bare_runner_under_codex_sends_the_environments_model(tmp_path: Path) -> None:
    runner = HookRunner(_codex_env(tmp_path, "gpt-5.5"), session_id="s-1")
    seen: list[dict[str, Any]] = []
    runner.register("SessionStart", _recorder(seen))
    runner.run("SessionStart", {"source": "startup"})
    assert [d["model"] for d in seen] == ["gpt-5.5"]

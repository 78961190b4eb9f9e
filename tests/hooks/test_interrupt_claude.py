"""Claude Code 2.1.337 fires ``Interrupt`` when an interrupt ends the turn, with the
payload the catalogue gives it, matched on its ``source``: one run, interrupted the
way an SDK program does (``tests/hostloop/interrupt.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel.hooks._events import CATALOGUE, MATCH_FIELD
from tests.hostloop.interrupt import interrupt_claude
from tests.support import put

# Fields every Claude Code 2.1.337 hook receives (its payload of every event).
COMMON = {"session_id", "transcript_path", "cwd", "hook_event_name", "prompt_id",
          "permission_mode", "effort"}  # fmt: skip


def _writer(name: str, matcher: str | None = None) -> dict[str, Any]:
    hook = {"type": "command", "command": f'cat > "$CLAUDE_PROJECT_DIR/{name}.json"'}
    return {**({"matcher": matcher} if matcher is not None else {}), "hooks": [hook]}


@pytest.fixture(scope="module")
def fired(tmp_path_factory: pytest.TempPathFactory, claude_code_next: Path) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("interrupt")
    project = base / "project"
    groups = [_writer("any"), _writer("by-user", "user"), _writer("by-system", "system")]
    put(project, ".claude/settings.json", json.dumps({"hooks": {"Interrupt": groups}}))
    printed = interrupt_claude(claude_code_next, project, base / "home")
    written = {p.stem: json.loads(p.read_text()) for p in project.glob("*.json")}
    return {"printed": printed, "written": written}


def test_an_interrupt_fires_interrupt_with_the_catalogues_fields(fired: dict[str, Any]):
    payload = fired["written"]["any"]
    (event,) = [e for e in CATALOGUE if e.claude == "Interrupt"]
    inputs = {name.rstrip("?") for name in event.inputs}
    assert payload["hook_event_name"] == "Interrupt"
    assert set(payload) - COMMON == inputs  # via is known here: a client sent the stop
    assert (payload["source"], payload["reason"], payload["via"]) == ("user", "stop", "client")


def test_the_matcher_tests_the_source(fired: dict[str, Any]):
    assert MATCH_FIELD["interrupt"] == "source"
    assert "by-user" in fired["written"]
    assert "by-system" not in fired["written"]


def test_the_turn_ends_as_a_stop_by_the_user(fired: dict[str, Any]):
    texts = [json.dumps(line) for line in fired["printed"] if line.get("type") == "user"]
    assert any("[Request interrupted by user for tool use]" in t for t in texts)

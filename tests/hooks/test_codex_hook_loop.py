"""Codex 0.171.0 fires hooks in ``codex exec`` as satchel's runner fires them under the
codex profile: the same payload shape per event, the same effect per answer.

Codex reads hooks from ``$CODEX_HOME/hooks.json`` (Claude Code's shape, ``timeout`` in
seconds) and runs one only when trusted: ``--dangerously-bypass-hook-trust`` trusts
them for one run (a hook never trusted is skipped without a word). Three runs, started
at once, drive every event exec mode fires:

- ``tools``: the scripted model calls Codex's shell once per answer, through the
  custom ``exec`` JavaScript tool as Codex's default model does
  (``await tools.exec_command({cmd})``); Codex's ``PreToolUse`` and ``PostToolUse``
  see ``Bash`` with ``{"command": ...}`` and a ``tool_use_id`` of ``exec-<uuid>``.
  ``SessionStart`` and ``UserPromptSubmit`` add context, ``Stop`` sends the agent back
  once.
- ``compact``: a tiny auto-compact limit makes Codex compact after the tool call
  (``PreCompact``, ``PostCompact``, then ``SessionStart`` with source ``compact``);
  plain-text answers; a ``PreCompact`` block, which Codex does not honour.
- ``blocked``: ``UserPromptSubmit`` blocks the prompt; no model request follows.

Every payload is then fired at satchel's runner (the same probe hook, answering from
the same table) with the event's own fields as Codex gave them, and compared field by
field (types; the values satchel owns, such as ids, only for form) and effect by
effect (what Codex sent the model next against satchel's `Outcome`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.hooks import Outcome
from satchel.hooks._load import compile_hooks
from satchel.hooks._parse import claude_hooks
from satchel.origin import Origin
from satchel.runtime.hooks import HookRunner
from satchel.runtime.hooks._payload import PayloadContext
from tests.hostloop.hookprobe import Answer
from tests.hostloop.hooksession import Played, Recorded, Scenario, record, replay, shape
from tests.hostloop.hosts import Turn, run_codex
from tests.hostloop.model import Call, Text
from tests.tools import CODEX_VERSION

VERSION = CODEX_VERSION  # the host version these facts are Codex's for
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop",
          "PreCompact", "PostCompact", "SessionEnd")  # fmt: skip
_PRE, _POST = "PreToolUse", "PostToolUse"


def _pre(**answer: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": _PRE, **answer}}


# One shell call per case: its marker, the probe's answer, and the safety rule by which
# satchel's effect differs from Codex's on purpose (None: the same effect).
KEPT = "refusals-stand"  # docs/hooks.md, "Where satchel is stricter"
CASES: tuple[tuple[Answer, str | None], ...] = (
    (Answer(_PRE, "case-deny-bare", _pre(permissionDecision="deny")), KEPT),
    (Answer(_PRE, "case-deny", _pre(permissionDecision="deny", permissionDecisionReason="no")), None),
    (Answer(_PRE, "case-ask", _pre(permissionDecision="ask", permissionDecisionReason="ask")), KEPT),
    (Answer(_PRE, "case-allow-bare", _pre(permissionDecision="allow")), None),
    (Answer(_PRE, "case-rewrite-bare", _pre(updatedInput={"command": "echo rewritten"})), None),
    (
        Answer(_PRE, "case-rewrite", _pre(permissionDecision="allow", updatedInput={"command": "echo rewritten"})),
        None,
    ),
    (Answer(_PRE, "case-context", _pre(additionalContext="pre-context")), None),
    (Answer(_PRE, "case-exit2-bare", "", "", 2), KEPT),
    (Answer(_PRE, "case-exit2", "", "exit2-reason", 2), None),
    (Answer(_PRE, "case-exit1-json", _pre(permissionDecision="deny", permissionDecisionReason="x"), "", 1), None),
    (Answer(_PRE, "case-badjson", "{not json"), None),
    (Answer(_PRE, "case-plain", "plain words"), None),
    (Answer(_PRE, "case-timeout", "", "", 0, 3.0), None),
    (Answer(_PRE, "case-legacy-block", {"decision": "block", "reason": "legacy"}), None),
    (Answer(_PRE, "case-legacy-approve", {"decision": "approve"}), None),
    (Answer(_PRE, "case-continue-false", {"continue": False, "stopReason": "halt"}), None),
    (Answer(_POST, "case-post-context", {"hookSpecificOutput": {"hookEventName": _POST, "additionalContext": "post-context"}}), None),
    (Answer(_POST, "case-post-block", {"decision": "block", "reason": "post-block"}), None),
    (Answer(_POST, "case-post-exit2", "", "post-exit2", 2), None),
)  # fmt: skip
MARKERS = tuple(str(a.marker) for a, _ in CASES)
RULES = {str(a.marker): rule for a, rule in CASES}


def _exec(marker: str) -> Call:
    """The model's call of Codex's ``exec`` tool running one shell command."""
    source = f'text(JSON.stringify(await tools.exec_command({{cmd: "echo {marker}-ran"}})));'
    return Call("exec", source)


def _context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


SCENARIOS = (
    Scenario(
        "tools",
        (
            *(a for a, _ in CASES),
            Answer("SessionStart", None, _context("SessionStart", "session-context")),
            Answer("UserPromptSubmit", None, _context("UserPromptSubmit", "prompt-context")),
            Answer("Stop", '"stop_hook_active":false', {"decision": "block", "reason": "again"}),
        ),
        (*(_exec(m) for m in MARKERS), Text("first"), Text("second")),
    ),
    Scenario(
        "compact",
        (
            Answer("SessionStart", '"source":"startup"', "session plain words"),
            Answer("UserPromptSubmit", None, "prompt plain words"),
            Answer("PreCompact", None, {"decision": "block", "reason": "no compaction"}),
        ),
        (_exec("compact"), Text("summary"), Text("done")),
        config="model_auto_compact_token_limit = 5\n",
    ),
    Scenario(
        "blocked",
        (Answer("UserPromptSubmit", None, {"decision": "block", "reason": "prompt-block"}),),
        (Text("never"),),
    ),
)


def _run(codex: Path) -> Any:
    def run(scenario: Scenario, project: Path, home: Path, command: str) -> Turn:
        handler = {"type": "command", "command": command, "timeout": 1}
        hooks = {"hooks": {e: [{"hooks": [handler]}] for e in EVENTS}}
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        (home / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
        return run_codex(
            codex,
            project,
            home,
            scenario.prompt,
            scenario.script,
            config=scenario.config,
            args=["--dangerously-bypass-hook-trust"],
        )

    return run


@pytest.fixture(scope="module")
def hosted(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Recorded]:
    """The three runs of Codex, at once."""
    return record(tmp_path_factory.mktemp("codex-hooks"), SCENARIOS, _run(codex))


# The payload fields Codex owns the values of: satchel's are its own, checked for form.
OWNED = ("session_id", "turn_id", "transcript_path", "tool_use_id")
MODEL, MODE = "gpt-6.2-sol", "bypassPermissions"  # what this exec session ran with


def _own_fields(host: dict[str, Any]) -> dict[str, Any]:
    """The event's own fields, as a host loop hands them to satchel's runner."""
    common = {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
              "permission_mode", "_env"}  # fmt: skip
    return {k: v for k, v in host.items() if k not in common}


def _fire(recorded: Recorded, where: Path) -> list[Played]:
    """Every payload of `recorded` through satchel's runner under the codex profile."""
    layout = satchel.hosts.profile("codex").layout(recorded.project, home=recorded.home)
    env = satchel.load(layout=layout, host="codex")
    context = PayloadContext(cwd=str(recorded.project), permission_mode=MODE, model=MODEL)

    def fire(event: str, fields: dict[str, Any], command: str) -> Outcome:
        handler = {"type": "command", "command": command, "timeout": 1}
        path = recorded.home / ".codex" / "hooks.json"
        specs, _ = claude_hooks({"hooks": {event: [{"hooks": [handler]}]}}, path, "codex")
        hooks = compile_hooks(specs, Origin("user", ".codex", path=path), project=False).hooks
        runner = HookRunner(env, extra=lambda e: hooks, context=lambda: context)
        return runner.run(event, fields)

    return replay(where, recorded, fire, _own_fields)


@pytest.fixture(scope="module")
def played(
    hosted: dict[str, Recorded], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Played]]:
    where = tmp_path_factory.mktemp("satchel-codex-hooks")
    return {name: _fire(rec, where / name) for name, rec in hosted.items()}


# --- what Codex fires, and with what --------------------------------------------------


def _events(recorded: Recorded) -> list[str]:
    return [p["hook_event_name"] for p in recorded.payloads]


# The calls Codex refuses at PreToolUse (no PostToolUse follows them).
HOST_REFUSED = ("case-deny", "case-exit2", "case-legacy-block")


def test_codex_fires_every_exec_mode_event_in_order(hosted: dict[str, Recorded]) -> None:
    calls = [[_PRE] if m in HOST_REFUSED else [_PRE, _POST] for m in MARKERS]
    tools = ["SessionStart", "UserPromptSubmit", *(e for c in calls for e in c), "Stop",
             "Stop", "SessionEnd"]  # fmt: skip
    assert _events(hosted["tools"]) == tools
    assert _events(hosted["compact"]) == [
        "SessionStart", "UserPromptSubmit", _PRE, _POST, "PreCompact", "PostCompact",
        "SessionStart", "Stop", "SessionEnd",
    ]  # fmt: skip
    assert _events(hosted["blocked"]) == ["SessionStart", "UserPromptSubmit", "SessionEnd"]


def test_codex_names_its_shell_bash_whichever_tool_the_model_called(
    hosted: dict[str, Recorded],
) -> None:
    pre = [p for p in hosted["tools"].payloads if p["hook_event_name"] == _PRE]
    assert {p["tool_name"] for p in pre} == {"Bash"}
    assert all(re.fullmatch(r"exec-[0-9a-f-]{36}", p["tool_use_id"]) for p in pre)
    assert pre[0]["tool_input"] == {"command": f"echo {MARKERS[0]}-ran"}


def test_codex_payloads_carry_the_common_fields_it_documents(
    hosted: dict[str, Recorded],
) -> None:
    by_event = {p["hook_event_name"]: shape(p) for r in hosted.values() for p in r.payloads}
    turn = {"session_id": "string", "turn_id": "string", "transcript_path": "string",
            "cwd": "string", "hook_event_name": "string", "model": "string"}  # fmt: skip
    mode = {"permission_mode": "string"}
    start = {k: v for k, v in turn.items() if k != "turn_id"}
    assert by_event["SessionStart"] == {**start, **mode, "source": "string"}
    assert by_event["UserPromptSubmit"] == {**turn, **mode, "prompt": "string"}
    assert by_event[_PRE] == {**turn, **mode, "tool_name": "string", "tool_input": "object",
                              "tool_use_id": "string"}  # fmt: skip
    assert by_event[_POST] == {**by_event[_PRE], "tool_response": "string"}
    assert by_event["Stop"] == {**turn, **mode, "stop_hook_active": "boolean",
                                "last_assistant_message": "string"}  # fmt: skip
    assert by_event["PreCompact"] == {**turn, "trigger": "string"}
    assert by_event["SessionEnd"] == {"session_id": "string", "transcript_path": "string",
                                      "cwd": "string", "hook_event_name": "string",
                                      "reason": "string"}  # fmt: skip


# --- satchel's runner under the codex profile: the same payloads ---------------------


def _all_played(played: dict[str, list[Played]]) -> Iterator[Played]:
    for runs in played.values():
        yield from runs


def test_satchel_sends_every_event_the_payload_shape_codex_sends(
    played: dict[str, list[Played]],
) -> None:
    for one in _all_played(played):
        assert shape(one.satchel) == shape(one.host), one.host["hook_event_name"]


def test_satchel_fills_the_fields_codex_owns_with_well_formed_values(
    played: dict[str, list[Played]],
) -> None:
    uuid = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    for one in _all_played(played):
        mine = one.satchel
        assert uuid.fullmatch(mine["session_id"])
        if "turn_id" in mine:
            assert uuid.fullmatch(mine["turn_id"])
        assert mine["transcript_path"].endswith(f"-{mine['session_id']}.jsonl")
        assert mine["transcript_path"].startswith(str(Path(mine["cwd"]).parent / "home"))
        kept = {k: v for k, v in one.host.items() if k not in (*OWNED, "_env")}
        assert {k: mine[k] for k in kept} == kept


def test_satchel_keeps_one_session_id_across_events(played: dict[str, list[Played]]) -> None:
    for runs in played.values():
        assert len({p.satchel["session_id"] for p in runs}) == 1

"""Codex 0.171.0 fires hooks in ``codex exec`` as satchel's runner fires them under the
codex profile: the same payload shape per event, the same effect per answer.

Codex reads hooks from ``$CODEX_HOME/hooks.json`` (Claude Code's shape, ``timeout`` in
seconds) and runs one only when trusted: ``--dangerously-bypass-hook-trust`` trusts
them for one run (a hook never trusted is skipped without a word). Four runs, started
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
- ``interrupt``: the user's Ctrl-C (SIGINT) while the shell runs: Codex fires
  ``Interrupt`` (no fields of its own) and ends the turn.

Every payload is then fired at satchel's runner (the same probe hook, answering from
the same table) with the event's own fields as Codex gave them, and compared field by
field (types; the values satchel owns, such as ids, only for form) and effect by
effect (what Codex sent the model next against satchel's `Outcome`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.foundations.origin import Origin
from satchel.hooks import Outcome
from satchel.hooks._load import compile_hooks
from satchel.hooks._parse import claude_hooks
from satchel.hosts import PROFILES
from satchel.runtime.hooks import HookRunner, context_text, refusal_text
from satchel.runtime.hooks._answers import REFUSALS_STAND
from satchel.runtime.hooks._payload import PayloadContext, new_id, transcript_path
from tests.hostloop.hookprobe import Answer
from tests.hostloop.hooksession import (
    Played,
    Recorded,
    Scenario,
    interrupted,
    record_once,
    replay,
    shape,
)
from tests.hostloop.hosts import Turn, codex_config, run_codex
from tests.hostloop.model import Call, Model, Text
from tests.tools import CODEX_VERSION

VERSION = CODEX_VERSION  # the host version these facts are Codex's for
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop",
          "PreCompact", "PostCompact", "Interrupt", "SessionEnd", "PreModelRequest",
          "PostModelRequest")  # fmt: skip
# Codex's own events around each model request (no satchel event): recorded in the
# short runs only, as they add two hooks to every request.
MODEL_EVENTS = ("PreModelRequest", "PostModelRequest")
# Every hook's timeout, in seconds: long enough for a probe to start on a busy machine;
# the timeout case sleeps past it.
TIMEOUT = 2
_PRE, _POST = "PreToolUse", "PostToolUse"


def _pre(**answer: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": _PRE, **answer}}


# One shell call per case: its marker, the probe's answer, and the safety rule by which
# satchel's effect differs from Codex's on purpose (None: the same effect).
KEPT = "refusals-stand"  # docs/hooks.md, "Where satchel is stricter"
_REWRITE = {"command": "echo rewritten"}
_POST_CONTEXT = {"hookSpecificOutput": {"hookEventName": _POST, "additionalContext": "post"}}
CASES: tuple[tuple[Answer, str | None], ...] = (
    (Answer(_PRE, "case-deny-bare", _pre(permissionDecision="deny")), KEPT),
    (Answer(_PRE, "case-deny", _pre(permissionDecision="deny", permissionDecisionReason="no")),
     None),
    (Answer(_PRE, "case-ask", _pre(permissionDecision="ask", permissionDecisionReason="?")),
     KEPT),
    (Answer(_PRE, "case-allow-bare", _pre(permissionDecision="allow")), None),
    (Answer(_PRE, "case-rewrite-bare", _pre(updatedInput=_REWRITE)), None),
    (Answer(_PRE, "case-rewrite", _pre(permissionDecision="allow", updatedInput=_REWRITE)),
     None),
    (Answer(_PRE, "case-context", _pre(additionalContext="pre-context")), None),
    (Answer(_PRE, "case-exit2-bare", "", "", 2), KEPT),
    (Answer(_PRE, "case-exit2", "", "exit2-reason", 2), None),
    (Answer(_PRE, "case-exit1-json", _pre(permissionDecision="deny",
                                          permissionDecisionReason="x"), "", 1), None),
    (Answer(_PRE, "case-badjson", "{not json"), None),
    (Answer(_PRE, "case-plain", "plain words"), None),
    (Answer(_PRE, "case-timeout", "", "", 0, 5.0), None),
    (Answer(_PRE, "case-legacy-block", {"decision": "block", "reason": "legacy"}), None),
    (Answer(_PRE, "case-legacy-approve", {"decision": "approve"}), None),
    (Answer(_PRE, "case-continue-false", {"continue": False, "stopReason": "halt"}), None),
    (Answer(_POST, "case-post-context", _POST_CONTEXT), None),
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
            Answer("Stop", "first", {"decision": "block", "reason": "again"}),
        ),
        (*(_exec(m) for m in MARKERS), Text("first"), Text("second")),
        skip=MODEL_EVENTS,
    ),
    Scenario(
        "compact",
        (
            Answer("SessionStart", "startup", "session plain words"),
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
    # a user's Ctrl-C while the shell runs: Codex fires Interrupt and ends the turn
    Scenario("interrupt", (), (Call("exec_command", {"cmd": "sleep 30"}), Text("never"))),
)


def _interrupt(codex: Path, scenario: Scenario, project: Path, home: Path) -> Turn:
    """``codex exec`` sent SIGINT once its PreToolUse hook ran (the call then runs)."""
    log = project.parent / "probe" / "log.jsonl"
    with Model(list(scenario.script)) as model:
        config = codex_config(model.url, scenario.config)
        (home / ".codex" / "config.toml").write_text(config, encoding="utf-8")
        env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "LANG": "C.UTF-8", "CODEX_HOME": str(home / ".codex"),
               "OFFLINE_API_KEY": "offline"}  # fmt: skip
        argv = [str(codex), "exec", "--skip-git-repo-check", *TRUST, scenario.prompt]
        ready = lambda: log.exists() and _PRE in log.read_text(encoding="utf-8")  # noqa: E731
        code, out, err = interrupted(argv, project, env, ready)
        return Turn(code, out, err, tuple(model.requests))


TRUST = ("--dangerously-bypass-hook-trust",)


def _run(codex: Path) -> Any:
    def run(scenario: Scenario, project: Path, home: Path, command: str) -> Turn:
        handler = {"type": "command", "command": command, "timeout": TIMEOUT}
        wanted = (e for e in EVENTS if e not in scenario.skip)
        hooks = {"hooks": {e: [{"hooks": [handler]}] for e in wanted}}
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        (home / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
        if scenario.name == "interrupt":
            return _interrupt(codex, scenario, project, home)
        return run_codex(
            codex,
            project,
            home,
            scenario.prompt,
            scenario.script,
            config=scenario.config,
            args=TRUST,
        )

    return run


@pytest.fixture(scope="module")
def hosted(codex: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Recorded]:
    """The four runs of Codex, at once."""
    return record_once(tmp_path_factory, "codex-hook-loop", SCENARIOS, _run(codex))


# The payload fields Codex owns the values of: satchel's are its own, checked for form.
OWNED = ("session_id", "turn_id", "transcript_path", "tool_use_id", "thread_id")
MODEL, MODE = "gpt-6.2-sol", "bypassPermissions"  # what this exec session ran with


def _own_fields(host: dict[str, Any]) -> dict[str, Any]:
    """The event's own fields, as a host loop hands them to satchel's runner."""
    common = {"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model",
              "permission_mode", "thread_id", "_env"}  # fmt: skip
    return {k: v for k, v in host.items() if k not in common}


def _fire(recorded: Recorded, where: Path) -> list[Played]:
    """Every payload of `recorded` through satchel's runner under the codex profile, as
    a host loop fires them: one session id and transcript, a new prompt id (Codex's
    turn id) at each submitted prompt, the session's model and permission mode."""
    layout = PROFILES["codex"].layout(recorded.project, home=recorded.home)
    env = satchel.load(layout=layout, host="codex")
    cwd = str(recorded.project)
    session = new_id()
    path = transcript_path("codex", recorded.home, cwd, session)
    prompt: list[str] = []

    def context() -> PayloadContext:
        turn = prompt[-1] if prompt else None
        return PayloadContext(session, path, cwd, turn, permission_mode=MODE, model=MODEL)

    def fire(event: str, fields: dict[str, Any], command: str) -> Outcome:
        if event == "UserPromptSubmit":
            prompt.append(new_id())
        handler = {"type": "command", "command": command, "timeout": TIMEOUT}
        source = recorded.home / ".codex" / "hooks.json"
        specs, _ = claude_hooks({"hooks": {event: [{"hooks": [handler]}]}}, source, "codex")
        hooks = compile_hooks(specs, Origin("user", ".codex", path=source), project=False)
        runner = HookRunner(env, extra=lambda e: hooks.hooks, context=context)
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
    assert _loop(_events(hosted["compact"])) == [
        "SessionStart", "UserPromptSubmit", _PRE, _POST, "PreCompact", "PostCompact",
        "SessionStart", "Stop", "SessionEnd",
    ]  # fmt: skip
    assert _events(hosted["blocked"]) == ["SessionStart", "UserPromptSubmit", "SessionEnd"]
    assert _loop(_events(hosted["interrupt"])) == ["SessionStart", "UserPromptSubmit", _PRE,
                                                   "Interrupt", "SessionEnd"]  # fmt: skip


def test_codex_fires_its_model_request_events_around_every_request(
    hosted: dict[str, Recorded],
) -> None:
    """One PreModelRequest and one PostModelRequest around each request to the model,
    the Post one running beside the loop's next hooks (their order varies). Codex may
    send a request again when the machine is slow (a retry is a request of its own, with
    its own pair), so the pairs are at least the turn's requests."""
    events = _events(hosted["compact"])
    requests = len(hosted["compact"].turn.requests)  # a turn, the compaction, a turn
    assert requests == 3
    assert events.count("PreModelRequest") == events.count("PostModelRequest") >= requests


def _loop(events: list[str]) -> list[str]:
    return [e for e in events if e not in MODEL_EVENTS]


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
    assert by_event["Interrupt"] == {**turn, **mode}
    request = {**turn, "thread_id": "string", "kind": "string", "request_id": "string",
               "attempt_number": "number"}  # fmt: skip
    assert by_event["PreModelRequest"] == request
    answered = {"status": "string", "error": "null", "token_usage": "object",
                "response_id": "string"}  # fmt: skip
    assert by_event["PostModelRequest"] == {**request, **answered}
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


UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _rollout(home: Path, session: str) -> str:
    """Codex's transcript path for `session`: its rollout file under the day's folder."""
    day = r"\d{4}/\d{2}/\d{2}"
    stamp = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}"
    return re.escape(str(home / ".codex" / "sessions")) + f"/{day}/rollout-{stamp}-{session}.jsonl"


def test_satchel_fills_the_fields_codex_owns_with_well_formed_values(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    for name, runs in played.items():
        home = hosted[name].home
        for one in runs:
            for payload in (one.host, one.satchel):
                assert re.fullmatch(UUID, payload["session_id"])
                assert re.fullmatch(
                    UUID, payload.get("turn_id", "0" * 8 + "-0000" * 3 + "-" + "0" * 12)
                )
                assert re.fullmatch(
                    _rollout(home, payload["session_id"]), payload["transcript_path"]
                )
            kept = {k: v for k, v in one.host.items() if k not in (*OWNED, "_env")}
            assert {k: one.satchel[k] for k in kept} == kept


def test_satchel_keeps_one_session_id_across_events(played: dict[str, list[Played]]) -> None:
    for runs in played.values():
        assert len({p.satchel["session_id"] for p in runs}) == 1


# --- what each answer does: in Codex (what it sent the model next) and in satchel ------


@dataclass(frozen=True, slots=True)
class Effect:
    """What an answer did to one shell call: whether the call `ran` and which
    `command`; the `reason` the model was given instead of the call's result (a
    refusal, or PostToolUse replacing the result); the `context` added for the model."""

    ran: bool
    command: str | None = None
    reason: str | None = None
    context: str | None = None


def _texts(item: dict[str, Any]) -> str:
    content = item.get("content") or item.get("output") or []
    if isinstance(content, str):
        return content
    return "".join(str(c.get("text", "")) for c in content)


def _history(recorded: Recorded) -> list[dict[str, Any]]:
    """The last request of Codex's loop: it resends the whole conversation."""
    return list(recorded.turn.turns[-1].body["input"])


BLOCKED = re.compile(r"Script error:\nCommand blocked by PreToolUse hook: (.*)\. Command: .*", re.S)


def _host_effect(recorded: Recorded, marker: str) -> Effect:
    items = _history(recorded)
    call = next(i for i, it in enumerate(items) if f"{marker}-ran" in str(it.get("input", "")))
    call_id = items[call]["call_id"]
    done = next(i for i, it in enumerate(items) if it.get("call_id") == call_id and i > call)
    between = [_texts(it) for it in items[call + 1 : done] if it.get("role") == "developer"]
    context = "\n".join(between) or None
    text = _texts(items[done]).split("Output:\n", 1)[1]
    blocked = BLOCKED.fullmatch(text)
    if blocked:
        return Effect(False, None, blocked.group(1), context)
    if text.startswith("Script error:\n"):  # PostToolUse replaced the result
        return Effect(True, f"echo {marker}-ran", text.removeprefix("Script error:\n"), context)
    output = json.loads(text)["output"]
    return Effect(True, "echo " + output.strip(), None, context)


def _played_for(runs: list[Played], event: str, marker: str) -> Played | None:
    mine = f"{marker}-ran"
    found = [p for p in runs if p.host["hook_event_name"] == event and mine in str(p.host)]
    return found[0] if found else None


def _satchel_effect(runs: list[Played], marker: str) -> Effect:
    pre = _played_for(runs, _PRE, marker)
    assert pre is not None
    gate = pre.outcome
    contexts = [gate.additional_context]
    if gate.behavior != "allow":
        return Effect(False, None, gate.reason, "\n".join(c for c in contexts if c) or None)
    command = dict(gate.updated_input or pre.host["tool_input"])["command"]
    post = _played_for(runs, _POST, marker)
    reason = None
    if post is not None:
        contexts.append(post.outcome.additional_context)
        reason = post.outcome.reason if post.outcome.behavior == "deny" else None
    return Effect(True, command, reason, "\n".join(c for c in contexts if c) or None)


SAME = tuple(m for m in MARKERS if RULES[m] is None)


@pytest.mark.parametrize("marker", SAME)
def test_an_answer_to_a_tool_call_has_the_effect_it_has_in_codex(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    host = _host_effect(hosted["tools"], marker)
    assert _satchel_effect(played["tools"], marker) == host


@pytest.mark.parametrize("marker", [m for m in MARKERS if RULES[m] == KEPT])
def test_refusals_stand_where_codex_runs_the_call(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    """The safety rule ``refusals-stand``: a deny without a reason, an exit 2 with
    nothing on stderr, an ask: Codex runs the call, satchel does not."""
    assert _host_effect(hosted["tools"], marker).ran
    gate = _played_for(played["tools"], _PRE, marker)
    assert gate is not None
    assert gate.outcome.behavior == ("ask" if marker == "case-ask" else "deny")
    assert REFUSALS_STAND == KEPT


def _outcomes(runs: list[Played], event: str) -> list[Outcome]:
    return [p.outcome for p in runs if p.host["hook_event_name"] == event]


def _developer_after(items: list[dict[str, Any]], text: str) -> str:
    """The developer message right after the message whose text starts with `text`."""
    at = next(i for i, it in enumerate(items) if _texts(it).startswith(text))
    return _texts(items[at + 1])


def test_session_and_prompt_context_reach_the_model_as_satchel_gives_them(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    for name in ("tools", "compact"):
        first = list(hosted[name].turn.turns[0].body["input"])
        starts = _outcomes(played[name], "SessionStart")
        prompts = _outcomes(played[name], "UserPromptSubmit")
        assert _developer_after(first, "<environment_context>") == starts[0].additional_context
        assert _developer_after(first, "go") == prompts[0].additional_context


def test_a_stop_block_sends_codex_back_with_the_reason_as_satchel_says(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    items = _history(hosted["tools"])
    back = [_texts(it) for it in items if it.get("role") == "user" and "hook_prompt" in str(it)]
    first, second = _outcomes(played["tools"], "Stop")
    assert (first.behavior, second.behavior) == ("deny", "allow")
    source = re.escape(str(hosted["tools"].home / ".codex" / "hooks.json"))
    reason = re.escape(str(first.reason))
    assert len(back) == 1
    assert re.fullmatch(
        f'<hook_prompt hook_run_id="stop:\\d+:{source}">{reason}</hook_prompt>', back[0]
    )


def test_a_pre_compact_block_stops_neither_codex_nor_satchel(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    assert "PostCompact" in _events(hosted["compact"])
    (outcome,) = _outcomes(played["compact"], "PreCompact")
    assert outcome.behavior == "allow"
    assert outcome.results[0].decision is None


def test_a_blocked_prompt_reaches_no_model_in_codex_and_satchel_refuses_it(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    assert hosted["blocked"].turn.turns == ()
    (outcome,) = _outcomes(played["blocked"], "UserPromptSubmit")
    assert (outcome.behavior, outcome.reason) == ("deny", "prompt-block")


def _shown(recorded: Recorded, marker: str) -> tuple[str | None, list[str]]:
    """What Codex gave the model for a call that did not give its own result (None
    when it did), and the developer messages added before it."""
    items = _history(recorded)
    call = next(i for i, it in enumerate(items) if f"{marker}-ran" in str(it.get("input", "")))
    done = next(i for i, it in enumerate(items) if it.get("call_id") == items[call]["call_id"]
                and i > call)  # fmt: skip
    between = [_texts(it) for it in items[call + 1 : done] if it.get("role") == "developer"]
    text = _texts(items[done]).split("Output:\n", 1)[1]
    return (text.removeprefix("Script error:\n") if text.startswith("Script error:") else None,
            between)  # fmt: skip


@pytest.mark.parametrize("marker", SAME)
def test_refusal_text_and_context_text_say_what_codex_says(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    shown, contexts = _shown(hosted["tools"], marker)
    pre = _played_for(played["tools"], _PRE, marker)
    post = _played_for(played["tools"], _POST, marker)
    assert pre is not None
    said = [pre.outcome] + ([post.outcome] if post is not None else [])
    command = pre.host["tool_input"]["command"]
    refused = [refusal_text(o, "Bash", host="codex", command=command) for o in said]
    assert next((r for r in refused if r is not None), None) == shown
    told = [context_text(o, "Bash", host="codex") for o in said]
    assert [t for t in told if t] == contexts

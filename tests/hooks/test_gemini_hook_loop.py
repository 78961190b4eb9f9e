"""Gemini CLI 0.61.0 fires hooks in ``gemini -p`` as satchel's runner fires them under
the gemini profile: the same payload shape per event, the same effect per answer.

Gemini CLI reads hooks from the ``hooks`` table of its settings (here the user's
``~/.gemini/settings.json``; ``hooksConfig.enabled`` is on by default), Claude Code's
shape with Gemini's event names and ``timeout`` in milliseconds. Three runs, started at
once, drive every event print mode fires:

- ``tools``: the scripted model calls ``run_shell_command`` once per answer;
  ``SessionStart`` and ``BeforeAgent`` add context, ``AfterAgent`` sends the agent
  back once. Gemini CLI also fires ``PreCompress`` (trigger ``auto``),
  ``BeforeModel``, ``BeforeToolSelection`` and ``AfterModel`` around every model
  request (recorded in the other runs, which make fewer).
- ``ask``: ``BeforeTool`` answers ``ask``: print mode cannot ask, fires
  ``Notification`` (``ToolPermission``) and ends the run without running the call.
- ``blocked``: ``BeforeAgent`` blocks the prompt; no model request follows.

Every payload is then fired at satchel's runner (the same probe hook, answering from
the same table) with the event's own fields as Gemini CLI gave them (the model events'
first payload only), and compared field by field (types; the values satchel owns, the
ids, the transcript path and the timestamp, only for form) and effect by effect (what
Gemini CLI sent the model next against satchel's `Outcome`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.foundations.origin import Origin
from satchel.hooks import Outcome
from satchel.hooks._load import compile_hooks
from satchel.hooks._parse import parse_gemini_hooks
from satchel.hosts import PROFILES
from satchel.runtime.hooks import HookRunner, context_text, refusal_text
from satchel.runtime.hooks._answers import REFUSALS_STAND
from satchel.runtime.hooks._payload import PayloadContext, new_id, transcript_path
from tests.hostloop.hookprobe import Answer
from tests.hostloop.hooksession import Played, Recorded, Scenario, record_once, replay, shape
from tests.hostloop.hosts import Turn, run_gemini
from tests.hostloop.model import Call, Text
from tests.tools import GEMINI_VERSION

VERSION = GEMINI_VERSION  # the host version these facts are Gemini CLI's for
EVENTS = ("SessionStart", "BeforeAgent", "BeforeModel", "AfterModel", "BeforeToolSelection",
          "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "Notification",
          "SessionEnd")  # fmt: skip
MODEL_EVENTS = ("BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress")
# Every hook's timeout, in seconds: long enough for a probe to start on a busy machine;
# the timeout case sleeps past it.
TIMEOUT = 2
_PRE, _POST = "BeforeTool", "AfterTool"
KEPT = "refusals-stand"  # docs/hooks.md, "Where satchel is stricter"


def _specific(event: str, **answer: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **answer}}


_CLAUDE_DENY = _specific(_PRE, permissionDecision="deny", permissionDecisionReason="claude")
# One shell call per case: its marker, the probe's answer, and the safety rule by which
# satchel's effect differs from Gemini CLI's on purpose (None: the same effect).
CASES: tuple[tuple[Answer, str | None], ...] = (
    (Answer(_PRE, "case-deny-bare", {"decision": "deny"}), None),
    (Answer(_PRE, "case-deny", {"decision": "deny", "reason": "deny-reason"}), None),
    (Answer(_PRE, "case-block", {"decision": "block", "reason": "block-reason"}), None),
    (Answer(_PRE, "case-allow", {"decision": "allow"}), None),
    (Answer(_PRE, "case-rewrite", _specific(_PRE, tool_input={"command": "echo rewritten"})),
     None),
    (Answer(_PRE, "case-claude-deny", _CLAUDE_DENY), None),
    (Answer(_PRE, "case-pre-context", _specific(_PRE, additionalContext="pre-context")), None),
    (Answer(_PRE, "case-exit2-bare", "", "", 2), KEPT),
    (Answer(_PRE, "case-exit2-json", {"decision": "allow"}, "", 2), KEPT),
    (Answer(_PRE, "case-exit2", "", "exit2-reason", 2), None),
    (Answer(_PRE, "case-exit3", "", "exit3-reason", 3), None),
    (Answer(_PRE, "case-exit1", "", "exit1-words", 1), None),
    (Answer(_PRE, "case-badjson", "{not json"), None),
    (Answer(_PRE, "case-plain", "plain words"), None),
    (Answer(_PRE, "case-timeout", "", "", 0, 5.0), None),
    (Answer(_POST, "case-post-context", _specific(_POST, additionalContext="a<b>")), None),
    (Answer(_POST, "case-post-block", {"decision": "block", "reason": "post-block"}), None),
    (Answer(_POST, "case-post-exit2", "", "post-exit2", 2), None),
)  # fmt: skip
MARKERS = tuple(str(a.marker) for a, _ in CASES)
RULES = {str(a.marker): rule for a, rule in CASES}


def _shell(marker: str) -> Call:
    return Call("run_shell_command", {"command": f"echo {marker}-ran"})


_AGAIN = {"decision": "block", "reason": "again"}
SCENARIOS = (
    Scenario(
        "tools",
        (
            *(a for a, _ in CASES),
            Answer("SessionStart", None, _specific("SessionStart", additionalContext="session")),
            Answer("BeforeAgent", "hook_context", _specific("BeforeAgent", additionalContext="x")),
            Answer("AfterAgent", '"stop_hook_active":false', _AGAIN),
        ),
        (*(_shell(m) for m in MARKERS), Text("first"), Text("second")),
        skip=MODEL_EVENTS,  # recorded in the short runs: four more hooks per model request
    ),
    Scenario("ask", (Answer(_PRE, None, {"decision": "ask", "reason": "sure?"}),),
             (_shell("ask"), Text("never"))),
    Scenario("blocked", (Answer("BeforeAgent", None, {"decision": "block", "reason": "no"}),),
             (Text("never"),)),
)  # fmt: skip


def _hooks(command: str, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    handler = {"type": "command", "command": command, "timeout": TIMEOUT * 1000}
    return {e: [{"matcher": "*", "hooks": [handler]}] for e in EVENTS if e not in skip}


def _run(gemini: Path) -> Any:
    def run(scenario: Scenario, project: Path, home: Path, command: str) -> Turn:
        settings = {"hooks": _hooks(command, scenario.skip)}
        return run_gemini(gemini, project, home, scenario.prompt, scenario.script,
                          settings=settings, args=["--yolo"])  # fmt: skip

    return run


@pytest.fixture(scope="module")
def hosted(gemini: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Recorded]:
    """The three runs of Gemini CLI, at once."""
    return record_once(tmp_path_factory, "gemini-hook-loop", SCENARIOS, _run(gemini))


# The payload fields Gemini CLI owns the values of: satchel's are its own, checked for form.
OWNED = ("session_id", "transcript_path", "timestamp")


def _own_fields(host: dict[str, Any]) -> dict[str, Any]:
    """The event's own fields, as a host loop hands them to satchel's runner."""
    common = {"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp", "_env"}
    return {k: v for k, v in host.items() if k not in common}


def _first_of_model_events(recorded: Recorded) -> Any:
    """Every payload but the repeats of the events around each model request."""
    seen: set[str] = set()

    def keep(payload: dict[str, Any]) -> bool:
        event = payload["hook_event_name"]
        if event not in MODEL_EVENTS:
            return True
        fresh = event not in seen
        seen.add(event)
        return fresh

    return keep


def _fire(recorded: Recorded, where: Path) -> list[Played]:
    """Every payload of `recorded` through satchel's runner under the gemini profile,
    with one session id and its transcript, as a host loop fires them."""
    layout = PROFILES["gemini"].layout(recorded.project, home=recorded.home)
    env = satchel.load(layout=layout, host="gemini")
    cwd = str(recorded.project)
    session = new_id()
    context = PayloadContext(session, transcript_path("gemini", recorded.home, cwd, session), cwd)
    source = where / "hooks" / "hooks.json"

    def fire(event: str, fields: dict[str, Any], command: str) -> Outcome:
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(json.dumps({"hooks": {event: _hooks(command)[event]}}), "utf-8")
        specs, _ = parse_gemini_hooks(source, where, "probe")
        hooks = compile_hooks(specs, Origin("user", ".gemini", path=source), project=False)
        runner = HookRunner(env, extra=lambda e: hooks.hooks, context=lambda: context)
        return runner.run(event, fields)

    return replay(where / "probe", recorded, fire, _own_fields, _first_of_model_events(recorded))


@pytest.fixture(scope="module")
def played(
    hosted: dict[str, Recorded], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Played]]:
    where = tmp_path_factory.mktemp("satchel-gemini-hooks")
    return {name: _fire(rec, where / name) for name, rec in hosted.items()}


# --- what Gemini CLI fires, and with what ---------------------------------------------


def _events(recorded: Recorded) -> list[str]:
    return [p["hook_event_name"] for p in recorded.payloads]


def _loop(events: list[str]) -> list[str]:
    """The events without those around each model request."""
    return [e for e in events if e not in MODEL_EVENTS]


HOST_REFUSED = ("case-deny-bare", "case-deny", "case-block", "case-exit2", "case-exit3")


def test_gemini_fires_every_print_mode_event_in_order(hosted: dict[str, Recorded]) -> None:
    calls = [[_PRE] if m in HOST_REFUSED else [_PRE, _POST] for m in MARKERS]
    tools = ["SessionStart", "BeforeAgent", *(e for c in calls for e in c), "AfterAgent",
             "BeforeAgent", "AfterAgent", "SessionEnd"]  # fmt: skip
    assert _events(hosted["tools"]) == tools
    assert set(MODEL_EVENTS) <= set(_events(hosted["ask"]))
    # print mode cannot ask: it notifies and exits, with no SessionEnd
    assert _loop(_events(hosted["ask"])) == ["SessionStart", "BeforeAgent", _PRE, "Notification"]
    assert _events(hosted["blocked"]) == ["SessionStart", "BeforeAgent", "SessionEnd"]


def test_gemini_payloads_carry_the_common_fields_and_a_timestamp(
    hosted: dict[str, Recorded],
) -> None:
    by_event = {p["hook_event_name"]: shape(p) for r in hosted.values() for p in r.payloads}
    common = {"session_id": "string", "transcript_path": "string", "cwd": "string",
              "hook_event_name": "string", "timestamp": "string"}  # fmt: skip
    assert by_event[_PRE] == {**common, "tool_name": "string", "tool_input": "object"}
    assert by_event[_POST] == {**by_event[_PRE], "tool_response": "object"}
    assert by_event["BeforeAgent"] == {**common, "prompt": "string"}
    assert by_event["AfterAgent"] == {**common, "prompt": "string", "prompt_response": "string",
                                      "stop_hook_active": "boolean"}  # fmt: skip
    assert by_event["SessionStart"] == {**common, "source": "string"}
    assert by_event["SessionEnd"] == {**common, "reason": "string"}
    assert by_event["PreCompress"] == {**common, "trigger": "string"}
    assert by_event["Notification"] == {**common, "notification_type": "string",
                                        "message": "string", "details": "object"}  # fmt: skip
    assert by_event["BeforeModel"] == {**common, "llm_request": "object"}
    assert by_event["AfterModel"] == {**common, "llm_request": "object", "llm_response": "object"}


VARIABLES = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR", "GEMINI_SESSION_ID",
             "GEMINI_PLANS_DIR")  # fmt: skip


def _variables(payload: dict[str, Any], home: Path) -> dict[str, str]:
    """What Gemini CLI sets for a hook, from the payload it was given."""
    cwd, session = payload["cwd"], payload["session_id"]
    plans = home / ".gemini" / "tmp" / Path(cwd).name / session / "plans"
    return dict(zip(VARIABLES, (cwd, cwd, cwd, session, str(plans)), strict=True))


def test_gemini_and_satchel_set_the_same_hook_variables(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    home = hosted["tools"].home
    for one in played["tools"]:
        for payload in (one.host, one.satchel):
            env = {k: v for k, v in payload["_env"].items() if k in VARIABLES}
            assert env == _variables(payload, home)


# --- satchel's runner under the gemini profile: the same payloads --------------------


def test_satchel_sends_every_event_the_payload_shape_gemini_sends(
    played: dict[str, list[Played]],
) -> None:
    for runs in played.values():
        for one in runs:
            assert shape(one.satchel) == shape(one.host), one.host["hook_event_name"]


UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
STAMP = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"


def _chat(home: Path, session: str) -> str:
    """Gemini CLI's transcript path for `session` in the project folder ``project``."""
    folder = re.escape(str(home / ".gemini" / "tmp" / "project" / "chats"))
    return folder + rf"/session-\d{{4}}-\d{{2}}-\d{{2}}T\d{{2}}-\d{{2}}-{session[:8]}\.jsonl"


def test_satchel_fills_the_fields_gemini_owns_with_well_formed_values(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    for name, runs in played.items():
        home = hosted[name].home
        for one in runs:
            for payload in (one.host, one.satchel):
                assert re.fullmatch(UUID, payload["session_id"])
                assert re.fullmatch(STAMP, payload["timestamp"])
                assert re.fullmatch(_chat(home, payload["session_id"]), payload["transcript_path"])
            kept = {k: v for k, v in one.host.items() if k not in (*OWNED, "_env")}
            assert {k: one.satchel[k] for k in kept} == kept


# --- what each answer does: in Gemini CLI (what it sent the model next) and in satchel --


@dataclass(frozen=True, slots=True)
class Effect:
    """What an answer did to one shell call: whether the call `ran` and which
    `command`; the `reason` the model was given instead of the call's result (a
    refusal, or AfterTool replacing the result); the `context` added for the model."""

    ran: bool
    command: str | None = None
    reason: str | None = None
    context: str | None = None


def _parts(recorded: Recorded) -> list[dict[str, Any]]:
    """Every part of the last request of Gemini CLI's loop (the whole conversation)."""
    contents = recorded.turn.turns[-1].body["contents"]
    return [part for content in contents for part in content["parts"]]


OUTPUT = re.compile(
    r"<untrusted_context>\nOutput: (.*)\nProcess Group PGID: \d+\n</untrusted_context>(.*)", re.S
)
REFUSED = "Tool execution blocked: "


def _host_effect(recorded: Recorded, marker: str) -> Effect:
    parts = _parts(recorded)
    command = f"echo {marker}-ran"
    calls = [p.get("functionCall", {}).get("args", {}).get("command") for p in parts]
    call = calls.index(command)
    response = parts[call + 1]["functionResponse"]["response"]
    if "error" in response:
        error = response["error"]
        if error.startswith(REFUSED):
            return Effect(False, None, error.removeprefix(REFUSED))
        return Effect(True, f"echo {marker}-ran", error)  # AfterTool replaced the result
    found = OUTPUT.fullmatch(response["output"])
    assert found is not None, response
    context = re.search(r"<hook_context>(.*)</hook_context>", found.group(2), re.S)
    return Effect(True, "echo " + found.group(1), None, context.group(1) if context else None)


def _played_for(runs: list[Played], event: str, marker: str) -> Played | None:
    mine = f"{marker}-ran"
    found = [p for p in runs if p.host["hook_event_name"] == event and mine in str(p.host)]
    return found[0] if found else None


def _satchel_effect(runs: list[Played], marker: str) -> Effect:
    pre = _played_for(runs, _PRE, marker)
    assert pre is not None
    gate = pre.outcome
    if gate.behavior != "allow":
        return Effect(False, None, gate.reason, gate.additional_context)
    command = dict(gate.updated_input or pre.host["tool_input"])["command"]
    # AfterTool is given the input that ran (a rewritten one after a rewrite)
    post = next(p for p in runs if p.host["hook_event_name"] == _POST
                and p.host["tool_input"]["command"] == command)  # fmt: skip
    after = post.outcome
    reason = after.reason if after.behavior == "deny" else None
    return Effect(True, command, reason, gate.additional_context or after.additional_context)


@pytest.mark.parametrize("marker", [m for m in MARKERS if RULES[m] is None])
def test_an_answer_to_a_tool_call_has_the_effect_it_has_in_gemini(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    assert _satchel_effect(played["tools"], marker) == _host_effect(hosted["tools"], marker)


@pytest.mark.parametrize("marker", [m for m in MARKERS if RULES[m] == KEPT])
def test_an_exit_2_refuses_in_satchel_where_gemini_runs_the_call(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    """The safety rule ``refusals-stand``: an exit 2 with nothing to say, or with a JSON
    ``allow``: Gemini CLI runs the call, satchel does not."""
    assert _host_effect(hosted["tools"], marker).ran
    gate = _played_for(played["tools"], _PRE, marker)
    assert gate is not None
    assert gate.outcome.behavior == "deny"
    assert REFUSALS_STAND == KEPT


def _outcomes(runs: list[Played], event: str) -> list[Outcome]:
    return [p.outcome for p in runs if p.host["hook_event_name"] == event]


def _texts(recorded: Recorded) -> list[str]:
    return [str(p["text"]) for p in _parts(recorded) if "text" in p]


def test_session_and_prompt_context_reach_the_model_as_satchel_gives_them(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    start = _outcomes(played["tools"], "SessionStart")[0].additional_context
    prompt = _outcomes(played["tools"], "BeforeAgent")[0].additional_context
    texts = _texts(hosted["tools"])
    assert f"<hook_context>{start}</hook_context>\n\ngo" in texts
    assert f"<hook_context>{prompt}</hook_context>" in texts


def test_an_after_agent_block_sends_gemini_back_with_the_reason_as_satchel_says(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    first, second = _outcomes(played["tools"], "AfterAgent")
    assert (first.behavior, second.behavior) == ("deny", "allow")
    texts = _texts(hosted["tools"])
    assert texts[texts.index("first") + 1] == first.reason
    again = [p for p in hosted["tools"].payloads if p["hook_event_name"] == "BeforeAgent"][1]
    assert again["prompt"] == first.reason


def test_an_ask_ends_print_mode_without_the_call_and_satchel_asks(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    (note,) = [p for p in hosted["ask"].payloads if p["hook_event_name"] == "Notification"]
    assert note["notification_type"] == "ToolPermission"
    assert len(hosted["ask"].turn.turns) == 1  # no request carries the call's result
    (outcome,) = _outcomes(played["ask"], _PRE)
    assert (outcome.behavior, outcome.reason) == ("ask", "sure?")


def test_a_blocked_prompt_reaches_no_model_in_gemini_and_satchel_refuses_it(
    hosted: dict[str, Recorded], played: dict[str, list[Played]]
) -> None:
    assert hosted["blocked"].turn.turns == ()
    (outcome,) = _outcomes(played["blocked"], "BeforeAgent")
    assert (outcome.behavior, outcome.reason) == ("deny", "no")


@pytest.mark.parametrize("marker", [m for m in MARKERS if RULES[m] is None])
def test_refusal_text_and_context_text_say_what_gemini_says(
    hosted: dict[str, Recorded], played: dict[str, list[Played]], marker: str
) -> None:
    parts = _parts(hosted["tools"])
    calls = [p.get("functionCall", {}).get("args", {}).get("command") for p in parts]
    response = parts[calls.index(f"echo {marker}-ran") + 1]["functionResponse"]["response"]
    pre = _played_for(played["tools"], _PRE, marker)
    assert pre is not None
    said = [pre.outcome]
    if pre.outcome.behavior == "allow":  # AfterTool is given the input that ran
        ran = dict(pre.outcome.updated_input or pre.host["tool_input"])["command"]
        said += [p.outcome for p in played["tools"] if p.host["hook_event_name"] == _POST
                 and p.host["tool_input"]["command"] == ran]  # fmt: skip
    refused = [refusal_text(o, "run_shell_command", host="gemini") for o in said]
    assert next((r for r in refused if r is not None), None) == response.get("error")
    told = [t for t in (context_text(o, host="gemini") for o in said) if t]
    assert all(t in response.get("output", "") for t in told)
    assert response.get("output", "").count("<hook_context>") == len(told)

"""Claude Code 2.1.332 and 2.1.337 run hooks; satchel's runner, under the claude-code
profile, runs the same hooks of the same project: same payload shape, same effects.

Each version runs twice, once for the test run (all runs at once, `once`): a payload
run, where every event's hook writes its stdin to a file and the scripted model drives
a slash prompt, a tool call, a failing one and a subagent; and an answer run, where
one hook answers each call differently (deny, ask, a rewrite, context, exit 2, bad
JSON, a timeout, exit 1). What the host did with each answer is read from what it
sent the model next. 2.1.337 runs a third time, its input held open, for the
``Interrupt`` a permission deny with ``interrupt: true`` fires (print mode exits
before that hook gets its payload about one time in three).
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import Session
from satchel.compat import compat
from satchel.runtime.hooks import HookRunner, context_text, refusal_text
from satchel.runtime.hooks._payload import CLAUDE_CODE, PayloadContext, claude_transcript_path
from satchel.trust._trust import trust
from tests.hostloop.held import run_claude_held
from tests.hostloop.hosts import Turn, run_claude
from tests.hostloop.model import Call
from tests.hostloop.shared import once
from tests.support import put

VERSIONS = ("claude_code", "claude_code_next")
NEXT = "claude_code_next"
EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop",
    "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
    "PermissionRequest", "PermissionDenied", "InstructionsLoaded", "MessageDisplay",
    "PreSkillShellCommand",
)  # fmt: skip
NEXT_ONLY = ("Interrupt",)  # 2.1.332 refuses a settings file that names it
SKILL = "---\nname: shelly\ndescription: Shelly runs a command.\n---\nToday: !`echo shelled`\n"
ALLOWED = ["--allowedTools", "Bash(echo:*) Bash(ls:*)"]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")

DECIDE = r"""import json, sys
p = json.load(sys.stdin)
event = p["hook_event_name"]
command = (p.get("tool_input") or {}).get("command", "")


def answer(event_name, **fields):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event_name, **fields}}))
    sys.exit(0)


if event in ("SessionStart", "UserPromptSubmit"):
    answer(event, additionalContext=event + "-context")
if event == "PostToolUse" and "ctx-me" in command:
    answer(event, additionalContext="post-context")
if event == "PermissionRequest" and "interrupt-me" in command:
    answer(event, decision={"behavior": "deny", "message": "no", "interrupt": True})
if event == "Stop" and not p["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "stop-reason"}))
if event != "PreToolUse":
    sys.exit(0)
if "deny-me" in command:
    answer(event, permissionDecision="deny", permissionDecisionReason="deny-reason")
if "ask-me" in command:
    answer(event, permissionDecision="ask", permissionDecisionReason="ask-reason")
if "rewrite-me" in command:
    answer(event, permissionDecision="allow", updatedInput={"command": "echo rewritten"})
if "exit2-me" in command:
    sys.stderr.write("exit2-reason")
    sys.exit(2)
if "badjson-me" in command:
    print("{not json")
if "fail1-me" in command:
    sys.stderr.write("failed")
    sys.exit(1)
"""
ANSWERED = ("deny-me", "ask-me", "rewrite-me", "ctx-me", "exit2-me", "badjson-me", "slow-me",
            "fail1-me")  # fmt: skip
SLOW = {  # a second hook that outlives its timeout on slow-me (any other call: no answer)
    "type": "command",
    "command": "if grep -q slow-me; then sleep 8; fi",
    "timeout": 1,
}


def _capture(event: str) -> dict[str, Any]:
    """A hook that writes its stdin to ``cap/<time>-<event>.json``, whole or not at all
    (a host that exits may kill it half-way). Interrupt's runs in a session of its own:
    print mode exits right after firing it and would take it down."""
    name = f'f="$CLAUDE_PROJECT_DIR/cap/$(date +%s%N)-{event}"'
    write = f'{name}; cat > "$f.part" && mv "$f.part" "$f.json"'
    command = f"setsid sh -c '{write}'" if event == "Interrupt" else write
    return {"matcher": "", "hooks": [{"type": "command", "command": command}]}


def payload_project(root: Path, events: tuple[str, ...]) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "cap").mkdir()
    settings = {"hooks": {e: [_capture(e)] for e in events}}
    put(root, ".claude/settings.json", json.dumps(settings))
    put(root, "CLAUDE.md", "Project notes.\n")
    put(root, ".claude/skills/shelly/SKILL.md", SKILL)
    return root


def answer_project(root: Path, events: tuple[str, ...]) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "cap").mkdir()
    put(root, "decide.py", DECIDE)
    # this interpreter by its path: a `python3` found on PATH may be a wrapper that
    # costs more than the hook itself, once per event
    hook = {"type": "command", "command": f'"{sys.executable}" "$CLAUDE_PROJECT_DIR/decide.py"'}
    decide = [{"matcher": "", "hooks": [{**hook, "timeout": 60}]}]
    asked = (
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest",
        "Stop",
    )  # fmt: skip
    hooks: dict[str, Any] = {e: decide for e in asked}
    hooks["PreToolUse"] = [{"matcher": "", "hooks": [{**hook, "timeout": 60}, SLOW]}]
    hooks.update({e: [_capture(e)] for e in events if e not in asked})
    put(root, ".claude/settings.json", json.dumps({"hooks": hooks}))
    return root


def captured(root: Path) -> list[dict[str, Any]]:
    """The payloads the hooks wrote, in the order they ran."""
    return [json.loads(p.read_text()) for p in sorted((root / "cap").glob("*.json"))]


PAYLOAD_SCRIPT = [
    Call("Bash", {"command": "echo hi", "description": "say hi"}),
    Call("Bash", {"command": "ls missing-file"}),
    Call("Agent", {"description": "sub", "prompt": "say hi", "subagent_type": "general-purpose"}),
]  # then every turn, the subagent's and the main loop's, gets "done"
ANSWER_SCRIPT = [Call("Bash", {"command": f"echo {word}"}) for word in ANSWERED]
INTERRUPT_SCRIPT = [Call("Bash", {"command": "touch interrupt-me"})]


class Ran:
    """One version's two runs: the folders they ran in and what the host did."""

    def __init__(self, base: Path, next_version: bool) -> None:
        self.events = (*EVENTS, *NEXT_ONLY) if next_version else EVENTS
        self.base = base
        # over 200 characters once made a folder name: Claude Code cuts it and adds a hash
        self.payload_root = base / f"payloads-{'long' * 50}"
        self.answer_root = base / "answers"
        self.interrupt_root = base / "interrupt"  # the Interrupt run, its input held
        self.home = base / "home"
        self.payload_turn: Turn | None = None
        self.answer_turn: Turn | None = None

    def jobs(self, binary: Path) -> dict[str, Callable[[], Turn]]:
        """The runs (two, and the held one for Interrupt), their projects written first."""
        payload_project(self.payload_root, self.events)
        answer_project(self.answer_root, self.events)
        if "Interrupt" in self.events:
            answer_project(self.interrupt_root, self.events)
        jobs = {
            "payloads": lambda: run_claude(
                binary, self.payload_root, self.home, "/shelly hello", PAYLOAD_SCRIPT,
                args=ALLOWED,
            ),
            "answers": lambda: run_claude(
                binary, self.answer_root, self.base / "home2", "go", ANSWER_SCRIPT,
                args=ALLOWED,
            ),
        }  # fmt: skip
        if "Interrupt" in self.events:
            fired = self.interrupt_root / "cap"
            jobs["interrupt"] = lambda: run_claude_held(
                binary, self.interrupt_root, self.base / "home3", "go", INTERRUPT_SCRIPT,
                args=ALLOWED, until=lambda: any(fired.glob("*-Interrupt.json")),
            )  # fmt: skip
        return jobs


@pytest.fixture(scope="module")
def hosts(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Ran]:
    """Both versions' runs, all four at once, once per test run (`once`)."""
    binaries = {which: request.getfixturevalue(which) for which in VERSIONS}

    def make(base: Path) -> dict[str, Turn]:
        jobs = {
            f"{which}/{name}": job
            for which in VERSIONS
            for name, job in Ran(base / which, which == NEXT).jobs(binaries[which]).items()
        }
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            done = dict(zip(jobs, pool.map(lambda job: job(), jobs.values()), strict=True))
        return done

    base, turns = once(tmp_path_factory, "claude-hook-loop", make)
    runs = {which: Ran(base / which, which == NEXT) for which in VERSIONS}
    for which, ran in runs.items():
        ran.payload_turn, ran.answer_turn = turns[f"{which}/payloads"], turns[f"{which}/answers"]
    return runs


# -- satchel's side ----------------------------------------------------------------


def satchel_session(root: Path, home: Path, **options: Any) -> Session:
    """A session of `root` under the claude-code profile, trusted as Claude Code's
    print mode trusts it."""
    layout = satchel.Layout.default(root, home=home, env={})
    trust(layout, root)
    env = satchel.load(layout=layout, host="claude-code")
    return Session(env, host="claude-code", environ={"PATH": os.environ["PATH"]}, **options)


COMMON = frozenset(CLAUDE_CODE.order) | {"hook_event_name"}


STARTUP = ("SessionStart", "InstructionsLoaded")  # fired before the prompt (in any order)
AGENT_EVENTS = ("SubagentStart", "SubagentStop")  # agent_id and agent_type are theirs


def own(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The event's own fields (what the host loop hands the runner)."""
    keep = {"agent_id", "agent_type"} if payload["hook_event_name"] in AGENT_EVENTS else set()
    return {k: v for k, v in payload.items() if k not in COMMON or k in keep}


def shape(value: Any) -> Any:
    """A value's JSON type; an object's keys with their shapes."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    return type(value).__name__


def common_shape(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {k: shape(v) for k, v in payload.items() if k in COMMON}


def by_event(payloads: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for p in payloads:
        found.setdefault(p["hook_event_name"], []).append(p)
    return found


def replay(ran: Ran, tmp_path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The host's payloads, and satchel's for the same events in the same order: the
    session fires what it fires itself (InstructionsLoaded, UserPromptExpansion,
    PreSkillShellCommand) and the rest as a host loop does, with the event's own
    fields the host gave."""
    host = captured(ran.payload_root)
    root = payload_project(tmp_path / "satchel", ran.events)
    session = satchel_session(root, tmp_path / "home")
    satchel_fired = {"InstructionsLoaded", "UserPromptExpansion", "PreSkillShellCommand"}
    for payload in host:
        event = payload["hook_event_name"]
        if event in satchel_fired:
            continue
        fields = own(payload)
        if event == "PreToolUse":
            session.before_tool_use(
                fields["tool_name"], fields["tool_input"], tool_use_id=fields["tool_use_id"]
            )
        else:
            session.hooks.fire(event, fields)
        if event == "SessionStart":
            session.context()  # InstructionsLoaded
        if event == "UserPromptSubmit" and payload["prompt"].startswith("/"):
            session.expand(payload["prompt"])  # UserPromptExpansion, PreSkillShellCommand
    return host, captured(root)


@pytest.fixture(scope="module")
def replayed(
    hosts: dict[str, Ran], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Path, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per version: satchel's scratch folder, the host's payloads and satchel's."""
    found = {}
    for which, ran in hosts.items():
        base = tmp_path_factory.mktemp(f"satchel-{which}")
        found[which] = (base, *replay(ran, base))
    return found


# -- payloads ----------------------------------------------------------------------


@pytest.mark.parametrize("which", VERSIONS)
def test_satchel_sends_each_event_the_common_fields_claude_code_sends(
    replayed: dict[str, Any], which: str
) -> None:
    _, host, ours = replayed[which]
    theirs, mine = by_event(host), by_event(ours)
    assert set(mine) == set(theirs)
    for event, payloads in theirs.items():
        assert [common_shape(p) for p in mine[event]] == [common_shape(p) for p in payloads], event


@pytest.mark.parametrize("which", VERSIONS)
def test_the_events_satchel_fires_itself_carry_claude_codes_fields_and_types(
    replayed: dict[str, Any], which: str
) -> None:
    _, host, ours = replayed[which]
    theirs, mine = by_event(host), by_event(ours)
    for event in ("InstructionsLoaded", "UserPromptExpansion", "PreSkillShellCommand"):
        assert [shape(p) for p in mine[event]] == [shape(p) for p in theirs[event]], event
    expansion = {k: v for k, v in own(mine["UserPromptExpansion"][0]).items()}
    assert expansion == own(theirs["UserPromptExpansion"][0])


@pytest.mark.parametrize("which", VERSIONS)
def test_ids_are_well_formed_and_the_transcript_is_where_claude_code_keeps_it(
    hosts: dict[str, Ran], replayed: dict[str, Any], which: str
) -> None:
    ran = hosts[which]
    base, host, ours = replayed[which]
    for payloads, home, cwd in (
        (host, ran.home, ran.payload_root),
        (ours, base / "home", base / "satchel"),
    ):
        sessions = {p["session_id"] for p in payloads}
        assert len(sessions) == 1 and UUID.fullmatch(next(iter(sessions)))
        (session_id,) = sessions
        expected = claude_transcript_path(home, str(cwd), session_id)
        assert {p["transcript_path"] for p in payloads} == {expected}
        for p in payloads:  # prompt_id: absent until the first prompt
            if p["hook_event_name"] in STARTUP:
                assert "prompt_id" not in p
            else:
                assert UUID.fullmatch(p["prompt_id"]), p["hook_event_name"]
        assert {p["permission_mode"] for p in payloads if "permission_mode" in p} == {"default"}
        assert {p["effort"]["level"] for p in payloads if "effort" in p} == {"medium"}


def test_the_two_versions_send_the_same_fields_for_the_events_both_fire(
    hosts: dict[str, Ran],
) -> None:
    old, new = (by_event(captured(hosts[w].payload_root)) for w in VERSIONS)
    assert set(old) == set(new)
    for event in old:
        assert {tuple(sorted(p)) for p in old[event]} == {tuple(sorted(p)) for p in new[event]}


def test_interrupt_is_fired_by_2_1_337_when_a_permission_deny_interrupts_the_turn(
    hosts: dict[str, Ran],
) -> None:
    (payload,) = by_event(captured(hosts["claude_code_next"].interrupt_root))["Interrupt"]
    assert own(payload) == {"source": "system", "reason": "permission_denied"}
    context = PayloadContext("s", "t", "/p", prompt_id="i", permission_mode="default")
    ours = CLAUDE_CODE.payload("Interrupt", replace(context, effort="medium"), own(payload))
    assert shape(ours) == shape(payload)


# -- answers -----------------------------------------------------------------------


def _blocks(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def _results(turn: Turn | None) -> dict[str, tuple[str, bool, list[str]]]:
    """Per command the model called (by its last word): the tool_result text the host
    sent back, whether it was an error, and the texts of the system messages that
    came right after it."""
    assert turn is not None
    last = turn.turns[-1].body["messages"]
    calls = {
        b["id"]: b["input"].get("command", "")
        for m in last
        for b in _blocks(m)
        if b["type"] == "tool_use"
    }
    found: dict[str, tuple[str, bool, list[str]]] = {}
    for i, message in enumerate(last):
        for block in (b for b in _blocks(message) if b["type"] == "tool_result"):
            content = block["content"]
            text = content if isinstance(content, str) else content[0]["text"]
            after: list[str] = []
            for m in last[i + 1 :]:
                if m["role"] != "system":
                    break
                after.extend(b["text"] for b in _blocks(m) if b["type"] == "text")
            word = calls[block["tool_use_id"]].split()[-1]
            found[word] = (text, bool(block.get("is_error")), after)
    return found


@pytest.fixture(scope="module")
def answered(hosts: dict[str, Ran], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """satchel's decisions for the same calls, with the same hooks."""
    base = tmp_path_factory.mktemp("satchel-answers")
    root = answer_project(base / "project", EVENTS)
    session = satchel_session(root, base / "home")
    start = session.hooks.fire("SessionStart", {"source": "startup"})
    prompt = session.hooks.fire("UserPromptSubmit", {"prompt": "go"})
    decisions = {w: session.before_tool_use("Bash", {"command": f"echo {w}"}) for w in ANSWERED}
    after = session.hooks.fire(
        "PostToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "echo ctx-me"}, "tool_response": {}},
    )
    stop = [session.hooks.fire("Stop", {"stop_hook_active": again}) for again in (False, True)]
    return {
        "start": start,
        "prompt": prompt,
        "decisions": decisions,
        "after": after,
        "stop": stop,
    }


def _system_text(turn: Turn) -> str:
    return json.dumps(turn.turns[0].body)


@pytest.mark.parametrize("which", VERSIONS)
def test_a_deny_refuses_the_call_and_tells_the_model_the_reason(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    text, error, _ = _results(hosts[which].answer_turn)["deny-me"]
    decision = answered["decisions"]["deny-me"]
    assert decision.behavior == "deny" and not decision.allowed
    assert decision.reason == "deny-reason"
    assert (text, error) == (refusal_text(decision.hooks, "Bash"), True)


@pytest.mark.parametrize("which", VERSIONS)
def test_an_ask_does_not_run_the_call_without_a_person_and_gives_the_reason(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    text, error, _ = _results(hosts[which].answer_turn)["ask-me"]
    decision = answered["decisions"]["ask-me"]
    assert decision.behavior == "ask" and not decision.allowed
    assert decision.reason == "ask-reason"
    assert (text, error) == (refusal_text(decision.hooks, "Bash"), True)  # no one to ask


@pytest.mark.parametrize("which", VERSIONS)
def test_an_allow_with_updated_input_runs_the_rewritten_call(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    text, error, _ = _results(hosts[which].answer_turn)["rewrite-me"]
    decision = answered["decisions"]["rewrite-me"]
    assert decision.allowed and dict(decision.tool_input) == {"command": "echo rewritten"}
    assert (text, error) == ("rewritten", False)


@pytest.mark.parametrize("which", VERSIONS)
def test_additional_context_reaches_the_model_from_each_event(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    turn = hosts[which].answer_turn
    text, _, after = _results(turn)["ctx-me"]
    assert text == "ctx-me"  # the call ran
    assert answered["after"].additional_context == "post-context"
    assert after == [context_text(answered["after"], "Bash")]
    assert turn is not None
    seen = _system_text(turn)
    for key, event in (("start", "SessionStart"), ("prompt", "UserPromptSubmit")):
        assert answered[key].additional_context == f"{event}-context"
        told = context_text(answered[key])
        assert told is not None and json.dumps(told)[1:-1] in seen


@pytest.mark.parametrize("which", VERSIONS)
def test_exit_2_refuses_the_call_with_stderr_as_the_reason(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    text, error, _ = _results(hosts[which].answer_turn)["exit2-me"]
    decision = answered["decisions"]["exit2-me"]
    assert decision.behavior == "deny" and decision.reason == "exit2-reason"
    assert (text, error) == (refusal_text(decision.hooks, "Bash"), True)
    assert text.startswith(f'PreToolUse:Bash hook error: ["{sys.executable}" "$CLAUDE_PROJECT_DIR/')


@pytest.mark.parametrize("which", VERSIONS)
@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("badjson-me", "hook.output.invalid"),
        ("slow-me", "hook.timeout"),
        ("fail1-me", "hook.failed"),
    ],
)
def test_bad_json_a_timeout_and_exit_1_have_no_opinion_so_the_call_runs(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str, word: str, code: str
) -> None:
    text, error, _ = _results(hosts[which].answer_turn)[word]
    assert (text, error) == (word, False)  # the host ran it
    decision = answered["decisions"][word]
    assert decision.allowed and decision.updated_input is None
    assert refusal_text(decision.hooks, "Bash") is None
    assert code in {d.code for d in decision.diagnostics}


def test_a_payload_carries_a_fresh_prompt_id_per_prompt_and_the_tool_use_id(
    tmp_path: Path,
) -> None:
    root = payload_project(tmp_path / "p", EVENTS)
    session = satchel_session(root, tmp_path / "home", permission_mode="plan", effort="high")
    session.hooks.fire("UserPromptSubmit", {"prompt": "one"})
    first = session.hooks.prompt_id
    session.before_tool_use("Bash", {"command": "echo hi"}, tool_use_id="toolu_1")
    session.hooks.fire("UserPromptSubmit", {"prompt": "two"})
    pre = by_event(captured(root))["PreToolUse"][0]
    assert first is not None and UUID.fullmatch(first) and session.hooks.prompt_id != first
    assert (pre["prompt_id"], pre["tool_use_id"]) == (first, "toolu_1")
    assert (pre["permission_mode"], pre["effort"]) == ("plan", {"level": "high"})
    assert uuid.UUID(session.hooks.session_id) and session.hooks.transcript_path.endswith(
        f"/{session.hooks.session_id}.jsonl"
    )


def test_rule_no_hook_holds_a_call_past_600_s_so_satchel_cuts_what_claude_code_waits(
    tmp_path: Path,
) -> None:
    """Where satchel differs on purpose: Claude Code waits a command hook's declared
    timeout whatever it is (``timeout * 1000`` ms, read from both binaries); satchel's
    runner stops it at its ``max_timeout``, and `satchel compat` says so."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    hook = {"type": "command", "command": "true", "timeout": 1000}
    put(root, ".claude/settings.json", json.dumps({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}))
    session = satchel_session(root, tmp_path / "home")
    decision = session.before_tool_use("Bash", {"command": "echo hi"})
    assert decision.allowed
    assert "hook.timeout.capped" in {d.code for d in decision.diagnostics}
    report = compat(root, hosts=["claude-code"], project=root, home=tmp_path / "home")
    found = report.get("claude-code")
    assert found is not None
    (drop,) = found.drops
    assert (drop.diagnostic.code, drop.id) == (
        "compat.hook.timeout.capped",
        "claude-project/PreToolUse/*",
    )
    assert drop.diagnostic.message == (
        "the hook declares a timeout of 1,000 s: Claude Code waits that long, satchel's "
        "runner stops it at 600 s (its max_timeout: no file may hold a tool call for longer)"
    )


def test_a_runner_without_a_session_sends_the_dialects_defaults(tmp_path: Path) -> None:
    root = payload_project(tmp_path / "p", EVENTS)
    session = satchel_session(root, tmp_path / "home")
    runner = HookRunner(session.environment, session_id="s-1", transcript_path="/t.jsonl")
    runner.before_tool_use("Bash", {"command": "echo hi"}, tool_use_id="toolu_1")
    (payload,) = by_event(captured(root))["PreToolUse"]
    assert payload == {
        "session_id": "s-1",
        "transcript_path": "/t.jsonl",
        "cwd": str(root),
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "echo hi"},
        "tool_use_id": "toolu_1",
    }


@pytest.mark.parametrize("which", VERSIONS)
def test_a_stop_block_sends_the_model_back_to_work_with_the_reason(
    hosts: dict[str, Ran], answered: dict[str, Any], which: str
) -> None:
    turn = hosts[which].answer_turn
    assert turn is not None
    first, again = answered["stop"]
    assert (first.behavior, first.reason) == ("deny", "stop-reason")  # do not stop yet
    assert again.behavior == "allow"  # stop_hook_active: the hook lets it stop
    last = turn.turns[-1].body["messages"]
    feedback = [m for m in last if m["role"] == "user" and "Stop hook feedback" in str(m)]
    (message,) = feedback  # one more turn, then the second Stop lets it end
    assert f"Stop hook feedback:\n{first.reason}\n" in _blocks(message)[0]["text"]
    assert last[-2] is message and last[-1]["role"] == "system"
    told = _blocks(last[-1])[0]["text"]
    assert told.startswith("Stop hook blocking error from command: ")
    assert told.endswith(f": {first.reason}")

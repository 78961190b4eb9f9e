"""The behaviour table of docs/hooks.md, one test (or parametrized set) per row: what
a hook's exit code and output mean, with real hook programs in Python and sh."""

from __future__ import annotations

import pytest

from tests.support import codes

from .support import fire, pre_tool, reply, sh_hook


def one(tmp_path, layout, command, *, event="before_tool_use", matcher="Bash", **handler):
    return ("before_tool_use" if event == "before_tool_use" else event, matcher,
            [{"command": command, **handler}])  # fmt: skip


@pytest.mark.parametrize("decision", ["allow", "deny", "ask"])
def test_exit_0_json_permission_decision_is_honoured(tmp_path, layout, decision):
    command = reply(tmp_path, "h", out=pre_tool(decision, f"because {decision}"))
    outcome = fire(layout, one(tmp_path, layout, command))
    assert outcome.behavior == decision
    assert outcome.reason == (f"because {decision}" if decision != "allow" else "because allow")
    assert outcome.diagnostics == ()


def test_exit_0_defer_is_no_opinion(tmp_path, layout):
    outcome = fire(layout, one(tmp_path, layout, reply(tmp_path, "h", out=pre_tool("defer"))))
    assert outcome.behavior == "allow"
    assert outcome.results[0].decision == "defer"


def test_exit_0_updated_input_replaces_the_whole_input(tmp_path, layout):
    rewrite = {"command": "ls -la", "description": "safer"}
    command = reply(tmp_path, "h", out=pre_tool("allow", updatedInput=rewrite))
    outcome = fire(layout, one(tmp_path, layout, command))
    assert (outcome.behavior, outcome.updated_input) == ("allow", rewrite)


def test_exit_0_additional_context_and_universal_fields(tmp_path, layout):
    out = {
        **pre_tool("allow", additionalContext="the repo is frozen"),
        "systemMessage": "heads up",
        "continue": False,
        "stopReason": "enough for today",
        "suppressOutput": True,
    }
    outcome = fire(layout, one(tmp_path, layout, reply(tmp_path, "h", out=out)))
    assert outcome.additional_context == "the repo is frozen"
    assert outcome.system_messages == ("heads up",)
    assert (outcome.stop, outcome.stop_reason) == (True, "enough for today")
    assert outcome.results[0].suppress_output is True


@pytest.mark.parametrize(("legacy", "behavior"), [("block", "deny"), ("approve", "allow")])
def test_exit_0_legacy_top_level_decision(tmp_path, layout, legacy, behavior):
    command = reply(tmp_path, "h", out={"decision": legacy, "reason": "legacy says so"})
    outcome = fire(layout, one(tmp_path, layout, command))
    assert (outcome.behavior, outcome.reason) == (behavior, "legacy says so")


def test_exit_0_top_level_permission_decision_is_reported_not_honoured(tmp_path, layout):
    command = reply(tmp_path, "h", out={"permissionDecision": "deny", "reason": "x"})
    outcome = fire(layout, one(tmp_path, layout, command, name="guard"))
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.decision.misplaced"]
    assert outcome.diagnostics[0].message == (
        "hook 'guard' put permissionDecision at the top level of its JSON; it is not honoured"
    )


def test_exit_0_plain_stdout_is_no_opinion_on_a_tool_event(tmp_path, layout):
    outcome = fire(layout, one(tmp_path, layout, reply(tmp_path, "h", out="deny\n")))
    assert (outcome.behavior, outcome.additional_context, outcome.diagnostics) == (
        "allow",
        None,
        (),
    )


def test_exit_0_plain_stdout_is_context_on_prompt_submit(tmp_path, layout):
    command = reply(tmp_path, "h", out="today is release day\n")
    outcome = fire(
        layout,
        ("user_prompt_submit", None, [{"command": command}]),
        event="user_prompt_submit",
        payload={"prompt": "ship it"},
    )
    assert (outcome.behavior, outcome.additional_context) == ("allow", "today is release day")


def test_exit_2_denies_with_stderr_as_the_reason(tmp_path, layout):
    command = sh_hook(tmp_path, "h", 'cat >/dev/null\necho "no rm here" >&2\nexit 2\n')
    outcome = fire(layout, one(tmp_path, layout, command))
    assert (outcome.behavior, outcome.reason) == ("deny", "no rm here")


def test_h04_exit_2_with_empty_stderr_denies_with_a_default_reason(tmp_path, layout):
    command = reply(tmp_path, "h", code=2)
    outcome = fire(layout, one(tmp_path, layout, command, name="quiet"))
    assert (outcome.behavior, outcome.reason) == ("deny", "blocked by hook 'quiet'")
    assert outcome.diagnostics == ()


def test_h04_exit_2_beats_an_allow_in_the_json(tmp_path, layout):
    command = reply(
        tmp_path, "h", out=pre_tool("allow", updatedInput={"command": "x"}), err="no", code=2
    )
    outcome = fire(layout, one(tmp_path, layout, command))
    assert (outcome.behavior, outcome.reason, outcome.updated_input) == ("deny", "no", None)


def test_exit_2_on_an_observe_only_event_blocks_nothing(tmp_path, layout):
    command = reply(tmp_path, "h", err="too late", code=2)
    outcome = fire(
        layout,
        ("after_tool_use", None, [{"command": command}]),
        event="after_tool_use",
        payload={"tool_name": "Bash", "tool_input": {}, "tool_response": {}},
    )
    assert outcome.behavior == "allow"


H03 = [
    ("exit 1", {"err": "BLOCKED", "code": 1}, "hook.failed", "hook 'h' exited with 1: BLOCKED"),
    ("truncated JSON", {"out": '{"permissionDecision": "deny"'}, "hook.output.invalid",
     "hook 'h': its output is not a JSON object"),
    ("unknown decision DENY", {"out": pre_tool("DENY")}, "hook.output.invalid",
     "hook 'h': permissionDecision 'DENY' is not allow, deny, ask or defer; ignored"),
    ("decision 'deny '", {"out": pre_tool("deny ")}, "hook.output.invalid",
     "hook 'h': permissionDecision 'deny ' is not allow, deny, ask or defer; ignored"),
    ("block as a permissionDecision", {"out": pre_tool("block")}, "hook.output.invalid",
     "hook 'h': permissionDecision 'block' is not allow, deny, ask or defer; ignored"),
    ("a JSON list", {"out": "[1]"}, None, None),
]  # fmt: skip


@pytest.mark.parametrize(("case", "given", "code", "message"), H03, ids=[c[0] for c in H03])
def test_h03_failures_and_bad_answers_warn_and_allow(tmp_path, layout, case, given, code, message):
    outcome = fire(layout, one(tmp_path, layout, reply(tmp_path, "x", **given), name="h"))
    assert outcome.behavior == "allow"
    assert [(d.code, d.message) for d in outcome.diagnostics] == ([(code, message)] if code else [])


def test_h03_exit_1_with_valid_json_is_still_honoured(tmp_path, layout):
    command = reply(tmp_path, "h", out=pre_tool("deny", "json wins"), err="oops", code=1)
    outcome = fire(layout, one(tmp_path, layout, command, name="h"))
    assert (outcome.behavior, outcome.reason) == ("deny", "json wins")
    assert codes(outcome.diagnostics) == ["hook.failed"]


@pytest.mark.parametrize(
    ("case", "program", "message"),
    [
        ("127 not found", "no-such-command-satchel-test", "exited with 127"),
        ("139 segfault", "kill -SEGV $$", "was killed by signal 11"),
    ],
)
def test_h03_crashes_warn_and_allow(tmp_path, layout, case, program, message):
    outcome = fire(layout, one(tmp_path, layout, program, name="h"))
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.failed"]
    assert outcome.diagnostics[0].message.startswith(f"hook 'h' {message}")


def test_h03_126_not_executable_warns_and_allows(tmp_path, layout):
    script = tmp_path / "plain.sh"
    script.write_text("#!/bin/sh\nexit 2\n")
    script.chmod(0o644)
    outcome = fire(layout, one(tmp_path, layout, f'"{script}"', name="h"))
    assert outcome.behavior == "allow"
    assert outcome.results[0].exit_code == 126
    assert codes(outcome.diagnostics) == ["hook.failed"]


def test_h03_a_program_that_cannot_start_warns_and_allows(tmp_path, layout):
    missing = str(tmp_path / "missing")
    outcome = fire(layout, one(tmp_path, layout, missing, args=["x"], name="h"))
    assert outcome.behavior == "allow"
    assert codes(outcome.diagnostics) == ["hook.failed"]
    assert outcome.diagnostics[0].message == f"hook 'h' cannot start {missing!r}: no such file"


@pytest.mark.parametrize("strict", [True, False])
def test_a_failure_of_a_strict_hook_denies(tmp_path, layout, strict):
    command = reply(tmp_path, "h", err="crashed", code=1)
    outcome = fire(layout, one(tmp_path, layout, command, name="h", strict=strict))
    assert outcome.behavior == ("deny" if strict else "allow")
    if strict:
        assert outcome.reason == (
            "hook 'h' failed (exited with 1: crashed) and is set to deny on failure"
        )


def test_observe_only_events_ignore_decisions_but_keep_context(tmp_path, layout):
    out = {"decision": "block", "hookSpecificOutput": {"additionalContext": "noted"}}
    outcome = fire(
        layout,
        ("session_start", None, [{"command": reply(tmp_path, "h", out=out)}]),
        event="session_start",
        payload={"source": "startup"},
    )
    assert (outcome.behavior, outcome.additional_context) == ("allow", "noted")


@pytest.mark.parametrize("event", ["stop", "user_prompt_submit", "subagent_stop", "pre_compact"])
def test_blocking_events_follow_claude_codes_table(tmp_path, layout, event):
    command = reply(tmp_path, "h", out={"decision": "block", "reason": "not done yet"})
    outcome = fire(layout, (event, None, [{"command": command}]), event=event, payload={})
    assert (outcome.behavior, outcome.reason) == ("deny", "not done yet")


def test_observe_only_failures_are_reported(tmp_path, layout):
    outcome = fire(
        layout,
        ("notification", None, [{"command": reply(tmp_path, "h", code=3), "name": "n"}]),
        event="notification",
        payload={"notification_type": "idle_prompt", "message": "hi"},
    )
    assert (outcome.behavior, codes(outcome.diagnostics)) == ("allow", ["hook.failed"])


def permission(tmp_path, decision, *, code=0, err=""):
    """Fire ``permission_request`` at one hook answering Claude Code's ``decision``."""
    out = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}
    command = reply(tmp_path, "h", out=out, code=code, err=err)
    return ("permission_request", "Bash", [{"command": command, "name": "h"}]), {
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"},
    }


def test_a_permission_request_deny_denies_with_its_message(tmp_path, layout):
    group, payload = permission(tmp_path, {"behavior": "deny", "message": "not here"})
    outcome = fire(layout, group, event="permission_request", payload=payload)
    assert (outcome.behavior, outcome.reason, outcome.stop) == ("deny", "not here", False)
    assert outcome.diagnostics == ()


def test_a_permission_request_deny_without_a_message_says_claude_codes_words(tmp_path, layout):
    group, payload = permission(tmp_path, {"behavior": "deny"})
    outcome = fire(layout, group, event="permission_request", payload=payload)
    assert (outcome.behavior, outcome.reason) == (
        "deny", "Permission denied by PermissionRequest hook")  # fmt: skip


def test_a_permission_request_deny_with_interrupt_also_stops(tmp_path, layout):
    decision = {"behavior": "deny", "message": "stop it", "interrupt": True}
    group, payload = permission(tmp_path, decision)
    outcome = fire(layout, group, event="permission_request", payload=payload)
    assert (outcome.behavior, outcome.stop, outcome.stop_reason) == ("deny", True, "stop it")


def test_a_permission_request_allow_runs_the_updated_input(tmp_path, layout):
    rewrite = {"command": "rm -rf build/tmp"}
    group, payload = permission(tmp_path, {"behavior": "allow", "updatedInput": rewrite})
    outcome = fire(layout, group, event="permission_request", payload=payload)
    assert (outcome.behavior, outcome.updated_input) == ("allow", rewrite)
    assert outcome.results[0].decision == "allow"


def test_a_permission_request_decision_of_another_behavior_is_reported(tmp_path, layout):
    group, payload = permission(tmp_path, {"behavior": "ask"})
    outcome = fire(layout, group, event="permission_request", payload=payload)
    assert (outcome.behavior, codes(outcome.diagnostics)) == ("allow", ["hook.output.invalid"])
    assert outcome.diagnostics[0].message == (
        "hook 'h': hookSpecificOutput.decision.behavior 'ask' is not allow or deny; ignored"
    )


def test_a_decision_object_on_another_event_is_not_a_permission(tmp_path, layout):
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                  "decision": {"behavior": "deny", "message": "no"}}}  # fmt: skip
    command = reply(tmp_path, "h", out=out)
    outcome = fire(layout, one(tmp_path, layout, command))
    assert (outcome.behavior, outcome.reason) == ("allow", None)

"""Bad-input cases H01, H02, H05, H06 and H07 of the threat model, with real hook
programs: hooks that never exit, flood their output, disagree, or hold their pipes.
No timing assertions: a hook that hung would trip the suite's per-test timeout."""

from __future__ import annotations

import itertools

import pytest

from tests.support import codes

from .support import fire, pre_tool, reply, sh_hook


def test_h01_a_hook_that_never_exits_times_out_and_allows(tmp_path, layout):
    command = sh_hook(tmp_path, "forever", "sleep 600\n")
    outcome = fire(layout, ("before_tool_use", None, [{"command": command, "timeout": 0.2}]))
    assert outcome.behavior == "allow"
    assert outcome.results[0].timed_out
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        ("hook.timeout", f"hook {command!r} timed out; its process group was killed")
    ]


def test_h01_a_hook_that_traps_term_is_killed_too(tmp_path, layout):
    command = sh_hook(tmp_path, "stubborn", "trap '' TERM\nwhile :; do sleep 1; done\n")
    outcome = fire(layout, ("before_tool_use", None, [{"command": command, "timeout": 0.2}]))
    assert codes(outcome.diagnostics) == ["hook.timeout"]


def test_h01_a_strict_hook_that_times_out_denies(tmp_path, layout):
    handler = {"command": "sleep 600", "timeout": 0.2, "strict": True, "name": "slow"}
    outcome = fire(layout, ("before_tool_use", None, [handler]))
    assert outcome.behavior == "deny"
    assert outcome.reason == (
        "hook 'slow' failed (timed out; its process group was killed) and is set to deny on failure"
    )


def test_the_runner_default_timeout_applies_to_a_hook_without_one(tmp_path, layout):
    outcome = fire(layout, ("before_tool_use", None, [{"command": "sleep 600"}]), timeout=0.2)
    assert codes(outcome.diagnostics) == ["hook.timeout"]


FLOOD = (
    "import sys\nsys.stdin.read()\n{before}sys.stdout.write('x' * 10_000_000)\nsys.exit({code})\n"
)


@pytest.mark.parametrize(
    ("case", "before", "code", "behavior"),
    [
        ("junk", "", 0, "allow"),
        ("a deny and then junk", 'print(\'{"decision": "block"}\')\n', 0, "allow"),
        ("junk and exit 2", "", 2, "deny"),
    ],
)
def test_h02_ten_megabytes_of_output_is_capped(tmp_path, layout, case, before, code, behavior):
    from .support import py_hook

    command = py_hook(tmp_path, "flood", FLOOD.format(before=before, code=code))
    outcome = fire(layout, ("before_tool_use", None, [{"command": command, "name": "flood"}]))
    assert outcome.behavior == behavior
    result = outcome.results[0]
    assert result.truncated
    assert len(result.stdout) < 1024 * 1024 + 200
    if behavior == "allow":
        assert [(d.code, d.message) for d in outcome.diagnostics] == [
            (
                "hook.output.truncated",
                "hook 'flood': its output passed the cap and was cut, so it cannot be read",
            )
        ]


def rewrite(command):
    return pre_tool("allow", updatedInput={"command": command})


# how much later the slow hook of two answers: far more than starting a shell takes
SKEW = 0.25


def two_hooks(tmp_path, first, second):
    return ("before_tool_use", None, [first, second])


@pytest.mark.parametrize(
    ("deny_first", "deny_finishes_first"), list(itertools.product([True, False], repeat=2))
)
def test_h05_deny_plus_updated_input_from_two_hooks(
    tmp_path, layout, deny_first, deny_finishes_first
):
    fast, slow = 0.0, SKEW
    a = {
        "name": "rewrite",
        "command": reply(
            tmp_path,
            "a",
            out=pre_tool("allow", updatedInput={"command": "echo hi"}),
            sleep=slow if deny_finishes_first else fast,
        ),
    }
    b = {
        "name": "deny",
        "command": reply(
            tmp_path,
            "b",
            out=pre_tool("deny", "B says no"),
            sleep=fast if deny_finishes_first else slow,
        ),
    }
    outcome = fire(layout, two_hooks(tmp_path, *((b, a) if deny_first else (a, b))))
    assert (outcome.behavior, outcome.reason, outcome.updated_input) == ("deny", "B says no", None)


def test_h05_the_first_deny_in_declared_order_gives_the_reason(tmp_path, layout):
    first = {"command": reply(tmp_path, "a", out=pre_tool("deny", "first"), sleep=SKEW)}
    second = {"command": reply(tmp_path, "b", out=pre_tool("deny", "second"))}
    outcome = fire(layout, two_hooks(tmp_path, first, second))
    assert outcome.reason == "first"


@pytest.mark.parametrize("skew", [(0.0, SKEW), (SKEW, 0.0)])
def test_h06_differing_rewrites_the_last_declared_wins_whatever_finishes_first(
    tmp_path, layout, skew
):
    a, b = (
        {"name": n, "command": reply(tmp_path, n, out=rewrite(n.upper()), sleep=s)}
        for n, s in zip("ab", skew, strict=True)
    )
    outcome = fire(layout, two_hooks(tmp_path, a, b))
    assert (outcome.behavior, outcome.updated_input) == ("allow", {"command": "B"})
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        (
            "hook.rewrite.conflict",
            "hooks 'a' and 'b' rewrote the input differently; the last in declared order "
            "('b') wins",
        )
    ]


def test_h06_ask_keeps_the_rewrite_so_the_user_sees_what_would_run(tmp_path, layout):
    a = {"command": reply(tmp_path, "a", out=pre_tool("allow", updatedInput={"command": "A"}))}
    b = {"command": reply(tmp_path, "b", out=pre_tool("ask", "check this"))}
    outcome = fire(layout, two_hooks(tmp_path, a, b))
    assert (outcome.behavior, outcome.reason, outcome.updated_input) == (
        "ask",
        "check this",
        {"command": "A"},
    )


@pytest.mark.parametrize("empty_first", [True, False])
def test_h06_an_empty_answer_never_erases_a_rewrite(tmp_path, layout, empty_first):
    a = {"command": reply(tmp_path, "a", out=pre_tool("allow", updatedInput={"command": "A"}))}
    b = {"command": reply(tmp_path, "b", out={})}
    outcome = fire(layout, two_hooks(tmp_path, *((b, a) if empty_first else (a, b))))
    assert outcome.updated_input == {"command": "A"}


def test_h07_a_grandchild_holding_the_pipe_does_not_hang_the_runner(tmp_path, layout):
    answer = (
        '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}'
    )
    command = sh_hook(tmp_path, "fork", f"cat >/dev/null\necho '{answer}'\n(sleep 600 &)\nexit 0\n")
    outcome = fire(layout, ("before_tool_use", None, [{"command": command}]))
    assert (outcome.behavior, outcome.reason) == ("deny", "x")


def test_h07_a_hook_that_never_reads_a_large_stdin_does_not_deadlock(tmp_path, layout):
    command = sh_hook(tmp_path, "deaf", "sleep 0.2\necho '{}'\n")
    big = {"tool_name": "Write", "tool_input": {"file_path": "x", "content": "y" * (1 << 20)}}
    outcome = fire(layout, ("before_tool_use", None, [{"command": command}]), payload=big)
    assert (outcome.behavior, outcome.diagnostics) == ("allow", ())


def test_many_hooks_run_in_parallel_and_results_stay_in_declared_order(tmp_path, layout):
    handlers = [
        {"name": f"h{i}", "command": reply(tmp_path, f"h{i}", sleep=0.05 * (5 - i))}
        for i in range(5)
    ]
    outcome = fire(layout, ("before_tool_use", None, handlers))
    assert [r.hook.name for r in outcome.results] == [f"h{i}" for i in range(5)]

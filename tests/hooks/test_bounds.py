"""Bounds a hook file cannot lift: a declared timeout is cut to the runner's cap, and
deduplication never drops the stricter of two identical handlers (issue 14, section 4;
corpus cases H10 and H11)."""

from __future__ import annotations

import pytest

import satchel
from satchel.foundations.process import ProcessResult
from satchel.runtime.hooks import MAX_TIMEOUT, HookRunner
from tests.support import codes

from .support import environment, fire

FAILS = "exit 1"


def test_a_declared_timeout_is_cut_to_the_cap_of_600_seconds(monkeypatch, layout):
    """`timeout = 1e9` would block the tool call for ever; it runs for 600 s at most."""
    asked: list[float] = []

    def recorded(argv, *, timeout, **_):
        asked.append(timeout)
        return ProcessResult(tuple(argv), 0, "", "")

    monkeypatch.setattr("satchel.runtime.hooks._runner.run_process", recorded)
    handlers = [{"command": "sleep 600", "timeout": 1e9, "name": "forever"}, {"command": "true"}]
    outcome = fire(layout, ("before_tool_use", None, handlers))

    assert MAX_TIMEOUT == 600.0
    assert sorted(asked) == [600.0, 600.0]  # the second: Claude Code's command default
    assert [(d.code, d.message) for d in outcome.diagnostics] == [
        (
            "hook.timeout.capped",
            "hook 'forever' declares a timeout of 1e+09 s; it is cut to 600 s, the "
            "runner's max_timeout",
        )
    ]


def test_the_cap_is_configurable_and_a_capped_hook_is_killed_at_it(layout):
    handler = {"command": "sleep 600", "timeout": 1e9, "name": "forever"}
    outcome = fire(layout, ("before_tool_use", None, [handler]), max_timeout=1)

    assert outcome.results[0].timed_out
    assert codes(outcome.diagnostics) == ["hook.timeout.capped", "hook.timeout"]
    assert outcome.diagnostics[0].message.endswith("it is cut to 1 s, the runner's max_timeout")


def test_a_runner_timeout_above_the_default_cap_raises_it_and_an_explicit_cap_wins(layout):
    env = satchel.load(layout=layout)
    assert (HookRunner(env, timeout=900).max_timeout, HookRunner(env).max_timeout) == (900, 600)
    assert HookRunner(env, timeout=30, max_timeout=10).timeout == 10
    with pytest.raises(ValueError, match="must be positive"):
        HookRunner(env, max_timeout=0)


@pytest.mark.parametrize("strict_first", [True, False], ids=["strict-first", "strict-second"])
def test_dedupe_keeps_the_strict_one_of_two_identical_handlers(layout, strict_first):
    """The same failing command twice in one source, one of them strict: the policy
    still fails closed, whichever comes first."""
    strict = {"command": FAILS, "strict": True, "name": "policy"}
    loose = {"command": FAILS}
    handlers = [strict, loose] if strict_first else [loose, strict]
    env = environment(layout, ("before_tool_use", None, handlers))
    outcome = HookRunner(env).before_tool_use("Bash", {"command": "ls"})

    assert [r.hook.spec.strict for r in outcome.results] == [True]
    assert outcome.behavior == "deny"

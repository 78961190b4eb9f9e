"""A hook's answer never makes the output parser raise (`satchel.runtime.hooks._output`): any
JSON, in any field, of any type, with any exit code, gives a `HookResult`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satchel.foundations.origin import Origin
from satchel.foundations.process import ProcessResult
from satchel.hooks._matchers import ALL
from satchel.hooks._model import Hook, HookResult
from satchel.hooks._spec import HookSpec
from satchel.runtime.hooks._output import DECISIONS, read_result

from .support import PROPS

_KEYS = ["decision", "reason", "continue", "stopReason", "systemMessage", "system_message",
         "suppressOutput", "permissionDecision", "hookSpecificOutput", "hook_specific_output",
         "permissionDecisionReason", "updatedInput", "additionalContext", "tool_input",
         "additional_context", "hookEventName"]  # fmt: skip
_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_WORDS = st.sampled_from([*DECISIONS, "block", "approve", "Deny", ""])
_VALUES = st.recursive(
    _SCALARS | _WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner),
    max_leaves=12,
)
_ANSWERS = st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=6)
_FORMATS = ["claude", "vibe", "kimi", "gemini", "satchel"]
_EVENTS = ["before_tool_use", "after_tool_use", "user_prompt_submit", "stop"]


def _read(fmt: str, event: str, code: int | None, stdout: str) -> HookResult:
    spec = HookSpec(event="PreToolUse", command="true", format=fmt)  # type: ignore[arg-type]
    hook = Hook(spec, event, Origin("project"), ALL)
    run = ProcessResult(("true",), code, stdout, "why\n")
    return read_result(hook, event, run)


@PROPS
@given(
    _ANSWERS,
    st.sampled_from(_FORMATS),
    st.sampled_from(_EVENTS),
    st.sampled_from([0, 1, 2, None, -9]),
)
def test_any_json_answer_gives_a_result(answer, fmt: str, event: str, code: int | None) -> None:
    result = _read(fmt, event, code, json.dumps(answer))
    assert result.decision in (None, *DECISIONS)
    assert all(d.code.startswith("hook.") for d in result.diagnostics)


@pytest.mark.parametrize("fmt", _FORMATS)
@pytest.mark.parametrize("value", [{}, [], {"x": "ctx"}, ["block"]])
def test_a_decision_that_is_an_object_or_a_list_is_ignored(fmt: str, value: object) -> None:
    # Found by the hook-output fuzz target: `{"decision": {...}}` raised TypeError
    # (unhashable) in the Claude Code reader instead of being reported.
    result = _read(fmt, "before_tool_use", 0, json.dumps({"decision": value}))
    assert result.decision is None
    codes = [d.code for d in result.diagnostics]
    assert codes == ["hook.output.invalid"]

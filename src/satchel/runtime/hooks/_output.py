"""What one hook's run means: exit code, stdout JSON and stderr read into a
`HookResult` (docs/hooks.md, "What a hook's answer means").

- Exit 0: stdout whose first non-blank character is ``{`` is JSON (Claude Code's
  ``hookSpecificOutput``, the legacy top-level ``decision``, the universal
  ``continue``/``stopReason``/``systemMessage``/``suppressOutput``; Vibe hooks may
  answer in Vibe's snake_case; Gemini CLI hooks answer with a top-level ``decision``
  of ``allow``, ``deny``, ``block``, ``ask`` or ``approve`` and
  ``hookSpecificOutput.additionalContext``, docs/hooks/reference.md in
  google-gemini/gemini-cli). Other stdout is plain text: context on
  ``user_prompt_submit`` and ``session_start``, ignored elsewhere.
- Exit 2: a deny on an event that can block; stderr is the reason. An ``allow`` in the
  JSON cannot override it.
- Any other exit, a signal, a timeout, a start failure, cut or unparseable output: the
  hook failed. That warns and has no opinion, unless the hook is ``strict`` (Vibe,
  satchel) or ``fail_mode = "closed"`` (Kimi): then it denies. A valid JSON object
  on stdout is still honoured after a non-zero exit other than 2 (as Claude Code does).
- ``permissionDecision`` at the top level is a common mistake: it is reported
  (``hook.decision.misplaced``) and not honoured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from satchel.core._json import MAX_DEPTH, loads, nesting
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.process import ProcessResult
from satchel.hooks._events import BLOCKING
from satchel.hooks._model import Hook, HookResult
from satchel.hosts._dialects import hook_dialect

__all__ = [
    "DECISIONS",
    "FIELD_READERS",
    "Answer",
    "answered",
    "failed",
    "failure_result",
    "fails_closed",
    "read_result",
    "run_base",
]

DECISIONS = ("allow", "deny", "ask", "defer")
_LEGACY = {"block": "deny", "approve": "allow"}
_PLAIN_CONTEXT = frozenset(("user_prompt_submit", "session_start"))


@dataclass(slots=True)
class Answer:
    """The fields read so far from one hook's output (each host's reader fills one)."""

    decision: str | None = None
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    context: str | None = None
    system_message: str | None = None
    stop: bool = False
    stop_reason: str | None = None
    suppress: bool = False
    problems: list[str] = field(default_factory=list)
    misplaced: bool = False


def run_base(hook: Hook, run: ProcessResult) -> HookResult:
    """The result of `run` before its output is read: exit code, output and timing."""
    return HookResult(
        hook,
        run.exit_code,
        run.stdout,
        run.stderr,
        timed_out=run.timed_out,
        truncated=run.truncated,
        duration=run.duration,
    )


def answered(
    base: HookResult,
    answer: Answer,
    output: Mapping[str, Any] | None,
    diagnostics: tuple[Diagnostic, ...] = (),
) -> HookResult:
    """`base` with what `answer` read of the hook's `output`."""
    return replace(
        base,
        decision=answer.decision,
        reason=answer.reason,
        updated_input=answer.updated_input,
        additional_context=answer.context,
        system_message=answer.system_message,
        stop=answer.stop,
        stop_reason=answer.stop_reason,
        suppress_output=answer.suppress,
        output=output,
        diagnostics=(*base.diagnostics, *diagnostics),
    )


def failed(base: HookResult, event: str, code: str, why: str) -> HookResult:
    """`base` as a run that gave no usable answer (`code`, `why`: ``hook NAME WHY``):
    no opinion, or a deny when the hook is set to deny on failure."""
    return _failed(base, event, _Failure(code, why))


def read_result(hook: Hook, event: str, run: ProcessResult) -> HookResult:
    """What `run` of `hook` on `event` means (see the module docstring)."""
    base = run_base(hook, run)
    failure = _failure(run)
    if failure is not None and not (run.exit_code not in (None, 2) and _json_object(run.stdout)):
        return _failed(base, event, failure)
    answer, data = _answer(hook, event, run.stdout)
    diags = [_problem(hook, p) for p in answer.problems]
    if answer.misplaced:
        diags.append(_misplaced(hook))
    if failure is not None:
        diags.append(_failure_diagnostic(hook, failure))
    if run.exit_code == 2 and event in BLOCKING:
        answer.decision = "deny"
        answer.reason = run.stderr.strip() or answer.reason or f"blocked by hook {hook.name!r}"
        answer.updated_input = None
    elif data is None and run.stdout.strip().startswith("{"):
        invalid = _Failure("hook.output.invalid", _unreadable(run.stdout))
        return _failed(base, event, invalid, diags)
    return answered(base, answer, data, tuple(diags))


def failure_result(
    hook: Hook, event: str, code: str, why: str, *, timed_out: bool = False
) -> HookResult:
    """The result of a handler that gave no usable answer (`code`, `why`: ``hook
    NAME WHY``): no opinion, or a deny when the hook is set to deny on failure."""
    return failed(HookResult(hook, None, "", "", timed_out=timed_out), event, code, why)


@model
class _Failure:
    """Why a run gave no usable answer: a diagnostic code and the words."""

    code: str
    why: str


def _failure(run: ProcessResult) -> _Failure | None:
    """Why the run gave no usable answer, or None when it did."""
    if run.timed_out:
        return _Failure("hook.timeout", "timed out; its process group was killed")
    if run.exit_code is None:
        started = [d.message for d in run.diagnostics if d.code == "exec.start"]
        return _Failure("hook.failed", started[0] if started else "could not start")
    if run.exit_code == 2:
        return None  # a deny needs no readable output
    if run.truncated:
        why = "its output passed the cap and was cut, so it cannot be read"
        return _Failure("hook.output.truncated", why)
    if run.exit_code == 0:
        return None
    if run.exit_code < 0:
        return _Failure("hook.failed", f"was killed by signal {-run.exit_code}")
    line = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
    return _Failure("hook.failed", f"exited with {run.exit_code}" + (f": {line}" if line else ""))


def _failed(
    base: HookResult, event: str, failure: _Failure, diags: list[Diagnostic] | None = None
) -> HookResult:
    hook = base.hook
    found = [*(diags or []), _failure_diagnostic(hook, failure)]
    if fails_closed(hook) and event in BLOCKING:
        reason = f"hook {hook.name!r} failed ({failure.why}) and is set to deny on failure"
        return replace(base, failed=True, decision="deny", reason=reason, diagnostics=tuple(found))
    return replace(base, failed=True, diagnostics=tuple(found))


def fails_closed(hook: Hook) -> bool:
    """Whether `hook` is set to deny when it fails (strict, or ``fail_mode = closed``)."""
    return hook.spec.strict or hook.spec.fail_mode == "closed"


def _failure_diagnostic(hook: Hook, failure: _Failure) -> Diagnostic:
    joiner = ": " if failure.code in ("hook.output.invalid", "hook.output.truncated") else " "
    message = f"hook {hook.name!r}{joiner}{failure.why}"
    return diagnostic(failure.code, message, hook.spec.path)


def _json_object(stdout: str) -> bool:
    return _parse(stdout) is not None


def _parse(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        data = loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _unreadable(stdout: str) -> str:
    """Why output that begins with ``{`` gave no answer."""
    if nesting(stdout) > MAX_DEPTH:
        return f"its output nests deeper than {MAX_DEPTH} levels"
    return "its output is not a JSON object"


def _answer(hook: Hook, event: str, stdout: str) -> tuple[Answer, dict[str, Any] | None]:
    answer = Answer()
    data = _parse(stdout)
    if data is None:
        text = stdout.strip()
        if text and not text.startswith("{") and event in _PLAIN_CONTEXT:
            answer.context = text
        return answer, None
    _universal(data, answer)
    FIELD_READERS.get(hook_dialect(hook.spec.format).answer_fields, _claude)(data, answer, event)
    return answer, data


def _universal(data: Mapping[str, Any], answer: Answer) -> None:
    if data.get("continue") is False:
        answer.stop = True
        answer.stop_reason = _string(data, "stopReason", answer)
    answer.system_message = _string(data, "systemMessage", answer) or _string(
        data, "system_message", answer
    )
    answer.suppress = data.get("suppressOutput") is True


def _claude(data: Mapping[str, Any], answer: Answer, event: str) -> None:
    legacy = data.get("decision")
    if legacy is not None:
        if isinstance(legacy, str) and legacy in _LEGACY:  # a dict or list is unhashable
            answer.decision = _LEGACY[legacy]
            answer.reason = _string(data, "reason", answer)
        else:
            answer.problems.append(f"decision {legacy!r} is not 'block' or 'approve'; ignored")
    if "permissionDecision" in data:
        answer.misplaced = True
    specific = data.get("hookSpecificOutput")
    if specific is None:
        return
    if not isinstance(specific, dict):
        answer.problems.append("hookSpecificOutput is not an object; ignored")
        return
    decision = specific.get("permissionDecision")
    if decision is not None and decision not in DECISIONS:
        answer.problems.append(
            f"permissionDecision {decision!r} is not allow, deny, ask or defer; ignored"
        )
    elif decision is not None:
        answer.decision = decision
        answer.reason = _string(specific, "permissionDecisionReason", answer) or answer.reason
    answer.updated_input = _object(specific, "updatedInput", answer)
    answer.context = _string(specific, "additionalContext", answer)
    if event == "permission_request" and "decision" in specific:
        _permission_request(specific["decision"], answer)


_PERMISSION_DENIED = "Permission denied by PermissionRequest hook"


def _permission_request(decision: Any, answer: Answer) -> None:
    """Claude Code's answer to ``PermissionRequest`` (2.1.332, 2.1.337: the binaries'
    reader of ``hookSpecificOutput.decision``): ``behavior`` ``allow`` grants the call,
    with ``updatedInput`` the input it runs with; ``deny`` refuses it with ``message``
    (Claude Code's words when none), and ``interrupt: true`` also stops the turn.
    ``updatedPermissions`` (rules an allow adds) is not applied."""
    if not isinstance(decision, dict):
        answer.problems.append("hookSpecificOutput.decision is not an object; ignored")
        return
    behavior = decision.get("behavior")
    if behavior == "allow":
        answer.decision, answer.reason = "allow", None
        answer.updated_input = _object(decision, "updatedInput", answer)
    elif behavior == "deny":
        answer.decision, answer.updated_input = "deny", None
        answer.reason = _string(decision, "message", answer) or _PERMISSION_DENIED
        if decision.get("interrupt") is True:
            answer.stop, answer.stop_reason = True, answer.reason
    else:
        answer.problems.append(
            f"hookSpecificOutput.decision.behavior {behavior!r} is not allow or deny; ignored"
        )


def _snake_case(data: Mapping[str, Any], answer: Answer, event: str) -> None:
    """Vibe's answers: a top-level ``decision`` (deny, block) and
    ``hook_specific_output``; Claude Code's fields when the hook writes those."""
    decision = data.get("decision")
    if decision in ("deny", "block"):
        answer.decision = "deny"
        answer.reason = _string(data, "reason", answer)
    elif decision is not None:
        answer.problems.append(f"decision {decision!r} is not 'deny'; ignored")
    specific = data.get("hook_specific_output")
    if isinstance(specific, dict):
        answer.updated_input = _object(specific, "tool_input", answer)
        answer.context = _string(specific, "additional_context", answer)
    elif "hookSpecificOutput" in data:
        _claude(data, answer, event)  # a Vibe hook written in Claude Code's protocol


_GEMINI_DECISIONS = {"allow": "allow", "approve": "allow", "deny": "deny", "block": "deny",
                     "ask": "ask"}  # fmt: skip


def _top_level_decision(data: Mapping[str, Any], answer: Answer, event: str) -> None:
    """Gemini CLI's answers: a top-level ``decision`` (allow, approve, deny, block, ask)
    and ``hookSpecificOutput.additionalContext``."""
    decision = data.get("decision")
    if isinstance(decision, str) and decision in _GEMINI_DECISIONS:
        answer.decision = _GEMINI_DECISIONS[decision]
        answer.reason = _string(data, "reason", answer)
    elif decision is not None:
        answer.problems.append(f"decision {decision!r} is not allow, deny, block or ask; ignored")
    specific = data.get("hookSpecificOutput")
    if specific is None:
        return
    if not isinstance(specific, dict):
        answer.problems.append("hookSpecificOutput is not an object; ignored")
        return
    answer.context = _string(specific, "additionalContext", answer)
    if "tool_input" in specific:  # Gemini CLI merges it into the arguments
        answer.problems.append("hookSpecificOutput.tool_input (merged arguments) is not applied")


_CURSOR_PERMISSIONS = frozenset(("allow", "deny", "ask"))


def _permission(data: Mapping[str, Any], answer: Answer, event: str) -> None:
    """Cursor's answers: ``permission`` (allow, deny, ask) with ``user_message`` and
    ``agent_message``; a stop hook's ``followup_message`` sends the agent back to work
    (satchel's block on stop); ``continue: false`` is read by `_universal`."""
    permission = data.get("permission")
    if isinstance(permission, str) and permission in _CURSOR_PERMISSIONS:
        answer.decision = permission
        answer.reason = _string(data, "agent_message", answer) or _string(
            data, "user_message", answer
        )
    elif permission is not None:
        answer.problems.append(f"permission {permission!r} is not allow, deny or ask; ignored")
    followup = _string(data, "followup_message", answer)
    if followup:
        answer.decision = "deny"
        answer.reason = followup
    answer.context = _string(data, "additional_context", answer)


FIELD_READERS: Mapping[str, Callable[[Mapping[str, Any], Answer, str], None]] = MappingProxyType(
    {
        "snake-case": _snake_case,
        "top-level-decision": _top_level_decision,
        "permission": _permission,
    }
)
"""The reader of each `AnswerFields` (the JSON, the answer it fills, the event,
satchel's name); a hook format's host definition names its own
(`HookDialect.answer_fields`), Claude Code's ``hook-specific-output`` otherwise."""


def _string(data: Mapping[str, Any], key: str, answer: Answer) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    answer.problems.append(f"{key} is not a string; ignored")
    return None


def _object(data: Mapping[str, Any], key: str, answer: Answer) -> Mapping[str, Any] | None:
    value = data.get(key)
    if value is None or isinstance(value, dict):
        return value
    answer.problems.append(f"{key} is not an object (a full replacement input); ignored")
    return None


def _problem(hook: Hook, problem: str) -> Diagnostic:
    return diagnostic("hook.output.invalid", f"hook {hook.name!r}: {problem}", hook.spec.path)


def _misplaced(hook: Hook) -> Diagnostic:
    message = (
        f"hook {hook.name!r} put permissionDecision at the top level of its JSON; "
        "it is not honoured"
    )
    hint = 'wrap it: {"hookSpecificOutput": {"hookEventName": "PreToolUse", ...}}'
    return diagnostic("hook.decision.misplaced", message, hook.spec.path, hint=hint)

"""What a hook's answer means under Codex's and Gemini CLI's rules, where they differ
from Claude Code's (`satchel.runtime.hooks._output`). A host definition names the rule
it reads answers by (`HookDialect.answers`): ``strict-json`` is Codex's, read by
`strict_json_result`; ``stdout-or-stderr`` Gemini CLI's, by `stdout_or_stderr_result`
(`READERS`). The events whose answers refuse under each host, and where satchel is
stricter than the host, are its definition's too (`HookDialect.blocking`,
`HookDialect.stricter`).

Codex 0.171.0 (openai/codex codex-rs/hooks: output_parser.rs and the events' modules;
every rule below observed with ``codex exec``, tests/hooks/test_codex_hook_loop.py):

- Exit 0: no output is no opinion; a JSON object is read per event; output that looks
  like JSON but is not an object it understands fails the hook; plain text is context
  on ``SessionStart`` and ``UserPromptSubmit`` and ignored elsewhere.
- Exit 2 with words on stderr refuses (the call, the prompt; sends the agent back
  on ``Stop``; replaces the tool's result on ``PostToolUse``). Any other exit, a
  timeout, a start failure: the hook failed, no opinion (JSON is not read).
- ``PreToolUse``: ``permissionDecision`` ``deny`` with a reason refuses; ``allow``
  counts only with ``updatedInput`` (the input is replaced); ``updatedInput`` without
  ``allow``, ``allow`` alone, the legacy ``decision: approve``, ``continue: false``,
  ``stopReason`` and ``suppressOutput`` fail the hook; ``decision: block`` with a
  reason refuses; ``additionalContext`` is context.
- ``PostToolUse``: ``decision: block`` with a reason replaces the tool's result by
  the reason; ``additionalContext`` is context.
- ``UserPromptSubmit``: ``decision: block`` with a reason drops the prompt;
  ``Stop``: it sends the agent back with the reason; ``PreCompact`` cannot stop a
  compaction.

Gemini CLI 0.61.0 (its bundle's hookRunner, hookAggregator and the tool scheduler;
observed with ``gemini -p``, tests/hooks/test_gemini_hook_loop.py):

- The answer is stdout, or stderr when stdout is empty. JSON (an object, or a string
  holding one) is read whatever the exit code; plain text means: exit 0 a system
  message, exit 1 a warning ("Warning: TEXT"), any other exit a deny with the text as
  the reason. No output, a timeout or a start failure: no opinion.
- ``decision`` ``deny`` or ``block`` refuses (reason: ``stopReason``, else
  ``reason``, else "No reason provided"); ``ask`` asks; ``continue: false`` stops the
  agent. ``hookSpecificOutput.tool_input`` on ``BeforeTool`` is merged into the
  call's arguments; ``additionalContext`` counts on ``AfterTool``, ``BeforeAgent`` and
  ``SessionStart`` (its ``<`` and ``>`` escaped), not on ``BeforeTool``.
  ``AfterTool`` refusing replaces the tool's result by the reason.

Where satchel is stricter on purpose (`REFUSALS_STAND`, docs/hooks.md): a hook that
refuses a tool call or a prompt is never overruled for its form. Under Codex a
``deny`` (or ``block``) without a reason and an exit 2 with nothing on stderr still
refuse, and ``ask`` still asks; under Gemini CLI an exit 2 refuses whatever the hook
printed. The hosts let those calls run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from satchel.foundations.process import ProcessResult
from satchel.hooks._model import Hook, HookResult
from satchel.hosts._profiles import PROFILES
from satchel.runtime.hooks._output import Answer, answered, failed, fails_closed, run_base

__all__ = [
    "READERS",
    "REFUSALS_STAND",
    "STRICTER",
    "STRICTER_EVENTS",
    "Reader",
    "stdout_or_stderr_result",
    "strict_json_result",
]

REFUSALS_STAND = "refusals-stand"  # the safety rule's name (docs/hooks.md)
# Where the rule makes satchel's runner refuse a call the host runs, in words (for
# `satchel compat`), by profile (each host definition's `HookDialect.stricter`), and
# the events it is about.
STRICTER: Mapping[str, str] = MappingProxyType(
    {name: host.hooks.stricter for name, host in PROFILES.items() if host.hooks.stricter}
)
STRICTER_EVENTS = frozenset(("before_tool_use", "user_prompt_submit"))

Reader = Callable[[Hook, str, ProcessResult, Mapping[str, Any]], HookResult]

_CONTEXT_TEXT = frozenset(("session_start", "user_prompt_submit"))
_GATES = frozenset(("before_tool_use", "user_prompt_submit"))


def _no_run(base: HookResult, event: str, run: ProcessResult) -> HookResult | None:
    """The failure of a run that gave no output to read, or None."""
    if run.timed_out:
        return failed(base, event, "hook.timeout", "timed out; its process group was killed")
    if run.exit_code is None:
        started = [d.message for d in run.diagnostics if d.code == "exec.start"]
        return failed(base, event, "hook.failed", started[0] if started else "could not start")
    if run.truncated:
        why = "its output passed the cap and was cut, so it cannot be read"
        return failed(base, event, "hook.output.truncated", why)
    return None


def _kept(hook: Hook) -> str:
    """The reason of a refusal that gave none."""
    return f"blocked by hook {hook.name!r}"


def _object(text: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _filled(value: str | None) -> str | None:
    return value.strip() if value and value.strip() else None


# --- Codex ------------------------------------------------------------------------------


def strict_json_result(
    hook: Hook, event: str, run: ProcessResult, fields: Mapping[str, Any]
) -> HookResult:
    """`run` of `hook` on `event` under the ``strict-json`` rule, Codex's (see the
    module docstring)."""
    base = run_base(hook, run)
    stopped = _no_run(base, event, run)
    if stopped is not None:
        return stopped
    if run.exit_code == 2:
        reason = _filled(run.stderr)
        if reason is None and event not in _GATES:
            why = "exited with 2 but wrote no reason to stderr"
            return failed(base, event, "hook.failed", why)
        return replace(base, decision="deny", reason=reason or _kept(hook))
    if run.exit_code != 0:
        line = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
        why = f"exited with {run.exit_code}" + (f": {line}" if line else "")
        return failed(base, event, "hook.failed", why)
    text = run.stdout.strip()
    if not text:
        return base
    data = _object(text)
    if data is None:
        if text.startswith(("{", "[")):
            return failed(base, event, "hook.output.invalid", "its output is not a JSON object")
        read = Answer(context=text if event in _CONTEXT_TEXT else None)
        return answered(base, read, None)
    read = _codex_json(hook, event, data)
    if read.problems:
        return failed(base, event, "hook.output.invalid", read.problems[0])
    return answered(base, read, data)


def _codex_json(hook: Hook, event: str, data: Mapping[str, Any]) -> Answer:
    read = Answer(system_message=_text(data, "systemMessage"))
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    if event in ("before_tool_use", "permission_request"):
        _codex_universal_gate(data, read)
    elif data.get("continue") is False:
        read.stop, read.stop_reason = True, _text(data, "stopReason")
    if read.problems:
        return read
    if event == "before_tool_use":
        _codex_pre_tool(hook, data, specific, read)
    elif event in ("after_tool_use", "user_prompt_submit", "stop"):
        _codex_block(hook, event, data, read)
    if event in ("before_tool_use", "after_tool_use", "user_prompt_submit", "session_start"):
        read.context = _text(specific, "additionalContext")
    return read


def _codex_universal_gate(data: Mapping[str, Any], read: Answer) -> None:
    """What Codex refuses in a tool gate's answer: it fails the hook."""
    if data.get("continue") is False:
        read.problems.append("PreToolUse hook returned unsupported continue:false")
    elif "stopReason" in data:
        read.problems.append("PreToolUse hook returned unsupported stopReason")
    elif data.get("suppressOutput") is True:
        read.problems.append("PreToolUse hook returned unsupported suppressOutput")


def _codex_pre_tool(
    hook: Hook, data: Mapping[str, Any], specific: Mapping[str, Any], read: Answer
) -> None:
    decision = specific.get("permissionDecision")
    reason = _filled(_text(specific, "permissionDecisionReason"))
    updated = specific.get("updatedInput")
    if decision is None and reason is None and updated is None:
        _codex_legacy(hook, data, read)
    elif updated is not None and decision != "allow":
        read.problems.append(
            "PreToolUse hook returned updatedInput without permissionDecision:allow"
        )
    elif decision == "allow" and not isinstance(updated, dict):
        read.problems.append("PreToolUse hook returned unsupported permissionDecision:allow")
    elif decision == "allow" and isinstance(updated, dict):
        read.decision, read.updated_input = "allow", updated
    elif decision == "deny":  # a refusal stands without its reason
        read.decision, read.reason = "deny", reason or _kept(hook)
    elif decision == "ask":  # Codex has no ask and runs the call; satchel still asks
        read.decision, read.reason = "ask", reason
    elif decision is not None:
        read.problems.append(f"PreToolUse hook returned unsupported permissionDecision:{decision}")
    else:
        read.problems.append(
            "PreToolUse hook returned permissionDecisionReason without permissionDecision"
        )


def _codex_legacy(hook: Hook, data: Mapping[str, Any], read: Answer) -> None:
    decision = data.get("decision")
    if decision == "approve":
        read.problems.append("PreToolUse hook returned unsupported decision:approve")
    elif decision == "block":  # a refusal stands without its reason
        read.decision, read.reason = "deny", _filled(_text(data, "reason")) or _kept(hook)
    elif "reason" in data:
        read.problems.append("PreToolUse hook returned reason without decision")


_HOST_NAMES = {"after_tool_use": "PostToolUse", "user_prompt_submit": "UserPromptSubmit",
               "stop": "Stop"}  # fmt: skip


def _codex_block(hook: Hook, event: str, data: Mapping[str, Any], read: Answer) -> None:
    """``decision: block`` with a reason on PostToolUse, UserPromptSubmit and Stop."""
    name = _HOST_NAMES[event]
    if event == "after_tool_use" and data.get("suppressOutput") is True:
        read.problems.append("PostToolUse hook returned unsupported suppressOutput")
        return
    reason = _filled(_text(data, "reason"))
    if data.get("decision") != "block":
        if event == "after_tool_use" and "reason" in data and not read.stop:
            read.problems.append("PostToolUse hook returned reason without decision")
        return
    if reason is not None:
        read.decision, read.reason = "deny", reason
    elif event == "user_prompt_submit":  # a refusal stands without its reason
        read.decision, read.reason = "deny", _kept(hook)
    else:
        read.problems.append(f"{name} hook returned decision:block without a non-empty reason")


# --- Gemini CLI -------------------------------------------------------------------------

_GEMINI_CONTEXT = frozenset(("after_tool_use", "user_prompt_submit", "session_start"))
_NON_BLOCKING_ERROR = 1


def stdout_or_stderr_result(
    hook: Hook, event: str, run: ProcessResult, fields: Mapping[str, Any]
) -> HookResult:
    """`run` of `hook` on `event` under the ``stdout-or-stderr`` rule, Gemini CLI's (see
    the module docstring); `fields` holds the call's ``tool_input`` a ``tool_input``
    answer is merged into."""
    base = run_base(hook, run)
    stopped = _no_run(base, event, run)
    if stopped is not None:
        return stopped
    text = run.stdout.strip() or run.stderr.strip()
    data = _gemini_object(text) if text else None
    if data is not None:
        read = _gemini_json(event, data, fields)
    elif text:
        read = _gemini_plain(text, run.exit_code)
    else:
        read = Answer()
    if run.exit_code == 2 and read.decision != "deny":  # refusals stand: exit 2 refuses
        read.decision, read.reason, read.updated_input = "deny", read.reason or _kept(hook), None
    result = answered(base, read, data)
    if run.exit_code not in (0, 2) and read.decision != "deny":
        if fails_closed(hook):
            return failed(base, event, "hook.failed", f"exited with {run.exit_code}")
        return replace(result, failed=True)
    return result


def _gemini_object(text: str) -> dict[str, Any] | None:
    """A JSON object, or a JSON string holding one (Gemini CLI parses twice)."""
    try:
        data = json.loads(text)
        if isinstance(data, str):
            data = json.loads(data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _gemini_plain(text: str, code: int | None) -> Answer:
    if code == 0:
        return Answer(system_message=text)
    if code == _NON_BLOCKING_ERROR:
        return Answer(system_message=f"Warning: {text}")
    return Answer(decision="deny", reason=text)


def _gemini_json(event: str, data: Mapping[str, Any], fields: Mapping[str, Any]) -> Answer:
    read = Answer(system_message=_text(data, "systemMessage"))
    reason = _text(data, "stopReason") or _text(data, "reason")
    decision = data.get("decision")
    if decision in ("deny", "block"):
        read.decision, read.reason = "deny", reason or "No reason provided"
    elif decision == "ask":
        read.decision, read.reason = "ask", _text(data, "reason")
    elif decision in ("allow", "approve"):
        read.decision = "allow"
    if data.get("continue") is False:
        read.stop, read.stop_reason = True, reason or "No reason provided"
    specific = data.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return read
    context = specific.get("additionalContext")
    if isinstance(context, str) and event in _GEMINI_CONTEXT:
        read.context = context.replace("<", "&lt;").replace(">", "&gt;")
    merged = specific.get("tool_input")
    if event == "before_tool_use" and isinstance(merged, dict) and read.decision != "deny":
        given = fields.get("tool_input")
        read.updated_input = {**(given if isinstance(given, dict) else {}), **merged}
    return read


READERS: Mapping[str, Reader] = MappingProxyType(
    {"strict-json": strict_json_result, "stdout-or-stderr": stdout_or_stderr_result}
)
"""The reader of each `AnswerRule` that is not ``exit-code`` (the runner's own
`satchel.runtime.hooks._output.read_result`)."""

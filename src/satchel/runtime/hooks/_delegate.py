"""``type: "prompt"`` and ``type: "agent"`` hooks: satchel runs no model, so they are
handed to a callback the host registers (``HookRunner(model_hook=...)``,
``session.hooks.hook_services(model_hook=...)``).

The callback is ``model_hook(hook, payload) -> dict | None``: `hook.spec.type` says
which kind, ``hook.spec.params`` holds ``prompt`` and ``model`` as written
(code.claude.com/docs/en/hooks, "Prompt-based hooks", "Agent-based hooks"), `payload`
is the event's JSON. What it returns is read as a command hook's stdout JSON (so a
host that asked a model maps its ``{"ok": false, "reason": ...}`` to a decision); None
is no opinion. Without a callback the hook is skipped with ``hook.model.unavailable``
(no decision); a callback that raises is ``hook.model.failed``, a non-blocking error;
one still running at the hook's timeout (by default Claude Code's: 30 s for a prompt
hook, 60 s for an agent hook) is ``hook.timeout`` and its answer is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from satchel.core.diagnostics import diagnostic
from satchel.foundations.process import ProcessResult
from satchel.hooks._model import Hook, HookResult
from satchel.runtime.hooks._output import failure_result, read_result
from satchel.runtime.hooks._python import HookTimeout, call_within

__all__ = ["ModelHook", "run_delegated"]

ModelHook = Callable[[Hook, Mapping[str, Any]], "Mapping[str, Any] | None"]


def run_delegated(
    hook: Hook,
    event: str,
    payload: Mapping[str, Any],
    model_hook: ModelHook | None,
    timeout: float,
) -> HookResult:
    """Hand a prompt or agent hook to `model_hook` and read its answer."""
    kind = hook.spec.type
    if model_hook is None:
        message = (
            f"{kind} hook {hook.name!r} needs a model, and no model_hook callback is "
            "registered; the hook is skipped"
        )
        hint = "HookRunner(environment, model_hook=...) hands prompt and agent hooks to the host"
        problem = diagnostic("hook.model.unavailable", message, hook.spec.path, hint=hint)
        return replace(HookResult(hook, None, "", ""), diagnostics=(problem,))
    try:
        answer: Any = call_within(model_hook, (hook, dict(payload)), timeout)
    except HookTimeout:
        why = f"timed out after {timeout:g} s in model_hook; its answer is dropped"
        return failure_result(hook, event, "hook.timeout", why, timed_out=True)
    except Exception as e:  # noqa: BLE001 - the host's failure is this hook's
        why = f"was handed to model_hook, which raised {type(e).__name__}: {e}"
        return failure_result(hook, event, "hook.model.failed", why)
    if answer is not None and not isinstance(answer, Mapping):
        why = f"model_hook returned {type(answer).__name__}, not a dict"
        return failure_result(hook, event, "hook.output.invalid", why)
    stdout = json.dumps(dict(answer), default=str) if answer else ""
    return read_result(hook, event, ProcessResult((kind, hook.name), 0, stdout, ""))

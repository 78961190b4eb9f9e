"""Many hooks' answers to one event, combined in declared order (never completion
order, so the outcome does not depend on which hook finished first).

- Any deny denies; the first deny in declared order gives the reason, and every
  rewrite is dropped. Otherwise ``ask`` beats ``allow``. ``defer`` and no answer
  are no opinion (the host's own permission flow decides).
- The last ``updatedInput`` in declared order wins (mermaid); a hook that answers
  ``{}`` never erases another's rewrite. Two different rewrites are reported
  (``hook.rewrite.conflict``). An ``ask`` keeps the rewrite: the user is shown the
  input that would run.
- ``additionalContext`` strings join in declared order, and so do the variables hooks
  export through ``CLAUDE_ENV_FILE`` (a later value of a name wins).
- Observe-only events (everything but `BLOCKING`) ignore decisions and rewrites, but
  keep context, messages and failures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.hooks._events import BLOCKING
from satchel.hooks._model import Behavior, HookResult, Outcome
from satchel.runtime.hooks._envfile import collect

__all__ = ["aggregate"]


def aggregate(
    event: str,
    results: Sequence[HookResult],
    diagnostics: Sequence[Diagnostic] = (),
    *,
    blocking: frozenset[str] = BLOCKING,
) -> Outcome:
    """The outcome of `results` (in declared order) for `event`; `blocking`: the events
    whose answers refuse (a host dialect's, `satchel.runtime.hooks._answers`)."""
    diags = [*diagnostics, *(d for r in results for d in r.diagnostics)]
    contexts = [r.additional_context for r in results if r.additional_context]
    messages = tuple(r.system_message for r in results if r.system_message)
    stops = [r for r in results if r.stop]
    common: dict[str, Any] = {
        "additional_context": "\n".join(contexts) if contexts else None,
        "system_messages": messages,
        "stop": bool(stops),
        "stop_reason": next((r.stop_reason for r in stops if r.stop_reason), None),
        "results": tuple(results),
        "exports": collect([r.exports for r in results if r.exports]),
    }
    if event not in blocking:
        return Outcome(event, diagnostics=tuple(diags), **common)
    denies = [r for r in results if r.decision == "deny"]
    if denies:
        return Outcome(event, "deny", denies[0].reason, diagnostics=tuple(diags), **common)
    behavior: Behavior = "ask" if any(r.decision == "ask" for r in results) else "allow"
    reason = next((r.reason for r in results if r.decision == behavior and r.reason), None)
    rewrite = _last_rewrite(results, diags)
    return Outcome(event, behavior, reason, rewrite, diagnostics=tuple(diags), **common)


def _last_rewrite(
    results: Sequence[HookResult], diags: list[Diagnostic]
) -> Mapping[str, Any] | None:
    rewrites = [r for r in results if r.updated_input is not None]
    if not rewrites:
        return None
    last = rewrites[-1]
    others = [r.hook.name for r in rewrites[:-1] if r.updated_input != last.updated_input]
    if others:
        message = (
            f"hooks {', '.join(repr(n) for n in others)} and {last.hook.name!r} rewrote the "
            f"input differently; the last in declared order ({last.hook.name!r}) wins"
        )
        diags.append(diagnostic("hook.rewrite.conflict", message, last.hook.spec.path))
    return last.updated_input

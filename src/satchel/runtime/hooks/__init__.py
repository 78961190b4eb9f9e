"""Running hooks: `HookRunner(environment).run(event, payload)` (or ``await dispatch(...)``)
fires an event at every matching hook in parallel, reads each answer (`read_result`) and
aggregates them into an `Outcome` (`aggregate`); `refusal_text` and `context_text` say
it to the model in the host's words (Claude Code's; Codex's, Gemini CLI's with
``host=``). See docs/hooks.md."""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hooks._variables import event_variable
    from satchel.runtime.hooks._aggregate import aggregate
    from satchel.runtime.hooks._output import read_result
    from satchel.runtime.hooks._runner import (
        DEFAULT_TIMEOUT,
        DEFAULT_TIMEOUTS,
        MAX_TIMEOUT,
        HookRunner,
    )
    from satchel.runtime.hooks._tells import context_text, refusal_text
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.hooks._variables": ("event_variable",),
            "satchel.runtime.hooks._aggregate": ("aggregate",),
            "satchel.runtime.hooks._output": ("read_result",),
            "satchel.runtime.hooks._runner": (
                "DEFAULT_TIMEOUT",
                "DEFAULT_TIMEOUTS",
                "MAX_TIMEOUT",
                "HookRunner",
            ),
            "satchel.runtime.hooks._tells": ("context_text", "refusal_text"),
        },
    )

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TIMEOUTS",
    "HookRunner",
    "MAX_TIMEOUT",
    "aggregate",
    "context_text",
    "event_variable",
    "read_result",
    "refusal_text",
]

"""satchel inside agent frameworks: one module per framework, each imported only by
name (``satchel.integrations.pydantic_ai`` and the others), each needing its extra.
`Bridge` holds what they share and imports no framework.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`,
`audit`, `install`, `port`, `compat`, `reports`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.integrations._bridge import After, Ask, Before, Bridge, Turn, with_context
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.integrations._bridge": (
                "After",
                "Ask",
                "Before",
                "Bridge",
                "Turn",
                "with_context",
            )
        },
    )

__all__ = ["After", "Ask", "Before", "Bridge", "Turn", "with_context"]

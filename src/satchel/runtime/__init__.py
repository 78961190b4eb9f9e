"""The runtime layer: what runs. Hooks (`HookRunner`), MCP servers (`McpSupervisor`) and
plugin monitors (`MonitorRunner`); they start only here, through `satchel.foundations.process`, and
only for trusted scopes.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.runtime.hooks._runner import HookRunner
    from satchel.runtime.mcp._blocking import BlockingSupervisor
    from satchel.runtime.mcp._supervisor import McpSupervisor
    from satchel.runtime.monitors._runner import MonitorEvent, MonitorRunner
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.runtime.hooks._runner": ("HookRunner",),
            "satchel.runtime.mcp._blocking": ("BlockingSupervisor",),
            "satchel.runtime.mcp._supervisor": ("McpSupervisor",),
            "satchel.runtime.monitors._runner": ("MonitorEvent", "MonitorRunner"),
        },
    )

__all__ = [
    "BlockingSupervisor",
    "HookRunner",
    "McpSupervisor",
    "MonitorEvent",
    "MonitorRunner",
]

"""Plugin monitors: background commands whose output lines are events for the host
(`MonitorRunner`, `MonitorEvent`; docs/plugins.md, "Monitors")."""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.runtime.monitors._runner import MonitorEvent, MonitorRunner
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {"satchel.runtime.monitors._runner": ("MonitorEvent", "MonitorRunner")},
    )

__all__ = ["MonitorEvent", "MonitorRunner"]

"""`satchel doctor --hosts`: for every agent host found on this machine, what it will
load and what it silently drops, skips, shortens, refuses or runs twice, read-only.

`check_hosts` reads each host's view of the project and the user (`Machine`), runs
every check of `CHECKS` over it and returns a `MachineReport`: per host, what loads
(`Loads`) and the `HostFinding` values, each with a stable code, a severity, the
host, the file and a fix line. Nothing is executed and nothing is written.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.reports.checkup._finding import HostFinding
    from satchel.reports.checkup._machine import HostView, Machine, read_machine
    from satchel.reports.checkup._report import HostReport, Loads, MachineReport, check_hosts
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.reports.checkup._finding": ("HostFinding",),
            "satchel.reports.checkup._machine": ("HostView", "Machine", "read_machine"),
            "satchel.reports.checkup._report": (
                "HostReport",
                "Loads",
                "MachineReport",
                "check_hosts",
            ),
        },
    )

__all__ = [
    "HostFinding",
    "HostReport",
    "HostView",
    "Loads",
    "Machine",
    "MachineReport",
    "check_hosts",
    "read_machine",
]

"""What each host drops or refuses as it loads, and the rule: every diagnostic its
load gives (a skill whose name the host refuses, a shadowed plugin, a file it cannot
read, a hook it will skip), as that host's findings; those a check of their own tells
in its words (`RECAST`) are left to it."""

from __future__ import annotations

from collections.abc import Iterator

from satchel.checkup._finding import HostFinding
from satchel.checkup._hooks import RECAST
from satchel.checkup._machine import Machine

__all__ = ["load_findings"]

FIX = "see {code} in docs/diagnostics.md"


def load_findings(machine: Machine) -> Iterator[HostFinding]:
    """Each host's load diagnostics, its hint as the fix (else where to read more)."""
    for view in machine.views:
        for found in view.env.diagnostics:
            if found.code in RECAST:
                continue
            yield HostFinding.of(view.name, found, found.hint or FIX.format(code=found.code))

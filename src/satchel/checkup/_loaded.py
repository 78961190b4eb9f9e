"""What each host drops or refuses as it loads, and the rule: every diagnostic its
load gives (a skill whose name the host refuses, a shadowed plugin, a file it cannot
read, a hook it will skip), as that host's findings; those a check of its own tells
in its words are left to it (`left_to`): the hooks it skips untrusted
(`satchel.checkup._hooks`), and the instruction files a host with a size cap cuts
(`satchel.checkup._instructions`: where the cut falls, what is lost)."""

from __future__ import annotations

from collections.abc import Iterator

from satchel.checkup._finding import HostFinding
from satchel.checkup._hooks import RECAST
from satchel.checkup._instructions import capped
from satchel.checkup._machine import HostView, Machine

__all__ = ["load_findings"]

CAPPED = "instructions.truncated"
FIX = "see {code} in docs/diagnostics.md"


def left_to(view: HostView) -> frozenset[str]:
    """The load codes of `view` another check reports in its own words."""
    return RECAST | ({CAPPED} if capped(view) else set())


def load_findings(machine: Machine) -> Iterator[HostFinding]:
    """Each host's load diagnostics, its hint as the fix (else where to read more)."""
    for view in machine.views:
        left = left_to(view)
        for found in view.env.diagnostics:
            if found.code in left:
                continue
            yield HostFinding.of(view.name, found, found.hint or FIX.format(code=found.code))

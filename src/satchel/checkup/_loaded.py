"""What each host drops or refuses as it loads, and the rule: every diagnostic its
load gives (a skill whose name the host refuses, a shadowed plugin, a file it cannot
read, a hook it will skip), as that host's findings. A host that caps the project's
instruction files has its cap reported in full by `satchel.checkup._instructions`
(where the cut falls, what is lost), so its load's ``instructions.truncated`` is left
to that check."""

from __future__ import annotations

from collections.abc import Iterator

from satchel.checkup._finding import HostFinding
from satchel.checkup._instructions import capped
from satchel.checkup._machine import Machine

__all__ = ["load_findings"]

CAPPED = "instructions.truncated"
FIX = "see {code} in docs/diagnostics.md"


def load_findings(machine: Machine) -> Iterator[HostFinding]:
    """Each host's load diagnostics, its hint as the fix (else where to read more)."""
    for view in machine.views:
        cap = capped(view)
        for found in view.env.diagnostics:
            if cap and found.code == CAPPED:
                continue
            yield HostFinding.of(view.name, found, found.hint or FIX.format(code=found.code))

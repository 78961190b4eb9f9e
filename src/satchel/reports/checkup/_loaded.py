"""What each host drops or refuses as it loads, and the rule: every diagnostic its
load gives (a skill whose name the host refuses, a shadowed plugin, a file it cannot
read, a hook it will skip), as that host's findings; those a check of its own tells
in its words are left to it (`left_to`, `behind_links`): the hooks it skips untrusted
(`satchel.reports.checkup._hooks`), the instruction files a host with a size cap cuts
(`satchel.reports.checkup._instructions`: where the cut falls, what is lost), its one word
that it starts no MCP server here (`satchel.reports.checkup._mcp` names each server), and
what it says of a path behind a failing link (`satchel.reports.checkup._links` says it with
its cause)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from satchel.core.diagnostics import Diagnostic
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._hooks import RECAST
from satchel.reports.checkup._instructions import capped
from satchel.reports.checkup._links import failing_links
from satchel.reports.checkup._machine import HostView, Machine
from satchel.reports.checkup._mcp import UNTRUSTED

__all__ = ["load_findings"]

CAPPED = "instructions.truncated"
FIX = "see {code} in docs/diagnostics.md"


def left_to(view: HostView) -> frozenset[str]:
    """The load codes of `view` another check reports in its own words."""
    return RECAST | {UNTRUSTED} | ({CAPPED} if capped(view) else set())


def behind_links(found: Diagnostic, links: frozenset[Path]) -> bool:
    """Whether `found` is about a path at or below one of the failing `links`."""
    where = found.path
    return where is not None and any(where.is_relative_to(link) for link in links)


def load_findings(machine: Machine) -> Iterator[HostFinding]:
    """Each host's load diagnostics, its hint as the fix (else where to read more)."""
    for view in machine.views:
        left, links = left_to(view), failing_links(view)
        for found in view.env.diagnostics:
            if found.code in left or behind_links(found, links):
                continue
            yield HostFinding.of(view.name, found, found.hint or FIX.format(code=found.code))

"""`CHECKS`: every check ``satchel doctor --hosts`` runs over a `Machine`, in report
order. A check reads the machine's views and yields `HostFinding` values; it never
writes or runs anything. One module per check; this table names them."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._hook_files import hook_file_findings
from satchel.reports.checkup._hooks import hook_findings
from satchel.reports.checkup._instructions import instruction_findings
from satchel.reports.checkup._links import link_findings
from satchel.reports.checkup._listing import listing_findings
from satchel.reports.checkup._loaded import load_findings
from satchel.reports.checkup._machine import Machine
from satchel.reports.checkup._mcp import mcp_findings

__all__ = ["CHECKS", "Check"]

Check = Callable[[Machine], Iterable[HostFinding]]

CHECKS: tuple[Check, ...] = (
    load_findings,
    listing_findings,
    instruction_findings,
    hook_findings,
    hook_file_findings,
    link_findings,
    mcp_findings,
)

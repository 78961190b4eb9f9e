"""What each host drops or refuses as it loads, and the rule: every diagnostic its
load gives (a skill whose name the host refuses, a shadowed plugin, a file it cannot
read, a hook it will skip), as that host's findings; but what the load says of a
path behind a failing link, which `satchel.checkup._links` says with its cause, and
its one word that a host starts no MCP server here, which `satchel.checkup._mcp` says
of each server."""

from __future__ import annotations

from collections.abc import Iterator

from satchel.checkup._finding import HostFinding
from satchel.checkup._links import failing_links
from satchel.checkup._machine import Machine
from satchel.checkup._mcp import UNTRUSTED

__all__ = ["load_findings"]

FIX = "see {code} in docs/diagnostics.md"


def load_findings(machine: Machine) -> Iterator[HostFinding]:
    """Each host's load diagnostics, its hint as the fix (else where to read more)."""
    for view in machine.views:
        links = failing_links(view)
        for found in view.env.diagnostics:
            if found.code == UNTRUSTED:
                continue  # the MCP check names each server the host will not start
            where = found.path
            if where is not None and any(where.is_relative_to(link) for link in links):
                continue  # the links check says it, with its cause
            yield HostFinding.of(view.name, found, found.hint or FIX.format(code=found.code))

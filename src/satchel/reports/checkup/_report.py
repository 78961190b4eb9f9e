"""`MachineReport`: per host, what it loads and what it silently gets wrong; built
once by `check_hosts`, given as JSON by `to_json` and as SARIF by `to_sarif`, so the
text, the JSON and the SARIF cannot drift apart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import SEVERITIES, Severity
from satchel.reports.checkup._checks import CHECKS
from satchel.reports.checkup._finding import RANK, HostFinding
from satchel.reports.checkup._loads import Loads, loads_of
from satchel.reports.checkup._machine import HostView, Machine, read_machine

__all__ = ["HostReport", "Loads", "MachineReport", "check_hosts", "report_of"]


@model
class HostReport:
    """One host: its name and title, the files that found it, the model its listing
    is sized for, what it loads and its findings (most severe first); `unknown_model`:
    the ``--model`` this host does not know and so was not sized for."""

    name: str
    title: str
    found_by: tuple[str, ...]
    model: str | None
    loads: Loads
    findings: tuple[HostFinding, ...]
    unknown_model: str | None = None

    def to_json(self, machine: Machine) -> dict[str, Any]:
        return {
            "host": self.name,
            "title": self.title,
            "found_by": list(self.found_by),
            "model": self.model,
            "unknown_model": self.unknown_model,
            "loads": self.loads.to_json(machine.shown),
            "findings": [f.to_json(machine.shown, machine.said) for f in self.findings],
        }


@model
class MachineReport:
    """Every host's report, in report order, for `machine`."""

    machine: Machine
    hosts: tuple[HostReport, ...]

    @property
    def findings(self) -> tuple[HostFinding, ...]:
        return tuple(f for h in self.hosts for f in h.findings)

    def counts(self) -> dict[Severity, int]:
        """How many findings of each severity."""
        return {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}

    def at_least(self, severity: Severity) -> tuple[HostFinding, ...]:
        """The findings at `severity` or above."""
        return tuple(f for f in self.findings if RANK[f.severity] <= RANK[severity])

    def without(self, selectors: Sequence[str]) -> MachineReport:
        """The report without the findings whose code `selectors` select (a code or
        a dotted prefix of codes, as ``--ignore`` takes them)."""
        if not selectors:
            return self
        from satchel.core._ignore import ignored

        hosts = tuple(
            replace(h, findings=tuple(f for f in h.findings if not ignored(f.code, selectors)))
            for h in self.hosts
        )
        return replace(self, hosts=hosts)

    def to_json(self) -> dict[str, Any]:
        lay = self.machine.layout
        return {
            "project": str(lay.project),
            "home": str(lay.home),
            "cwd_outside_project": None
            if self.machine.outside is None
            else str(self.machine.outside),
            "hosts": [h.to_json(self.machine) for h in self.hosts],
            "counts": self.counts(),
        }


def _host_report(view: HostView, machine: Machine, found: Sequence[HostFinding]) -> HostReport:
    ordered = sorted((f for f in found if f.host == view.name), key=HostFinding.sort_key)
    return HostReport(
        name=view.name,
        title=view.host.title,
        found_by=tuple(machine.shown(p) for p in view.found_by),
        model=view.host.model(view.model).model,
        unknown_model=machine.model if view.model != machine.model else None,
        loads=loads_of(view.env),
        findings=tuple(dict.fromkeys(ordered)),
    )


def report_of(machine: Machine) -> MachineReport:
    """Every check of `CHECKS` over `machine`, gathered per host."""
    found = [f for check in CHECKS for f in check(machine)]
    return MachineReport(machine, tuple(_host_report(v, machine, found) for v in machine.views))


def check_hosts(
    cwd: Path,
    *,
    home: Path | None = None,
    project: Path | None = None,
    names: Sequence[str] | None = None,
    model: str | None = None,
    env: Mapping[str, str] | None = None,
) -> MachineReport:
    """The report for `cwd`'s project and the user: every host found on the machine
    (or the hosts `names`), read-only (`read_machine`)."""
    machine = read_machine(cwd, home=home, project=project, names=names, model=model, env=env)
    return report_of(machine)

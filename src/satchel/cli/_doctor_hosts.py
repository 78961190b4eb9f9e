"""`satchel doctor --hosts`: the report of `satchel.reports.checkup`, for people (text), for
scripts (``--json``) and for code-scanning dashboards (``--format sarif``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.core.diagnostics import SEVERITIES, Diagnostic, Severity

if TYPE_CHECKING:
    from rich.console import Console

    from satchel.reports.checkup import HostReport, MachineReport

__all__ = ["FORMATS", "run_hosts"]

FORMATS = ("text", "json", "sarif")
NOUNS = {
    "skills": "skill",
    "commands": "command",
    "agents": "agent type",
    "plugins": "plugin",
    "hooks": "hook",
    "mcp_servers": "MCP server",
    "instructions": "instruction file",
}


def names_of(value: str) -> tuple[str, ...] | None:
    """``--hosts claude-code,codex`` as names; ``--hosts`` alone (``*``): None, every
    host found."""
    names = tuple(n.strip() for n in value.split(",") if n.strip() and n.strip() != "*")
    return names or None


def run_hosts(
    *,
    cwd: Path,
    project: Path | None,
    home: Path | None,
    hosts: str,
    model: str | None,
    output_format: str,
    fail_on: str | None,
    ignore: Sequence[str] = (),
) -> int:
    """Read every host's view, report it in `output_format` without the codes `ignore`
    and config.toml's ``[diagnostics] ignore`` select; exit 1 when a finding is at
    `fail_on` or above (default: when one is an error)."""
    from satchel.core.errors import UnknownHost
    from satchel.reports.checkup import check_hosts

    try:
        report = check_hosts(cwd, home=home, project=project, names=names_of(hosts), model=model)
    except UnknownHost as e:
        import click

        raise click.BadParameter(e.diagnostic.message, param_hint="'--hosts'") from None
    report = report.without(_selectors(report, ignore))
    if output_format == "json":
        out.print_json(report.to_json(), ())
    elif output_format == "sarif":
        from satchel import __version__
        from satchel.reports.checkup._sarif import to_sarif

        out.write_json(to_sarif(report, version=__version__, base=report.machine.layout.project))
    else:
        render(report, out.console())
    threshold = cast(Severity, fail_on or "error")
    return PROBLEMS if report.at_least(threshold) else OK


def _selectors(report: MachineReport, ignore: Sequence[str]) -> tuple[str, ...]:
    """`ignore` and the ``[diagnostics] ignore`` of the user's config and (when
    satchel trusts the project) the project's; a broken config is the plain doctor's
    to report."""
    from satchel.foundations._config import ignored_codes
    from satchel.trust._trust import read_trust

    layout = report.machine.layout
    trusted = read_trust(layout).trusting(layout.project) is not None
    found = ignored_codes(layout, trust_project=trusted, problems=[])
    return (*found, *ignore)


def render(report: MachineReport, con: Console) -> None:
    """The report as text: a summary, then per host what it loads and its findings."""
    counts = report.counts()
    if not report.hosts:
        out.note("No agent host found for this project or user (name one: --hosts codex).")
        return
    titles = ", ".join(h.title for h in report.hosts)
    con.print(out.safe(f"Hosts: {titles}"), style="bold", soft_wrap=True)
    summary = ", ".join(out.count(counts[s], s) for s in SEVERITIES)
    con.print(f"Findings: {summary}", style="bold")
    for host in report.hosts:
        con.print()
        _host(report, host, con)


def _host(report: MachineReport, host: HostReport, con: Console) -> None:
    found = ", ".join(host.found_by) or "named"
    model = host.model or "no model"
    if host.unknown_model is not None:
        model += f" (--model {host.unknown_model} is not one {host.title} knows)"
    con.print(out.rule(f"{host.title} ({host.name})"))
    con.print(out.safe(f"found by: {found}; listing sized for {model}"), soft_wrap=True)
    counts = host.loads.counts()
    line = ", ".join(out.count(n, NOUNS[kind]) for kind, n in counts.items())
    con.print(out.safe(f"loads: {line}"), soft_wrap=True)
    if host.findings:
        con.print(out.diagnostic_grid(_as_diagnostics(report, host), indent=2, label="fix"))
    else:
        con.print("  nothing silently dropped, skipped, shortened or run twice")


def _as_diagnostics(report: MachineReport, host: HostReport) -> Sequence[Diagnostic]:
    """The host's findings as diagnostics for the grid, paths (those in the message
    too) as the report shows them and the fix as the hint."""
    shown, said = report.machine.shown, report.machine.said
    return [
        Diagnostic(
            f.code,
            f.severity,
            f.told(said)[0],
            None if f.path is None else Path(shown(f.path)),
            f.line,
            f.told(said)[1] or None,
        )
        for f in host.findings
    ]

"""`satchel audit [PATH]`: every executable or risky construct, found without running it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from satchel.audit import LEVELS, TRUST_STATES, Finding, Report, at_least, audit_path, to_sarif
from satchel.audit._model import Severity
from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import Choice, json_option, shared

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("text", "json", "sarif")
STYLE = {"high": "bold red", "medium": "yellow", "low": "cyan"}
HEADING = {"high": "High", "medium": "Medium", "low": "Low"}

PARAMS = (
    click.Argument(
        ["path"],
        required=False,
        type=click.Path(exists=True, path_type=Path),
        metavar="[PATH]",
    ),
    click.Option(
        ["--format", "output_format"],
        type=Choice(FORMATS),
        default="text",
        show_default=True,
        help="text for people, json (as --json), or sarif for code-scanning dashboards.",
    ),
    click.Option(
        ["--fail-on"],
        type=Choice(LEVELS),
        default=None,
        help="Exit 1 when a finding is at this severity or above (default: never).",
    ),
    shared("project", "home", "client", "host", "plugin_dirs"),
    json_option(),
)


def run(
    *,
    path: Path | None,
    here: Here,
    output_format: str,
    as_json: bool,
    fail_on: str | None,
) -> int:
    """Report every executable or risky construct in a skill, a directory of skills,
    a plugin, a workspace (default: the current directory) or one file, running
    nothing; version-control and environment directories (.git, .venv,
    node_modules, ...) are not walked.

    Hooks, MCP servers (unpinned packages, loader variables, shell wrappers, remote
    URLs), shell interpolation lines, scripts, binaries, hidden and bidi characters,
    fake truncation markers, symlinks out of their root, oversized trees, broad
    allowed-tools and agent tool lists, yolo agents, what the loader refused or
    held back, and prose heuristics (labelled as such). A workspace
    is audited as if the project were trusted, so that everything a trust decision
    would unlock is listed, each with the trust state it needs; --plugin-dir DIR
    loads a plugin beside the workspace, as the other verbs do. --format sarif writes
    SARIF 2.1.0; --fail-on LEVEL exits 1 when a finding is at LEVEL or above (by
    default the exit code is 0)."""
    target = path or here.project or Path.cwd()
    report = audit_path(
        target,
        project=here.project,
        home=here.home,
        client=here.client,
        plugin_dirs=here.plugin_dirs,
        host=here.profile,
    )
    fmt = "json" if as_json else output_format
    if fmt == "json":
        document = report.to_json()
        document["load_diagnostics"] = document.pop("diagnostics")  # a count, not a list
        out.print_json({**document, "fail_on": fail_on}, ())
    elif fmt == "sarif":
        from satchel import __version__

        out.write_json(to_sarif(report, version=__version__, base=Path.cwd()))
    else:
        _print(report)
    if fail_on is None:
        return OK
    threshold = cast(Severity, fail_on)
    return PROBLEMS if any(at_least(f.severity, threshold) for f in report.findings) else OK


def _print(report: Report) -> None:
    con = out.console()
    counts = report.counts()
    summary = ", ".join(f"{counts[level]} {level}" for level in LEVELS)
    con.print(out.safe(f"Audit of {out.shown(report.target)} ({report.kind})"), style="bold")
    con.print(f"Findings: {summary}", style="bold")
    for level in LEVELS:
        found = [f for f in report.findings if f.severity == level]
        if found:
            con.print()
            con.print(f"{HEADING[level]}: {len(found)}", style=STYLE[level])
            _grid(con, found)
    if report.findings:
        con.print()
        con.print("Trust needed:", style="bold")
        for state in sorted({f.trust_needed for f in report.findings}):
            con.print(out.safe(f"  {state}: {TRUST_STATES.get(state, state)}"))
    _print_policy(con, report)
    if report.diagnostics:
        noun = out.count(report.diagnostics, "load diagnostic")
        hint = f"run `{again('doctor')}` or `satchel validate` to see them"
        con.print(out.safe(f"{noun} (errors and warnings); {hint}."))


def _grid(con: Console, findings: list[Finding]) -> None:
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    if not con.is_terminal:  # one finding per line, whole: grep finds it
        for f in findings:
            out.say(f"  {_line(f)}")
        return
    grid = Table.grid(padding=(0, 1))
    grid.add_column(overflow="fold")
    for f in findings:
        cell = Text()
        cell.append_text(out.safe(f.rule, style="bold"))
        where = out.shown(f.path) if f.path is not None else ""
        if where and f.line is not None:
            where += f":{f.line}"
        if where:
            cell.append_text(out.safe(f"  {where}"))
        cell.append("\n")
        cell.append_text(out.safe(out.unrooted(f.message)))
        tail = f"trust needed: {f.trust_needed}" + ("; heuristic" if f.heuristic else "")
        cell.append("\n")
        cell.append_text(out.safe(tail, style="dim"))
        grid.add_row(cell)
    con.print(Padding(grid, (0, 0, 0, 2)))


def _line(f: Finding) -> str:
    """``path:line: rule: message (trust needed: STATE; heuristic)``."""
    where = out.shown(f.path) if f.path is not None else ""
    if where and f.line is not None:
        where += f":{f.line}"
    tail = f"trust needed: {f.trust_needed}" + ("; heuristic" if f.heuristic else "")
    head = f"{where}: " if where else ""
    return f"{head}{f.rule}: {out.unrooted(f.message)} ({tail})"


def _print_policy(con: Console, report: Report) -> None:
    """The organisation's policy in force (docs/policy.md), when a policy file exists:
    its files and keys, as `satchel doctor` shows them."""
    policy = report.policy
    if not policy.files and policy.closed is None:
        return
    con.print()
    con.print("Policy:", style="bold")
    for path in policy.files:
        con.print(out.safe(f"  {out.shown(path)}"), soft_wrap=True)
    for key, value, _ in policy.rows():
        con.print(out.safe(f"  {key} = {value}"), soft_wrap=True)

"""`satchel port PATH --to HOST[,HOST...]`: write every host's manifests for one plugin."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import comma_names, json_option
from satchel.port import PortReport, Target, TargetReport, port, targets_named

if TYPE_CHECKING:
    from rich.console import Console

VERBS = {
    "written": "wrote",
    "unchanged": "unchanged",
    "refused": "refused",
    "planned": "would write",
}


PARAMS = (
    click.Argument(["path"], type=click.Path(path_type=Path)),
    click.Option(
        ["--to", "targets"],
        required=True,
        callback=comma_names(targets_named),
        help="The hosts to write for, comma-separated: claude-code, codex, cursor, gemini, "
        "kimi, vibe, agent-plugins.",
    ),
    click.Option(
        ["--force"], is_flag=True, help="Replace files port did not write (never the source's own)."
    ),
    click.Option(["--dry-run"], is_flag=True, help="Write nothing; print what would be written."),
    json_option(),
)


def run(
    *, path: Path, targets: tuple[Target, ...], force: bool, dry_run: bool, as_json: bool
) -> int:
    """Write, next to the plugin at PATH, the manifests each host reads.

    PATH is read as satchel reads a plugin (any format); for each host of --to its
    manifest is written beside the source's (.claude-plugin/plugin.json,
    .codex-plugin/plugin.json, .cursor-plugin/plugin.json, gemini-extension.json,
    kimi.plugin.json, plugin.json) with what else it reads (inline MCP servers and
    hooks, mcp.json, Vibe's hooks.toml, Gemini's TOML commands). Every component a
    host cannot hold is named with a port.* code. A file port did not write is never
    replaced without --force; nothing is run. Exit 1 when anything was dropped or
    refused, or PATH is not a plugin."""
    report = port(path, [t.name for t in targets], force=force, dry_run=dry_run)
    if as_json:
        out.print_json(document(report), report.all_diagnostics())
    else:
        _print(report)
    return OK if report.ok else PROBLEMS


def document(report: PortReport) -> dict[str, Any]:
    """The report as JSON; with --dry-run each file's text too."""
    doc = report.to_json()
    if report.dry_run:
        for target, shown in zip(report.targets, doc["targets"], strict=True):
            for file, entry in zip(target.files, shown["files"], strict=True):
                entry["text"] = file.text
    return doc


def _print(report: PortReport) -> None:
    con = out.console()
    if report.format is None:
        con.print(out.safe(f"Not a plugin: {out.shown(report.root)}", style="bold red"))
    else:
        from satchel.plugins._detect import HOST_NAMES

        title = f"Port of {out.shown(report.root)} ({HOST_NAMES[report.format]})"
        con.print(out.safe(title + (", dry run" if report.dry_run else ""), style="bold"))
        for target in report.targets:
            _target(con, target)
        if report.dry_run:
            _texts(con, report)
    con.print()
    out.diagnostic_report(con, report.all_diagnostics())


def _target(con: Console, target: TargetReport) -> None:
    con.print()
    con.print(out.safe(f"{target.target} ({target.title})", style="bold"))
    if target.skipped:
        con.print(out.safe("  nothing to write"))
    for file in target.files:
        con.print(out.safe(f"  {VERBS[file.action]:<11} {file.path}"))
    whole = [d for d in target.drops if d.whole]
    if whole:
        counts: dict[str, int] = {}
        for drop in whole:
            counts[drop.kind] = counts.get(drop.kind, 0) + 1
        listed = ", ".join(out.count(n, kind.replace("_", " ")) for kind, n in counts.items())
        con.print(out.safe(f"  {'dropped':<11} {listed}"))


def _texts(con: Console, report: PortReport) -> None:
    for target in report.targets:
        for file in target.files:
            if file.action == "planned":
                con.print()
                con.print(out.rule(f"{target.target}: {file.path}"))
                con.print(out.safe_block(file.text.rstrip("\n")))

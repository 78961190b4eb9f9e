"""`satchel marketplace build DIR`: every host's catalogue of a repository of plugins."""

from __future__ import annotations

from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import comma_names, json_option
from satchel.cli.port import VERBS  # a file's action, as port says it
from satchel.hosts._rules import CatalogueFormat
from satchel.port._marketplace import FORMATS, MarketplaceReport, build_marketplace, formats_named

PARAMS = (
    click.Argument(["root"], type=click.Path(path_type=Path)),
    click.Option(
        ["--to", "formats"],
        callback=comma_names(formats_named, default=list(FORMATS)),
        help="The hosts to write a catalogue for, comma-separated: claude-code, codex, "
        "cursor [default: all three].",
    ),
    click.Option(["--name"], help="The marketplace's name [default: a catalogue's, else DIR's]."),
    click.Option(
        ["--owner"],
        help="The owner's name, a catalogue's other owner fields kept [default: a catalogue's].",
    ),
    click.Option(["--description"], help="The marketplace's description [default: a catalogue's]."),
    click.Option(
        ["--force"], is_flag=True, help="Replace catalogue files this command did not write."
    ),
    click.Option(["--dry-run"], is_flag=True, help="Write nothing; print what would be written."),
    json_option(),
)


def run(
    *,
    root: Path,
    formats: tuple[CatalogueFormat, ...],
    name: str | None,
    owner: str | None,
    force: bool,
    description: str | None = None,
    dry_run: bool,
    as_json: bool,
) -> int:
    """Write, at ROOT, the marketplace file of each host listing its plugins.

    The plugins are the plugin folders below ROOT/plugins/ (else below ROOT), read
    as satchel reads any plugin. Claude Code's .claude-plugin/marketplace.json,
    Codex's .agents/plugins/marketplace.json and Cursor's
    .cursor-plugin/marketplace.json list each one by its manifest's name, version
    and description, from ./ and its folder. A file this command did not write is
    never replaced without --force (the record is ROOT/.satchel-port.json). Exit 1
    when a plugin has no version, a file was refused, or nothing can be written."""
    report = build_marketplace(
        root,
        formats,
        name=name,
        owner=owner,
        description=description,
        force=force,
        dry_run=dry_run,
    )
    if as_json:
        doc = report.to_json()
        if dry_run:
            for file, entry in zip(report.files, doc["files"], strict=True):
                entry["text"] = file.text
        out.print_json(doc, report.diagnostics)
    else:
        _print(report)
    return OK if report.ok else PROBLEMS


def _print(report: MarketplaceReport) -> None:
    con = out.console()
    title = f"Marketplace {report.name} at {out.shown(report.root)}"
    con.print(out.safe(title + (", dry run" if report.dry_run else ""), style="bold"))
    for plugin, version, source in report.plugins:
        con.print(out.safe(f"  {plugin:<20} {version or '(no version)':<12} {source}"))
    if report.files:
        con.print()
    for file in report.files:
        con.print(out.safe(f"  {VERBS[file.action]:<11} {file.path}"))
    if report.dry_run:
        for file in report.files:
            if file.action == "planned":
                con.print()
                con.print(out.rule(file.path))
                con.print(out.safe_block(file.text.rstrip("\n")))
    con.print()
    out.diagnostic_report(con, report.diagnostics)

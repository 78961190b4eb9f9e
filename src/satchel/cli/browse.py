"""`satchel browse SOURCE`: the skills and plugins a source holds, without installing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._browse import Listed, Listing, browse_source_at
from satchel.install._errors import InstallError

if TYPE_CHECKING:
    from rich.console import Console

COLUMNS = ("name", "folder")

PARAMS = (
    click.Argument(["source"]),
    click.Option(["--refresh"], is_flag=True, help="Fetch again, past the listing cache."),
    *inst.endpoint_options(),
    where(),
    json_option(),
)


def run(
    *,
    source: str,
    here: Here,
    refresh: bool,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """List the skills and plugins SOURCE holds, without installing anything.

    SOURCE is the name of an added marketplace, owner/repo, owner/repo/path,
    owner/repo#ref:subdir, a GitHub or skills.sh link, a pasted `npx skills add ...`
    command, npm:PACKAGE[@VERSION], a git URL or a local path. A pack (a repository
    whose README links skills elsewhere) lists the linked skills, each with the source
    that installs it; a catalogue
    (marketplace.json) lists its plugins with what each holds. Listings are
    kept for ten minutes; --refresh fetches again."""
    ctx = inst.context(here, as_json=as_json, endpoints=endpoints)
    try:
        with inst.progress_shown(ctx):
            listing = browse_source_at(ctx, source, refresh=refresh)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json(listing.to_json())
    else:
        _print(listing)
    return OK


def _print(listing: Listing) -> None:
    con = out.console()
    head = f"{listing.source}" + (f" at {inst.short(listing.resolved)}" if listing.resolved else "")
    con.print(out.safe(head, style="bold"), soft_wrap=True)
    if listing.links:
        con.print(out.safe(f"a pack linking {out.count(len(listing.links), 'source')}"))
    for title, rows in (("Skills", listing.skills), ("Plugins", listing.plugins)):
        if rows:
            con.print()
            con.print(f"{title}: {len(rows)}", style="bold")
            # a pack's rows and a catalogue's name what installs each: NAME@MARKETPLACE
            _table(con, rows, show_source=bool(listing.links) or listing.catalogue is not None)
    if not listing.items:
        out.note("No skills or plugins here.")
    elif listing.catalogue is not None:
        con.print()
        con.print(out.safe(f"a catalogue of plugins named {listing.catalogue}"))
        con.print(out.safe("install: satchel install NAME@MARKETPLACE (as the source column says)"))
    else:
        con.print()
        con.print(out.safe(f"install: satchel install {_quoted(listing.source)} --skill NAME"))
    inst.warnings(listing.diagnostics)


def _table(con: Console, rows: tuple[Listed, ...], *, show_source: bool) -> None:
    headers = (*COLUMNS, "source") if show_source else COLUMNS
    cells = [[r.name, r.folder or ".", *([r.source] if show_source else [])] for r in rows]
    grid = out.table(*headers, "description")
    for row, cell in zip(rows, cells, strict=True):
        described = f"({row.contents}) {row.description}" if row.contents else row.description
        text = out.one_line(described) or "-"
        if not row.ok:
            text = "(does not validate) " + text
        grid.add_row(*(out.safe(c) for c in cell), out.safe(text))
    con.print(grid)


def _quoted(spec: str) -> str:
    import shlex

    return shlex.quote(spec)

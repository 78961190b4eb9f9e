"""`satchel marketplace add SOURCE`: fetch a catalogue of plugins and keep it."""

from __future__ import annotations

from typing import Unpack

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._catalogue import Catalogue
from satchel.install._errors import InstallError
from satchel.install._marketplaces import Known, add

PARAMS = (
    click.Argument(["source"]),
    click.Option(["--name"], metavar="NAME", help="Keep it under NAME, not its own name."),
    *inst.endpoint_options(),
    where(),
    json_option(),
)


def run(
    *,
    source: str,
    name: str | None,
    here: Here,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """Add the marketplace at SOURCE: a catalogue of plugins to install from.

    SOURCE is owner/repo, a git URL, a local folder, npm:PACKAGE, an https URL of a
    marketplace.json, or the name of a marketplace the project declares (in
    .claude/settings.json; the project must be trusted). Claude Code's, Codex's and
    Cursor's marketplace.json are read. A copy is kept in the user config directory;
    then satchel install PLUGIN@NAME installs from it."""
    ctx = inst.context(here, as_json=as_json, endpoints=endpoints)
    try:
        with inst.progress_shown(ctx):
            known, catalogue, diags = add(ctx, source, name=name)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json({"marketplace": _json(known, catalogue)}, diags)
        return OK
    at = f" at {inst.short(known.resolved)}" if known.resolved else ""
    listed = out.count(len(catalogue.entries), "plugin")
    out.say(f"Added marketplace {known.name} from {known.source}{at}: {listed}")
    for entry in catalogue.entries:
        version = f" {entry.version}" if entry.version else ""
        out.say(
            f"  {entry.name}{version}" + (f": {entry.description}" if entry.description else "")
        )
    inst.warnings(diags)
    return OK


def _json(known: Known, catalogue: Catalogue) -> dict[str, object]:
    return {
        **known.to_json(),
        "format": catalogue.format,
        "plugins": [e.name for e in catalogue.entries],
    }

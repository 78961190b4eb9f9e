"""`satchel marketplace update [NAME]`: fetch the added marketplaces again."""

from __future__ import annotations

from typing import Unpack

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._marketplaces import MarketplaceChange, refresh

PARAMS = (
    click.Argument(["names"], nargs=-1),
    *inst.endpoint_options(),
    where(),
    json_option(),
)


def run(
    *,
    names: tuple[str, ...],
    here: Here,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """Fetch every added marketplace (or those NAMED) again and keep the new copy.

    Says which plugins each one added, dropped or changed the version of. Installed
    plugins are not touched: satchel update does that."""
    ctx = inst.context(here, as_json=as_json, endpoints=endpoints)
    try:
        with inst.progress_shown(ctx):
            changes = refresh(ctx, names)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json({"marketplaces": [c.to_json() for c in changes]})
        return OK
    if not changes:
        out.say("No marketplace is added.")
    for change in changes:
        _print(change)
    return OK


def _print(change: MarketplaceChange) -> None:
    k = change.known
    moved = change.before != k.resolved
    at = f"{inst.short(change.before)} -> {inst.short(k.resolved)}" if moved else "unchanged"
    out.say(f"{k.name}: {at}")
    for name in change.added:
        out.say(f"  + {name}")
    for name in change.removed:
        out.say(f"  - {name}")
    for line in change.changed:
        out.say(f"  ~ {line}")
    inst.warnings(change.diagnostics)

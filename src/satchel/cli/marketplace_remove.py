"""`satchel marketplace remove NAME`: forget an added marketplace."""

from __future__ import annotations

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._marketplaces import remove_marketplace

PARAMS = (
    click.Argument(["name"]),
    inst.force_option("Forget it even while plugins installed from it remain."),
    where(),
    json_option(),
)


def run(
    *,
    name: str,
    force: bool,
    here: Here,
    as_json: bool,
) -> int:
    """Forget the marketplace NAME and delete its kept copy.

    Refused while a plugin installed from it is in a skills.lock (project or user),
    unless --force; installed plugins are never removed by this."""
    ctx = inst.context(here, as_json=True)
    try:
        known = remove_marketplace(name, force=force, layout=ctx.layout)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json({"removed": known.to_json()})
    else:
        out.say(f"Removed marketplace {known.name} ({known.source}).")
    return OK

"""`satchel remove NAME`: delete a skill or plugin satchel installed."""

from __future__ import annotations

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._manage import remove

PARAMS = (
    click.Argument(["name"]),
    inst.scope_option(),
    inst.force_option("Remove it even while another installed plugin or skill needs it."),
    where(),
    json_option(),
)


def run(
    *,
    name: str,
    scope: str,
    force: bool,
    here: Here,
    as_json: bool,
) -> int:
    """Delete the skill or plugin NAME that satchel installed, and its lock entry.

    Only what skills.lock lists is removed, and never through a symlink. A plugin or
    skill another installed one needs is kept unless --force."""
    ctx = inst.context(here, as_json=True)
    try:
        entry = remove(name, scope=scope, layout=ctx.layout, force=force)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json({"removed": entry.to_json()})
    else:
        out.say(f"Removed {entry.kind} {entry.name} (from {entry.source}).")
    return OK

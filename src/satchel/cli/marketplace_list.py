"""`satchel marketplace list`: the marketplaces added, and those the project declares."""

from __future__ import annotations

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._marketplaces import marketplaces

PARAMS = (where(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the marketplaces added, then those the project declares and are not added.

    A project's marketplaces (extraKnownMarketplaces in .claude/settings.json) are
    only listed until you add them: satchel marketplace add NAME."""
    ctx = inst.context(here, as_json=True)
    try:
        every, diags = marketplaces(layout=ctx.layout)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    added = [k for k in every if k.added]
    pending = [k for k in every if not k.added]
    if as_json:
        out.print_json({"marketplaces": [k.to_json() for k in every]}, diags)
        return OK
    if not added and not pending:
        out.say("No marketplace is added. satchel marketplace add SOURCE adds one.")
    for known in added:
        at = f" at {inst.short(known.resolved)}" if known.resolved else ""
        out.say(f"{known.name}: {known.source}{at}")
    for known in pending:
        out.say(f"{known.name}: {known.source} (declared by the project, not added)")
    inst.warnings(diags)
    return OK

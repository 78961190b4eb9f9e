"""`satchel prune`: remove what was installed only as a dependency and is no longer needed."""

from __future__ import annotations

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._manage import prune

PARAMS = (inst.scope_option(), where(), json_option())


def run(
    *,
    scope: str,
    here: Here,
    as_json: bool,
) -> int:
    """Remove what was installed only as a dependency and nothing needs any more.

    What you installed yourself stays, whatever needs it."""
    ctx = inst.context(here, as_json=True)
    try:
        gone = prune(scope=scope, layout=ctx.layout)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json({"removed": [e.to_json() for e in gone]})
        return OK
    if not gone:
        out.say("Nothing to prune: every dependency installed is still needed.")
    for entry in gone:
        out.say(f"Removed {entry.kind} {entry.name} (nothing needs it any more).")
    return OK

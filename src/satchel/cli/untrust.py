"""`satchel untrust [DIR]`: take a folder off the user's list of trusted folders."""

from __future__ import annotations

from pathlib import Path

from satchel._trust import read_trust, untrust
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._params import trust_params
from satchel.cli.trust import target
from satchel.errors import TrustStoreError
from satchel.layout import Layout

PARAMS = trust_params(listing=False)


def run(
    *,
    directory: Path | None,
    home: Path | None,
    client: str,
    as_json: bool,
) -> int:
    """Stop trusting a folder: its plugins, hooks and MCP servers no longer load.

    DIR defaults to the project root (the nearest folder holding .git). A folder
    below another trusted folder stays trusted through it: the output says which."""
    layout = Layout.default(directory, client=client, home=home)
    folder = target(layout, directory)
    try:
        removed = untrust(layout, folder)
    except TrustStoreError as e:
        return out.fail("config.trust.invalid", str(e), as_json=as_json)
    through = read_trust(layout).trusting(folder)
    if as_json:
        still = None if through is None else str(through)
        document = {"folder": str(folder), "changed": removed, "trusted": through is not None}
        out.print_json({**document, "trusted_through": still})
        return OK
    out.say(f"{out.shown(folder)} {'is no longer' if removed else 'was not'} on the list.")
    if through is not None:
        out.say(f"It is still trusted through {out.shown(through)}: `satchel untrust` that.")
    return OK

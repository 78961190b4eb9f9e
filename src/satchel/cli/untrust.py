"""`satchel untrust [DIR]`: take a folder off the user's list of trusted folders."""

from __future__ import annotations

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import trust_params
from satchel.cli.trust import helper_option, target
from satchel.core.errors import TrustStoreError
from satchel.core.layout import Layout
from satchel.trust._trust import forget_helper, read_trust, untrust

PARAMS = (*trust_params(listing=False), helper_option())


def run(
    *,
    here: Here,
    header_helper: str | None,
    as_json: bool,
) -> int:
    """Stop trusting a folder: its plugins, hooks and MCP servers no longer load.

    DIR defaults to the project root, the one `satchel list` reports. A folder
    below another trusted folder stays trusted through it: the output says which.
    --header-helper HOST withdraws the approval of HOST's header helper instead."""
    layout = Layout.default(here.directory, client=here.client, home=here.home)
    if header_helper is not None:
        return withdraw(layout, header_helper, as_json=as_json)
    folder = target(layout, here.directory)
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


def withdraw(layout: Layout, host: str, *, as_json: bool) -> int:
    """Drop the approval of `host`'s header helper: it no longer runs."""
    try:
        removed = forget_helper(layout, host)
    except TrustStoreError as e:
        return out.fail("config.trust.invalid", str(e), as_json=as_json)
    if as_json:
        out.print_json({"header_helper": host, "approved": False, "changed": removed})
        return OK
    said = "is no longer approved" if removed else "was not approved"
    out.say(f"The header helper for {host} {said}.")
    return OK

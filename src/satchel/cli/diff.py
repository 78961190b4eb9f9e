"""`satchel diff [NAME]`: the new risk of the newer version at an installed item's
source, installing nothing."""

from __future__ import annotations

from typing import Unpack, cast

import click

from satchel.audit._model import Severity
from satchel.cli import _delta as delta
from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._manage import Change, update_at

PARAMS = (
    click.Argument(["name"], required=False),
    inst.scope_option(),
    delta.fail_on_new_option(),
    *inst.endpoint_options(),
    where(),
    json_option(),
)


def run(
    *,
    name: str | None,
    scope: str,
    fail_on_new: str | None,
    here: Here,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """Show what the newer version at the source of NAME (default: everything
    installed) could do that the installed tree cannot, installing nothing.

    Each locked source is fetched at its ref again, as `satchel update` does, and both
    trees are audited (nothing runs): new hooks, MCP servers and remote hosts, scripts
    and executables, broader allowed-tools, hidden characters, any other new finding.
    --fail-on-new SEVERITY exits 1 when a new risk is at SEVERITY or above."""
    ctx = inst.context(here, as_json=as_json, endpoints=endpoints)
    reviewer = delta.Reviewer()
    try:
        with inst.progress_shown(ctx):
            into = inst.target(ctx, scope, review=reviewer)
            changes = update_at(into, (name,) if name else (), dry_run=True)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        rows = [_row(c, reviewer) for c in changes]
        out.print_json({"diffs": rows, "fail_on_new": fail_on_new})
    else:
        _print(changes, reviewer)
    if fail_on_new is None:
        return OK
    threshold = cast(Severity, fail_on_new)
    failed = any(found.at_least(threshold) for found in reviewer.deltas.values())
    return PROBLEMS if failed else OK


def _row(change: Change, reviewer: delta.Reviewer) -> dict[str, object]:
    e = change.entry
    found = reviewer.to_json(e.kind, e.name)
    return {
        "name": e.name,
        "kind": e.kind,
        "source": e.source,
        "before": change.before,
        "after": change.after,
        "updated": change.updated,
        "delta": found if found is not None else delta.NO_DELTA,
    }


def _print(changes: tuple[Change, ...], reviewer: delta.Reviewer) -> None:
    if not changes:
        out.say("Nothing is installed in this scope.")
    for c in changes:
        e = c.entry
        if not c.updated:
            out.say(f"{e.name}: up to date ({inst.short(c.after)})")
        else:
            out.say(f"{e.name}: {inst.short(c.before)} -> {inst.short(c.after)}")
        delta.print_delta(reviewer.get(e.kind, e.name))

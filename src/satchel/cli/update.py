"""`satchel update [NAME]`: fetch locked sources again and install what changed."""

from __future__ import annotations

from pathlib import Path
from typing import Unpack

import click

from satchel.cli import _delta as delta
from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._held import held_after
from satchel.cli._held import say as say_held
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._manage import Change, installed_at, update_at
from satchel.install._scope import scope_for

PARAMS = (
    click.Argument(["name"], required=False),
    inst.scope_option(),
    inst.force_option("Overwrite a tree edited since it was installed."),
    delta.fail_on_new_option(),
    inst.trust_root_option(),
    inst.key_option(),
    *inst.endpoint_options(),
    where(),
    json_option(),
)


def run(
    *,
    name: str | None,
    scope: str,
    force: bool,
    fail_on_new: str | None,
    trust_root: Path | None,
    keys: tuple[Path, ...],
    here: Here,
    as_json: bool,
    **endpoints: Unpack[inst.Endpoints],
) -> int:
    """Fetch each installed source (or NAME's) at its ref again and show what changed.

    A changed tree is replaced atomically and skills.lock records the new commit
    and hash. A tree edited since it was installed is left alone unless --force.
    Each changed tree is audited against the installed one and only the new risk is
    shown; --fail-on-new SEVERITY replaces nothing when one is at SEVERITY or above.
    An entry skills.lock records as signed is replaced only by a version its signer
    signed (--trust-root: the Sigstore trust root; --key: the public key of an
    oci:// artifact signed with a key)."""
    ctx = inst.context(here, as_json=as_json, endpoints=endpoints)
    reviewer = delta.Reviewer(fail_on_new)
    try:
        ctx = inst.with_signing(ctx, trust_root, keys)
        with inst.progress_shown(ctx):
            into = inst.target(ctx, scope, review=reviewer)
            changes = update_at(into, (name,) if name else (), force=force)
    except InstallError as e:
        return delta.refused(e, reviewer, as_json=as_json)
    where_ = scope_for(ctx.layout, scope)
    placed = [installed_at(where_, c.entry) for c in changes if c.updated]
    held = held_after(ctx.layout, placed)
    warned = [d for c in changes for d in c.diagnostics]
    if as_json:
        rows = [
            {**c.to_json(), "delta": reviewer.to_json(c.entry.kind, c.entry.name)} for c in changes
        ]
        out.print_json({"changes": rows, "fail_on_new": fail_on_new}, [*warned, *held])
    else:
        _print(changes, reviewer)
        inst.warnings(warned)
        say_held(held)
    return OK


def _print(changes: tuple[Change, ...], reviewer: delta.Reviewer) -> None:
    if not changes:
        out.say("Nothing is installed in this scope.")
    for c in changes:
        e = c.entry
        if not c.updated:
            out.say(f"{e.name}: up to date ({inst.short(c.after)})")
            continue
        counts = f"{len(c.added)} added, {len(c.changed)} changed, {len(c.removed)} removed"
        out.say(f"{e.name}: {inst.short(c.before)} -> {inst.short(c.after)}: {counts}")
        for mark, paths in (("+", c.added), ("~", c.changed), ("-", c.removed)):
            for path in paths:
                out.say(f"  {mark} {path}")
        delta.print_delta(reviewer.get(e.kind, e.name))

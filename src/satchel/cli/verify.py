"""`satchel verify`: check each installed tree against its locked hash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, where
from satchel.install._errors import InstallError
from satchel.install._manage import Checked, verify

PARAMS = (inst.scope_option(), inst.trust_root_option(), *where(), json_option())


def run(
    *,
    scope: str,
    trust_root: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    as_json: bool,
) -> int:
    """Hash every skill and plugin satchel installed and compare with skills.lock.

    File modes count: a setuid bit or any mode satchel does not install is a change.
    An entry that records a signer must still carry a Sigstore bundle by that signer
    over the tree as it is (install.signature.*; --trust-root as for install). Exit
    1 when a tree was changed or is gone (install.integrity), is not signed as
    locked, or when satchel placed a tree that skills.lock does not list
    (install.lock.unlisted)."""
    ctx = inst.context(project, home, client, as_json=True)
    if trust_root is not None:
        ctx = replace(ctx, settings=replace(ctx.settings, sigstore_trust_root=trust_root))
    try:
        rows = verify(scope=scope, layout=ctx.layout, settings=ctx.settings)
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    bad = [d for row in rows for d in row.diagnostics]
    if as_json:
        out.print_json(
            {"entries": [r.to_json() for r in rows], "diagnostics": [d.to_json() for d in bad]}
        )
    else:
        _print(rows)
    return PROBLEMS if bad else OK


def _print(rows: tuple[Checked, ...]) -> None:
    con = out.console()
    if not rows:
        out.note("Nothing is installed in this scope.")
        return
    grid = out.table("name", "kind", "status", "path")
    for r in rows:
        style = "" if r.status == "ok" else "bold red"
        grid.add_row(
            out.safe(r.name),
            out.safe(r.kind),
            out.safe(r.status, style=style),
            out.safe(out.shown(r.path)),
        )
    con.print(grid)
    inst.warnings([d for r in rows for d in r.diagnostics])

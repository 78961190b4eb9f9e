"""Every plugin and skill installed on this machine for a project and its user, with
where each came from as its installer recorded it.

* satchel: each entry of the project's and the user's ``skills.lock``
  (`satchel.install._lock`), its folder where `installed_at` says, its source the
  entry's ``source`` (with its ``ref``), and for a plugin installed from a marketplace
  satchel's copy of that marketplace (``{config}/satchel/marketplaces/<name>/``).
* each host whose definition says where it records its installs
  (`satchel.hosts._installs.Installs`): the records of the shape it writes, read by
  `satchel.reports.outdated._records`.

Reading writes nothing and runs nothing; a record that cannot be read is a
diagnostic, and the rest is still gathered.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout
from satchel.hosts._model import Host
from satchel.install._errors import InstallError
from satchel.install._lock import read_lock
from satchel.install._manage import installed_at
from satchel.install._scope import SCOPES, scope_for
from satchel.reports.outdated._model import Install, Origin
from satchel.reports.outdated._records import host_installs

__all__ = ["gather"]


def gather(
    layout: Layout, hosts: Iterable[Host]
) -> tuple[tuple[Install, ...], tuple[Diagnostic, ...]]:
    """satchel's installs in `layout`'s scopes, then each of `hosts`' (a host whose
    records another already gave, by the same shape and folder, once)."""
    found, problems = _satchel(layout)
    seen: set[object] = set()
    for host in hosts:
        if host.installs is None:
            continue
        key = (host.installs, host.state)
        if key in seen:
            continue
        seen.add(key)
        more, why = host_installs(layout, host)
        found += more
        problems += why
    return tuple(found), tuple(problems)


def _satchel(layout: Layout) -> tuple[list[Install], list[Diagnostic]]:
    found: list[Install] = []
    problems: list[Diagnostic] = []
    for name in SCOPES:
        where = scope_for(layout, name)
        try:
            lock = read_lock(where.lock_path)
        except InstallError as e:
            problems.append(e.diagnostic)
            continue
        for entry in lock.entries:
            root = installed_at(where, entry)
            if not os.path.isdir(root) or os.path.islink(root):
                continue  # `satchel verify` says so
            origin = Origin(
                f"{where.lock_path}",
                spec=entry.source,
                marketplace=entry.marketplace,
                clone=_copy(layout, entry.marketplace),
            )
            found.append(
                Install(
                    "satchel",
                    entry.name,
                    entry.name,
                    entry.kind,
                    name,
                    root,
                    version=entry.resolved,
                    origin=origin,
                    modes=True,
                    lock=entry,
                )
            )
    return found, problems


def _copy(layout: Layout, marketplace: str | None) -> Path | None:
    """satchel's copy of the marketplace `marketplace` (None: none is kept)."""
    if marketplace is None:
        return None
    path = layout.config_home / layout.client / "marketplaces" / marketplace
    return path if os.path.isdir(path) and not os.path.islink(path) else None

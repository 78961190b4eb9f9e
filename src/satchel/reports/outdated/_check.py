"""`outdated()`: every install gathered, each compared with its source by content.

    result = outdated(layout=layout, hosts=[hosts.get("claude-code")], offline=True)
    for report in result.reports:
        print(report.install.id, report.state, [f.path for f in report.files])

An install is ``current`` when its tree and its source's hash alike (the files its
installer adds left out), ``outdated`` when they differ (whatever the versions say),
``in-place`` when the host reads the plugin from its marketplace's folder as it is
(no copy, nothing to compare), ``unknown-source`` when no source was recorded or its
marketplace no longer lists it, ``source-unreachable`` when the source could not be
read, and ``not-checked`` when reading it needs the network under `offline`, or the
policy refuses it. Nothing is
written outside a temporary folder that is removed, and nothing is run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.hosts._model import Host
from satchel.install._settings import Settings
from satchel.reports.outdated._compare import file_changes, load_change, new_risk
from satchel.reports.outdated._gather import gather
from satchel.reports.outdated._model import Install, Outdated, Report
from satchel.reports.outdated._source import Deadline, Reader, source_tree

__all__ = ["DEADLINE", "outdated"]

DEADLINE = 120.0  # seconds for every fetch of one run together


def outdated(
    *,
    layout: Layout,
    hosts: Iterable[Host],
    offline: bool = False,
    deadline: float = DEADLINE,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
) -> Outdated:
    """Check every plugin and skill satchel and `hosts` installed for `layout`."""
    env = dict(os.environ if environ is None else environ)
    reader = Reader(
        layout, settings or Settings.from_env(env), env, offline, Deadline.begin(deadline)
    )
    installs, problems = gather(layout, hosts)
    return Outdated(tuple(check(i, reader) for i in installs), offline, problems)


def check(install: Install, reader: Reader) -> Report:
    """One install against its source."""
    if install.linked:
        source = None if install.origin is None else install.origin.spec
        return Report(install, "current", source)
    if install.in_place:
        return Report(install, "in-place", str(install.root), diagnostics=(_in_place(install),))
    with source_tree(install, reader) as found:
        if found.tree is None:
            return Report(install, found.state, found.source, found.network,
                          diagnostics=found.diagnostics)  # fmt: skip
        files = file_changes(install.root, found.tree, modes=install.modes, ignored=install.ignored)
        if not files:
            return Report(install, "current", found.source, found.network)
        return Report(
            install,
            "outdated",
            found.source,
            found.network,
            files,
            load_change(install.root, found.tree, install.kind),
            new_risk(install.root, found.tree),
            (_stale(install, len(files), found.source),),
        )


def _in_place(install: Install) -> Diagnostic:
    message = (
        f"{install.installer}'s {install.kind} {install.id!r} is read in place from "
        f"{install.root}: {install.installer} loads it as it is, no copy to go stale "
        "(its installed copy is not used)"
    )
    return diagnostic("outdated.in_place", message, install.root)


def _stale(install: Install, n: int, source: str | None) -> Diagnostic:
    version = f" (version {install.version})" if install.version else ""
    noun = "file differs" if n == 1 else "files differ"
    message = (
        f"{install.installer}'s {install.kind} {install.id!r}{version} is not what its "
        f"source holds now: {n} {noun} from {source}"
    )
    return diagnostic("outdated.stale", message, install.root)

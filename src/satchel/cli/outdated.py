"""`satchel outdated`: every installed plugin and skill against its source, by content."""

from __future__ import annotations

from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._context import Here, profile
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, shared, shared_as
from satchel.hosts import Host
from satchel.reports.outdated import DEADLINE, Outdated, Report


def _names(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    if not names:
        raise click.BadParameter("name at least one host")
    return names


PARAMS = (
    click.Option(
        ["--hosts", "hosts"],
        metavar="NAME,...",
        callback=_names,
        help="Only what these hosts installed, besides satchel (default: every host that "
        "installs plugins).",
    ),
    click.Option(
        ["--offline"],
        is_flag=True,
        help="Use no network: check only against sources on disk (marketplace folders "
        "and clones, local folders) and name the others not checked.",
    ),
    click.Option(
        ["--deadline"],
        type=click.FloatRange(min=0, min_open=True),
        default=DEADLINE,
        show_default=True,
        metavar="SECONDS",
        help="The time every fetch of the run may take together.",
    ),
    click.Option(
        ["--exit-code", "exit_code"],
        is_flag=True,
        help="Exit 1 when an install is outdated (as git diff --exit-code).",
    ),
    shared_as(
        "project",
        type=click.Path(file_okay=False, path_type=Path),
        help="The project root (default: found from the current directory).",
    ),
    shared("home", "client"),
    json_option(),
)


def run(
    *,
    hosts: tuple[str, ...],
    offline: bool,
    deadline: float,
    exit_code: bool,
    here: Here,
    as_json: bool,
) -> int:
    """Compare every installed plugin and skill with its source, by content.

    Reads what satchel installed (skills.lock of the project and the user) and what
    each host installed (Claude Code's installed_plugins.json, Codex's plugin cache,
    Gemini CLI's extensions), finds each one's source as recorded (the marketplace's
    folder or clone, a git remote's ref, an npm package, an OCI digest) and compares
    the trees file by file, never by version string: what was added, removed or
    changed, what that changes at load (skills, hooks, MCP servers) and the new risk
    the audit finds. A remote source is fetched read-only into a temporary folder
    that is removed, within the policy's source rules and one overall --deadline;
    --offline checks only what is on disk and names the rest. Nothing is written and
    nothing is run. Exit 0; with --exit-code, exit 1 when something is outdated."""
    from satchel.cli._install import context
    from satchel.reports.outdated import outdated

    ctx = context(here, as_json=True)  # the install's credentials too
    result = outdated(
        layout=ctx.layout,
        hosts=_hosts(hosts, here.home),
        offline=offline,
        deadline=deadline,
        settings=ctx.settings,
        environ=ctx.environ,
    )
    found = [d for r in result.reports for d in r.diagnostics]
    if as_json:
        out.print_json(result.to_json(), [*result.diagnostics, *found])
    else:
        _print(result)
    stale = result.counts()["outdated"]
    return PROBLEMS if exit_code and stale else OK


def _hosts(names: tuple[str, ...], home: Path | None) -> list[Host]:
    from satchel.hosts import PROFILES

    if names:
        return [profile(n, home, "'--hosts'")[0] for n in names]
    return [h for h in PROFILES.values() if h.installs is not None]


def _print(result: Outdated) -> None:
    for report in result.reports:
        _print_one(report)
    if result.diagnostics:
        out.console(stderr=True).print(out.diagnostic_grid(result.diagnostics))
    if not result.reports:
        out.note("Nothing is installed by satchel or by a host this reads.")
        return
    counts = ", ".join(f"{n} {s}" for s, n in result.counts().items() if n)
    offline = "; offline: remote sources were not fetched" if result.offline else ""
    out.note(f"{out.count(len(result.reports), 'install')}: {counts}{offline}.")


def _print_one(r: Report) -> None:
    i = r.install
    version = f" {_short(i.version)}" if i.version else ""
    out.say(f"{i.installer} {i.kind} {i.id}{version} ({i.scope}): {r.state}")
    out.say(f"  installed: {out.shown(i.root)}")
    if r.source is not None:
        network = " (remote)" if r.network else ""
        out.say(f"  source: {out.shown(r.source)}{network}")
    for f in r.files:
        out.say(f"  {f.change} {f.path} ({_size(f.old_size)} -> {_size(f.new_size)})")
    for kind, name in r.load.added:
        out.say(f"  loads + {kind} {name}")
    for kind, name in r.load.removed:
        out.say(f"  loads - {kind} {name}")
    for risk in r.risks:
        where = f" ({risk.path})" if risk.path else ""
        out.say(f"  new risk: {risk.severity} {risk.what}: {risk.message}{where}")
    for d in r.diagnostics:
        if d.code != "outdated.stale":
            out.say(f"  {d.code}: {out.unrooted(d.message)}")


def _short(version: str) -> str:
    """A commit SHA as git shortens one (12 hex digits); any other version whole."""
    hexes = len(version) in (40, 64) and all(c in "0123456789abcdef" for c in version)
    return version[:12] if hexes else version


def _size(size: int | None) -> str:
    return "-" if size is None else f"{size:,} B"

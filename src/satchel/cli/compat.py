"""`satchel compat`: what every agent host does with a skill, a plugin or a project
(the library's `satchel.compat.compat`; docs/compat.md)."""

from __future__ import annotations

from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import directory, home_option, json_option, model_option
from satchel.cli._workspace import profile
from satchel.compat import HostReport, Report
from satchel.hosts import Host

COLUMNS = ("host", "skills", "commands", "agents", "hooks", "mcp", "instructions", "plugins")
DROP_COLUMNS = ("host", "code", "component", "id", "why")


def _names(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    if not names:
        raise click.BadParameter("name at least one host")
    return names


PARAMS = (
    click.Argument(["path"], required=False, type=directory(exists=True), metavar="[PATH]"),
    click.Option(
        ["--host", "hosts"],
        metavar="NAME,...",
        callback=_names,
        help="Only these host profiles (default: every built-in one).",
    ),
    click.Option(
        ["--require", "require"],
        metavar="HOST,...",
        callback=_names,
        help="Exit 1 when one of these hosts drops, cuts or ignores anything.",
    ),
    click.Option(
        ["--project"],
        type=directory(exists=True),
        help="Read PATH as this project root (default: a skill or plugin directory is "
        "read alone, anything else as a project).",
    ),
    model_option(),
    home_option(),
    json_option(),
)


def run(
    *,
    path: Path | None,
    hosts: tuple[str, ...],
    require: tuple[str, ...],
    project: Path | None,
    home: Path | None,
    model: str | None,
    as_json: bool,
) -> int:
    """Show what every agent host loads of a skill, a plugin or a project, and what it drops.

    PATH (default: the current directory) is loaded once per host profile: what each
    host loads, under the names it gives them; what it drops, cuts or ignores, each
    with its compat.* code and rule; and the always-on tokens of its skill index and
    instruction files against its budget. Exit 1 when a host named by --require
    drops anything. --model sizes every host's skill listing from that model's context
    window (default: each host's own default model)."""
    from satchel.compat import compat

    wanted = _wanted(hosts, require, home)
    where = path or project or Path.cwd()
    report = compat(where, hosts=wanted, home=home, project=project, model=model)
    if as_json:
        out.print_json(report.to_json())
    else:
        _print(report)
        if report.diagnostics:
            out.console(stderr=True).print(out.diagnostic_grid(report.diagnostics))
    failed = [h for h in report.hosts if h.host in _required(require, home) and h.drops]
    return PROBLEMS if failed else OK


def _wanted(hosts: tuple[str, ...], require: tuple[str, ...], home: Path | None) -> list[Host]:
    """The profiles asked for (every built-in one when --host is not given), then any
    --require names not among them; an unknown name is a usage error."""
    from satchel.hosts import PROFILES

    names = hosts or tuple(PROFILES)
    return [profile(name, home) for name in dict.fromkeys((*names, *require))]


def _required(require: tuple[str, ...], home: Path | None) -> set[str]:
    return {profile(name, home).name for name in require}


def _print(report: Report) -> None:
    con = out.console()
    out.say(f"compat: {out.shown(report.path)} ({report.kind})")
    grid = out.table(*COLUMNS, "drops", whole=1)
    for h in report.hosts:
        counts = (str(len(ids)) for _, ids in _kinds(h))
        grid.add_row(*(out.safe(c) for c in (h.host, *counts, str(len(h.drops)))))
    con.print(grid)
    for h in report.hosts:
        con.print()
        out.say(f"{h.host} ({h.title}) loads:")
        shown = [(kind, ids) for kind, ids in _kinds(h) if ids]
        for kind, ids in shown:
            out.say(f"  {kind}: {', '.join(ids)}")
        if not shown:
            out.say("  nothing")
    con.print()
    _print_tokens(report.hosts)
    con.print()
    drops = [(h, d) for h in report.hosts for d in h.drops]
    if not drops:
        out.say("No host drops anything.")
        return
    table = out.table(*DROP_COLUMNS, whole=2)
    for h, d in drops:
        row = (h.host, d.code, d.component, d.id or "-", d.message)
        table.add_row(*(out.safe(c) for c in row))
    con.print(table)


def _kinds(h: HostReport) -> tuple[tuple[str, tuple[str, ...]], ...]:
    loads = h.loads
    return (
        ("skills", loads.skills),
        ("commands", loads.commands),
        ("agents", loads.agents),
        ("hooks", loads.hooks),
        ("mcp", loads.mcp_servers),
        ("instructions", loads.instructions),
        ("plugins", loads.plugins),
    )


def _print_tokens(hosts: tuple[HostReport, ...]) -> None:
    grid = out.table("host", "always-on tokens", "index", "budget", whole=1)
    for h in hosts:
        t = h.tokens
        total = f"{t.total:,} ({t.index:,} index + {t.instructions:,} instructions)"
        index = f"{t.index_chars:,} characters, {out.count(t.listed, 'skill')}"
        state = "fits" if t.fits else "over"
        budget = t.rule if t.rule == "no budget" else f"{t.rule}: {state}"
        grid.add_row(*(out.safe(c) for c in (h.host, total, index, budget)))
    out.console().print(grid)

"""`satchel compat`: what every agent host does with a skill, a plugin or a project
(the library's `satchel.compat.compat`; docs/compat.md)."""

from __future__ import annotations

from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._context import Here, profile
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import directory, json_option, model_option, shared, shared_as
from satchel.compat import Drop, HostReport, Loads, Report
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
        help="Exit 1 when one of these hosts drops, cuts or ignores something that neither "
        "the plugin as shipped nor `satchel port` makes it load.",
    ),
    click.Option(
        ["--require-as-shipped", "as_shipped"],
        metavar="HOST,...",
        callback=_names,
        help="Exit 1 when one of these hosts drops, cuts or ignores anything as shipped.",
    ),
    shared_as(
        "project",
        help="Read PATH as this project root (default: a skill or plugin directory is "
        "read alone, anything else as a project).",
    ),
    model_option(),
    shared("home"),
    json_option(),
)


def run(
    *,
    path: Path | None,
    hosts: tuple[str, ...],
    require: tuple[str, ...],
    as_shipped: tuple[str, ...],
    here: Here,
    model: str | None,
    as_json: bool,
) -> int:
    """Show what every agent host loads of a skill, a plugin or a project, and what it drops.

    PATH (default: the current directory) is loaded once per host profile: what each
    host loads, under the names it gives them; what it drops, cuts or ignores, each
    with its compat.* code and rule; and the always-on tokens of its skill index and
    instruction files against its budget. For a plugin, each host that `satchel port`
    writes for is shown a second time, as it reads the plugin once ported (worked out
    in a scratch copy: nothing is written). Exit 1 when a host named by --require
    drops something both as shipped and after port, or one named by
    --require-as-shipped drops anything as shipped. --model sizes every host's skill
    listing from that model's context window (default: each host's own default model)."""
    from satchel.compat import compat

    wanted = _wanted(hosts, (*require, *as_shipped), here.home)
    where = path or here.project or Path.cwd()
    report = compat(where, hosts=wanted, home=here.home, project=here.project, model=model)
    if as_json:
        out.print_json(report.to_json())
    else:
        _print(report)
        if report.diagnostics:
            out.console(stderr=True).print(out.diagnostic_grid(report.diagnostics))
    strict, fixable = _required(as_shipped, here.home), _required(require, here.home)
    failed = [
        h
        for h in report.hosts
        if (h.host in strict and h.drops) or (h.host in fixable and h.unfixed)
    ]
    return PROBLEMS if failed else OK


def _wanted(hosts: tuple[str, ...], require: tuple[str, ...], home: Path | None) -> list[Host]:
    """The profiles asked for (every built-in one when --host is not given), then any
    --require names not among them; an unknown name is a usage error."""
    from satchel.hosts import PROFILES

    names = hosts or tuple(PROFILES)
    return [profile(name, home)[0] for name in dict.fromkeys((*names, *require))]


def _required(require: tuple[str, ...], home: Path | None) -> set[str]:
    return {profile(name, home)[0].name for name in require}


def _print(report: Report) -> None:
    con = out.console()
    out.say(f"compat: {out.shown(report.path)} ({report.kind})")
    ported = any(h.ported is not None for h in report.hosts)
    columns = (COLUMNS[0], "view", *COLUMNS[1:]) if ported else COLUMNS
    grid = out.table(*columns, "drops", whole=2 if ported else 1)
    for h in report.hosts:
        for view, loads, drops in _views(h):
            counts = (str(len(ids)) for _, ids in _kinds(loads))
            head = (h.host, view) if ported else (h.host,)
            grid.add_row(*(out.safe(c) for c in (*head, *counts, str(len(drops)))))
    con.print(grid)
    for h in report.hosts:
        con.print()
        out.say(f"{h.host} ({h.title}) loads:")
        _print_ids(h.loads)
        if h.ported is not None and h.ported.written:
            out.say(f"{h.host} after `satchel port --to {h.ported.target}` loads:")
            _print_ids(h.ported.loads)
    con.print()
    _print_tokens(report.hosts)
    if ported:
        con.print()
        _print_verdicts(report.hosts)
    con.print()
    rows = [(h, view, d) for h in report.hosts for view, _, ds in _views(h) for d in ds]
    if not rows:
        out.say("No host drops anything.")
        return
    heads = ("host", "view", *DROP_COLUMNS[1:]) if ported else DROP_COLUMNS
    table = out.table(*heads, whole=3 if ported else 2)
    for h, view, d in rows:
        row = (h.host, view, d.code, d.component, d.id or "-", d.message)
        table.add_row(*(out.safe(c) for c in (row if ported else row[:1] + row[2:])))
    con.print(table)


SHIPPED, AFTER_PORT = "as shipped", "after port"
_VERDICTS = {
    "as-shipped": "loads everything as shipped",
    "port": "loads everything after `satchel port --to {target}`",
    "neither": "drops something as shipped and after port",
}


def _views(h: HostReport) -> list[tuple[str, Loads, tuple[Drop, ...]]]:
    """The host's views: as shipped, then after port when port writes for it."""
    found = [(SHIPPED, h.loads, h.drops)]
    if h.ported is not None and h.ported.written:
        found.append((AFTER_PORT, h.ported.loads, h.ported.drops))
    return found


def _print_ids(loads: Loads) -> None:
    shown = [(kind, ids) for kind, ids in _kinds(loads) if ids]
    for kind, ids in shown:
        out.say(f"  {kind}: {', '.join(ids)}")
    if not shown:
        out.say("  nothing")


def _print_verdicts(hosts: tuple[HostReport, ...]) -> None:
    grid = out.table("host", "verdict", whole=1)
    for h in hosts:
        if h.verdict == "neither" and (h.ported is None or not h.ported.written):
            why = "port has no target"
            if h.ported is not None:
                codes = ", ".join(d.code for d in h.ported.problems)
                why = f"port writes nothing for it: {codes}" if codes else "port writes nothing"
            verdict = f"drops something as shipped ({why})"
        else:
            target = h.ported.target if h.ported is not None else ""
            verdict = _VERDICTS[h.verdict].format(target=target)
        grid.add_row(out.safe(h.host), out.safe(verdict))
    out.console().print(grid)


def _kinds(loads: Loads) -> tuple[tuple[str, tuple[str, ...]], ...]:
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

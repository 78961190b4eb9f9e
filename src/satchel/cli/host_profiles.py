"""`satchel hosts [NAME]`: the host profiles, built-in and the user's, or one in full."""

from __future__ import annotations

import click

from satchel.cli import _output as out
from satchel.cli._context import Here, profile
from satchel.cli._exit import OK
from satchel.cli._params import json_option, shared
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout, RootSpec
from satchel.hosts import PROFILES, Host, decisions, user_profiles

PARAMS = (
    click.Argument(["name"], required=False),
    shared("home"),
    json_option(),
)


def run(
    *,
    name: str | None,
    here: Here,
    as_json: bool,
) -> int:
    """List the host profiles `--host` and `load(host=...)` take, or show NAME's.

    The built-in ones come first, then those of the user's config.toml
    ([hosts.<name>] tables); docs/hosts.md has each built-in profile with its sources."""
    if name is not None:
        return _one(*profile(name, here.home, "'NAME'"), as_json=as_json)
    found, problems = user_profiles(Layout.default(home=here.home).config_home)
    every = [*PROFILES.values(), *found.values()]
    if as_json:
        out.print_json({"hosts": [h.to_json() for h in every]}, problems)
        return OK
    grid = out.table("name", "host", "skill roots", "plugin formats", "instructions")
    for host in every:
        formats = "every" if host.plugin_formats is None else ", ".join(host.plugin_formats)
        row = (host.name, host.title, str(len(host.skills)), formats, host.instructions or "-")
        grid.add_row(*(out.safe(c) for c in row))
    con = out.console()
    con.print(grid)
    for d in problems:
        con.print(out.safe(f"{d.severity} {d.code}: {d.message}"), soft_wrap=True)
    return OK


def _one(host: Host, problems: tuple[Diagnostic, ...], *, as_json: bool) -> int:
    """`host` in full, and what was wrong in the user's config.toml, as the list
    shows it."""
    if as_json:
        out.print_json({"host": host.to_json()}, problems)
        return OK
    con = out.console()
    con.print(out.safe(f"{host.title} ({host.name})"))
    for title, rows in (
        ("skills", host.skills),
        ("commands", host.commands),
        ("agents", host.agents),
        ("plugins", host.plugins),
    ):
        con.print(out.safe(f"{title}: {_table(rows)}"), soft_wrap=True)
    grid = out.table("decision", "value")
    for decision, value in decisions(host):
        grid.add_row(out.safe(decision), out.safe(value.replace("`", "")))
    con.print(grid)
    for source in host.sources:
        con.print(out.safe(f"source: {source}"), soft_wrap=True)
    for d in problems:
        con.print(out.safe(f"{d.severity} {d.code}: {d.message}"), soft_wrap=True)
    return OK


def _table(rows: tuple[RootSpec, ...]) -> str:
    return ", ".join(f"{r.scope} {r.template}" for r in rows) or "none"

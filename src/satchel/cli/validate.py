"""`satchel validate PATH...`: check skills and plugins as their author, one by one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from satchel.cli import _output as out
from satchel.cli._catalogues import (
    CatalogueCheck,
    check_catalogues,
    holds_catalogue,
    listed_folders,
)
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._ignore import ignore_option, selectors_here
from satchel.cli._params import json_option, shared
from satchel.cli._plugin import PluginCheck, check_plugin
from satchel.core._ignore import kept
from satchel.hosts._lookup import client_profile
from satchel.plugins._detect import is_plugin_dir, plugin_children
from satchel.plugins._directory import directory_findings
from satchel.skills._check import Checked, check_paths

Check = Checked | PluginCheck | CatalogueCheck

PLAIN = True  # only lines, tables and diagnostics: no rich when piped (cli._plain)
# a skill starts nothing; a plugin's git reads end with satchel (cli._released)
RUNS_NOTHING = True

PARAMS = (
    click.Argument(["paths"], nargs=-1, required=True, type=click.Path(path_type=Path)),
    click.Option(["--strict"], is_flag=True, help="Apply the Agent Skills spec exactly."),
    click.Option(["--unicode-names"], is_flag=True, help="Accept lowercase Unicode letters."),
    click.Option(
        ["--profile"],
        type=click.Choice(["directory"]),
        default=None,
        help="Also run a catalogue's submission checks on each plugin: directory (the "
        "plugin directory's, as claude plugin validate --profile directory runs them).",
    ),
    shared("client", "home"),
    ignore_option(),
    json_option(),
)


def run(
    *,
    paths: Sequence[Path],
    strict: bool,
    unicode_names: bool,
    here: Here,
    as_json: bool,
    ignore: Sequence[str] = (),
    profile: str | None = None,
) -> int:
    """Check skills and plugins as their author; exit 1 on errors.

    Each PATH is a skill directory, its SKILL.md, a directory whose subdirectories
    are skills, a plugin directory (any format satchel reads), or a directory whose
    subdirectories are all plugins. A directory holding marketplace files (Claude
    Code's, Codex's, Cursor's marketplace.json) has them checked against each other
    and against the manifests of the plugins they list (catalogue.entry.*), and each
    of those plugins validated. --strict applies the Agent Skills spec exactly,
    and makes an unknown plugin manifest field fatal. --profile directory adds the
    plugin directory's submission findings to each plugin (their codes are
    plugin.directory.*, each message starting with the directory's own code, such as
    README_MISSING; a finding that refuses a submission is an error). A plugin whose
    files changed after its version was tagged or last set in its manifest (read from
    git) warns plugin.version.unbumped; a marketplace of its repository that lists it
    with another version warns catalogue.entry.version_mismatch. --ignore (and config.toml's
    [diagnostics] ignore, read from the user's config under --home and from the
    current directory's project when it is trusted) hides codes: they are not shown
    and fail nothing. Nothing of a skill or plugin is run; git only reads history."""
    selectors, problems = selectors_here(here.client, here.home, ignore)
    problems = list(kept(problems, selectors))
    if problems:
        out.console(stderr=True).print(out.diagnostic_grid(problems))
    checked: list[Check] = []
    for path in paths:
        plugins = [path] if is_plugin_dir(path) else plugin_children(path)
        if holds_catalogue(path):
            checked.append(check_catalogues(path))
            if plugins is None:
                plugins = [p for p in listed_folders(path) if is_plugin_dir(p)]
        if plugins is not None:
            from satchel.cli._released import versioned  # git, only for a plugin

            checked += [
                versioned(_profiled(check_plugin(p, strict=strict), profile)) for p in plugins
            ]
        else:
            checked += check_paths(
                [path],
                strict=strict,
                unicode_names=unicode_names,
                client=here.client,
                deprecated=client_profile(here.client).skill_metadata.deprecated,
            )
    checked = [_without(c, selectors) for c in _said_once(checked)]
    if as_json:
        found = [d for c in checked for d in c.diagnostics]
        out.print_json({"checked": [_json(c, selectors) for c in checked]}, found)
    else:
        _print(checked, selectors)
    return OK if all(_ok(c, selectors) for c in checked) else PROBLEMS


def _said_once(checked: list[Check]) -> list[Check]:
    """`checked`, a plugin's finding that a marketplace checked in this run already
    reports (its entry's version against the manifest) left to the marketplace."""
    said = {d for c in checked if isinstance(c, CatalogueCheck) for d in c.diagnostics}
    if not said:
        return checked
    return [
        replace(c, diagnostics=tuple(d for d in c.diagnostics if d not in said))
        if isinstance(c, PluginCheck)
        else c
        for c in checked
    ]


def _profiled(c: PluginCheck, profile: str | None) -> PluginCheck:
    """`c` with the findings of the catalogue `profile` names (``directory``)."""
    if profile != "directory":
        return c
    found = directory_findings(c.path, c.plugin)
    said = tuple(f.diagnostic(c.path) for f in found)
    return replace(c, diagnostics=(*c.diagnostics, *said), directory=found)


def _without(c: Check, selectors: Sequence[str]) -> Check:
    return replace(c, diagnostics=kept(c.diagnostics, selectors)) if selectors else c


def _ok(c: Check, selectors: Sequence[str]) -> bool:
    """Passed: no error is left once the ignored codes are gone (a file whose errors
    are all ignored passes, though it did not load)."""
    return c.ok or (bool(selectors) and all(d.severity != "error" for d in c.diagnostics))


def _json(c: Check, selectors: Sequence[str]) -> dict[str, Any]:
    if isinstance(c, PluginCheck | CatalogueCheck):
        doc = c.to_json()
    else:
        doc = {**c.to_json(), "kind": "skill"}
    return {**doc, "ok": _ok(c, selectors)}


def _print(checked: list[Check], selectors: Sequence[str]) -> None:
    con = out.console()
    for c in checked:
        if _ok(c, selectors):
            line = out.safe("ok    ", style="green") + out.safe(_name(c))
            con.print(line + out.safe(f"  {out.shown(c.path)}", style="dim"), soft_wrap=True)
        else:
            verdict = out.safe("fail  ", style="bold red")
            con.print(verdict + out.safe(out.shown(c.path)), soft_wrap=True)
        if c.diagnostics:
            con.print(out.diagnostic_grid(c.diagnostics, indent=6))
    failed = sum(not _ok(c, selectors) for c in checked)
    con.print(f"{_counted(checked)} checked: {len(checked) - failed} ok, {failed} failed")


def _name(c: Check) -> str:
    if isinstance(c, CatalogueCheck):
        return f"{', '.join(c.files)} (marketplace)"
    if isinstance(c, PluginCheck):
        return "" if c.plugin is None else f"{c.plugin.name} (plugin, {c.plugin.format})"
    return c.skill.name if c.skill else ""


def _counted(checked: list[Check]) -> str:
    """``2 skills``, ``1 plugin``, ``2 skills and 1 plugin``, ``1 marketplace and 2
    plugins``."""
    markets = sum(isinstance(c, CatalogueCheck) for c in checked)
    plugins = sum(isinstance(c, PluginCheck) for c in checked)
    skills = len(checked) - plugins - markets
    parts = [
        out.count(n, noun)
        for n, noun in ((markets, "marketplace"), (skills, "skill"), (plugins, "plugin"))
        if n
    ]
    if not parts:
        return out.count(0, "skill")
    return " and ".join(parts) if len(parts) < 3 else f"{parts[0]}, {parts[1]} and {parts[2]}"

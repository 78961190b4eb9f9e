"""``--ignore CODE`` (validate, doctor) and ``[diagnostics] ignore`` from config.toml.

An ignored code is not shown and does not count towards the exit code. A selector is
a code or a dotted prefix of codes (`satchel.core._ignore`); an unknown one on the command
line is a usage error (exit 2), in a config file a ``config.invalid`` warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import click

from satchel.assembly._environment import Environment
from satchel.core._ignore import kept, split_selectors, unknown_selectors
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout
from satchel.foundations._config import ignored_codes
from satchel.trust._trust import read_trust

__all__ = ["ignore_option", "selectors_here", "without_ignored"]


def ignore_option() -> click.Option:
    return click.Option(
        ["--ignore", "ignore"],
        multiple=True,
        metavar="CODE",
        callback=_check,
        help="Do not show this diagnostic code, or every code under a dotted prefix "
        "(agent.model); repeat it or separate codes with commas.",
    )


def _check(_ctx: click.Context, _param: click.Parameter, value: Sequence[str]) -> tuple[str, ...]:
    selectors = split_selectors(value)
    unknown = unknown_selectors(selectors)
    if unknown:
        names = ", ".join(repr(u) for u in unknown)
        raise click.BadParameter(
            f"no diagnostic code is, or starts with, {names} (the codes are in docs/diagnostics.md)"
        )
    return tuple(dict.fromkeys(selectors))


def without_ignored(env: Environment, ignore: Sequence[str]) -> Environment:
    """`env` without the diagnostics `ignore` and the config files' ``[diagnostics]
    ignore`` select (the config's own problems are added first, and may be ignored too)."""
    problems: list[Diagnostic] = []
    selectors = (*ignored_codes(env.layout, trust_project=env.trusted, problems=problems), *ignore)
    new = [d for d in problems if d not in env.diagnostics]  # a broken file: reported once
    return replace(env, diagnostics=kept((*new, *env.diagnostics), selectors))


def selectors_here(
    client: str, home: Path | None, ignore: Sequence[str]
) -> tuple[tuple[str, ...], list[Diagnostic]]:
    """For `validate`, which loads no project: the selectors of the user's config
    (under `home`), of the current directory's project config when that folder is
    trusted, and `ignore`; and the config files' problems."""
    layout = Layout.default(client=client, home=home)
    trusted = read_trust(layout).trusting(layout.project) is not None
    problems: list[Diagnostic] = []
    selectors = ignored_codes(layout, trust_project=trusted, problems=problems)
    return (*selectors, *ignore), problems

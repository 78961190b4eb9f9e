"""What an untrusted project holds back, said where it happens: `satchel install`,
`list` and `index` name the folders that do not load and the command that trusts the
project, in one line on stderr, or as one ``trust.required`` diagnostic in ``--json``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.cli._workspace import trust_command
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout

REQUIRED = "trust.required"  # diagnostic codes: see docs/diagnostics.md
UNTRUSTED = "discovery.untrusted"


def held_back(env: Environment, within: Iterable[Path] | None = None) -> tuple[Diagnostic, ...]:
    """One ``trust.required`` naming each folder the untrusted project keeps from
    loading (or each path of `within` inside one, when given), or none."""
    folders = [d.path for d in env.diagnostics if d.code == UNTRUSTED and d.path is not None]
    if within is not None:
        folders = [p for p in within if any(p.is_relative_to(f) for f in folders)]
    if not folders:
        return ()
    return (summary(env.layout, folders),)


def held_after(layout: Layout, placed: Iterable[Path]) -> tuple[Diagnostic, ...]:
    """``trust.required`` when a tree just placed (by install or update) inside the
    project does not load there until the project is trusted (a plugin, in an
    untrusted folder): the environment is read once, as it is now."""
    paths = [p for p in placed if p.is_relative_to(layout.project)]
    if not paths:
        return ()
    from satchel.assembly._environment import load

    return held_back(load(layout=layout), within=paths)


def summary(layout: Layout, folders: Sequence[Path]) -> Diagnostic:
    """The line: what does not load, why, and the command that trusts the project."""
    names = ", ".join(_named(layout.project, f) for f in dict.fromkeys(folders))
    command = trust_command(layout)
    message = (
        f"{names} not loaded: the project {layout.project} is not trusted; "
        f"run `{command}` to trust it"
    )
    return diagnostic(REQUIRED, message, layout.project, hint=command)


def say(found: Sequence[Diagnostic]) -> None:
    """Each ``trust.required`` line on stderr, escaped (the output stays the data)."""
    import click

    from satchel.core._text import escape

    for d in found:
        click.echo(escape(f"satchel: {d.message}"), err=True)


def _named(project: Path, folder: Path) -> str:
    """A held-back folder by its path inside the project (``.satchel/plugins/``)."""
    try:
        return f"{folder.relative_to(project).as_posix()}/"
    except ValueError:
        return f"{folder}/"

"""`satchel tag [PATH]`: the ``{name}--v{version}`` git tag of a plugin release."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option
from satchel.install._tag import TagPlan, TagResult, create_tag, plan_tag

PARAMS = (
    click.Argument(["path"], required=False, default=".", type=click.Path(path_type=Path)),
    click.Option(["--dry-run"], is_flag=True, help="Check and print the tag; create nothing."),
    click.Option(["--push"], is_flag=True, help="Push the tag to --remote once created."),
    click.Option(
        ["--remote"], default="origin", show_default=True, help="The remote --push pushes to."
    ),
    json_option(),
)


def run(*, path: Path, dry_run: bool, push: bool, remote: str, as_json: bool) -> int:
    """Create the {name}--v{version} git tag of the plugin at PATH (default: here).

    The version is the plugin manifest's (else its marketplace entry's). Refused,
    with nothing created: a catalogue of the repository that disagrees with the
    manifest or with another catalogue about the plugin (name, version, source, or
    listed in one and not another), no semantic version, a tag name git refuses, no
    git work tree, a plugin HEAD does not hold, uncommitted changes below the plugin
    or to a catalogue listing it, or a tag of that name already there. --push then
    runs git push REMOTE refs/tags/TAG. Exit 1 when refused or git failed."""
    result = plan_tag(path, os.environ)
    if result.plan is not None and not dry_run:
        result = create_tag(result.plan, os.environ, push=push, remote=remote)
    if as_json:
        out.print_json({**result.to_json(), "dry_run": dry_run}, result.diagnostics)
    else:
        _print(result, dry_run=dry_run, push=push, remote=remote)
    return OK if result.ok else PROBLEMS


def _print(result: TagResult, *, dry_run: bool, push: bool, remote: str) -> None:
    con = out.console()
    plan = result.plan
    if plan is not None:
        _plan(plan)
        if dry_run:
            out.say(f"Dry run: would create tag {plan.tag} at HEAD")
        elif result.created:
            out.say(f"Created tag {plan.tag}")
        if result.pushed:
            out.say(f"Pushed to {remote}")
        elif not push or dry_run:
            out.say(f"  push with: {_push_command(plan, remote)}")
    if result.diagnostics:
        out.diagnostic_report(con, result.diagnostics)


def _plan(plan: TagPlan) -> None:
    out.say(f"Plugin:  {plan.name}")
    out.say(f"Version: {plan.version} (from {plan.version_from})")
    for catalogue in plan.catalogues:
        out.say(f"Listed:  {catalogue}")
    out.say(f"Tag:     {plan.tag}")


def _push_command(plan: TagPlan, remote: str) -> str:
    return f"git push {shlex.quote(remote)} refs/tags/{plan.tag}"

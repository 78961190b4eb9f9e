"""`satchel policy export --to claude-code|codex`: the policy as a host's managed file
(`satchel.foundations.policy.to_claude_code`, `to_codex`), with what the host cannot express."""

from __future__ import annotations

from pathlib import Path

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, POLICY_CLOSED
from satchel.cli._params import Choice, json_option
from satchel.foundations.policy._export import Export
from satchel.foundations.policy._read import read_policy, read_policy_file
from satchel.hosts import PROFILES

PARAMS = (
    click.Option(
        ["--to", "target"],
        type=Choice([h.name for h in PROFILES.values() if h.policy_export is not None]),
        required=True,
        help="The host whose managed file to write: claude-code (managed-settings.json) "
        "or codex (requirements.toml).",
    ),
    click.Option(
        ["--policy", "source"],
        type=click.Path(dir_okay=False, path_type=Path),
        help="The policy.toml to export (default: the system's).",
    ),
    click.Option(
        ["--out", "output"],
        type=click.Path(dir_okay=False, path_type=Path),
        help="Write the file there (default: print it on stdout).",
    ),
    json_option(),
)


def run(*, target: str, source: Path | None, output: Path | None, as_json: bool) -> int:
    """Write the system's policy (or --policy FILE) as the host's managed file.

    The file goes to stdout, or to --out; what the host cannot express is listed on
    stderr, one line per key, and left out of the file rather than written looser.
    A policy that cannot be read is not exported (exit 4)."""
    policy, problems = read_policy() if source is None else read_policy_file(source)
    if policy.closed is not None:
        if as_json:
            out.print_json({"host": target, "written": None}, problems)
        else:
            out.console(stderr=True).print(out.diagnostic_grid(problems or (policy.closed,)))
        return POLICY_CLOSED
    export = PROFILES[target].policy_export
    assert export is not None  # --to offers only the hosts that have one
    made: Export = export(policy)
    if output is not None:
        output.write_text(made.text, encoding="utf-8")
    if as_json:
        data = {
            "host": made.host,
            "filename": made.filename,
            "text": made.text,
            "cannot": list(made.cannot),
            "written": None if output is None else str(output),
        }
        out.print_json(data, problems)
        return OK
    if output is None:
        click.echo(made.text, nl=False)
    else:
        out.say(f"Wrote {output} ({made.filename} for {made.host}).")
    err = out.console(stderr=True)
    if problems:
        err.print(out.diagnostic_grid(problems))
    if made.cannot:
        err.print(out.safe(f"{made.host} cannot express:"), soft_wrap=True)
        for line in made.cannot:
            err.print(out.safe(f"  {line}"), soft_wrap=True)
    return OK

"""`satchel publish PATH oci://REGISTRY/REPO[:TAG]`: push a skill or plugin to a registry."""

from __future__ import annotations

import os
from pathlib import Path

import click

from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._params import Choice, json_option
from satchel.install._errors import InstallError
from satchel.install._publish import publish
from satchel.install._settings import Settings

PARAMS = (
    click.Argument(["path"], type=click.Path(path_type=Path)),
    click.Argument(["target"]),
    click.Option(
        ["--layout"],
        type=Choice(("archive", "files")),
        default="archive",
        show_default=True,
        help="archive: one tar+gzip layer; files: one layer per file, titled with its path.",
    ),
    json_option(),
)


def run(*, path: Path, target: str, layout: str, as_json: bool) -> int:
    """Push the skill or plugin at PATH to an OCI registry and print its digest.

    TARGET is oci://REGISTRY/REPOSITORY[:TAG] (default tag latest); plain http is
    used only for a loopback registry. The directory must hold one skill (SKILL.md)
    or one plugin (its manifest) at its root, valid as satchel reads it. Credentials
    come from Docker's config.json ($DOCKER_CONFIG or ~/.docker), its auths,
    credHelpers and credsStore. `satchel install` takes the printed reference."""
    environ = dict(os.environ)
    try:
        done = publish(
            path, target, files=layout == "files", settings=Settings.from_env(environ),
            environ=environ,
        )  # fmt: skip
    except InstallError as e:
        return inst.refused(e, as_json=as_json)
    if as_json:
        out.print_json(done.to_json())
        return OK
    out.say(f"Published {done.kind} {done.name} to {done.reference}")
    out.say(f"digest {done.digest}")
    out.say(f"install with: satchel install {done.pinned}")
    return OK

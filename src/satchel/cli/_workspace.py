"""From the command line's location options to a `Layout` and an `Environment`."""

from __future__ import annotations

from pathlib import Path

from satchel.environment import Environment, load
from satchel.layout import Layout


def working_dir(directory: Path | None, project: Path | None) -> Path:
    """The positional DIR when given, else --project, else the current directory."""
    return directory or project or Path.cwd()


def layout(directory: Path | None, project: Path | None, home: Path | None, client: str) -> Layout:
    """satchel's default layout for these options."""
    cwd = working_dir(directory, project)
    return Layout.default(cwd, client=client, home=home, project=project)


def environment(
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    trust: bool | None = None,
) -> Environment:
    """Everything that loads for these options (`trust` None: as `satchel trust` recorded)."""
    return load(layout=layout(directory, project, home, client), trusted=trust)

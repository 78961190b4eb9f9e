"""From the command line's location options to a `Layout` and an `Environment`."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from satchel.assembly._environment import Environment, load
from satchel.cli._context import Here, profile
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import OWN_CLIENT, Layout, project_marker

if TYPE_CHECKING:
    from satchel.hosts import Host  # a profile is imported only when --host names one


def layout(
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    host: str | Host | None = None,
) -> Layout:
    """The layout for these options: satchel's, or that of the `host` profile named
    with ``--host`` (or found already); an explicit DIR holding a project marker is the
    project root, as `Layout.default` decides (docs/layout.md)."""
    cwd = directory or project
    if host is None:
        return Layout.default(cwd, client=client, home=home, project=project)
    found = profile(host, home)[0] if isinstance(host, str) else host
    return found.layout(cwd, home=home, project=project)


def environment(
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    trust: bool | None = None,
    plugin_dirs: tuple[Path, ...] = (),
    host: str | None = None,
    *,
    read_held: bool = False,
    model: str | None = None,
) -> Environment:
    """Everything that loads for these options (`trust` None: as `satchel trust`
    recorded; `host`: as that host profile reads the project; `read_held`: with what
    trust holds back read as declared, for a report that names it; `model`: the model
    whose window sizes the host's skill listing)."""
    here = Here.build(
        {
            "directory": directory,
            "project": project,
            "home": home,
            "client": client,
            "host": host,
            "trust": trust,
            "plugin_dirs": plugin_dirs,
        }
    )
    return loaded(here, read_held=read_held, model=model)


def loaded(here: Here, *, read_held: bool = False, model: str | None = None) -> Environment:
    """Everything that loads where `here` says (see `environment`); what was wrong in
    the user's host profiles comes first among its diagnostics."""
    lay = layout(here.directory, here.project, here.home, here.client, here.profile)
    env = load(
        layout=lay,
        host=here.profile,
        trusted=here.trust,
        plugin_dirs=here.plugin_dirs,
        read_held=read_held,
        model=model,
    )
    return with_problems(env, here)


def with_problems(env: Environment, here: Here) -> Environment:
    """`env` with what was wrong in the user's host profiles first among its
    diagnostics, as `load` puts them when it looks the profile up itself."""
    if not here.profile_problems:
        return env
    return replace(env, diagnostics=(*here.profile_problems, *env.diagnostics))


def model_problems(env: Environment) -> tuple[Diagnostic, ...]:
    """``host.model-unknown`` when the model asked for is not one the host knows."""
    if env.host is None:
        return ()
    return env.host.model(env.options.model).diagnostics(env.host.name)


def why_project(lay: Layout, *, given: bool) -> str:
    """Why `lay.project` is the project root, in a few words."""
    if given:
        return "--project"
    if os.path.lexists(lay.project / ".git"):
        return "git root"
    marker = project_marker(lay.project, lay.client)
    if marker is not None and lay.cwd.is_relative_to(lay.project):
        return f"holds {marker}"
    return "no git root above"


def project_line(lay: Layout, *, given: bool) -> str:
    """The first line of every human-readable report: the project root and why."""
    return f"project: {lay.project} ({why_project(lay, given=given)})"


def say_project(lay: Layout, project: Path | None) -> None:
    """Print the project line (`project_line`): every human-readable report opens so
    on a terminal; into a pipe it goes to stderr (`satchel.cli._output.note`)."""
    from satchel.cli._output import note

    note(project_line(lay, given=project is not None))


def trust_command(lay: Layout) -> str:
    """The command that trusts `lay`'s project: ``satchel trust DIR [--home H]``."""
    import shlex

    from satchel.cli._output import shown

    command = f"satchel trust {shlex.quote(shown(lay.project))}"
    if lay.home != Path.home():
        command += f" --home {shlex.quote(shown(lay.home))}"
    if lay.client != OWN_CLIENT:
        command += f" --client {lay.client}"
    return command

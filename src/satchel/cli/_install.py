"""What the install verbs share: their options, the context they build, progress
bars for downloads, and how a refusal is reported."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import click

from satchel.cli import _output as out
from satchel.cli._params import Choice
from satchel.diagnostics import Diagnostic
from satchel.install._credentials import read_credentials
from satchel.install._errors import InstallError
from satchel.install._installer import Context
from satchel.install._scope import FAMILIES, SCOPES
from satchel.install._settings import ENV, Settings
from satchel.layout import Layout

if TYPE_CHECKING:
    from rich.progress import Progress

ENDPOINTS = {
    "github_url": ("--github-url", "GitHub's web and git base URL"),
    "github_api_url": ("--github-api-url", "GitHub's API base URL"),
    "skills_sh_url": ("--skills-sh-url", "The skills.sh base URL"),
    "npm_registry_url": ("--npm-registry", "The npm registry base URL"),
}


class Endpoints(TypedDict):
    """The base URL options a verb's `**endpoints` receives (None: not given)."""

    github_url: str | None
    github_api_url: str | None
    skills_sh_url: str | None
    npm_registry_url: str | None


def scope_option() -> click.Option:
    return click.Option(
        ["--scope"],
        type=Choice(SCOPES),
        default="project",
        show_default=True,
        help="project: <project>/.<client>/...; user: the user's directories.",
    )


def family_option() -> click.Option:
    return click.Option(
        ["--family"],
        type=Choice(FAMILIES),
        default="satchel",
        show_default=True,
        help="Whose directory: .<client>/skills, .agents/skills (every agent) or .claude/skills.",
    )


def trust_root_option() -> click.Option:
    return click.Option(
        ["--trust-root"],
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        metavar="PATH",
        help=(
            "The Sigstore trusted_root.json signatures are checked against "
            "(env SATCHEL_SIGSTORE_TRUST_ROOT; default: the one sigstore ships)."
        ),
    )


def force_option(what: str) -> click.Option:
    return click.Option(["--force"], is_flag=True, help=what)


def endpoint_options() -> tuple[click.Option, ...]:
    """The base URLs, each defaulting to its environment variable, then satchel's default."""
    defaults = Settings()
    return tuple(
        click.Option(
            [flag, name],
            default=None,
            metavar="URL",
            help=f"{text} (env {ENV[name]}; default {getattr(defaults, name)}).",
        )
        for name, (flag, text) in ENDPOINTS.items()
    )


def context(
    project: Path | None,
    home: Path | None,
    client: str,
    *,
    as_json: bool,
    endpoints: Endpoints | None = None,
) -> Context:
    """The install context for the location options and base URLs given."""
    environ = dict(os.environ)
    layout = Layout.default(client=client, home=home, project=project)  # the cwd rule
    overrides: Mapping[str, object] = endpoints or {}
    auth, _problems = read_credentials(layout, environ)  # a bad entry refuses when used
    settings = Settings.from_env(environ, **overrides, auth=auth)
    progress = None if as_json else _bar_callback()
    return Context(layout, settings, environ, progress)


def refused(e: InstallError, *, as_json: bool) -> int:
    """Report a refusal: its code, message and hint."""
    d = e.diagnostic
    message = d.message + (
        f" ({d.path})" if d.path is not None and str(d.path) not in d.message else ""
    )
    suggestions = [d.hint] if d.hint else []
    if as_json:
        return out.fail(d.code, message, as_json=True, diagnostics=[d], suggestions=suggestions)
    code = out.fail(d.code, message, as_json=False)
    if d.hint:
        out.console(stderr=True).print(out.safe(f"hint: {d.hint}"), soft_wrap=True)
    return code


def warnings(found: Sequence[Diagnostic]) -> None:
    """Warnings an action gave, below its output."""
    if found:
        con = out.console()
        con.print()
        con.print(out.diagnostic_grid(found))


def short(value: str | None) -> str:
    """A commit shown by its first 12 characters, an OCI digest by ``sha256:`` and its
    first 12; versions and None as they are."""
    if value is None:
        return "-"
    if value.startswith("sha256:"):
        return value[:19]
    return value[:12] if len(value) >= 40 else value


@contextmanager
def progress_shown(ctx: Context) -> Iterator[None]:
    """Stop the download bar of `ctx` (if one was drawn) when the block ends."""
    try:
        yield
    finally:
        if isinstance(ctx.progress, DownloadBar):
            ctx.progress.close()


class DownloadBar:
    """Download progress on stderr, drawn once the first bytes arrive."""

    def __init__(self) -> None:
        self._bar: Progress | None = None
        self._tasks: dict[str, Any] = {}

    def __call__(self, what: str, done: int, total: int | None) -> None:
        if self._bar is None:
            from rich.progress import DownloadColumn, Progress, TextColumn, TransferSpeedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                DownloadColumn(),
                TransferSpeedColumn(),
                console=out.console(stderr=True),
                transient=True,
            )
            self._bar.start()
        if what not in self._tasks:
            self._tasks[what] = self._bar.add_task(out.safe(what).plain, total=total)
        self._bar.update(self._tasks[what], completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _bar_callback() -> Callable[[str, int, int | None], None] | None:
    """A progress bar on stderr when it is a terminal, else nothing."""
    return DownloadBar() if sys.stderr.isatty() else None

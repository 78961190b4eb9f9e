"""Another verb over the same project as this run: the hints that say "run `satchel
doctor`" name it with the scope options given here (DIR, --project, --home, --client,
--host, --trust/--no-trust, --plugin-dir), so it reads what this run read."""

from __future__ import annotations

import os
import shlex

import click

# The positional parameters that name the directory a verb reads, and the location
# options every verb that loads a project takes (cli._params.located).
_PLACES = ("directory", "path")
_OPTIONS = {
    "project": "--project",
    "home": "--home",
    "client": "--client",
    "host": "--host",
    "plugin_dirs": "--plugin-dir",
}


def again(verb: str) -> str:
    """``satchel VERB`` with this run's scope options, as they were given."""
    return shlex.join(["satchel", *verb.split(), *scope_args()])


def scope_args() -> list[str]:
    """This run's scope options in the order `located()` lists them, only those given
    on the command line or by the environment (defaults say nothing)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return []
    args: list[str] = []
    for name in _PLACES:  # DIR, or the PATH of `audit` when it names a directory
        if _given(ctx, name) and os.path.isdir(ctx.params[name]):
            args.append(str(ctx.params[name]))
    for name, flag in _OPTIONS.items():
        if not _given(ctx, name):
            continue
        value = ctx.params[name]
        for one in value if isinstance(value, tuple) else (value,):
            args += [flag, str(one)]
    if _given(ctx, "trust"):
        args.append("--trust" if ctx.params["trust"] else "--no-trust")
    return args


_GIVEN = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)


def _given(ctx: click.Context, name: str) -> bool:
    return name in ctx.params and ctx.get_parameter_source(name) in _GIVEN

"""`satchel hooks`: every hook found, with its source, event, matcher and status."""

from __future__ import annotations

import click

from satchel.assembly._environment import Environment, load
from satchel.assembly._options import LoadOverrides
from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import (
    Shared,
    json_option,
    shared,
)
from satchel.cli._workspace import layout, say_project, with_problems
from satchel.hooks import Hook

COLUMNS = ("event", "matcher", "if", "source", "status", "hook")


def claude_settings_option() -> click.Option:
    return click.Option(
        ["--claude-settings"],
        is_flag=True,
        help="Also read hooks from Claude Code's settings.json files (project and user).",
    )


def hook_params() -> tuple[click.Parameter | Shared, ...]:
    """The options of `satchel hooks`, which `satchel hooks run` takes too."""
    return (
        shared("project", "home", "client", "host", "trust", "plugin_dirs"),
        claude_settings_option(),
        json_option(),
    )


PARAMS = hook_params()


def run(
    *,
    here: Here,
    claude_settings: bool,
    as_json: bool,
) -> int:
    """List every hook found, in declared order.

    Each with its event (satchel's name; the host's own in JSON), matcher, `if` rule, source
    (plugin:<name>, project, user, claude-project, claude-local, claude-user,
    codex-project, codex-user, and skill:<name>, agent:<name> for the hooks a skill or
    agent declares, which run while it is active) and status: loaded, or skipped and
    why. `satchel hooks run EVENT` fires one event by hand; `satchel doctor` shows every
    problem found."""
    env = hooks_environment(here, claude_settings, read_held=True)
    if as_json:
        document = {"project": str(env.layout.project), "trusted": env.trusted}
        out.print_json({**document, **env.every_hook().to_json()})
    else:
        say_project(env.layout, here.project)
        _print(env)
    return OK


def hooks_environment(here: Here, claude: bool, *, read_held: bool = False) -> Environment:
    """The environment the hooks verbs load (`claude`: with Claude Code's settings
    hooks, as the host profile reads them when one is named, else when asked;
    `read_held`: with what trust holds back listed, for `satchel hooks`); what was
    wrong in the user's host profiles comes first among its diagnostics."""
    found = here.profile
    options: LoadOverrides = {
        "trusted": here.trust,
        "plugin_dirs": here.plugin_dirs,
        "read_held": read_held,
    }
    if claude or found is None:
        options["claude_settings_hooks"] = claude
    lay = layout(None, here.project, here.home, here.client, found)
    return with_problems(load(layout=lay, host=found, **options), here)


def status(hook: Hook) -> str:
    return "loaded" if hook.loaded else f"skipped: {hook.why}"


def _print(env: Environment) -> None:
    con = out.console()
    found = env.every_hook()
    if not found.hooks:
        out.note(f"No hooks found; `{again('doctor')}` shows what did not load.")
    else:
        grid = out.table(*COLUMNS)
        for hook in found.hooks:
            condition = hook.spec.condition or "-"
            row = (
                hook.event,
                hook.spec.matcher or "*",
                condition,
                hook.source,
                status(hook),
                hook.name,
            )
            grid.add_row(*(out.safe(cell) for cell in row))
        con.print(grid)
        loaded = len(found.loaded())
        out.note(
            f"{out.count(len(found.hooks), 'hook')}: {loaded} loaded, "
            f"{len(found.hooks) - loaded} skipped"
        )
    if found.diagnostics:
        out.note(out.see_doctor(found.diagnostics, "hooks"))

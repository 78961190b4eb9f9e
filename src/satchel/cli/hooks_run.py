"""`satchel hooks run EVENT`: fire one event by hand, for authors debugging a hook."""

from __future__ import annotations

import json
from typing import Any

import click

from satchel.assembly._environment import Environment
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._workspace import say_project
from satchel.cli.hooks import hook_params, hooks_environment
from satchel.core._json import loads
from satchel.hooks import HookResult, Outcome
from satchel.hooks._events import CLAUDE_EVENTS, EVENTS, TOOL_EVENTS, VIBE_EVENTS, event_named
from satchel.runtime.hooks import MAX_TIMEOUT, HookRunner

PARAMS = (
    click.Argument(["event"]),
    click.Option(["--tool"], help="The tool name, for tool events (Bash, Write, mcp__x__y)."),
    click.Option(
        ["--input", "input_json"],
        help="A JSON object: the tool input with --tool, else the event's fields.",
    ),
    click.Option(
        ["--timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        help="Seconds for a hook that sets no timeout [Claude Code's default for its type: "
        "600 for command, http and mcp_tool, 30 for prompt, 60 for agent].",
    ),
    click.Option(
        ["--max-timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        help=f"The most seconds any hook may run, whatever it declares [{MAX_TIMEOUT:g}].",
    ),
    *hook_params(),
)


def run(
    *,
    event: str,
    tool: str | None,
    input_json: str | None,
    timeout: float | None,
    max_timeout: float | None,
    here: Here,
    claude_settings: bool,
    as_json: bool,
) -> int:
    """Fire EVENT at every matching hook and show what each answered.

    EVENT is satchel's name (before_tool_use, stop...) or a host's (PreToolUse,
    pre_tool). With --tool, --input is the tool's input object; otherwise it is the
    event's own fields (say '{"prompt": "hi"}'). Each hook's exit code, stdout and
    stderr are printed as they came, then the aggregate decision. Hooks really run:
    only in a trusted project do the project's hooks run. An event no host knows is
    a usage error, unless a hook file declares it."""
    payload = _payload(event_named(event), tool, _object(input_json))
    env = hooks_environment(here, claude_settings)
    _check_event(event, env)
    runner = HookRunner(env, timeout=timeout, max_timeout=max_timeout)
    outcome = runner.run(event, payload)
    if as_json:
        out.print_json({"project": str(env.layout.project), **outcome.to_json()})
    else:
        say_project(env.layout, here.project)
        _print(outcome)
    return OK


def _check_event(event: str, env: Environment) -> None:
    """A usage error naming the events, unless `event` is one a host or a hook file names."""
    known = {*EVENTS, *CLAUDE_EVENTS, *VIBE_EVENTS, *(h.event for h in env.hooks.hooks)}
    if event in known or event_named(event) in EVENTS:
        return
    declared = sorted({h.event for h in env.hooks.hooks} - set(EVENTS))
    also = f"; declared by a hook file: {', '.join(declared)}" if declared else ""
    raise click.UsageError(
        f"unknown event {event!r}: satchel's events are {', '.join(EVENTS)} (or a host's "
        f"name for one, as docs/hooks.md lists them: PreToolUse, pre_tool...){also}"
    )


def _object(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = loads(text)
    except ValueError as e:
        raise click.BadParameter(f"not JSON: {e}", param_hint="--input") from None
    if not isinstance(value, dict):
        raise click.BadParameter("must be a JSON object", param_hint="--input")
    return value


def _payload(event: str, tool: str | None, given: dict[str, Any]) -> dict[str, Any]:
    if tool is None and event not in TOOL_EVENTS:
        return given
    if tool is None:
        raise click.UsageError(f"{event} needs --tool NAME")
    return {"tool_name": tool, "tool_input": given}


def _print(outcome: Outcome) -> None:
    con = out.console()
    con.print(out.safe(f"Event {outcome.event}: {out.count(len(outcome.results), 'hook')} ran"))
    for result in outcome.results:
        con.print()
        _result(result)
    con.print()
    decision = out.safe(f"Decision: {outcome.behavior}", style="bold")
    con.print(decision)
    for label, value in _summary(outcome):
        con.print(out.safe(f"{label}: {value}"), soft_wrap=True)
    if outcome.diagnostics:
        con.print()
        out.diagnostic_report(con, outcome.diagnostics)


def _result(result: HookResult) -> None:
    con = out.console()
    con.print(out.safe(f"{result.hook.name}  ({result.hook.source})", style="bold"))
    code = "timed out" if result.timed_out else result.exit_code
    answer = result.decision or ("failed" if result.failed else "no opinion")
    con.print(out.safe(f"exit {code}, answer: {answer}"))
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        if text:
            con.print(f"{name}:")
            con.print(out.safe_block(text.rstrip("\n")))


def _summary(outcome: Outcome) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if outcome.reason:
        rows.append(("Reason", outcome.reason))
    if outcome.updated_input is not None:
        rows.append(("Updated input", json.dumps(dict(outcome.updated_input))))
    if outcome.additional_context:
        rows.append(("Context", outcome.additional_context))
    rows += [("System message", m) for m in outcome.system_messages]
    rows += [("Exports", f"{name}={value}") for name, value in outcome.exports.pairs]
    if outcome.stop:
        rows.append(("Continue", f"no ({outcome.stop_reason or 'no reason given'})"))
    return rows

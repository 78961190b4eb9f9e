"""`satchel expand PROMPT`: a prompt as `Session.expand` gives it; nothing is run."""

from __future__ import annotations

import sys
from typing import Literal

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded
from satchel.core._text import escape
from satchel.kinds.commands import Command
from satchel.session import Session
from satchel.session._expand import invocation

Matched = Literal["command", "skill"]
NO_MATCH = "satchel: no command or skill matched; the prompt is unchanged"

PARAMS = (
    click.Argument(["prompt"]),
    located(),
    click.Option(
        ["--skill-first"],
        is_flag=True,
        help="Resolve /NAME to a skill before a command of the same name.",
    ),
    click.Option(
        ["--zero-based"],
        is_flag=True,
        help="$0 is the first argument, as in Claude Code (default: $1 is).",
    ),
    json_option(),
)


def run(
    *,
    prompt: str,
    here: Here,
    skill_first: bool,
    zero_based: bool,
    as_json: bool,
) -> int:
    """Print PROMPT with its slash command or skill expanded.

    "/name args" becomes the command's text with $ARGUMENTS, $1... filled in, or the
    skill's body (also "/skill name request"); a command wins over a skill of the
    same name unless --skill-first. Anything else prints unchanged (exit 0 too).
    Nothing is run: a skill's !`command` lines are left as a note, not executed."""
    env = loaded(here)
    session = Session(
        env,
        environ={},
        allow_shell_interpolation=False,
        slash_order="skill" if skill_first else "command",
        argument_numbering=0 if zero_based else 1,
    )
    target = _target(session, prompt)
    text = session.expand(prompt)
    if target is not None and text == prompt and session.diagnostics:
        problem = session.diagnostics[0]  # the file could not be read
        message = f"cannot read the {target[0]} /{target[1]}; the prompt is unchanged"
        return out.fail(problem.code, message, as_json=as_json, diagnostics=session.diagnostics)
    if as_json:
        kind, name = target if target is not None else (None, None)
        document = {"project": str(env.layout.project), "prompt": prompt, "expanded": text}
        out.print_json({**document, "matched": kind, "name": name}, session.diagnostics)
        return OK
    sys.stdout.write(_for_stdout(text))
    if target is None:
        out.console(stderr=True).print(NO_MATCH)
    return OK


def _target(session: Session, prompt: str) -> tuple[Matched, str] | None:
    """What `Session.expand` will expand `prompt` with (kind and name), or None when it
    leaves the prompt alone."""
    found = invocation(session.activation, prompt)
    if found is None:
        return None
    target = found[0]
    return ("command" if isinstance(target, Command) else "skill"), target.name


def _for_stdout(text: str) -> str:
    """The text as given, ending in a newline; escaped on a terminal only."""
    line = text if text.endswith("\n") else text + "\n"
    return escape(line) if sys.stdout.isatty() else line

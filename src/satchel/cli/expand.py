"""`satchel expand PROMPT`: a prompt as `Session.expand` gives it; nothing is run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

from satchel.cli import _output as out
from satchel.cli._exit import OK
from satchel.cli._workspace import environment
from satchel.errors import SkillsOff, UnknownSkill
from satchel.session import Session
from satchel.session.expand import parse_slash, user_invocable
from satchel.skills.model import Skill
from satchel.text import escape, fold_name

Matched = Literal["command", "skill"]
NO_MATCH = "satchel: no command or skill matched; the prompt is unchanged"


def expand(
    *,
    prompt: str,
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    skill_first: bool,
    zero_based: bool,
    as_json: bool,
) -> int:
    """Print PROMPT with its slash command or skill expanded.

    "/name args" becomes the command's text with $ARGUMENTS, $1... filled in, or the
    skill's body (also "/skill name request"); a command wins over a skill of the
    same name unless --skill-first. Anything else prints unchanged (exit 0 too).
    Nothing is run: a skill's !`command` lines are left as a note, not executed."""
    env = environment(directory, project, home, client)
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
        out.print_json({"prompt": prompt, "expanded": text, "matched": kind, "name": name})
        return OK
    sys.stdout.write(_for_stdout(text))
    if target is None:
        out.console(stderr=True).print(NO_MATCH)
    return OK


def _target(session: Session, prompt: str) -> tuple[Matched, str] | None:
    """What `Session.expand` will expand `prompt` with, by the same rules (see
    `satchel.session.expand`), or None when it leaves the prompt alone."""
    parsed = parse_slash(prompt)
    if parsed is None:
        return None
    name, rest = parsed
    if name == "skill" and rest:
        inner = parse_slash("/" + rest)
        skill = _skill(session, inner[0]) if inner else None
        if skill is not None:
            return "skill", skill.name
    commands = session.environment.commands
    if fold_name(name) in {fold_name(b) for b in commands.builtins}:
        return None
    order: tuple[Matched, Matched] = ("command", "skill")
    for kind in reversed(order) if session.options.slash_order == "skill" else order:
        if kind == "command" and (command := commands.find(name)) is not None:
            return "command", command.name
        if kind == "skill" and (skill := _skill(session, name)) is not None:
            return "skill", skill.name
    return None


def _skill(session: Session, name: str) -> Skill | None:
    try:
        skill = session.find(name)
    except (UnknownSkill, SkillsOff):
        return None
    return skill if user_invocable(skill) else None


def _for_stdout(text: str) -> str:
    """The text as given, ending in a newline; escaped on a terminal only."""
    line = text if text.endswith("\n") else text + "\n"
    return escape(line) if sys.stdout.isatty() else line

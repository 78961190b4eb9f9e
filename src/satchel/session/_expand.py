"""Explicit invocation (mermaid, zidane and caveman): the one entry point for slash prompts.

* ``/skill <name> <request>`` addresses a skill.
* ``/<name> <request>`` resolves a command first, then a skill (caveman), or the
  skill first (zidane) with ``slash_order="skill"``.
* A host's built-in command, and anything that matches nothing, comes back unchanged.
* Stacked skills, ``/a /b request`` (Claude Code 2.1.199: up to 5 load together),
  load each skill in turn, each with the request as its arguments.
* Before expanding, ``user_prompt_expansion`` hooks run (`satchel.session._fire`): a
  block leaves the prompt as typed, a hook's context follows the expanded prompt.

A skill's whole body goes in the prompt inside ``<agent-skill name="...">`` and the
skill becomes active; its placeholders are filled from the request
(`satchel.session._substitute`), and the request follows the wrapper unless one was
filled. A ``context: fork`` skill runs as a subagent and its result takes the place of
the body. A command's body is expanded (``$ARGUMENTS``, ``$1``...) and
submitted as the prompt; a plugin command's inside ``<agent-plugin-command>``
(caveman; `wrap_commands` says which). Nothing in a command runs: ``!`` lines and
``@`` references reach the model as written (mermaid).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import satchel.session._content as content
import satchel.session._fire as fire
from satchel.core._text import flag
from satchel.core.diagnostics import Diagnostic
from satchel.core.errors import BodyError, ForkFailed, ForkUnavailable, SkillsOff, UnknownSkill
from satchel.foundations.precedence import fold_name
from satchel.kinds.commands import Command, wrap_command
from satchel.session._fork import is_fork
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from satchel.session._activation import Activation
    from satchel.session._hooks import SessionHooks

__all__ = ["expand", "invocation", "parse_slash", "user_invocable"]

_SLASH = re.compile(r"\A\s*/([^\s/]+)(?:\s+|\Z)(.*)\Z", re.S)


def parse_slash(prompt: str) -> tuple[str, str] | None:
    """(name, rest) for a prompt that starts with ``/name``; None otherwise."""
    found = _SLASH.match(prompt)
    if found is None:
        return None
    return found.group(1), found.group(2).strip()


def user_invocable(skill: Skill) -> bool:
    """False when the skill says ``user-invocable: false`` (Claude Code: model-only)."""
    return flag(skill.extras.get("user-invocable"), True) is not False


Expanded = tuple[str, tuple[Diagnostic, ...]]


def expand(activation: Activation, hooks: SessionHooks, prompt: str) -> Expanded:
    """`prompt` with an explicit skill or command invocation expanded, else unchanged,
    and what went wrong (a body that could not be read leaves the prompt as it is);
    `hooks` fire ``user_prompt_expansion`` first."""
    found = invocation(activation, prompt)
    if found is None:
        return prompt, ()
    target, rest = found
    name = target.name
    outcome = hooks.fire("user_prompt_expansion", fire.expansion(target, name, rest, prompt))
    if outcome is not None and outcome.behavior == "deny":
        return prompt, (fire.blocked_expansion(name, outcome),)
    if isinstance(target, Command):
        text, problems = _inline_command(activation, target, rest, prompt)
    else:
        text, problems = _inline_skill(activation, target, rest, prompt)
    context = outcome.additional_context if outcome is not None else None
    return (f"{text}\n\n{context}" if context and not problems else text), problems


def invocation(activation: Activation, prompt: str) -> tuple[Command | Skill, str] | None:
    """The command or skill `expand` expands `prompt` with, and the rest; None for none."""
    parsed = parse_slash(prompt)
    if parsed is None:
        return None
    name, rest = parsed
    if fold_name(name) == "skill" and rest:
        target = parse_slash("/" + rest)
        skill = _skill(activation, target[0]) if target else None
        if skill is not None and target is not None:
            return skill, target[1]
    commands = activation.environment.commands
    if fold_name(name) in {fold_name(b) for b in commands.builtins}:
        return None  # the host's own command
    for kind in _order(activation):
        if kind == "command" and (command := commands.find(name)) is not None:
            return command, rest
        if kind == "skill" and (skill := _skill(activation, name)) is not None:
            return skill, rest
    return None


def _order(activation: Activation) -> tuple[str, str]:
    return (
        ("skill", "command") if activation.options.slash_order == "skill" else ("command", "skill")
    )


def _skill(activation: Activation, name: str) -> Skill | None:
    try:
        skill = activation.find(name)
    except (UnknownSkill, SkillsOff):
        return None
    return skill if user_invocable(skill) else None


MAX_STACKED = 5  # Claude Code 2.1.199


def _inline_skill(activation: Activation, skill: Skill, request: str, prompt: str) -> Expanded:
    skills, request = _stacked(activation, skill, request)
    parts: list[str] = []
    appended = False
    for one in skills:
        fill = activation.filler(one, request)
        try:
            body = activation.enter(one, "explicit", shape="body", filler=fill)
        except (BodyError, ForkUnavailable, ForkFailed) as e:
            return prompt, (e.diagnostic,)
        if is_fork(one):
            parts.append(body)
            appended = appended or bool(request)
            continue
        appended = appended or fill.filled
        parts.append(_wrapped(one, body))
    text = "\n\n".join(parts)
    return (f"{text}\n\n{request}" if request and not appended else text), ()


def _stacked(activation: Activation, first: Skill, request: str) -> tuple[list[Skill], str]:
    """The skills of ``/a /b request`` (at most `MAX_STACKED`) and the request."""
    skills = [first]
    while len(skills) < MAX_STACKED and (parsed := parse_slash(request)) is not None:
        more = _skill(activation, parsed[0])
        if more is None or more in skills:
            break
        skills.append(more)
        request = parsed[1]
    return skills, request


def _wrapped(skill: Skill, body: str) -> str:
    lines = [f"<agent-skill name={content.attribute(skill.name)}>", body]
    if skill.directory is not None:
        lines += ["", f"Skill directory: {skill.directory}"]
    lines.append("</agent-skill>")
    return "\n".join(lines)


def _inline_command(
    activation: Activation, command: Command, arguments: str, prompt: str
) -> Expanded:
    try:
        expanded = command.expand(arguments, numbering=activation.options.argument_numbering)
    except BodyError as e:
        return prompt, (e.diagnostic,)
    wrap = activation.options.wrap_commands
    if wrap == "all" or (wrap == "plugin" and command.plugin is not None):
        return wrap_command(command, expanded), ()
    return expanded, ()

"""``completion/complete`` for `satchel serve`: what a client may offer while its user
types a prompt's arguments or a skill file's URI.

* A prompt (a slash command): the alternatives its ``argument-hint`` writes for the
  argument, ``[patch|minor|major]`` or ``<staging|production>``, the n-th bracket
  for the n-th argument. For a command whose hint is not a list of names (one
  ``arguments`` argument, the whole text), the word being typed is completed from
  the bracket at its position and the words before it are kept.
* The ``skill://{skill}/{+path}`` template: ``skill`` from the skills the model may
  see, ``path`` from the files of the skill the client already chose (its
  ``context.arguments``), as ``resources/list`` lists them.

Values start with what was typed (case-sensitive, as a prefix), in the order written;
at most `MAX_VALUES` (the protocol's limit), with the total and ``hasMore``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from satchel.server._map import ARGUMENTS, PromptShape

__all__ = ["MAX_VALUES", "argument_values", "hint_choices", "matching", "prompt_values"]

MAX_VALUES = 100
_GROUP = re.compile(r"\[([^\[\]]*)\]|<([^<>]*)>")


def hint_choices(hint: str | None) -> tuple[tuple[str, ...], ...]:
    """The alternatives each bracket of `hint` writes, in order (() for a bracket
    that names one thing)."""
    groups = []
    for found in _GROUP.finditer(hint or ""):
        inside = (found.group(1) if found.group(1) is not None else found.group(2)).strip()
        parts = tuple(p.strip() for p in inside.split("|")) if "|" in inside else ()
        groups.append(tuple(p for p in parts if p and " " not in p))
    return tuple(groups)


def prompt_values(shape: PromptShape, argument: str, typed: str) -> list[str]:
    """What the prompt's `argument` may be, given what was `typed` of it."""
    choices = hint_choices(shape.hint)
    if shape.free and argument == ARGUMENTS:
        before, _, word = typed.rpartition(" ")
        position = len(before.split()) if before.strip() else 0
        found = choices[position] if position < len(choices) else ()
        lead = f"{before} " if before else ""
        return [lead + c for c in matching(found, word)]
    if argument not in shape.names:
        return []
    index = shape.names.index(argument)
    return matching(choices[index] if index < len(choices) else (), typed)


def argument_values(
    argument: str,
    typed: str,
    skills: Sequence[str],
    files: Callable[[str], Iterable[str]],
    context: Mapping[str, str],
) -> list[str]:
    """What the skill file template's `argument` may be: `skills` are the names the
    model may see; `files` lists one skill's files, asked only for ``path``."""
    if argument == "skill":
        return matching(skills, typed)
    if argument == "path":
        chosen = context.get("skill")
        if chosen is None or chosen not in skills:
            return []
        return matching(files(chosen), typed)
    return []


def matching(candidates: Iterable[str], typed: str) -> list[str]:
    """The `candidates` that start with `typed`, once each, in order."""
    return list(dict.fromkeys(c for c in candidates if c.startswith(typed)))

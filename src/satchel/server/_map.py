"""How `satchel serve` names things over MCP: skill file URIs and prompt arguments.

Pure functions, no MCP SDK: the server (`satchel.server._serve`) builds its MCP values
from these.

* A skill file is ``skill://<name>/<path>``: the skill name and each path segment
  percent-encoded (a plugin skill ``tools:lint`` is ``skill://tools%3Alint/...``, so
  its colon is never read as a port). A URI is decoded before its path is judged, so
  ``skill://x/%2e%2e/y`` is the ``..`` it spells and is refused as one.
* A slash command's arguments come from its ``argument-hint``. A hint made only of
  bracketed names (``[env] [region]``, ``<file>``, a last ``[files...]``) gives one
  prompt argument per name, in order, and the values are joined back into the text
  typed after ``/name`` (quoted where a value holds blanks or quotes, so ``$1`` ..
  ``$9`` see one word each; a last ``...`` name takes its value as typed). Any other
  hint, or none, gives one argument, ``arguments``: the whole text after ``/name``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote as _pct
from urllib.parse import unquote

from satchel.core._model import model
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import Refused
from satchel.kinds.commands import Command
from satchel.kinds.resources import quote

__all__ = [
    "ARGUMENTS",
    "SCHEME",
    "PromptShape",
    "argument_text",
    "parse_skill_uri",
    "prompt_shape",
    "skill_uri",
]

SCHEME = "skill://"
ARGUMENTS = "arguments"  # the one argument of a command whose hint names no words
MAX_WORDS = 9  # $1 .. $9
_WORD = re.compile(r"\[([A-Za-z][\w-]{0,63})(\.\.\.|…)?\]|<([A-Za-z][\w-]{0,63})>")
_PLAIN = re.compile(r"[^\s'\"\\]+")


def skill_uri(name: str, path: str) -> str:
    """The URI of the file `path` (POSIX, relative) of the skill `name`."""
    segments = "/".join(_pct(s, safe="") for s in path.split("/"))
    return f"{SCHEME}{_pct(name, safe='')}/{segments}"


def parse_skill_uri(uri: str) -> tuple[str, str]:
    """(skill name, relative path) of a ``skill://`` URI, decoded; `Refused` with
    ``mcp.serve.uri.invalid`` when it is not one. The path is not judged here:
    `satchel.kinds.resources` does that when it is read."""
    if not uri.startswith(SCHEME):
        raise _bad_uri(uri, f"a skill file URI starts with {SCHEME}")
    name, slash, path = uri[len(SCHEME) :].partition("/")
    if not slash or not name:
        raise _bad_uri(uri, f"a skill file URI has the form {SCHEME}<skill>/<path>")
    try:
        return unquote(name, errors="strict"), unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise _bad_uri(uri, "its percent-escapes are not UTF-8") from None


def _bad_uri(uri: str, why: str) -> Refused:
    return Refused(diagnostic("mcp.serve.uri.invalid", f"{quote(uri)} is not a skill file: {why}"))


@model
class PromptShape:
    """The MCP arguments of one command: names in order, whether each is required
    (``<name>``), and whether the last takes the rest of the text (``[name...]``)."""

    names: tuple[str, ...]
    required: tuple[bool, ...]
    variadic: bool = False
    hint: str | None = None
    free: bool = False  # the one `arguments` argument: the whole text, as typed


def prompt_shape(command: Command) -> PromptShape:
    """The MCP arguments `command` takes, read from its ``argument-hint``."""
    hint = " ".join((command.argument_hint or "").split())
    words = hint.split(" ") if hint else []
    names: list[str] = []
    required: list[bool] = []
    variadic = False
    for i, word in enumerate(words):
        found = _WORD.fullmatch(word)
        if found is None or (found.group(2) and i != len(words) - 1):
            return _free(hint)
        names.append(found.group(1) or found.group(3))
        required.append(found.group(3) is not None)
        variadic = bool(found.group(2))
    if not names or len(names) > MAX_WORDS or len(set(names)) != len(names):
        return _free(hint)
    return PromptShape(tuple(names), tuple(required), variadic, hint)


def _free(hint: str) -> PromptShape:
    return PromptShape((ARGUMENTS,), (False,), False, hint or None, free=True)


def argument_text(name: str, shape: PromptShape, given: Mapping[str, str] | None) -> str:
    """The text typed after ``/name`` for the MCP arguments `given`; `Refused` with
    ``mcp.serve.prompt.arguments`` for a name the prompt does not take or a
    required one left out."""
    values = dict(given or {})
    unknown = sorted(set(values) - set(shape.names))
    if unknown:
        takes = ", ".join(shape.names)
        message = f"/{name} takes no argument {', '.join(map(repr, unknown))} (it takes: {takes})"
        raise Refused(diagnostic("mcp.serve.prompt.arguments", message))
    missing = [n for n, needed in zip(shape.names, shape.required, strict=True) if needed]
    missing = [n for n in missing if not values.get(n)]
    if missing:
        message = f"/{name} needs the argument(s) {', '.join(map(repr, missing))}"
        raise Refused(diagnostic("mcp.serve.prompt.arguments", message))
    if shape.free:
        return values.get(ARGUMENTS, "").strip()
    words = [values.get(n, "") for n in shape.names]
    while words and not words[-1]:
        words.pop()
    last = len(shape.names) - 1
    return " ".join(w if (shape.variadic and i == last) else _word(w) for i, w in enumerate(words))


def _word(value: str) -> str:
    """`value` as one shell-like word for `satchel.kinds.commands.split_arguments`."""
    if _PLAIN.fullmatch(value):
        return value
    if "'" not in value:
        return f"'{value}'"
    return '"' + re.sub(r'(["\\$`])', r"\\\1", value) + '"'

"""The `Command` value: one slash command, where it came from, and a lazy body.

A command is a file (``commands/**/*.md``), text the host defines in code, or a
dynamic command whose `render` builds the prompt from the raw argument string (MCP
prompts, ``/mcp__<server>__<prompt>``, are commands of scope ``mcp`` of that kind).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._files import FileProblem
from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import CommandBodyError
from satchel.foundations import frontmatter
from satchel.foundations.origin import Origin, Originated
from satchel.hosts._vocabulary import Naming
from satchel.kinds.commands._arguments import Numbering, expand_arguments, expand_gemini
from satchel.kinds.commands._files import MAX_COMMAND_FILE, read_command_file

__all__ = [
    "MAX_COMMAND_FILE",
    "Command",
    "CommandBodyError",
    "Naming",
    "Syntax",
    "body_start",
]

SCOPES = ("project", "user", "plugin", "builtin", "mcp")

Syntax = Literal["markdown", "toml"]  # $ARGUMENTS and $1, or a TOML command's {{args}}

_EMPTY: Mapping[str, Any] = MappingProxyType({})
BUILTIN = Origin("builtin")  # a command the host defines in code


@model(eq=False)
class Command(Originated):
    """One slash command. Metadata is read at discovery; the body when asked for.

    `name` is the canonical name typed after ``/``. `origin` is where it came from:
    its `scope` is ``project``, ``user``, ``plugin``, ``builtin`` (defined by the host
    in code) or ``mcp``; its `family` the root's tool family (``.satchel``,
    ``.claude``, ...), its `namespace` the `plugin` names are qualified with (the
    plugin's namespace: ``<plugin>:<name>``). `group` the subdirectory
    inside the root (``""``, ``"frontend"``, ``"a/b"``). `aliases` are other names
    that reach it (``frontend:component``). The body comes from `text` when set, else
    from `path`; `render`, when set, builds the whole prompt from the raw arguments.

    `syntax` says how the arguments fill the body: ``markdown`` (``$ARGUMENTS``,
    ``$1``...: `expand_arguments`) or ``toml`` (a TOML command's ``{{args}}``, ``!{...}``
    and ``@{...}``, as Gemini CLI reads them: `expand_gemini`; its prompt is read at
    discovery and held in `text`).

    `_inside` (set by discovery, not compared or shown) is the root a file command
    must stay inside when its body is read; None lets a symlinked file point anywhere
    (a user's command, a host's).
    """

    name: str
    description: str = ""
    argument_hint: str | None = None
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    disable_model_invocation: bool = False
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    path: Path | None = None
    origin: Origin = BUILTIN
    group: str = ""
    aliases: tuple[str, ...] = ()
    text: str | None = None
    render: Callable[[str], str] | None = None
    syntax: Syntax = "markdown"
    _inside: Path | None = field(default=None, repr=False, compare=False)

    @property
    def plugin(self) -> str | None:
        """The namespace of the plugin that ships it (None for any other command): a
        command is typed ``/<namespace>:<name>``, so its plugin is named as it is typed."""
        return self.origin.namespace

    @property
    def tag(self) -> str:
        """How listings tag the command: ``(project)``, ``(user)``, ``(plugin:<name>)``,
        ``(builtin)`` or ``(mcp)``."""
        if self.scope == "plugin" and self.plugin:
            return f"(plugin:{self.plugin})"
        return f"({self.scope})" if self.scope else ""

    def body(self) -> str:
        """The prompt text, read now (the whole file after any frontmatter), under the
        symlink rule discovery applied. Raise `CommandBodyError` when the file cannot
        be read."""
        if self.text is not None:
            return self.text
        if self.path is None:
            return ""
        try:
            data = read_command_file(self.path, self._inside)
        except FileProblem as e:
            message = f"cannot read the body: {e.message}"
            raise CommandBodyError(diagnostic("command.read.error", message, self.path)) from None
        problem = frontmatter.check_text(data, 0, self.path)
        if problem is not None:
            raise CommandBodyError(problem)
        return frontmatter.decode_body(data, body_start(data, complete=True))

    def expand(self, arguments: str = "", *, numbering: Numbering = 1) -> str:
        """The prompt for ``/name arguments``: `render` when set, else the body with
        its placeholders filled (see `expand_arguments`)."""
        if self.render is not None:
            return self.render(arguments)
        if self.syntax == "toml":
            return expand_gemini(self.body(), arguments, self._typed())
        return expand_arguments(self.body(), arguments, numbering=numbering)

    def _typed(self) -> str:
        """The name a Gemini CLI user types: a plugin's command without its namespace
        (Gemini CLI names an extension's commands by their paths alone)."""
        prefix = f"{self.plugin}:" if self.plugin else ""
        return self.name.removeprefix(prefix) if prefix else self.name

    def to_json(self) -> dict[str, Any]:
        """The command as JSON-ready data, without the body."""
        return {
            "name": self.name,
            "description": self.description,
            "argument_hint": self.argument_hint,
            "allowed_tools": list(self.allowed_tools),
            "model": self.model,
            "disable_model_invocation": self.disable_model_invocation,
            "extras": jsonable(dict(self.extras)),
            "path": None if self.path is None else str(self.path),
            "scope": self.scope,
            "family": self.family,
            "group": self.group,
            "plugin": self.plugin,
            "aliases": list(self.aliases),
            "origin": self.tag,
            "dynamic": self.render is not None,
            "syntax": self.syntax,
        }


def body_start(data: bytes, *, complete: bool) -> int:
    """Where the body starts: after the closing fence when the frontmatter has both
    fences, else at the top of the file (a command may have no frontmatter)."""
    where = frontmatter.locate(data, complete=complete)
    if where.status == "ok":
        return where.body_start
    return len(frontmatter.BOM) if data.startswith(frontmatter.BOM) else 0

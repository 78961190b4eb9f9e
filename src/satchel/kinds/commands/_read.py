"""Read one command file: its frontmatter (if any) into a `Command`, never the rest.

* No frontmatter (the common case): the whole file is the body.
* Frontmatter that cannot be used at all (a YAML error, no closing fence): the
  command loads with empty metadata, as Claude Code does, and the frontmatter
  diagnostic is kept as a warning. With both fences the body starts after the
  closing one; without, the whole file is the body.
* A description is at most 1,024 characters: a longer ``description`` is cut to
  1,023 and ends with ``…``, silently (no diagnostic: the command is fine, only
  long). A missing or blank one defaults to the first non-empty line of the body,
  without leading ``#``s (a line of only dashes is passed over), cut to 1,024
  characters.
* Fields kept: ``description``, ``argument-hint`` (a YAML list such as ``[message]``
  was meant as text: each item is put back in brackets, ``[message]``),
  ``allowed-tools`` (string or list, blank- or comma-separated, as for skills),
  ``model``, ``disable-model-invocation`` (a boolean, or yes/no/on/off/true/false/1/0)
  and ``name`` (instead of the file stem; with `file_names`, Claude Code's rule for a
  plugin's commands, the path names the command and ``name`` goes to `extras`). Any
  other field goes to `extras`. A kept field of the wrong type is a
  ``frontmatter.field.type`` warning and is ignored.
* Bytes that are not UTF-8 (in what discovery reads: the frontmatter and the lines
  up to the default description) skip the file; `Command.body` checks the rest.

Only the head of the file is read: up to the closing fence, and further only to find
a default description. Files over 1 MiB are refused without being read. A symlinked
file must resolve inside its root unless it is not contained (`contain` False: user
commands may link into a dotfiles checkout); `Command.body` applies the same rule
again when it reads the file (see `satchel.kinds.commands._files`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import FileProblem
from satchel.core._model import model
from satchel.core._text import flag
from satchel.core.diagnostics import Diagnostic, diagnostic, recast, type_name
from satchel.foundations import frontmatter
from satchel.foundations.origin import NO_ORIGIN, Origin
from satchel.kinds.commands._files import MAX_COMMAND_FILE, open_command_file
from satchel.kinds.commands._model import Command, Naming, body_start
from satchel.kinds.commands._names import judge, segments_name
from satchel.skills._fields import split_tools

__all__ = ["SUFFIX", "read_command"]

SUFFIX = ".md"
MAX_DESCRIPTION = 1024
ELLIPSIS = "…"
HEAD = 4096
KEPT = frozenset(
    ("name", "description", "argument-hint", "allowed-tools", "model", "disable-model-invocation")
)
_UTF16 = (b"\xff\xfe", b"\xfe\xff")


@model
class _Where:
    """Where a command file was found: its origin (the root's scope and family, the
    plugin namespace its names are qualified with), the group (the subdirectory path
    inside the root), and the directory a symlinked file must stay inside (None:
    anywhere)."""

    origin: Origin = NO_ORIGIN
    group: str = ""
    inside: Path | None = None
    file_names: bool = False


def read_command(
    path: str | os.PathLike[str],
    *,
    origin: Origin = NO_ORIGIN,
    group: str = "",
    naming: Naming = "stem",
    inside: str | os.PathLike[str] | None = None,
    contain: bool = True,
    file_names: bool = False,
) -> tuple[Command | None, list[Diagnostic]]:
    """Read the command file at `path`; (None, why) when it cannot be used.

    `origin` is where it was found; a plugin's `namespace` there qualifies its names
    (``<namespace>:<name>``). `group` is its subdirectory path inside its root ("" for
    none). `file_names`: the
    group and the file stem name it, joined by ``:``, whatever its frontmatter ``name``
    says (Claude Code's rule for plugin commands). A symlinked file is
    read only when it resolves inside `inside` (default: the file's own directory);
    with `contain` False it may point anywhere. The command keeps that rule for
    `Command.body`. Never raises for a bad file.
    """
    file = Path(path)
    top = None if not contain else Path(inside) if inside is not None else file.parent
    where = _Where(origin, group, top, file_names)
    naming = "path" if file_names else naming
    try:
        fd, size = open_command_file(file, top)
    except FileProblem as e:
        return None, [_file_problem(e, file)]
    try:
        return _Reader(file, fd, size).build(where, naming)
    except FileProblem as e:
        return None, [_file_problem(e, file)]
    finally:
        os.close(fd)


class _Reader:
    """The head of one open file, read further only as far as needed."""

    def __init__(self, path: Path, fd: int, size: int) -> None:
        self.path = path
        self.fd = fd
        self.size = size
        self.data = b""
        self.complete = False
        self.diags: list[Diagnostic] = []
        self.more()

    def more(self) -> bool:
        """Read the next chunk; False at the end of the file."""
        if self.complete:
            return False
        try:
            chunk = os.read(self.fd, max(HEAD, len(self.data)))
        except OSError as e:
            raise FileProblem("os", e.strerror or str(e)) from None
        self.data += chunk
        self.complete = not chunk or len(self.data) >= self.size
        return bool(chunk)

    def build(self, where: _Where, naming: Naming) -> tuple[Command | None, list[Diagnostic]]:
        while self._head_open() and self.more():
            pass
        if self._bad_text():
            return None, self.diags
        fields = self._fields()
        description = self._description(fields)
        if description is None:
            description = self._first_line()
            if self._bad_text():  # the lines read to find it
                return None, self.diags
        return self._command(fields, description, where, naming), self.diags

    def _head_open(self) -> bool:
        """Whether the frontmatter may still end further on (read more to know)."""
        status = frontmatter.locate(self.data, complete=self.complete).status
        return status in ("more", "too-large")

    def _bad_text(self) -> bool:
        """Whether what was read (up to its last complete line) is not clean UTF-8."""
        end = len(self.data) if self.complete else self.data.rfind(b"\n") + 1
        problem = frontmatter.check_text(self.data[:end], 0, self.path)
        if problem is not None and self.data.startswith(_UTF16):
            problem = frontmatter.parse(self.data[:2], self.path).diagnostics[0]  # names it
        if problem is None:
            return False
        self.diags.append(problem)
        return True

    def _fields(self) -> Mapping[str, Any]:
        where = frontmatter.locate(self.data, complete=self.complete)
        if where.status == "missing":
            return {}
        parsed = frontmatter.parse(self.data, self.path, complete=self.complete)
        self.diags += [_as_warning(d) for d in parsed.diagnostics]
        return parsed.fields or {}

    def _description(self, fields: Mapping[str, Any]) -> str | None:
        value = fields.get("description")
        if isinstance(value, str) and value.strip():
            return _cap(value)
        if value is not None and not isinstance(value, str):
            self._type_error("description", value, "a string")
        return None

    def _first_line(self) -> str:
        """The first non-empty line of the body, reading on until it is complete."""
        pos = body_start(self.data, complete=self.complete)
        while True:
            newline = self.data.find(b"\n", pos)
            if newline < 0 and self.more():
                continue
            line = self.data[pos : len(self.data) if newline < 0 else newline]
            text = line.strip().lstrip(b"#").strip()
            if text and text.strip(b"-"):
                return text.decode("utf-8", "replace")[:MAX_DESCRIPTION]
            if newline < 0:
                return ""
            pos = newline + 1

    def _command(
        self, fields: Mapping[str, Any], description: str, where: _Where, naming: Naming
    ) -> Command | None:
        base = self._base_name(fields, where.file_names)
        if base is None:
            return None
        groups = where.group.split("/") if where.group else []
        aliases: tuple[str, ...] = ()
        if naming == "path":
            if not all(self._segment_ok(g, "directory") for g in groups):
                return None
            name = segments_name(*groups, base)
        else:
            name = base
            usable = groups and all(self._alias_ok(g, where.group) for g in groups)
            if usable:
                aliases = (segments_name(*groups, base),)
        namespace = where.origin.namespace
        if namespace:
            name = segments_name(namespace, name)
            aliases = tuple(segments_name(namespace, a) for a in aliases)
        return Command(
            name=name,
            description=description,
            argument_hint=self._argument_hint(fields),
            allowed_tools=self._allowed_tools(fields),
            model=self._string(fields, "model"),
            disable_model_invocation=self._flag(fields),
            extras=MappingProxyType(_extras(fields, where.file_names)),
            path=self.path,
            origin=where.origin,
            group=where.group,
            aliases=aliases,
            _inside=where.inside,
        )

    def _base_name(self, fields: Mapping[str, Any], file_names: bool) -> str | None:
        stem = self.path.name.removesuffix(SUFFIX)
        value = None if file_names else fields.get("name")
        if value is not None and not isinstance(value, str):
            self._type_error("name", value, "a string")
            value = None
        name = stem if value is None else value
        return name if self._segment_ok(name, "name") else None

    def _segment_ok(self, segment: str, what: str) -> bool:
        verdict = judge(segment)
        if verdict == "ok":
            return True
        label = "command name" if what == "name" else "directory name"
        if verdict == "warning":
            message = (
                f"the {label} {segment!r} breaks the [a-z0-9-]+ rule; the command loads, "
                "but lowercase letters, digits and hyphens are safest"
            )
            self.diags.append(diagnostic("command.name.invalid", message, self.path))
            return True
        message = f"the {label} {segment!r} cannot be typed after /; the command is skipped"
        self.diags.append(
            diagnostic(
                "command.name.invalid",
                message,
                self.path,
                severity="error",
                hint="use lowercase letters, digits and hyphens",
            )
        )
        return False

    def _alias_ok(self, segment: str, group: str) -> bool:
        if judge(segment) is not None:
            return True
        message = (
            f"the directory {group!r} cannot be typed after /, so the command has no "
            "group:name alias"
        )
        self.diags.append(diagnostic("command.name.invalid", message, self.path))
        return False

    def _type_error(self, key: str, value: object, expected: str) -> None:
        message = f"field `{key}` must be {expected}, not {type_name(value)}; it is ignored"
        self.diags.append(
            diagnostic("frontmatter.field.type", message, self.path, severity="warning")
        )

    def _string(self, fields: Mapping[str, Any], key: str) -> str | None:
        value = fields.get(key)
        if value is None or isinstance(value, str):
            return value
        self._type_error(key, value, "a string")
        return None

    def _argument_hint(self, fields: Mapping[str, Any]) -> str | None:
        value = fields.get("argument-hint")
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, list):  # `[message]` was meant as text: keep the brackets
            return " ".join(f"[{item}]" for item in _flatten(value))
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        self._type_error("argument-hint", value, "a string or a list")
        return None

    def _allowed_tools(self, fields: Mapping[str, Any]) -> tuple[str, ...]:
        value = fields.get("allowed-tools")
        if value is None:
            return ()
        if isinstance(value, str):
            return tuple(split_tools(value))
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(t for v in value for t in split_tools(v))
        self._type_error("allowed-tools", value, "a string or a list of strings")
        return ()

    def _flag(self, fields: Mapping[str, Any]) -> bool:
        key = "disable-model-invocation"
        value = fields.get(key)
        found = None if isinstance(value, float) else flag(value)  # 1.0 is not a flag here
        if found is None and value is not None:
            self._type_error(key, value, "true or false")
        return bool(found)


def _extras(fields: Mapping[str, Any], file_names: bool) -> dict[str, Any]:
    """The fields not kept (with `file_names`, ``name`` too: it names nothing)."""
    return {k: v for k, v in fields.items() if k not in KEPT or (file_names and k == "name")}


def _cap(description: str) -> str:
    """At most `MAX_DESCRIPTION` characters, the cut marked with an ellipsis."""
    if len(description) <= MAX_DESCRIPTION:
        return description
    return description[: MAX_DESCRIPTION - len(ELLIPSIS)] + ELLIPSIS


def _flatten(items: list[Any]) -> list[str]:
    out: list[str] = []
    for item in items:
        if isinstance(item, list):
            out += _flatten(item)
        elif item is not None:
            out.append(str(item))
    return out


def _as_warning(d: Diagnostic) -> Diagnostic:
    """Frontmatter problems do not stop a command from loading: at most warnings."""
    return d if d.severity != "error" else recast(d, "warning")


def _file_problem(e: FileProblem, path: Path) -> Diagnostic:
    if e.kind == "too-large":
        message = f"the file is {e.size} bytes; the limit is {MAX_COMMAND_FILE} (1 MiB)"
    else:
        message = f"cannot read the command file: {e.message}"
    return diagnostic("command.read.error", message, path)

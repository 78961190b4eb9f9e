"""The values: one instruction file that loaded, and when it applies."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path
from typing import Literal

from satchel.core._model import model
from satchel.hosts._vocabulary import InstructionKind
from satchel.kinds._instructions._globs import Style, matches

Scope = Literal["user", "project"]
Kind = InstructionKind
Applies = Literal["always", "globs", "description", "manual"]


@model
class Condition:
    """When a file applies. ``always``: in the prompt from the start. ``globs``: when
    the agent works on a path matching one of `globs` (relative to `base`, in the
    host's `style`). ``description``: the agent decides from `description` (Cursor's
    agent-requested rules). ``manual``: only when the user names it (``@rule``)."""

    applies: Applies = "always"
    globs: tuple[str, ...] = ()
    description: str | None = None
    base: Path | None = None
    style: Style = "glob"

    def matches(self, path: str | os.PathLike[str]) -> bool:
        """Whether this condition attaches its file when the agent touches `path`
        (absolute, or relative to `base`). Lexical: nothing is read from disk."""
        if self.applies == "always":
            return True
        if self.applies != "globs" or self.base is None:
            return False
        rel = _relative(Path(path), self.base)
        return rel is not None and matches(self.globs, rel, self.style)

    def to_json(self) -> dict[str, object]:
        return {
            "applies": self.applies,
            "globs": list(self.globs),
            "description": self.description,
            "base": None if self.base is None else str(self.base),
        }


ALWAYS = Condition()


@model
class InstructionFile:
    """One instruction file that loaded. `directory` is the folder it speaks for (the
    one above ``.claude/`` for ``.claude/CLAUDE.md``); `label` is how it is shown;
    `truncated` is true when the byte cap cut it; `condition` says when it applies
    (a rule's frontmatter is not part of `text`); `size`: the file's bytes as they are
    on disk (a BOM and CRLF line ends included, as a byte cap counts them), those kept
    when it was cut (None: not counted)."""

    path: Path
    scope: Scope
    kind: Kind
    directory: Path
    text: str
    label: str
    truncated: bool = False
    condition: Condition = field(default=ALWAYS)
    size: int | None = None

    @property
    def always(self) -> bool:
        """Whether it is in the prompt from the start."""
        return self.condition.applies == "always"

    def applies_to(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file applies while the agent works on `path`."""
        return self.condition.matches(path)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "path": str(self.path),
            "label": self.label,
            "scope": self.scope,
            "kind": self.kind,
            "directory": str(self.directory),
            "truncated": self.truncated,
            "text": self.text,
        }
        if not self.always:
            data["condition"] = self.condition.to_json()
        return data


def applies_to(
    files: Iterable[InstructionFile], path: str | os.PathLike[str]
) -> tuple[InstructionFile, ...]:
    """The conditional files (``globs``) that attach when the agent touches `path`, in
    load order; the always-on files are not repeated (they are in the prompt)."""
    return tuple(f for f in files if f.condition.applies == "globs" and f.applies_to(path))


def _relative(path: Path, base: Path) -> str | None:
    full = path if path.is_absolute() else base / path
    rel = os.path.relpath(os.path.normpath(full), os.path.normpath(base))
    if rel == "." or rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        return None
    return Path(rel).as_posix()

"""What one target gets, gathered while it is built: the files and the drops."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from satchel.core.diagnostics import diagnostic
from satchel.plugins._model import Plugin
from satchel.port._model import Drop, Kind
from satchel.port._targets import Target

__all__ = ["Plan", "relative"]


def relative(root: Path, path: Path | None) -> str | None:
    """`path` relative to the plugin `root`, POSIX-style (``.`` for the root); None
    when it is not below it (as given or resolved)."""
    if path is None:
        return None
    for base in (root, Path(os.path.realpath(root))):
        try:
            return path.relative_to(base).as_posix() or "."
        except ValueError:
            continue
    return None


@dataclass(slots=True)
class Plan:
    """The target being built for `plugin`: `files` (plugin-relative path -> text)
    and `drops`. `sources` are the files the source plugin reads its components from
    (plugin-relative): port never writes over one of them, but for `bases`: a file
    port adds to (path -> the bytes it held when read), written only while it still
    holds them. `owned` are the files port wrote (its record) that nobody changed."""

    plugin: Plugin
    target: Target
    sources: frozenset[str]
    files: dict[str, str] = field(default_factory=dict)
    drops: list[Drop] = field(default_factory=list)
    bases: dict[str, bytes] = field(default_factory=dict)
    owned: frozenset[str] = frozenset()

    def drop(
        self,
        kind: Kind,
        name: str,
        code: str,
        message: str,
        path: Path | None,
        *,
        to: str | None = None,
    ) -> None:
        """Record that the target does not get `name` (a `kind`), or gets it named
        `to`, and why."""
        where = path if path is not None else self.plugin.root
        found = diagnostic(code, f"{self.target.name}: {message}", where)
        self.drops.append(Drop(kind, name, found, to))

    def rel(self, path: Path | None) -> str | None:
        """`path` relative to the plugin root (`relative`)."""
        return relative(self.plugin.root, path)

    def taken(self, rel: str) -> bool:
        """Whether `rel` is one of the files the source reads (port never writes it)."""
        return rel in self.sources

    def add(self, rel: str, text: str) -> None:
        self.files[rel] = text

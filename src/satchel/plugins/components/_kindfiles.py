"""The files of one component kind under the paths a plugin gives for it: each path a
file or a directory, walked (or not) for the kind's suffixes, in name order.

Shared by output styles, themes and workflows. Walking reads no file; a file is read
later with `read_inside`, which keeps it inside the plugin root."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from satchel.foundations._contain import MAX_TREE_ENTRIES

__all__ = ["kind_files"]


def kind_files(
    paths: Iterable[Path], suffixes: tuple[str, ...], *, recursive: bool
) -> tuple[list[Path], list[Path]]:
    """The files ending in `suffixes` under `paths` (a file given by name is kept
    whatever its suffix), each once, and the paths that do not exist."""
    found: list[Path] = []
    missing: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            files = _walk(path, suffixes, recursive)
        elif path.is_file():
            files = [path]
        else:
            missing.append(path)
            continue
        for file in files:
            if file not in seen:
                seen.add(file)
                found.append(file)
    return found, missing


def _walk(directory: Path, suffixes: tuple[str, ...], recursive: bool) -> list[Path]:
    found: list[Path] = []
    count = 0
    for top, dirs, files in os.walk(directory):
        dirs[:] = sorted(dirs) if recursive else []
        for name in sorted(files):
            count += 1
            if count > MAX_TREE_ENTRIES:
                return found
            if name.endswith(suffixes):
                found.append(Path(top) / name)
    return found

"""The one tree writer the tests share: files, whole trees and SKILL.md texts, written
into the test's own temp dirs."""

from __future__ import annotations

import os
from collections.abc import Mapping
from os import PathLike
from pathlib import Path


def put(where: Path, *rest: str | bytes | PathLike[str], mode: int | None = None) -> Path:
    """``put(path, text)`` or ``put(root, rel, text)``: write `text` (a str as UTF-8, as
    is; bytes as given) at the path, parents made, then chmod it to `mode`; the path."""
    if len(rest) not in (1, 2):
        raise TypeError("put(path, text) or put(root, rel, text); mode is a keyword")
    *rel, text = rest
    if not isinstance(text, str | bytes):
        raise TypeError(f"put writes str or bytes, not {type(text).__name__}")
    path = where.joinpath(*rel)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    if mode is not None:
        os.chmod(path, mode)
    return path


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Every `rel: text` of `files` written below `root` (as `put` writes); the root."""
    for rel, text in files.items():
        put(root, rel, text)
    return root


def skill_md(
    name: str | None,
    description: str | None = "Does a thing.",
    body: str = "Body.\n",
    *,
    gap: bool = True,
    extra: str = "",
    **fields: str,
) -> str:
    """A SKILL.md as text: `name`, `description` (either left out when None) and `fields`
    as ``key: value`` lines, then `extra` as written, in the frontmatter; a blank line
    after it when `gap`; then `body`."""
    lines = [] if name is None else [f"name: {name}"]
    if description is not None:
        lines.append(f"description: {description}")
    lines += [f"{key}: {value}" for key, value in fields.items()]
    head = "".join(f"{line}\n" for line in lines) + extra
    if head and not head.endswith("\n"):
        head += "\n"
    return "---\n" + head + "---\n" + ("\n" if gap else "") + body


def write_skill(
    root: Path,
    dirname: str,
    text: str | bytes | None = None,
    *,
    filename: str = "SKILL.md",
    **fields: str,
) -> Path:
    """Write `root/dirname/filename` (SKILL.md unless given): `text`, or when it is None
    ``skill_md(name, **fields)`` named after the directory unless `fields` name it;
    the path."""
    if text is None:
        text = skill_md(fields.pop("name", dirname), **fields)  # type: ignore[arg-type]
    return put(root / dirname / filename, text)

"""Read one SKILL.md: the head only when discovering, the whole file when validating."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from satchel.core._files import FileProblem, link_target, open_regular_stat, read_bounded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations import frontmatter
from satchel.foundations.origin import NO_ORIGIN, Origin
from satchel.skills._fields import DEPRECATED, FieldRules, build_skill
from satchel.skills._model import MAX_SKILL_FILE, Skill

__all__ = ["SKILL_FILE", "Key", "parse_skill", "read_skill", "read_skill_keyed"]

SKILL_FILE = "SKILL.md"
HEAD = 4096
_HEAD_CAP = frontmatter.MAX_FRONTMATTER + 16

Key = tuple[int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns


def read_skill(
    path: Path,
    rules: FieldRules,
    *,
    origin: Origin = NO_ORIGIN,
    dir_name: str | None = None,
    file: str | None = None,
    by_dir: bool = False,
) -> tuple[Skill | None, list[Diagnostic]] | None:
    """Read the frontmatter of the SKILL.md at `path` (its head only) into a skill.

    None when there is no such file: the caller decides whether that matters.
    `file` is the same path as a string, when the caller has it (cheaper to open).
    `by_dir`: the host names the skill after its directory (`build_skill`).
    """
    read = read_skill_keyed(path, rules, origin=origin, dir_name=dir_name, file=file, by_dir=by_dir)
    return None if read is None else read[0]


def read_skill_keyed(
    path: Path,
    rules: FieldRules,
    *,
    origin: Origin = NO_ORIGIN,
    dir_name: str | None = None,
    file: str | None = None,
    by_dir: bool = False,
) -> tuple[tuple[Skill | None, list[Diagnostic]], Key | None] | None:
    """`read_skill`, with the (device, inode, size, mtime_ns) of the file as it was
    read: None when it could not be opened (the result is then not the file's bytes')."""
    try:
        data, complete, key = _read_head(file or path)
    except FileProblem as e:
        return None if e.kind == "missing" else ((None, _file_problem(e, path)), None)
    parsed = frontmatter.parse(data, path, complete=complete)
    if parsed.fields is None:
        return (None, list(parsed.diagnostics)), key
    skill, diags = build_skill(
        parsed.fields,
        path,
        rules,
        origin=origin,
        dir_name=dir_name,
        stamp=(key[2], key[3]),
        by_dir=by_dir,
    )
    return (skill, [*parsed.diagnostics, *diags] if parsed.diagnostics else diags), key


def parse_skill(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    unicode_names: bool = False,
    client: str = "satchel",
    deprecated: Sequence[str] | None = None,
) -> tuple[Skill | None, tuple[Diagnostic, ...]]:
    """Parse and validate one skill (its directory or its SKILL.md), reading the whole
    file so the body's encoding is checked too. `strict` applies the spec exactly;
    `deprecated` names the top-level fields moved into metadata the client calls
    deprecated (None: ``thinking``; `satchel.hosts.client_profile` gives a client's)."""
    target = Path(path)
    if target.name != SKILL_FILE and os.path.isdir(target):  # isdir never raises
        target = target / SKILL_FILE
    rules = FieldRules(strict, unicode_names, client, tuple(deprecated or DEPRECATED))
    try:
        data = _read_whole(target)
    except FileProblem as e:
        return None, tuple(_file_problem(e, target) or [_missing(target)])
    parsed = frontmatter.parse(data, target)
    if parsed.fields is None:
        return None, parsed.diagnostics
    skill, diags = build_skill(parsed.fields, target, rules)
    body_problem = frontmatter.check_text(data, 0, target)
    if body_problem is not None:
        diags.append(body_problem)
        skill = None
    return skill, (*parsed.diagnostics, *diags)


def _read_whole(path: Path) -> bytes:
    _check_link(path)
    return read_bounded(path, MAX_SKILL_FILE)


def _read_head(path: str | Path) -> tuple[bytes, bool, Key]:
    """Read up to the closing fence: 4 KiB first, more only if the fence is further;
    with the file's (device, inode, size, mtime_ns) as it was opened."""
    try:
        fd, st = open_regular_stat(path, MAX_SKILL_FILE, nofollow=True)
    except FileProblem as e:
        if e.kind != "symlink":
            raise
        _check_link(Path(path))
        fd, st = open_regular_stat(path, MAX_SKILL_FILE)
    try:
        size = st.st_size
        key = (st.st_dev, st.st_ino, size, st.st_mtime_ns)
        data = os.read(fd, HEAD)
        complete = len(data) >= size
        while not complete and frontmatter.locate(data, complete=False).status == "more":
            if len(data) >= _HEAD_CAP:
                break
            chunk = os.read(fd, max(HEAD, len(data)))
            if not chunk:
                complete = True
                break
            data += chunk
            complete = len(data) >= size
        return data, complete, key
    finally:
        os.close(fd)


def _check_link(path: Path) -> None:
    """A symlinked SKILL.md must resolve inside its own skill directory."""
    try:
        if not path.is_symlink():
            return
    except OSError as e:
        raise FileProblem("os", e.strerror or str(e)) from None
    try:
        link_target(path, path.parent, inside_name="the skill directory")
    except FileProblem as e:
        if e.kind != "dangling":
            raise
        raise FileProblem("os", "SKILL.md is a symlink to nothing") from None


def _missing(path: Path) -> Diagnostic:
    return diagnostic("skill.read.error", "no SKILL.md here", path)


def _file_problem(e: FileProblem, path: Path) -> list[Diagnostic]:
    if e.kind == "missing":
        return []
    if e.kind == "too-large":
        return [
            diagnostic(
                "skill.size",
                f"SKILL.md is {e.size} bytes; the limit is {MAX_SKILL_FILE} (1 MiB)",
                path,
                hint="move long material into references/ files the skill links to",
            )
        ]
    code = {
        "not-regular": "skill.file.not-regular",
        "loop": "skill.symlink.loop",
        "escape": "skill.symlink.escape",
    }.get(e.kind, "skill.read.error")
    return [diagnostic(code, f"cannot read SKILL.md: {e.message}", path)]

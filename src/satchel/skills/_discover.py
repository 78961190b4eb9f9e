"""Walk skills roots: find skill directories, read their heads, keep what loads.

Inside a root, directories are visited in code-point order of their names, so the
result never depends on the order the filesystem lists them in.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from satchel._files import list_sorted, open_root
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import Root, WalkBounds
from satchel.origin import Origin, root_origin
from satchel.skills._cache import RootCache, open_root_cache
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill
from satchel.skills._read import SKILL_FILE, read_skill_keyed

__all__ = ["RootScan", "scan_files", "scan_root", "skill_dirs"]

SKIP = frozenset((".git", "node_modules"))

_CHILD = getattr(Path, "_make_child_relpath", None)


def _child_path(parent: Path, name: str) -> Path:
    """``parent / name`` for a `name` without separators (a directory entry's). On the
    Pythons whose `Path` has it, its own child constructor: it parses nothing, where
    ``/`` parses the name again (about a third of the cost, per skill, on 3.11)."""
    if _CHILD is not None:
        made: Path = _CHILD(parent, name)
        return made
    return parent / name


@dataclass(slots=True)
class RootScan:
    """What one root held: the skills that loaded (in visit order) and diagnostics."""

    root: Root
    exists: bool = False
    skills: list[Skill] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def scan_root(root: Root, rules: FieldRules, walk: WalkBounds, *, cache: bool = False) -> RootScan:
    """Read every skill under `root`; with `cache`, take each unchanged SKILL.md's
    reading from the discovery cache and keep the others' there."""
    scan = RootScan(root)
    top = str(root.path)
    entries = open_root(top, scan.diagnostics, "a skills root")
    if entries is None:
        return scan
    scan.exists = True
    kept = open_root_cache(root.path, rules) if cache else None
    _scan(root, rules, walk, entries, scan, kept)
    if kept is not None:
        kept.save()
    return scan


def _scan(
    root: Root,
    rules: FieldRules,
    walk: WalkBounds,
    entries: list[os.DirEntry[str]],
    scan: RootScan,
    cache: RootCache | None,
) -> None:
    top = str(root.path)
    walker = _Walker(top, walk, scan.diagnostics)
    origin = root_origin(root)
    if walk.nested:
        for skill_dir in walker.nested(entries):
            path = Path(skill_dir, SKILL_FILE)
            if cache is None:
                _read_one(path, skill_dir, origin, rules, scan)
            else:
                _read_kept(path, skill_dir, origin, rules, scan, cache)
        return
    parent = root.path
    for entry in entries:
        if not walker.candidate(entry):
            continue
        path = _child_path(_child_path(parent, entry.name), SKILL_FILE)
        if cache is None:
            found = _read_one(path, entry.path, origin, rules, scan)
        else:
            found = _read_kept(path, entry.path, origin, rules, scan, cache)
        if not found:
            _report_near_misses(entry.path, scan.diagnostics)


def skill_dirs(top: str, walk: WalkBounds) -> tuple[list[str], list[Diagnostic]]:
    """The directories under `top` that hold a SKILL.md, as a scan would find them,
    and what was wrong on the way (near misses, broken links, an unreadable root)."""
    diags: list[Diagnostic] = []
    entries = open_root(top, diags, "a skills root")
    if entries is None:
        return [], diags
    walker = _Walker(top, walk, diags)
    if walk.nested:
        return list(walker.nested(entries)), diags
    found = [e.path for e in entries if walker.candidate(e) and _has_skill_file(e.path, diags)]
    return found, diags


def scan_files(root: Root, files: list[Path], rules: FieldRules) -> RootScan:
    """Read the given SKILL.md files as if they were found in `root`."""
    scan = RootScan(root, exists=True)
    origin = root_origin(root)
    for path in files:
        _read_one(path, str(path.parent), origin, rules, scan)
    return scan


def _read_one(
    path: Path,
    skill_dir: str,
    origin: Origin,
    rules: FieldRules,
    scan: RootScan,
) -> bool:
    """Read the SKILL.md at `path`, in `skill_dir`; False when there is none."""
    file = skill_dir + os.sep + SKILL_FILE  # os.path.join costs more, per skill
    return _read_fresh(path, file, skill_dir, origin, rules, scan, None)


def _read_kept(
    path: Path, skill_dir: str, origin: Origin, rules: FieldRules, scan: RootScan, cache: RootCache
) -> bool:
    """`_read_one` through the cache: the cached reading when the file's ``lstat`` key
    matches the entry's, else the file read and kept (a link or a special file is read
    as always and never kept)."""
    file = skill_dir + os.sep + SKILL_FILE
    try:
        st = os.lstat(file)
    except FileNotFoundError:
        return False
    except OSError:
        return _read_one(path, skill_dir, origin, rules, scan)
    if not stat.S_ISREG(st.st_mode):
        return _read_one(path, skill_dir, origin, rules, scan)
    read = cache.lookup(file, st, path, origin)
    if read is None:
        return _read_fresh(path, file, skill_dir, origin, rules, scan, cache)
    skill, diags = read
    scan.diagnostics.extend(diags)
    if skill is not None:
        scan.skills.append(skill)
    _check_twin(skill_dir, scan.diagnostics)
    return True


def _read_fresh(
    path: Path,
    file: str,
    skill_dir: str,
    origin: Origin,
    rules: FieldRules,
    scan: RootScan,
    cache: RootCache | None,
) -> bool:
    """Read the SKILL.md at `path` (`file`), keeping the reading in `cache` when given;
    False when there is none."""
    name = os.path.basename(skill_dir)
    keyed = read_skill_keyed(path, rules, origin=origin, dir_name=name, file=file)
    if keyed is None:
        return False
    (skill, diags), key_read = keyed
    if cache is not None and key_read is not None:
        cache.store(file, key_read, skill, diags)
    scan.diagnostics.extend(diags)
    if skill is not None:
        scan.skills.append(skill)
    _check_twin(skill_dir, scan.diagnostics)
    return True


class _Walker:
    """Which entries of one root are directories to visit.

    A symlinked directory is followed unless it leads back inside the root being
    walked: that directory is visited under its own name anyway, so each real
    directory is read once, at its real path."""

    def __init__(self, top: str, walk: WalkBounds, diags: list[Diagnostic]) -> None:
        self.top = top
        self.real_top = os.path.realpath(top)
        self.walk = walk
        self.diags = diags

    def candidate(self, entry: os.DirEntry[str]) -> bool:
        if entry.name in SKIP or not _utf8_name(entry, self.diags):
            return False
        try:
            if entry.is_dir(follow_symlinks=False):
                return True
            if not entry.is_symlink():
                return False
        except OSError:
            return False
        return self.walk.follow_symlinks and self._followed(entry)

    def _followed(self, entry: os.DirEntry[str]) -> bool:
        try:
            st = os.stat(entry.path)
        except OSError as e:
            self.diags.append(_broken_link(entry.path, e))
            return False
        if not stat.S_ISDIR(st.st_mode):
            return False
        target = os.path.realpath(entry.path)
        return not (target == self.real_top or target.startswith(self.real_top + os.sep))

    def nested(self, entries: list[os.DirEntry[str]]) -> Iterator[str]:
        """Depth-first in name order, bounded by depth and directory count, each real
        directory once. A symlinked directory is read when it is a skill but never
        walked into, so a link to `/` or to a parent cannot take the walk out of the
        root."""
        walk = self.walk
        seen = {_identity(self.top)}
        budget = walk.max_dirs
        too_deep: list[str] = []
        stack: list[tuple[Iterator[os.DirEntry[str]], int]] = [(iter(entries), 1)]
        while stack:
            level, depth = stack[-1]
            entry = next(level, None)
            if entry is None:
                stack.pop()
                continue
            if not self.candidate(entry) or not _first_visit(entry, seen):
                continue
            budget -= 1
            if budget < 0:
                self.diags.append(_limit(self.top, f"more than {walk.max_dirs} directories"))
                return
            if _has_skill_file(entry.path, self.diags):
                yield entry.path
            elif entry.is_symlink():
                continue
            elif depth < walk.max_depth:
                try:
                    stack.append((iter(list_sorted(entry.path)), depth + 1))
                except OSError:
                    continue
            elif _has_subdirs(entry.path):
                too_deep.append(entry.path)
        if too_deep:
            count = f"{len(too_deep)} director{'y' if len(too_deep) == 1 else 'ies'}"
            self.diags.append(_limit(too_deep[0], f"{count} deeper than {walk.max_depth} levels"))


def _utf8_name(entry: os.DirEntry[str], diags: list[Diagnostic]) -> bool:
    """Skill names and paths are text: a directory whose name is not UTF-8 is refused."""
    if entry.name.isascii():
        return True
    try:
        entry.name.encode("utf-8")
    except UnicodeEncodeError:
        diags.append(
            diagnostic(
                "encoding.not-utf8",
                "the directory name is not valid UTF-8; it is not read",
                Path(entry.path),
                severity="warning",
            )
        )
        return False
    return True


def _identity(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _broken_link(path: str, e: OSError) -> Diagnostic:
    if e.errno == errno.ELOOP:
        return diagnostic("skill.symlink.loop", "a symlink loop in a skills root", Path(path))
    return diagnostic(
        "skill.read.error",
        "a symlink in a skills root points to nothing",
        Path(path),
        severity="warning",
    )


def _has_skill_file(directory: str, diags: list[Diagnostic]) -> bool:
    """Whether `directory` holds SKILL.md (nested mode), reporting near misses."""
    if os.path.lexists(os.path.join(directory, SKILL_FILE)):
        return True
    _report_near_misses(directory, diags)
    return False


def _report_near_misses(directory: str, diags: list[Diagnostic]) -> None:
    """A directory without SKILL.md: report `skill.md` and the like, never silent."""
    try:
        with os.scandir(directory) as it:
            names = [e.name for e in it if e.name.lower() == "skill.md"]
    except OSError:
        return
    for name in sorted(names):
        diags.append(
            diagnostic(
                "skill.file.misnamed",
                f"{name} is not loaded: the skill file must be named exactly {SKILL_FILE}",
                Path(directory, name),
                hint=f"rename it to {SKILL_FILE}",
            )
        )


def _check_twin(directory: str, diags: list[Diagnostic]) -> None:
    """On a case-sensitive filesystem, `skill.md` beside `SKILL.md` is ambiguous."""
    twin = directory + os.sep + "skill.md"
    if not os.access(twin, os.F_OK):  # a bool, not an exception: this runs per skill
        return
    try:
        a, b = os.stat(twin), os.stat(os.path.join(directory, SKILL_FILE))
    except OSError:
        return
    if (a.st_dev, a.st_ino) != (b.st_dev, b.st_ino):
        diags.append(
            diagnostic(
                "skill.file.twin",
                f"both {SKILL_FILE} and skill.md exist; only {SKILL_FILE} is read",
                Path(twin),
            )
        )


def _first_visit(entry: os.DirEntry[str], seen: set[tuple[int, int]]) -> bool:
    try:
        st = entry.stat()
    except OSError:
        return False
    key = (st.st_dev, st.st_ino)
    if key in seen:
        return False
    seen.add(key)
    return True


def _has_subdirs(directory: str) -> bool:
    try:
        with os.scandir(directory) as it:
            return any(e.is_dir() and e.name not in SKIP for e in it)
    except OSError:
        return False


def _limit(where: str, what: str) -> Diagnostic:
    return diagnostic("discovery.limit", f"the walk stopped: {what}", Path(where))

"""Walk skills roots: find skill directories, read their heads, keep what loads.

Inside a root, directories are visited in code-point order of their names, so the
result never depends on the order the filesystem lists them in.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from satchel.core._files import list_sorted, open_root
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Root, WalkBounds
from satchel.foundations.origin import Origin, root_origin
from satchel.skills._cache import RootCache, open_root_cache
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill
from satchel.skills._read import SKILL_FILE, read_skill_keyed

__all__ = ["RootScan", "scan_files", "scan_root", "skill_dirs"]

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
    if walk.resolve_root:
        real = os.path.realpath(root.path)
        if real != str(root.path):
            root = replace(root, path=Path(real))
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
    if walk.nested or walk.root_skill or not walk.linked_skill_files:
        for skill_dir in walker.nested(entries) if walk.nested else walker.flat(entries):
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
    return list(walker.flat(entries)), diags


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
    """Which entries of one root are directories to visit, as `WalkBounds` says.

    Unless the walk goes into symlinked directories (`follow_symlinked_dirs`), a
    symlinked directory is followed only when it leads outside the root being walked:
    a directory inside it is visited under its own name anyway, so each real
    directory is read once, at its real path."""

    def __init__(self, top: str, walk: WalkBounds, diags: list[Diagnostic]) -> None:
        self.top = top
        self.real_top = os.path.realpath(top)
        self.walk = walk
        self.diags = diags

    def _walked(self, name: str) -> bool:
        """Whether a directory of this name is read at all (`skip_dirs`, `hidden_dirs`)."""
        return name not in self.walk.skip_dirs and (self.walk.hidden_dirs or name[:1] != ".")

    def candidate(self, entry: os.DirEntry[str]) -> bool:
        if not self._walked(entry.name) or not _utf8_name(entry, self.diags):
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
        if self.walk.follow_symlinked_dirs:
            return True
        target = os.path.realpath(entry.path)
        return not (target == self.real_top or target.startswith(self.real_top + os.sep))

    def skill_file(self, directory: str) -> bool:
        """Whether `directory` holds a SKILL.md this walk reads, reporting near misses
        and a linked SKILL.md the walk leaves (`linked_skill_files`)."""
        if not _has_skill_file(directory, self.diags):
            return False
        if self.walk.linked_skill_files:
            return True
        file = os.path.join(directory, SKILL_FILE)
        if not os.path.islink(file):
            return True
        self.diags.append(
            diagnostic(
                "skill.file.link-unread",
                f"{SKILL_FILE} is a symlink, which this host's walk does not read",
                Path(file),
                hint=f"make {SKILL_FILE} a regular file",
            )
        )
        return False

    def flat(self, entries: list[os.DirEntry[str]]) -> Iterator[str]:
        """The root itself when it is a skill (`root_skill`), then each child directory
        that holds a SKILL.md, in name order."""
        if self.walk.root_skill and self.skill_file(self.top):
            yield self.top
        for entry in entries:
            if self.candidate(entry) and self.skill_file(entry.path):
                yield entry.path

    def nested(self, entries: list[os.DirEntry[str]]) -> Iterator[str]:
        """Breadth-first, each directory's entries in name order, as Codex walks: a
        directory is listed when its turn comes, and is a skill when it holds a SKILL.md
        (the root only with `root_skill`). Bounded by depth, by `max_dirs` directories
        (the root counted: past it no more are queued, those queued are still read) and
        by `max_entries` entries listed (the walk stops there), each real directory
        once: where two paths lead to one directory, the shallower is kept. Unless
        `follow_symlinked_dirs`, a symlinked directory is read when it is a skill but
        never walked into, so a link to `/` or to a parent cannot take the walk out of
        the root. A directory holding a skill is walked into only with
        `skills_in_skills`."""
        walk = self.walk
        seen = {_identity(self.top)}
        queued = 1  # the root
        listed = 0
        full = False
        too_deep: list[str] = []
        queue: deque[tuple[str, list[os.DirEntry[str]] | None, int]] = deque(
            [(self.top, entries, 0)]
        )
        while queue:
            path, listing, depth = queue.popleft()
            checked = False
            if listing is None:
                if depth > 0 and not walk.skills_in_skills and walk.max_entries is None:
                    # a skill is not walked into, and nothing counts entries: its other
                    # files are never listed
                    if self.skill_file(path):
                        yield path
                        continue
                    checked = True
                try:
                    listing = list_sorted(path)
                except OSError:
                    continue
            stop = False
            if walk.max_entries is not None:
                room = walk.max_entries - listed
                if len(listing) > room:
                    listing, stop = listing[: max(room, 0)], True
                listed += len(listing)
            holds = not checked and any(e.name == SKILL_FILE for e in listing)
            if holds and (depth > 0 or walk.root_skill) and self.skill_file(path):
                yield path
                if depth > 0 and not walk.skills_in_skills:
                    listing = []
            elif not holds and not checked and not stop and (depth > 0 or walk.root_skill):
                _report_near_misses(path, self.diags)
            for entry in listing:
                if not self.candidate(entry) or not _first_visit(entry, seen):
                    continue
                if entry.is_symlink() and not walk.follow_symlinked_dirs:
                    if self.skill_file(entry.path):
                        yield entry.path
                    continue
                if depth + 1 > walk.max_depth:
                    too_deep.append(path)
                    break
                if queued >= walk.max_dirs:
                    full = True
                    continue
                queued += 1
                queue.append((entry.path, None, depth + 1))
            if stop:
                self.diags.append(_limit(self.top, f"more than {walk.max_entries} entries"))
                break
        if full:
            self.diags.append(_limit(self.top, f"more than {walk.max_dirs} directories"))
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


def _limit(where: str, what: str) -> Diagnostic:
    return diagnostic("discovery.limit", f"the walk stopped: {what}", Path(where))

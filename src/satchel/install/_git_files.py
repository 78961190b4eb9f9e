"""The files of part of a git work tree, at a commit and on disk, without git reading them.

`committed` lists a commit's files (``ls-tree``); `working` lists the files git tracks
or would track (``ls-files``, ignored ones left out) and hashes each itself, as git
would store it (`satchel.install._git_stored`: line endings, ``ident``,
``core.filemode``), so that git never reads a working-tree file and no filter, hook or
fsmonitor of the repository's runs (`satchel.install._git_read`). A file git stores
through a filter (Git LFS) or an encoding is `UNKNOWN`: its program is not satchel's to
run. Paths are relative to the work tree's top, in git's form.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from satchel.install._git_read import Repo
from satchel.install._git_stored import (
    Conversion,
    Rules,
    attributes,
    blob,
    conversion,
    read_rules,
    stored,
)

__all__ = ["MAX_BYTES", "MAX_FILES", "UNKNOWN", "Entry", "changed", "committed", "working"]

MAX_FILES = 20_000  # files hashed at most...
MAX_BYTES = 256 * 1024 * 1024  # ...and bytes

Entry = tuple[str, str]  # (mode, blob id)
UNKNOWN: Entry = ("", "")  # a working-tree file git stores through a filter or an encoding


def committed(repo: Repo, commit: str, *specs: str) -> dict[str, Entry] | None:
    """The files below `specs` at `commit`: path -> (mode, blob); None when git fails."""
    out = repo.git("ls-tree", "-r", "-z", commit, "--", *specs)
    return None if out is None else listed(out)


def listed(out: str, staged: bool = False) -> dict[str, Entry]:
    """The files of an ``ls-tree -r -z`` listing (``MODE TYPE BLOB``) or, `staged`, an
    ``ls-files --stage -z`` one (``MODE BLOB STAGE``): path -> (mode, blob); links to
    other repositories (mode 160000) left out."""
    files: dict[str, Entry] = {}
    for item in out.split("\0"):
        meta, _, path = item.partition("\t")
        parts = meta.split(" ")
        if len(parts) == 3 and parts[0] != "160000":
            files[path] = (_mode(parts[0]), parts[1 if staged else 2])
    return files


def working(repo: Repo, environ: Mapping[str, str], *specs: str) -> dict[str, Entry] | None:
    """The files below `specs` in the work tree that git tracks or would (ignored ones
    left out), hashed as git would store them (`UNKNOWN`: through a filter or an
    encoding); None past `MAX_FILES` or `MAX_BYTES`, or when git fails."""
    out = repo.git("ls-files", "-z", "--stage", "--", *specs)
    others = repo.git("ls-files", "-z", "--others", "--exclude-standard", "--", *specs)
    rules = read_rules(repo, environ)
    if out is None or others is None or rules is None:
        return None
    index = listed(out, staged=True)
    names = sorted(index.keys() | {n for n in others.split("\0") if n})
    attrs = attributes(repo, names) if len(names) <= MAX_FILES else None
    if attrs is None:
        return None
    files: dict[str, Entry] = {}
    budget = MAX_BYTES
    for name in names:
        how = conversion(attrs.get(name, ()), rules)
        entry, size = _hashed(repo.top / name, how, index.get(name), rules, repo.hash, budget)
        budget -= size
        if budget < 0:
            return None
        if entry is not None:
            files[name] = entry
    return files


def changed(tree: Mapping[str, Entry], work: Mapping[str, Entry]) -> list[str]:
    """The paths that differ between `tree` and `work`; a file of unknown content
    differs only when `tree` lacks it."""
    return sorted(
        p
        for p in tree.keys() | work.keys()
        if (p not in tree if work.get(p) == UNKNOWN else tree.get(p) != work.get(p))
    )


def _hashed(
    path: Path,
    how: Conversion | None,
    staged: Entry | None,
    rules: Rules,
    algorithm: str,
    budget: int,
) -> tuple[Entry | None, int]:
    """`path`'s (mode, blob id) as git would store it converted `how` (`staged`: its
    index entry), and its size (more than `budget`: not hashed); `UNKNOWN` without a
    conversion; None for a folder or a file gone."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return ("120000", blob(os.readlink(os.fsencode(path)), algorithm)), 0
        if not stat.S_ISREG(st.st_mode):
            return None, 0
        if how is None:
            return UNKNOWN, 0
        with open(path, "rb") as f:
            data = f.read(budget + 1)
    except OSError:
        return None, 0
    if len(data) > budget:
        return None, len(data)
    mode = _file_mode(st.st_mode, staged, rules)
    if mode != "120000":  # a link checked out as a plain file is stored as it is
        data = stored(data, how, staged[1] if staged else None, algorithm)
    return (mode, blob(data, algorithm)), len(data)


def _file_mode(st_mode: int, staged: Entry | None, rules: Rules) -> str:
    """A plain file's mode as git would store it: the executable bit when
    ``core.filemode`` trusts it, else the staged mode (a link's where links cannot be)."""
    if staged and staged[0] == "120000" and not rules.symlinks:
        return "120000"
    if not rules.filemode:
        return staged[0] if staged and staged[0].startswith("100") else "100644"
    return "100755" if st_mode & stat.S_IXUSR else "100644"


def _mode(mode: str) -> str:
    """git's mode, with an old group-writable file mode read as a plain file's."""
    return "100644" if mode.startswith("100") and mode != "100755" else mode

"""The bundled examples as a fresh clone holds them, copied out of the checkout.

Running the documented commands in the checkout (``satchel hooks run ... --home
examples/home``) leaves files there: plugin data under ``examples/home/.local/``, trust
records, marketplaces, caches. A test that read the example in place would see them, so
the tests read a copy of the files git tracks under ``examples/`` instead: the same in
every checkout, whatever was run in it.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def tracked(under: str, checkout: Path = CHECKOUT) -> list[str] | None:
    """The files git tracks below `under` (relative to the checkout, as git names them),
    or None when this is not a git checkout (an unpacked sdist: then all its files are)."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--", under],
            cwd=checkout,
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return [n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n]


def copy_examples(dest: Path, checkout: Path = CHECKOUT) -> Path:
    """Copy the checkout's tracked ``examples/`` into `dest`, with an empty ``.git`` that
    makes `dest` a checkout's root as a fresh clone's is; `dest`."""
    return copy_tracked(dest, ("examples",), checkout)


def copy_tracked(dest: Path, parts: tuple[str, ...], checkout: Path = CHECKOUT) -> Path:
    """Copy what git tracks of each of `parts` of the checkout (folders or files) into
    `dest`, and make an empty ``.git`` there; `dest`."""
    for part in parts:
        names = tracked(part, checkout)
        if names is None:
            source = checkout / part
            if source.is_dir():
                shutil.copytree(source, dest / part, symlinks=True)
            else:
                shutil.copy2(source, dest / part)
            continue
        for name in names:
            source = checkout / name
            if not os.path.lexists(source):
                continue  # removed from the working tree, not yet from the index
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                target.symlink_to(os.readlink(source))
            else:
                shutil.copy2(source, target)
    (dest / ".git").mkdir(parents=True, exist_ok=True)
    return dest


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and link below `root` with its size and mtime, to tell later whether
    anything was written there."""
    found: dict[str, tuple[int, int]] = {}
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            path = os.path.join(folder, name)
            st = os.lstat(path)
            if not os.path.isdir(path) or os.path.islink(path):
                found[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
            elif not os.listdir(path):
                found[os.path.relpath(path, root) + "/"] = (0, 0)
    return found


_made: dict[Path, dict[str, tuple[int, int]]] = {}
ROOT_LENGTH = 96
"""The length of the examples copy's path, whatever the temp dir's (`padded`)."""


def padded(base: Path, length: int = ROOT_LENGTH) -> Path:
    """A folder in `base` whose path has `length` characters (more only when `base` is
    that long already): a host that names paths in what it shows its model (Codex's
    roots table) then shows the same number of characters on every machine."""
    return base / "copy".ljust(max(length - len(str(base)) - 1, 4), "_")


@functools.cache
def examples_root() -> Path:
    """This process's copy of the bundled examples (made at first use in the temp dir,
    removed when the process ends): the folder that stands for the checkout's root."""
    made = Path(tempfile.mkdtemp(prefix="satchel-examples-")).resolve()
    atexit.register(shutil.rmtree, made, ignore_errors=True)
    root = padded(made)
    copy_examples(root)
    _made[root] = snapshot(root)
    return root


def examples_written() -> list[str]:
    """What tests added, changed or removed in this process's copy of the examples
    (empty when none was made): the tests share it, so they only read it."""
    changed: list[str] = []
    for root, before in _made.items():
        after = snapshot(root)
        changed += sorted(
            name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
        )
    return changed

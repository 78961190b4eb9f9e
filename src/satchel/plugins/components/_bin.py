"""A Claude Code plugin's ``bin/``: executables the host puts on its shell tool's PATH.

Facts (Claude Code 2.1.332, `claude plugin validate --json`; CHANGELOG 2.1.91): every
entry of ``bin/`` that is not a directory is listed by its file name in
``provides.bin`` (sorted; hidden files, dangling links and links that lead out of the
plugin included), with no warning.

satchel lists the same names. It also reports, as warnings, what would not work or
would not be safe on the PATH: an entry that is not executable
(`plugin.bin.not_executable`: a shell cannot run it) and a symbolic link that leads
outside the plugin root (`plugin.bin.outside_root`: the plugin would put a program it
does not carry on the PATH). A plugin with such a link has its ``bin/`` left off the
PATH (`session.plugins.shell_path`); `bin_dir` says which directory may go on
it.
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel.foundations._contain import is_inside
from satchel.plugins._context import Ctx, listdir

__all__ = ["BIN", "bin_dir", "read_bin"]

BIN = "bin"


def read_bin(ctx: Ctx) -> tuple[str, ...]:
    """The file names in the plugin's ``bin/`` (not its subdirectories), in name order;
    each problem of an entry reported."""
    directory = ctx.fixed(BIN)
    if directory is None or not directory.is_dir():
        return ()
    names: list[str] = []
    for entry in listdir(ctx, directory, "plugin.bin.not_executable"):
        if entry.is_dir():
            continue
        names.append(entry.name)
        path = Path(entry.path)
        if entry.is_symlink() and _leads_out(path, ctx.root):
            message = f"bin/{entry.name} leads outside the plugin root; bin/ is not put on PATH"
            ctx.add("plugin.bin.outside_root", message, path, severity="warning")
        elif not (path.is_file() and os.access(path, os.X_OK)):
            message = f"bin/{entry.name} is not an executable file; a shell cannot run it"
            ctx.add("plugin.bin.not_executable", message, path, hint=f"chmod +x bin/{entry.name}")
    return tuple(names)


def bin_dir(root: Path, names: tuple[str, ...]) -> Path | None:
    """The plugin's ``bin/`` to put on PATH: None when it has no entry, or when one of
    them is a link that leads outside `root`."""
    if not names:
        return None
    directory = root / BIN
    for name in names:
        path = directory / name
        if path.is_symlink() and _leads_out(path, root):
            return None
    return directory


def _leads_out(path: Path, root: Path) -> bool:
    """Whether the link `path` points outside `root` (a dangling link inside does not)."""
    return not is_inside(Path(os.path.realpath(path)), root)

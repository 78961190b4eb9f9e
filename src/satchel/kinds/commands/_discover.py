"""Walk one commands root: every ``**/*.md`` file, bounded, in a fixed order.

* What a command file is: ``*.md``; in a root of the ``.gemini`` family (Gemini CLI's
  ``.gemini/commands/``, ``~/.gemini/commands/``) or one scanned with ``toml=True`` (a
  Gemini CLI extension's ``commands/``), ``*.toml`` instead, read by
  `satchel.kinds.commands._toml` and named by its path (``git/commit.toml`` is
  ``git:commit``), as Gemini CLI names it.
* Walk order: in each directory its files first, then its subdirectories, each in
  code-point order of their names, so the result never depends on the order the
  filesystem lists them in (and a file directly in the root comes before a
  same-named one in a group).
* Files and directories whose names start with ``.`` are skipped, and so is
  ``node_modules``.
* Bounds: groups nest at most `MAX_DEPTH` (6) directories deep; at most `MAX_FILES`
  (2,000) ``.md`` files are read and `MAX_DIRS` (2,000) directories listed per root.
  Past the depth or directory bound the walk stops with ``discovery.limit``; past the
  file bound (Claude Code has none) the walk goes on listing, and one
  ``discovery.limit`` names every command file it did not read.
* Symlinked directories are never followed (``command.read.error``, a warning). A
  symlinked ``.md`` file in a project or plugin root is read only when it resolves
  inside the root (``command.read.error`` otherwise: an escape, a loop, a link to
  nothing); in a user root it may point anywhere (GNU stow and other dotfile managers
  link ``~/.claude/commands/*.md`` into a checkout), as user agents may. Loops and
  links to nothing are refused everywhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from satchel.core._files import list_sorted, open_root
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import USER, Root
from satchel.foundations.origin import Origin, root_origin
from satchel.kinds.commands._model import Command, Naming
from satchel.kinds.commands._read import SUFFIX, read_command
from satchel.kinds.commands._toml import TOML_SUFFIX, read_toml_command

__all__ = ["GEMINI_FAMILY", "MAX_DEPTH", "MAX_DIRS", "MAX_FILES", "CommandScan", "scan_commands"]

MAX_DEPTH = 6
MAX_FILES = 2000
MAX_DIRS = 2000
SKIP = frozenset(("node_modules",))
GEMINI_FAMILY = ".gemini"  # its command roots hold Gemini CLI's TOML commands


@dataclass(slots=True)
class CommandScan:
    """What one root held: the commands that loaded, in walk order, and diagnostics."""

    root: Root
    exists: bool = False
    commands: list[Command] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def scan_commands(
    root: Root,
    *,
    naming: Naming = "stem",
    origin: Origin | None = None,
    max_depth: int = MAX_DEPTH,
    max_files: int = MAX_FILES,
    max_dirs: int = MAX_DIRS,
    file_names: bool = False,
    toml: bool | None = None,
) -> CommandScan:
    """Read every command file under `root`, each with `origin` (by default the root's
    scope, family and path; a plugin's for its ``commands/``: a namespace there makes
    the names ``<namespace>:<name>``). `file_names`: each is named by its
    path under `root` (``content/draft.md`` is ``content:draft``), never by its
    frontmatter (Claude Code's rule for plugin commands). `toml`: the files are Gemini
    CLI's ``*.toml`` commands [a root of the ``.gemini`` family]. Never raises for
    bad files."""
    scan = CommandScan(root)
    entries = open_root(str(root.path), scan.diagnostics, "a commands root")
    if entries is None:
        return scan
    scan.exists = True
    where = root_origin(root) if origin is None else origin
    walk = _Walk(root, scan, naming, where, max_files, max_dirs)
    walk.file_names = file_names
    walk.toml = root.family == GEMINI_FAMILY if toml is None else toml
    too_deep = walk.run(entries, max_depth)
    if walk.unread:
        scan.diagnostics.append(_unread(root.path, max_files, walk.unread))
    if too_deep:
        count = f"{len(too_deep)} director{'y' if len(too_deep) == 1 else 'ies'}"
        message = f"the walk stopped: {count} deeper than {max_depth} levels"
        scan.diagnostics.append(diagnostic("discovery.limit", message, Path(sorted(too_deep)[0])))
    return scan


def _unread(root: Path, budget: int, paths: list[Path]) -> Diagnostic:
    names = ", ".join(path.relative_to(root).as_posix() for path in paths)
    message = (
        f"more than {budget} command files; only the first {budget} (in walk order) are "
        f"read; {len(paths)} not read: {names}"
    )
    return diagnostic("discovery.limit", message, root)


class _Walk:
    """The state of one root's walk: budgets and where results go."""

    def __init__(
        self,
        root: Root,
        scan: CommandScan,
        naming: Naming,
        origin: Origin,
        max_files: int,
        max_dirs: int,
    ) -> None:
        self.root = root
        self.scan = scan
        self.naming = naming
        self.origin = origin
        self.files_left = max_files
        self.dirs_left = max_dirs
        self.max_files = max_files
        self.max_dirs = max_dirs
        self.unread: list[Path] = []  # command files past the file budget
        self.file_names = False
        self.toml = False

    @property
    def suffix(self) -> str:
        return TOML_SUFFIX if self.toml else SUFFIX

    def run(self, entries: list[os.DirEntry[str]], max_depth: int) -> list[str]:
        """Walk from the root's `entries`, depth first in name order; the directories
        left out for being deeper than `max_depth`."""
        too_deep: list[str] = []
        stack: list[tuple[os.DirEntry[str] | None, tuple[str, ...]]] = [(None, ())]
        while stack:
            entry, groups = stack.pop()
            if entry is not None and self.over_dirs():
                break
            listed = entries if entry is None else self._list(entry)
            if listed is None:
                continue
            subdirs = self.directory(listed, groups)
            if subdirs and len(groups) >= max_depth:
                too_deep += [d.path for d in subdirs]
                continue
            stack += [(d, (*groups, d.name)) for d in reversed(subdirs)]  # popped in name order
        return too_deep

    def directory(
        self, entries: list[os.DirEntry[str]], groups: tuple[str, ...]
    ) -> list[os.DirEntry[str]]:
        """Read the command files among `entries` (past the file budget, only note
        them); the subdirectories to visit."""
        subdirs: list[os.DirEntry[str]] = []
        for entry in entries:
            name = entry.name
            if name.startswith(".") or name in SKIP:
                continue
            kind = _kind(entry, self.suffix)
            if kind == "dir":
                subdirs.append(entry)
            elif kind == "linked-dir":
                self._linked_dir(entry)
            elif name.endswith(self.suffix) and kind != "none":
                self.files_left -= 1
                if self.files_left < 0:
                    self.unread.append(Path(entry.path))
                else:
                    self._read(entry, groups)
        return subdirs

    def over_dirs(self) -> bool:
        self.dirs_left -= 1
        if self.dirs_left >= 0:
            return False
        message = f"the walk stopped: more than {self.max_dirs} directories"
        self.scan.diagnostics.append(diagnostic("discovery.limit", message, self.root.path))
        return True

    def _list(self, entry: os.DirEntry[str]) -> list[os.DirEntry[str]] | None:
        try:
            return list_sorted(entry.path)
        except OSError as e:
            message = f"cannot list a command group: {e.strerror or e}"
            self.scan.diagnostics.append(
                diagnostic("command.read.error", message, Path(entry.path), severity="warning")
            )
            return None

    def _read(self, entry: os.DirEntry[str], groups: tuple[str, ...]) -> None:
        if self.toml:
            contained = self.root.path if self.root.scope != USER else None
            found = read_toml_command(
                Path(entry.path), origin=self.origin, group="/".join(groups), inside=contained
            )
            self._keep(*found)
            return
        command, diags = read_command(
            entry.path,
            origin=self.origin,
            group="/".join(groups),
            naming=self.naming,
            inside=self.root.path,
            contain=self.root.scope != USER,
            file_names=self.file_names,
        )
        self._keep(command, diags)

    def _keep(self, command: Command | None, diags: list[Diagnostic]) -> None:
        self.scan.diagnostics.extend(diags)
        if command is not None:
            self.scan.commands.append(command)

    def _linked_dir(self, entry: os.DirEntry[str]) -> None:
        message = "a symlinked directory in a commands root is not followed"
        self.scan.diagnostics.append(
            diagnostic("command.read.error", message, Path(entry.path), severity="warning")
        )


def _kind(entry: os.DirEntry[str], suffix: str = SUFFIX) -> str:
    """``dir``, ``linked-dir`` (a symlink to a directory), ``file`` (anything else that
    may be a command file: the reader says what is wrong with it) or ``none``."""
    try:
        if entry.is_dir(follow_symlinks=False):
            return "dir"
        if entry.is_symlink() and not entry.name.endswith(suffix):
            return "linked-dir" if os.path.isdir(entry.path) else "none"
    except OSError:
        return "none"
    return "file"

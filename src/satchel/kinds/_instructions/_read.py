"""Reading instruction files: the one `Loader` every mode uses.

A file is read only if it is a regular file (a symlink is followed, but a project
file's real path must stay inside the project; user files may link anywhere; a FIFO,
socket, device or directory is refused, never waited on) of at most `max_file`
bytes, in UTF-8 without NUL bytes; anything else is an ``instructions.read.error``.
A leading BOM is dropped and CRLF becomes LF. A file is read at most once (by
identity). A rules directory (`Loader.rule_files`) is walked in name order, into
subdirectories (symlinked ones too, each real directory once, at most `MAX_DEPTH`
deep and `MAX_RULES` files; hidden folders are skipped), never out of the project
for a project directory.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, list_sorted, open_regular, read_fd
from satchel.core._text import escape
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations import frontmatter
from satchel.kinds._instructions._model import ALWAYS, Condition, InstructionFile, Kind, Scope

AGENTS, CLAUDE = "AGENTS.md", "CLAUDE.md"
MAX_DEPTH = 8
MAX_RULES = 512
_BOM = b"\xef\xbb\xbf"
_CLIENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def client_file(client: str) -> str | None:
    """The client's own file name: ``SATCHEL.md`` for ``satchel``; None for a client
    name that cannot be a file name."""
    return f"{client.upper()}.md" if _CLIENT_NAME.fullmatch(client) else None


def project_dirs(layout: Layout, walk: bool) -> list[Path]:
    """The project root, then (with `walk`) each directory down to cwd."""
    root, cwd = layout.project, layout.cwd
    if not walk or not cwd.is_relative_to(root):
        return [root]
    dirs = [root]
    for part in cwd.relative_to(root).parts:
        dirs.append(dirs[-1] / part)
    return dirs


@dataclass
class Loader:
    """Reads instruction files for one load: containment, caps, decoding, each file
    once, and the diagnostics; the modes decide which paths to ask for."""

    layout: Layout
    max_file: int
    files: list[InstructionFile] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    seen: dict[tuple[int, int], bool] = field(default_factory=dict)  # file -> it read
    user_paths: set[Path] = field(default_factory=set)
    raw: dict[Path, bytes] = field(default_factory=dict)  # each file read, as on disk

    def load(self, path: Path, scope: Scope, kind: Kind, directory: Path | None = None) -> bool:
        """Read and keep `path`; true when it read (even if empty or seen before)."""
        text = self.read(path, scope)
        if text is None:
            return False
        self.add(path, scope, kind, text, directory=directory)
        return True

    def add(
        self,
        path: Path,
        scope: Scope,
        kind: Kind,
        text: str,
        *,
        cut: bool = False,
        directory: Path | None = None,
        condition: Condition = ALWAYS,
        size: int | None = None,
    ) -> bool:
        if not text.strip():
            return False
        if directory is None:
            directory = path.parent.parent if path.parent.name == ".claude" else path.parent
        label = self.label(path, scope)
        self.files.append(
            InstructionFile(path, scope, kind, directory, text, label, cut, condition, size)
        )
        return True

    def exists(self, path: Path, scope: Scope) -> bool:
        return not (scope == "project" and path in self.user_paths) and os.path.lexists(path)

    def read(self, path: Path, scope: Scope) -> str | None:
        """The text of `path`; "" when it was read before; None when it is absent or
        cannot be read (the diagnostic is recorded once)."""
        if not self.exists(path, scope):
            return None
        try:
            inside = self.containment(path, scope)
            identity, data = self.read_new(path)
            if inside is not None and identity != inside:
                raise FileProblem("escape", "it changed while it was read")
        except FileProblem as e:
            self.diags.append(self.problem(path, scope, e))
            return None
        if data is None:
            return "" if self.seen[identity] else None
        text = normal(data)
        if text is not None:
            self.seen[identity] = True
            self.raw[path] = data
            return text
        offset = 3 if data.startswith(_BOM) else 0
        _, bad = _decode(data[offset:])
        why, at = bad
        self.diags.append(
            diagnostic(
                "instructions.read.error",
                f"cannot read {self.label(path, scope)}: {why} at byte offset {offset + at}",
                path,
                line=data.count(b"\n", 0, offset + at) + 1,
                hint="save the file as UTF-8 text" if why.startswith("not") else None,
            )
        )
        return None

    def containment(self, path: Path, scope: Scope) -> tuple[int, int] | None:
        """For a project file, the identity of its real file, which must lie inside
        the project (a repository cannot link the user's files into the prompt); None
        for user files, which may link anywhere (dotfiles)."""
        if scope != "project":
            return None
        real = os.path.realpath(path)
        root = os.path.realpath(self.layout.project)
        if os.path.commonpath([root, real]) != root:
            shown = escape(real, newlines=True)
            raise FileProblem("escape", f"a symlink to {shown}, outside the project")
        try:
            st = os.stat(real)
        except OSError:
            return None  # missing or a loop: the open says which
        return st.st_dev, st.st_ino

    def read_new(self, path: Path) -> tuple[tuple[int, int], bytes | None]:
        """The identity and bytes of `path`; no bytes when the same file (by identity)
        was opened before: it is never read twice, nor reported twice."""
        fd, _ = open_regular(path, self.max_file)
        try:
            st = os.fstat(fd)
            identity = (st.st_dev, st.st_ino)
            if identity in self.seen:
                return identity, None
            self.seen[identity] = False
            return identity, read_fd(fd, self.max_file)
        except OSError as e:
            raise FileProblem("os", e.strerror or str(e)) from None
        finally:
            os.close(fd)

    def problem(self, path: Path, scope: Scope, e: FileProblem) -> Diagnostic:
        reason, hint = {
            "not-regular": ("not a regular file", None),
            "too-large": (
                f"{e.size} bytes, more than the {self.max_file}-byte cap",
                "shorten it, or split it across directories",
            ),
            "loop": ("a symlink loop", None),
            "missing": ("a symlink to nothing", None),
        }.get(e.kind, (e.message, None))
        message = f"cannot read {self.label(path, scope)}: {reason}"
        return diagnostic("instructions.read.error", message, path, hint=hint)

    def label(self, path: Path, scope: Scope) -> str:
        base = self.layout.project if scope == "project" else self.layout.home
        if not path.is_relative_to(base):
            return path.as_posix()
        rel = path.relative_to(base).as_posix()
        return rel if scope == "project" else f"~/{rel}"

    def rule_files(self, directory: Path, scope: Scope, suffix: str) -> list[Path]:
        """The files ending in `suffix` in `directory` and below, in name order
        (depth first); see the module docstring for the bounds."""
        found: list[Path] = []
        visited: set[str] = set()
        self.walk_rules(directory, scope, suffix, 0, visited, found)
        if len(found) > MAX_RULES:
            self.diags.append(
                diagnostic(
                    "instructions.truncated",
                    f"{self.label(directory, scope)} holds more than {MAX_RULES} rule files: "
                    f"the ones after {self.label(found[MAX_RULES - 1], scope)} were not read",
                    directory,
                )
            )
        return found[:MAX_RULES]

    def walk_rules(
        self,
        directory: Path,
        scope: Scope,
        suffix: str,
        depth: int,
        visited: set[str],
        found: list[Path],
    ) -> None:
        real = os.path.realpath(directory)
        if real in visited or depth > MAX_DEPTH or not os.path.isdir(directory):
            return
        if scope == "project" and not self.inside(real):
            shown = escape(real, newlines=True)
            self.diags.append(
                diagnostic(
                    "instructions.read.error",
                    f"cannot read {self.label(directory, scope)}: a symlink to {shown}, "
                    "outside the project",
                    directory,
                )
            )
            return
        visited.add(real)
        try:
            entries = list_sorted(directory)
        except OSError:
            return
        for entry in entries:
            path = directory / entry.name
            if len(found) > MAX_RULES:
                return
            if os.path.isdir(path) and not entry.name.startswith("."):
                self.walk_rules(path, scope, suffix, depth + 1, visited, found)
            elif entry.name.endswith(suffix) and (entry.is_symlink() or entry.is_file()):
                found.append(path)

    def inside(self, real: str) -> bool:
        root = os.path.realpath(self.layout.project)
        return os.path.commonpath([root, real]) == root

    def split_rule(self, path: Path, scope: Scope, text: str) -> tuple[dict[str, Any], str] | None:
        """A rule's frontmatter fields (empty when it has none) and its body; None,
        with ``instructions.rule.invalid``, when the frontmatter cannot be used."""
        data = text.encode("utf-8")
        if frontmatter.locate(data, complete=True).status == "missing":
            return {}, text
        parsed = frontmatter.parse(data, path)
        if parsed.fields is None:
            why = parsed.diagnostics[0].message if parsed.diagnostics else "it is not valid"
            self.invalid(path, scope, f"its frontmatter cannot be read ({why})")
            return None
        return parsed.fields, data[parsed.body_start :].decode("utf-8")

    def invalid(self, path: Path, scope: Scope, why: str, *, loaded: bool = False) -> None:
        tail = "" if loaded else "; it was not loaded"
        self.diags.append(
            diagnostic(
                "instructions.rule.invalid",
                f"{self.label(path, scope)}: {why}{tail}",
                path,
            )
        )


def _decode(data: bytes) -> tuple[str | None, tuple[str, int]]:
    """The text, or None and (what is wrong, at which byte): the first NUL byte or
    invalid UTF-8 sequence."""
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        if 0 <= nul < e.start:
            return None, ("a NUL byte", nul)
        return None, ("not UTF-8: an invalid byte", e.start)
    if nul >= 0:
        return None, ("a NUL byte", nul)
    return text, ("", 0)


def normal(data: bytes) -> str | None:
    """`data` as text, a leading BOM dropped and CRLF as LF; None when it is not
    UTF-8 (`Loader.read` says why)."""
    text, _ = _decode(data[3:] if data.startswith(_BOM) else data)
    return None if text is None else text.replace("\r\n", "\n")


def boundary(data: bytes, limit: int) -> int:
    """The largest cut at most `limit` that does not split a UTF-8 character."""
    cut = limit
    while 0 < cut < len(data) and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return cut

"""Instruction files: AGENTS.md, CLAUDE.md and the client's own file, in prompt order.

`load_instructions(layout)` returns the files a host puts in the system prompt, in
order: a later file wins on conflict. Two modes:

``satchel`` (default: AGENTS.md, else a Claude file, with a user level). The levels,
in order, are the user level, then the project root (and, when ``layout.ancestors`` is true, every
directory from the root down to cwd). At each level:

============  =====================================  =====================================
level         read first                             only when that one did not load
============  =====================================  =====================================
user          ``<config_home>/<client>/AGENTS.md``   ``<config_home>/<client>/CLAUDE.md``,
                                                     else ``~/.claude/CLAUDE.md``
project dir   ``<dir>/AGENTS.md``                    ``<dir>/CLAUDE.md``,
                                                     else ``<dir>/.claude/CLAUDE.md``
============  =====================================  =====================================

When AGENTS.md loads and a Claude file is there too, the Claude file is not read and
``instructions.replaced`` (info) names it, unless it is the same file (a symlink to
that AGENTS.md). After every level, the client's own file (``SATCHEL.md``; for
another client its name upper-cased, e.g. ``MERMAID.md``) is read in
``<config_home>/<client>/`` and in each project directory, last of all.

``codex`` (Codex's rules). Global: ``~/.codex/AGENTS.override.md``, else
``~/.codex/AGENTS.md``, the first that is not empty. Project: from the root down to
cwd (always), in each directory the first of ``AGENTS.override.md`` and ``AGENTS.md``
that reads; an empty one is skipped (it still hides ``AGENTS.md``, as in Codex). The
project files share `max_total` bytes: the file that passes it is cut at a UTF-8
character boundary, later ones are not read, and ``instructions.truncated`` says
what was left out. The global file is bounded by `max_file` only, as in Codex.

Both modes: a file is read only if it is a regular file (a symlink is followed, but
a project file's real path must stay inside the project: a repository cannot link
the user's files into the prompt; user files may link anywhere; a FIFO, socket,
device or directory is refused, never waited on) of at most
`max_file` bytes, in UTF-8 without NUL bytes; anything else is an
``instructions.read.error`` and the next candidate is tried. A leading BOM is dropped
and CRLF becomes LF (the byte cap counts the text so normalised). A file is read at
most once (by identity, so CLAUDE.md → AGENTS.md is one file); an empty or
whitespace-only file yields nothing. A project directory that is a user directory (a
project at the home directory) does not read the user's files again.
`trust_project=False` loads the user files only.

`instruction_segments(files)` turns the files into context segments: id
``agent.instructions.<scope>:<label>``, kind ``instruction``, stability ``build``, and
the text ``Instructions from <label>:`` on its own line, then the file's text without
leading blank lines and trailing whitespace. The label is the path relative to the
project root (``sub/AGENTS.md``) or, for user files, to the home (``~/.claude/CLAUDE.md``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from satchel._files import FileProblem, open_regular, read_fd, same_file
from satchel._segments import ContextSegment
from satchel._text import escape
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import Layout

__all__ = [
    "client_file",
    "instruction_segments",
    "InstructionFile",
    "InstructionMode",
    "load_instructions",
]

Scope = Literal["user", "project"]
Kind = Literal["agents", "claude", "client", "override"]
InstructionMode = Literal["satchel", "codex"]

AGENTS, CLAUDE, OVERRIDE = "AGENTS.md", "CLAUDE.md", "AGENTS.override.md"
MAX_FILE = 256 * 1024
MAX_TOTAL = 32 * 1024
SEGMENT_ID = "agent.instructions"
_BOM = b"\xef\xbb\xbf"
_CLIENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_CODEX: tuple[tuple[str, Kind], ...] = ((OVERRIDE, "override"), (AGENTS, "agents"))


@dataclass(frozen=True, slots=True)
class InstructionFile:
    """One instruction file that loaded. `directory` is the folder it speaks for (the
    one above ``.claude/`` for ``.claude/CLAUDE.md``); `label` is how it is shown;
    `truncated` is true when the byte cap cut it."""

    path: Path
    scope: Scope
    kind: Kind
    directory: Path
    text: str
    label: str
    truncated: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "label": self.label,
            "scope": self.scope,
            "kind": self.kind,
            "directory": str(self.directory),
            "truncated": self.truncated,
            "text": self.text,
        }


def load_instructions(
    layout: Layout,
    *,
    mode: InstructionMode = "satchel",
    max_file: int = MAX_FILE,
    max_total: int = MAX_TOTAL,
    trust_project: bool = True,
) -> tuple[tuple[InstructionFile, ...], tuple[Diagnostic, ...]]:
    """The instruction files for `layout`, in prompt order (a later file wins), and
    what was wrong. Never raises for a bad file; see the module docstring."""
    loader = _Loader(layout, max_file)
    if mode == "codex":
        loader.codex(trust_project, max_total)
    elif mode == "satchel":
        loader.agents_first(trust_project)
    else:
        raise ValueError(f"mode must be satchel or codex, not {mode!r}")
    return tuple(loader.files), tuple(loader.diags)


def instruction_segments(files: Iterable[InstructionFile]) -> tuple[ContextSegment, ...]:
    """One ``build`` segment per file, in the files' order."""
    return tuple(
        ContextSegment(
            f"{SEGMENT_ID}.{f.scope}:{f.label}",
            "instruction",
            "build",
            f"Instructions from {f.label}:\n{f.text.lstrip(chr(10)).rstrip()}",
        )
        for f in files
    )


def client_file(client: str) -> str | None:
    """The client's own file name: ``SATCHEL.md`` for ``satchel``; None for a client
    name that cannot be a file name."""
    return f"{client.upper()}.md" if _CLIENT_NAME.fullmatch(client) else None


def _project_dirs(layout: Layout, walk: bool) -> list[Path]:
    """The project root, then (with `walk`) each directory down to cwd."""
    root, cwd = layout.project, layout.cwd
    if not walk or not cwd.is_relative_to(root):
        return [root]
    dirs = [root]
    for part in cwd.relative_to(root).parts:
        dirs.append(dirs[-1] / part)
    return dirs


@dataclass
class _Loader:
    layout: Layout
    max_file: int
    files: list[InstructionFile] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    seen: dict[tuple[int, int], bool] = field(default_factory=dict)  # file -> it read
    user_paths: set[Path] = field(default_factory=set)

    def agents_first(self, trust_project: bool) -> None:
        user = self.layout.config_home / self.layout.client
        levels: list[tuple[Scope, Path, tuple[Path, ...]]] = [
            ("user", user, (user / CLAUDE, self.layout.home / ".claude" / CLAUDE))
        ]
        own = client_file(self.layout.client)
        self.user_paths = {user / AGENTS, *levels[0][2], *([user / own] if own else [])}
        if trust_project:
            levels += [
                ("project", d, (d / CLAUDE, d / ".claude" / CLAUDE))
                for d in _project_dirs(self.layout, self.layout.ancestors)
            ]
        for scope, directory, claudes in levels:
            self.agents_or_claude(scope, directory / AGENTS, claudes)
        if own is not None:
            for scope, directory, _ in levels:
                self.load(directory / own, scope, "client")

    def agents_or_claude(self, scope: Scope, agents: Path, claudes: tuple[Path, ...]) -> None:
        if self.load(agents, scope, "agents"):
            skipped = next((c for c in claudes if self.exists(c, scope)), None)
            if skipped is not None and not same_file(skipped, agents):
                self.diags.append(
                    diagnostic(
                        "instructions.replaced",
                        f"{self.label(skipped, scope)} was not read because "
                        f"{self.label(agents, scope)} is there",
                        skipped,
                        hint="AGENTS.md is read in its place; keep the two in step",
                    )
                )
            return
        for claude in claudes:
            if self.load(claude, scope, "claude"):
                return

    def codex(self, trust_project: bool, max_total: int) -> None:
        codex = self.layout.home / ".codex"
        self.user_paths = {codex / OVERRIDE, codex / AGENTS}
        for name, kind in _CODEX:
            text = self.read(codex / name, "user")
            if text is not None and self.add(codex / name, "user", kind, text):
                break
        if not trust_project:
            return
        dirs = _project_dirs(self.layout, walk=True)
        budget = max_total
        for i, directory in enumerate(dirs):
            for name, kind in _CODEX:
                path = directory / name
                if budget == 0 and self.exists(path, "project"):
                    return self.truncated(max_total, path, None, dirs[i:])
                text = self.read(path, "project")
                if text is None:
                    continue
                data = text.encode("utf-8")
                if len(data) > budget:
                    kept = _boundary(data, budget)
                    self.add(path, "project", kind, data[:kept].decode("utf-8"), cut=True)
                    return self.truncated(max_total, path, (kept, len(data)), dirs[i + 1 :])
                if self.add(path, "project", kind, text):
                    budget -= len(data)
                break

    def truncated(
        self, cap: int, path: Path, cut: tuple[int, int] | None, later: list[Path]
    ) -> None:
        """Report the cap: what was cut from `path`, and the files in `later` not read."""
        parts = []
        if cut is not None:
            kept, size = cut
            left = size - kept
            parts.append(
                f"{self.label(path, 'project')} was cut after {kept} of {size} bytes "
                f"({left} left out)"
            )
        unread = [self.label(p, "project") for d in later if (p := self.codex_file(d))]
        if unread:
            files = "file" if len(unread) == 1 else "files"
            parts.append(f"{len(unread)} later {files} not read: {', '.join(unread)}")
        if parts:
            verb = "reached" if cut is None else "passed"
            message = f"instruction files {verb} the {cap}-byte cap: {'; '.join(parts)}"
            self.diags.append(diagnostic("instructions.truncated", message, path))

    def codex_file(self, directory: Path) -> Path | None:
        return next(
            (directory / n for n, _ in _CODEX if self.exists(directory / n, "project")), None
        )

    def load(self, path: Path, scope: Scope, kind: Kind) -> bool:
        """Read and keep `path`; true when it read (even if empty or seen before)."""
        text = self.read(path, scope)
        if text is None:
            return False
        self.add(path, scope, kind, text)
        return True

    def add(self, path: Path, scope: Scope, kind: Kind, text: str, *, cut: bool = False) -> bool:
        if not text.strip():
            return False
        directory = path.parent.parent if path.parent.name == ".claude" else path.parent
        label = self.label(path, scope)
        self.files.append(InstructionFile(path, scope, kind, directory, text, label, cut))
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
        offset = 3 if data.startswith(_BOM) else 0
        text, bad = _decode(data[offset:])
        if text is not None:
            self.seen[identity] = True
            return text.replace("\r\n", "\n")
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


def _boundary(data: bytes, limit: int) -> int:
    """The largest cut at most `limit` that does not split a UTF-8 character."""
    cut = limit
    while 0 < cut < len(data) and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return cut

"""`InstructionRule`: which instruction files a host reads, in which folders, in what
order, under what cap, with which import syntax, and how it sends them to its model,
as data. The host that defines a rule holds it (`Host.instruction_rule`); a host names
the rule it reads by its word (`Host.instructions`), and `satchel.kinds._instructions` reads
the files as the rule says.
"""

from __future__ import annotations

from typing import Literal

from satchel.core._model import model
from satchel.hosts._vocabulary import InstructionKind, InstructionMode

__all__ = [
    "ConditionDialect",
    "ImportSyntax",
    "InstructionRule",
    "InstructionSource",
    "InstructionText",
    "Reader",
    "RuleFiles",
    "WalkDirection",
]

ImportSyntax = Literal["at-files", "at-inline"]
"""``at-files``: an ``@path`` line names a file read after the one naming it, a file of
its own (Claude Code); ``at-inline``: ``@file.md`` is replaced by that file's text in
place (Gemini CLI)."""

ConditionDialect = Literal["paths", "always-apply", "apply-to"]
"""The frontmatter that makes a rule file conditional: ``paths`` (a glob or a list,
matched gitignore-style: Claude Code), ``always-apply`` (``alwaysApply``, else
``globs``, else ``description``, else manual: Cursor) or ``apply-to`` (``applyTo``
globs, else manual: Copilot)."""

Reader = Literal["every-file", "first-file", "agents-else-claude"]
"""How a folder's files are read: ``every-file`` (each source that is there, in order),
``first-file`` (the first of the sources that reads; the project's share `max_total`
bytes: Codex) or ``agents-else-claude`` (AGENTS.md, else the first Claude file, with an
``instructions.replaced`` note for the one left unread, and the client's own file of
every level last: satchel)."""

WalkDirection = Literal["root-to-cwd", "root-or-ancestors"]
"""Which project folders are read: every folder from the project root down to cwd, or
the root only (every folder down to cwd when the layout reads ancestors)."""


@model
class RuleFiles:
    """A folder of rule files read recursively in name order: the files ending in
    `suffix`, conditional as `condition` says, their globs relative to `base`
    (``folder``: the folder holding the rules folder; ``root``: the project root;
    ``cwd``: the working directory). The files an always-on rule imports (when its
    source has an import syntax) are of kind `imported`."""

    suffix: str
    condition: ConditionDialect
    base: Literal["folder", "root", "cwd"] = "folder"
    imported: InstructionKind = "claude"


@model
class InstructionSource:
    """One place instruction files come from, relative to a level's folder (the user's
    folder, or a project folder of the walk). `path` is a file or, with `rules`, a
    folder of rule files; ``{context}`` stands for each of the context file names
    (Gemini CLI's ``context.fileName``) and ``{client}`` for the client's own file
    (``SATCHEL.md``); a path starting ``~/`` is under the home. `kind` is the
    `InstructionFile.kind` of what it reads; `imports` the import syntax its files
    follow; `root_only` reads it at the project root only; `speaks_for_folder` makes
    the file speak for the walk's folder, not the folder it sits in."""

    path: str
    kind: InstructionKind
    rules: RuleFiles | None = None
    imports: ImportSyntax | None = None
    root_only: bool = False
    speaks_for_folder: bool = False

    def shown(self) -> str:
        """How docs/hosts.md names it."""
        more = "/**/*" + self.rules.suffix if self.rules is not None else ""
        return f"{self.path}{more}{' (root)' if self.root_only else ''}"


@model
class InstructionText:
    """How a host wraps its always-on instruction files in its request, byte for byte.

    Each file is `file` with ``{path}``, ``{label}`` and ``{text}`` filled (the text
    stripped of surrounding whitespace for the scopes in `strip`); ``{label}`` is the
    `labels` entry for ``user`` (the user's files), for the file's kind, else for
    ``project``. The files of a scope are joined by `join` (the user's by `user_join`
    when it is set). With `block` the host
    sends one block: the user's part and the project's joined by `between`, filled in
    for ``{files}`` (``{cwd}``: the folder the host runs in); without, it sends the
    user's part in `user_block` and the project's in `project_block`. A block with no
    file is left out."""

    file: str = "{text}"
    labels: tuple[tuple[str, str], ...] = ()
    strip: tuple[Literal["user", "project"], ...] = ("user", "project")
    join: str = "\n\n"
    user_join: str | None = None
    block: str | None = None
    between: str = "\n\n"
    user_block: str = "{files}"
    project_block: str = "{files}"


@model
class InstructionRule:
    """One host's instruction files, as data.

    * `mode`: the word `load(instructions=...)` takes for it; `host` the host's title;
      `source` where the facts come from.
    * `user_folder`: the user's folder (``~/.codex``; ``{config}/{client}``: the
      client's config folder), None: the host reads no user file.
    * `user`, `project`: the sources of the user's folder and of each project folder;
      `project_passes` more sources, each read over the whole walk after the one
      before (Cursor reads every folder's rules, then every folder's AGENTS.md).
    * `reader`: how a folder's sources are read (`Reader`); `walk`: which project
      folders (`WalkDirection`); `max_total`: the cap on the project's files together
      (None: none); `skip_empty_user`: an empty user file does not stop the search
      for the next (Codex).
    * `text`: how the host sends the files to its model (None: satchel does not
      reproduce it).
    """

    mode: InstructionMode
    host: str
    source: str
    user: tuple[InstructionSource, ...] = ()
    project: tuple[InstructionSource, ...] = ()
    project_passes: tuple[tuple[InstructionSource, ...], ...] = ()
    user_folder: str | None = None
    reader: Reader = "every-file"
    walk: WalkDirection = "root-to-cwd"
    max_total: int | None = None
    skip_empty_user: bool = False
    text: InstructionText | None = None

    @property
    def passes(self) -> tuple[tuple[InstructionSource, ...], ...]:
        """The project's sources, pass by pass."""
        return (self.project, *self.project_passes) if self.project else self.project_passes

    @property
    def name(self) -> InstructionMode:
        """The mode's word (`mode`)."""
        return self.mode

    @property
    def conditional(self) -> tuple[str, ...]:
        """The rule folders whose frontmatter makes a file conditional, as shown."""
        every = (*self.user, *(s for p in self.passes for s in p))
        return tuple(dict.fromkeys(f"{s.shown()} ({s.rules.condition})" for s in every if s.rules))

    def user_files(self) -> tuple[str, ...]:
        """The user's files as docs/hosts.md names them."""
        folder = self.user_folder or "~"
        return tuple(
            s.path if s.path.startswith("~/") else f"{folder}/{s.shown()}" for s in self.user
        )

    def project_files(self) -> tuple[str, ...]:
        """Each project folder's files as docs/hosts.md names them."""
        return tuple(s.shown() for p in self.passes for s in p)

    def to_json(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "user_folder": self.user_folder,
            "user": list(self.user_files()),
            "project": list(self.project_files()),
            "reader": self.reader,
            "walk": self.walk,
            "max_total": self.max_total,
            "conditional": list(self.conditional),
            "imports": sorted({s.imports for p in self.passes for s in p if s.imports}),
        }

"""Where to look: every decision about skill roots in one value.

A `Layout` names the client, the working directory, the project root, the user's
home and config directories, and an ordered table of root templates. The table is
the precedence: the first root to define a name wins. Each host is a
different table; `Layout.default()` is satchel's own (see docs/layout.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import Literal

from satchel.core._model import model

__all__ = [
    "EXTRA",
    "KINDS",
    "OWN_CLIENT",
    "PLUGIN",
    "PROJECT",
    "SCOPES",
    "USER",
    "Layout",
    "Root",
    "RootSpec",
    "WalkBounds",
    "default_roots",
    "PROJECT_MARKERS",
    "find_project_root",
    "project_marker",
    "user_first",
]

OWN_CLIENT = "satchel"
"""satchel's own client name: its folder family (``.satchel``) and config name."""
PROJECT, USER, PLUGIN, EXTRA = "project", "user", "plugin", "extra"
SCOPES = (PROJECT, USER, PLUGIN)  # project, then user; plugin roots come after the user's


@model
class RootSpec:
    """One row of the table: a scope label, a tool family and a path template.

    The template may use ``{project}``, ``{cwd}``, ``{home}`` and ``{config}``.
    """

    scope: str
    family: str
    template: str


@model
class Root:
    """A resolved skills root: a directory whose child directories are skills."""

    path: Path
    scope: str
    family: str


@model
class WalkBounds:
    """How a host walks a skills root (each host's walk is data in its profile).

    * `nested`: look below the root's child directories, breadth-first in name order,
      up to `max_depth` levels, `max_dirs` directories (the root counted) and
      `max_entries` entries listed (files too; None: no bound) [False: only the root's
      child directories are skills].
    * `follow_symlinks`: read a symlinked directory as a skill [True].
    * `follow_symlinked_dirs`: walk into a symlinked directory as into any other,
      wherever it points, each real directory once, first where the walk meets it
      (Codex) [False: a symlinked directory is read when it is a skill, never walked
      into, and one that points back inside the root is not read: the walk meets
      that directory under its own name].
    * `hidden_dirs`: read directories whose name starts with a dot [True; Codex and
      Gemini CLI skip them].
    * `skip_dirs`: directory names never read [``.git`` and ``node_modules``; Codex
      reads ``node_modules``].
    * `skills_in_skills`: look for skills inside a skill's directory (Codex) [False].
    * `root_skill`: a SKILL.md directly in the root is a skill, named after the root's
      directory (Codex, Gemini CLI) [False].
    * `linked_skill_files`: read a SKILL.md that is a symlink (within its skill
      directory) [True; Codex skips one].
    * `resolve_root`: a root that is a symlink (or lies below one) is read at its real
      path, and its skills' paths are given under it (Codex) [False: under the path
      the table names].
    """

    nested: bool = False
    max_depth: int = 6
    max_dirs: int = 2000
    max_entries: int | None = None
    follow_symlinks: bool = True
    follow_symlinked_dirs: bool = False
    hidden_dirs: bool = True
    skip_dirs: tuple[str, ...] = (".git", "node_modules")
    skills_in_skills: bool = False
    root_skill: bool = False
    linked_skill_files: bool = True
    resolve_root: bool = False


KINDS = ("skills", "commands", "agents", "plugins")


def default_roots(client: str = "satchel", kind: str = "skills") -> tuple[RootSpec, ...]:
    """satchel's table for `kind` (``skills``, ``commands`` or ``agents``): project
    before user; within a scope the client's own family, then ``.claude``, then
    ``.agents``, then the other hosts that keep that kind of file (Codex, OpenCode,
    Gemini CLI, GitHub Copilot, Cursor for skills)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    own = f".{client}"
    project, user = _FAMILIES[kind]
    rows = [RootSpec(PROJECT, fam, f"{{project}}/{fam}/{kind}") for fam in _unique([own, *project])]
    rows.append(RootSpec(USER, own, f"{{config}}/{client}/{kind}"))
    rows += [RootSpec(USER, fam, f"{{home}}/{fam}/{folder}") for fam, folder in user(kind)]
    return tuple(rows)


def _user_rows(*families: str) -> Callable[[str], list[tuple[str, str]]]:
    def rows(kind: str) -> list[tuple[str, str]]:
        return [
            (fam, "prompts" if fam == ".codex" and kind == "commands" else kind) for fam in families
        ]

    return rows


# kind -> (project families after the client's own, user families after the client's own)
_FAMILIES = {
    "skills": (
        (".claude", ".agents", ".codex", ".opencode", ".gemini", ".github", ".cursor"),
        _user_rows(".claude", ".agents", ".codex", ".gemini", ".copilot", ".cursor"),
    ),
    "commands": ((".claude", ".agents"), _user_rows(".claude", ".agents", ".codex")),
    "agents": ((".claude", ".agents"), _user_rows(".claude", ".agents")),
    "plugins": ((".agents",), _user_rows(".agents")),
}


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def find_project_root(cwd: Path, markers: Sequence[str] = (".git",)) -> Path:
    """The nearest ancestor of `cwd` (itself included) holding a marker, else `cwd`."""
    for directory in (cwd, *cwd.parents):
        if any(os.path.lexists(directory / m) for m in markers):
            return directory
    return cwd


# What makes a directory named explicitly a project of its own, even inside another
# git repository (a monorepo package): a tool family's folder or an instruction file.
PROJECT_MARKERS = (
    ".satchel",
    ".claude",
    ".agents",
    ".codex",
    ".opencode",
    "AGENTS.md",
    "CLAUDE.md",
)


def project_marker(directory: Path, client: str = "satchel") -> str | None:
    """The first project marker `directory` holds (the client's own family first)."""
    for marker in _unique([f".{client}", *PROJECT_MARKERS]):
        if os.path.lexists(directory / marker):
            return marker
    return None


# The instruction files among the markers: the hosts read a nested AGENTS.md or
# CLAUDE.md as instructions for that part of the same project, so on the walk up from
# the working directory only a family's folder makes a directory a project of its own.
_INSTRUCTION_MARKERS = frozenset(("AGENTS.md", "CLAUDE.md"))


def _nearest_project(here: Path, root: Path, client: str, home: Path) -> Path:
    """The nearest directory from `here` up to `root` (the git root, excluded) that
    holds a family's folder (``.satchel/``, ``.claude/``, ``.agents/`` ...), else
    `root`; the user's home never counts, its folders being the user's own."""
    folders = [
        m for m in _unique([f".{client}", *PROJECT_MARKERS]) if m not in _INSTRUCTION_MARKERS
    ]
    for directory in (here, *here.parents):
        if directory == root or not directory.is_relative_to(root):
            break
        if directory != home and any(os.path.lexists(directory / m) for m in folders):
            return directory
    return root


@model
class Layout:
    """Every decision about where skills come from. Build one with `Layout.default`."""

    client: str
    cwd: Path
    project: Path
    home: Path
    config_home: Path
    roots: tuple[RootSpec, ...]
    walk: WalkBounds = field(default_factory=WalkBounds)
    ancestors: bool = False
    write_root: Path | None = None
    data_root: Path | None = None
    command_roots: tuple[RootSpec, ...] = ()
    agent_roots: tuple[RootSpec, ...] = ()
    plugin_roots: tuple[RootSpec, ...] = ()

    @classmethod
    def default(
        cls,
        cwd: str | os.PathLike[str] | None = None,
        *,
        client: str = "satchel",
        home: str | os.PathLike[str] | None = None,
        project: str | os.PathLike[str] | None = None,
        roots: Sequence[RootSpec] | None = None,
        command_roots: Sequence[RootSpec] | None = None,
        agent_roots: Sequence[RootSpec] | None = None,
        plugin_roots: Sequence[RootSpec] | None = None,
        walk: WalkBounds | None = None,
        ancestors: bool = False,
        env: Mapping[str, str] | None = None,
        markers: Sequence[str] = (".git",),
    ) -> Layout:
        """The layout for `cwd` (default: the current directory).

        The home is `home`, else the real one; the config directory is
        ``$XDG_CONFIG_HOME`` when set and no `home` is given, else ``<home>/.config``.
        The project root is `project`; else `cwd` itself when it is given and holds a
        project marker (`PROJECT_MARKERS`: ``.satchel/``, ``.claude/``, ``.agents/``,
        ``AGENTS.md`` ...), so a project inside another repository can be named; else
        the nearest directory from the working directory up to the git root (the
        nearest ancestor holding `.git`, `markers`) that holds a family's folder
        (``.satchel/``, ``.claude/``, ``.agents/``, ``.codex/``, ``.opencode/``); else
        the git root; else the working directory (docs/layout.md, "The project root").
        With `ancestors` (Codex's walk from `cwd` up to the git root) it is the git root.
        `roots`, `command_roots`, `agent_roots` and `plugin_roots` replace the
        default table of skills, commands, agent and plugin roots (`default_roots`).
        """
        here = Path(cwd if cwd is not None else os.getcwd()).absolute()
        environ = os.environ if env is None else env
        home_dir = Path(home).absolute() if home is not None else Path.home()
        config = home_dir / ".config"
        xdg = environ.get("XDG_CONFIG_HOME", "")
        if home is None and os.path.isabs(xdg):
            config = Path(xdg)
        return cls(
            client=client,
            cwd=here,
            project=_project(
                here,
                project,
                explicit=cwd is not None and not ancestors,
                ancestors=ancestors,
                client=client,
                markers=markers,
                home=home_dir,
            ),
            home=home_dir,
            config_home=config,
            roots=tuple(roots) if roots is not None else default_roots(client),
            walk=walk or WalkBounds(),
            ancestors=ancestors,
            write_root=_cache_root(client, environ, home),
            data_root=_data_root(client, environ, home),
            command_roots=_table(command_roots, client, "commands"),
            agent_roots=_table(agent_roots, client, "agents"),
            plugin_roots=_table(plugin_roots, client, "plugins"),
        )

    def with_roots(self, roots: Sequence[RootSpec]) -> Layout:
        """The same layout with another table of roots."""
        return replace(self, roots=tuple(roots))

    def skill_roots(self) -> tuple[Root, ...]:
        """The skills table resolved to directories, in precedence order, each once.

        When the project root is the home directory (no git above the working
        directory, or a dotfiles repository), a project row that names a user row's
        directory is dropped: those skills are the user's."""
        return self.resolve(self.roots)

    def command_dirs(self) -> tuple[Root, ...]:
        """The commands table resolved, as `skill_roots` resolves the skills table."""
        return self.resolve(self.command_roots)

    def agent_dirs(self) -> tuple[Root, ...]:
        """The agents table resolved, as `skill_roots` resolves the skills table."""
        return self.resolve(self.agent_roots)

    def plugin_dirs(self) -> tuple[Root, ...]:
        """The plugins table resolved: directories whose child directories are plugins."""
        return self.resolve(self.plugin_roots)

    def resolve(self, specs: Sequence[RootSpec]) -> tuple[Root, ...]:
        """Any table resolved to directories, in order, each directory once."""
        rows = [
            Root(path, spec.scope, spec.family)
            for spec in specs
            for path in self._expand(spec.template)
        ]
        user_dirs = {r.path for r in rows if r.scope == USER}
        seen: set[Path] = set()
        out: list[Root] = []
        for root in rows:
            if root.path in seen or (root.scope == PROJECT and root.path in user_dirs):
                continue
            seen.add(root.path)
            out.append(root)
        return tuple(out)

    def values(self) -> dict[str, str]:
        """What a template's ``{cwd}``, ``{home}``, ``{config}`` and ``{project}`` stand
        for under this layout."""
        return {
            "cwd": str(self.cwd),
            "home": str(self.home),
            "config": str(self.config_home),
            "project": str(self.project),
        }

    def _expand(self, template: str) -> list[Path]:
        values = {k: v for k, v in self.values().items() if k != "project"}
        if "{project}" in template and self.ancestors:
            return [Path(template.format(project=str(d), **values)) for d in self._cwd_to_project()]
        return [Path(template.format(project=str(self.project), **values))]

    def _cwd_to_project(self) -> list[Path]:
        """The directories from cwd up to the project root, nearest first."""
        if not self.cwd.is_relative_to(self.project):
            return [self.project]
        chain = [self.cwd]
        while chain[-1] != self.project:
            chain.append(chain[-1].parent)
        return chain


def user_first(layout: Layout) -> Layout:
    """`layout` with every user row ahead of the project rows, in each table: in a
    folder that is not trusted, the project cannot shadow what the user has."""

    def reorder(rows: tuple[RootSpec, ...]) -> tuple[RootSpec, ...]:
        return (*[r for r in rows if r.scope == USER], *[r for r in rows if r.scope != USER])

    return replace(
        layout,
        roots=reorder(layout.roots),
        command_roots=reorder(layout.command_roots),
        agent_roots=reorder(layout.agent_roots),
        plugin_roots=reorder(layout.plugin_roots),
    )


def _project(
    here: Path,
    project: str | os.PathLike[str] | None,
    *,
    explicit: bool,
    ancestors: bool,
    client: str,
    markers: Sequence[str],
    home: Path,
) -> Path:
    """`project`; else `here` when named and holding any project marker; else the
    nearest directory below the git root holding a family's folder (not with
    `ancestors`, whose walk reads them all); else the git root; else `here`."""
    if project:
        return Path(project).absolute()
    if explicit and project_marker(here, client) is not None:
        return here
    root = find_project_root(here, markers)
    return root if ancestors else _nearest_project(here, root, client, home)


def _table(given: Sequence[RootSpec] | None, client: str, kind: str) -> tuple[RootSpec, ...]:
    return tuple(given) if given is not None else default_roots(client, kind)


def _data_root(client: str, environ: Mapping[str, str], home: object) -> Path:
    """Where plugins keep their data (``PLUGIN_DATA``): the user data directory."""
    if home is not None:
        return Path(str(home)).absolute() / ".local" / "share" / client / "plugin-data"
    return user_dir("data", client, environ) / "plugin-data"


def _cache_root(client: str, environ: Mapping[str, str], home: object) -> Path:
    """Where skills defined in code are written: the user cache directory."""
    if home is not None:
        return Path(str(home)).absolute() / ".cache" / client / "skills"
    return user_dir("cache", client, environ) / "skills"


_USER_DIRS = {
    "cache": ("XDG_CACHE_HOME", (".cache",)),
    "data": ("XDG_DATA_HOME", (".local", "share")),
}


def user_dir(kind: Literal["cache", "data"], app: str, environ: Mapping[str, str]) -> Path:
    """`app`'s user cache or data directory, as platformdirs gives it: under
    ``$XDG_CACHE_HOME`` or ``$XDG_DATA_HOME`` when that is an absolute path, else
    ``~/.cache`` or ``~/.local/share`` on Linux (platformdirs' rule, without importing
    it); elsewhere platformdirs' own answer."""
    variable, default = _USER_DIRS[kind]
    xdg = environ.get(variable, "")
    if os.path.isabs(xdg):
        return Path(xdg) / app
    linux = sys.platform.startswith("linux")
    if linux:
        return Path.home().joinpath(*default, app)
    import platformdirs  # only when a directory of the real machine is asked for

    found = platformdirs.user_cache_dir(app) if kind == "cache" else platformdirs.user_data_dir(app)
    return Path(found)

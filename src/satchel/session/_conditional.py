"""Skills that appear as the agent works: conditional skills and nested skill roots.

Both follow Claude Code 2.1.332 (read in the pinned binary,
``.tools/claude-code-2.1.332/claude``):

* A skill whose frontmatter gives ``paths`` is held back from the session until a
  file matching one of its patterns is touched. The patterns are matched as
  Claude Code matches them, with the ``ignore`` package (gitignore rules) against
  the path relative to the project root; satchel uses the one matcher of the
  conditional rule files (`satchel.kinds._instructions._globs`, style ``gitignore``). A
  path outside the project matches nothing. Once shown, a skill stays shown.
* A skills root (each project row of the layout's table: ``.claude/skills``,
  ``.agents/skills``, the client's ``.satchel/skills`` ...) in a subdirectory of
  the project is read when a file below that subdirectory is touched, walking up
  from the file's directory to the project root (the root itself excluded, as
  Claude Code's walk stops there). A nested skill whose name is taken is named
  ``<dir>:<name>`` (CHANGELOG 2.1.178), where satchel's ``<dir>`` is the
  subdirectory relative to the project root, in POSIX form: the exact ``<dir>``
  Claude Code writes is not verified here.

Bounds: only directories inside the project (after resolving symlinks) are read,
none below ``.git`` or ``node_modules``, each directory is looked at once, and at
most `MAX_NESTED_ROOTS` nested roots are read per session. Nothing runs; nested
roots are read only when the project's skills are loaded (`Trust.load_project`),
and their skills pass the load's `enabled` and `exclude` as every other skill does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from satchel.assembly._environment import Environment
from satchel.assembly._skillset import _wanted  # the one rule of `enabled` and `exclude`
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, Root, RootSpec
from satchel.foundations.precedence import fold_name
from satchel.kinds._instructions._globs import matches, split_patterns
from satchel.skills._discover import scan_root
from satchel.skills._fields import FieldRules
from satchel.skills._model import Skill

__all__ = ["MAX_NESTED_ROOTS", "Conditional"]

MAX_NESTED_ROOTS = 32


class Conditional:
    """One session's touched files and the skills they brought in."""

    def __init__(self, environment: Environment) -> None:
        self._env = environment
        layout = environment.layout
        self._project = Path(os.path.normpath(layout.project))
        self._real_project = Path(os.path.realpath(layout.project))
        self._cwd = layout.cwd
        self._suffixes = _project_suffixes(layout.roots)
        self._touched: list[Path] = []
        self._shown: set[str] = set()
        self._nested: dict[str, Skill] = {}
        self._looked: set[Path] = set()
        self._roots_read = 0
        self._view: Mapping[str, Skill] | None = None

    @property
    def touched(self) -> tuple[Path, ...]:
        """The files reported, in order, each once, as absolute normalised paths."""
        return tuple(self._touched)

    def skills(self) -> Mapping[str, Skill]:
        """The skills the session offers now: the environment's and the nested ones
        registered so far, without the conditional ones no touch has matched."""
        if self._view is None:
            merged = {**self._env.skills, **self._nested}
            self._view = MappingProxyType(
                {n: s for n, s in merged.items() if s.paths is None or n in self._shown}
            )
        return self._view

    def touch(self, path: str | os.PathLike[str]) -> tuple[tuple[Skill, ...], list[Diagnostic]]:
        """Record that the agent read or edited `path` (relative paths are relative to
        the working directory); the skills that became available, and what went
        wrong reading nested roots."""
        given = Path(path)
        full = Path(os.path.normpath(given if given.is_absolute() else self._cwd / given))
        if full not in self._touched:
            self._touched.append(full)
        if not full.is_relative_to(self._project) or full == self._project:
            return (), []
        before = self.skills()
        problems = self._register_nested(full)
        rel = full.relative_to(self._project).as_posix()
        candidates = {**self._env.skills, **self._nested}
        for name, skill in candidates.items():
            if skill.paths is not None and name not in self._shown and _hit(skill, rel):
                self._shown.add(name)
                self._view = None
        after = self.skills()
        return tuple(s for n, s in after.items() if n not in before), problems

    def _register_nested(self, file: Path) -> list[Diagnostic]:
        problems: list[Diagnostic] = []
        if not self._env.trust.load_project or not self._suffixes:
            return problems
        for directory in _between(file.parent, self._project):
            if directory in self._looked:
                continue
            self._looked.add(directory)
            skip = self._env.layout.walk.skip_dirs
            if not set(skip).isdisjoint(directory.relative_to(self._project).parts):
                continue
            for family, suffix in self._suffixes:
                problems.extend(self._read_root(directory, family, directory / suffix))
        return problems

    def _read_root(self, directory: Path, family: str, top: Path) -> list[Diagnostic]:
        if not top.is_dir() or not Path(os.path.realpath(top)).is_relative_to(self._real_project):
            return []
        if self._roots_read >= MAX_NESTED_ROOTS:
            message = (
                f"nested skills under {top} are not read: a session reads at most "
                f"{MAX_NESTED_ROOTS} nested skills roots"
            )
            return [diagnostic("session.skills.nested-limit", message, top, severity="warning")]
        self._roots_read += 1
        opts = self._env.options
        rules = FieldRules(
            strict=opts.strict,
            unicode_names=opts.unicode_names,
            client=self._env.layout.client,
            deprecated=opts.deprecated_fields(self._env.layout.client),
            names=opts.skill_names,
        )
        scan = scan_root(Root(top, PROJECT, family), rules, self._env.layout.walk)
        where = directory.relative_to(self._project).as_posix()
        admit = _wanted(opts)
        problems = list(scan.diagnostics)
        for skill in scan.skills:
            kept, why = admit(skill)
            if why is not None:
                problems.append(why)
            if kept is not None:
                self._add(kept, where)
        return problems

    def _add(self, skill: Skill, where: str) -> None:
        taken = {fold_name(n) for n in (*self._env.skills, *self._nested)}
        name = skill.name
        if fold_name(name) in taken:
            name = f"{where}:{skill.name}"
            if fold_name(name) in taken:
                return  # two roots of one directory: the first read wins
            skill = replace(skill, name=name)
        self._nested[name] = skill
        self._view = None


def _hit(skill: Skill, rel: str) -> bool:
    patterns = split_patterns(list(skill.paths or ()))
    return bool(patterns) and matches(patterns or (), rel, "gitignore")


def _between(start: Path, project: Path) -> list[Path]:
    """The directories from `start` up to `project`, `project` excluded, nearest first."""
    chain: list[Path] = []
    here = start
    while here != project and here.is_relative_to(project):
        chain.append(here)
        here = here.parent
    return chain


def _project_suffixes(specs: tuple[RootSpec, ...]) -> tuple[tuple[str, Path], ...]:
    """The project rows of the skills table as (family, path below a directory), each
    once: ``{project}/.claude/skills`` gives ``.claude/skills``."""
    found: dict[Path, str] = {}
    for spec in specs:
        head, _, rest = spec.template.partition("/")
        if spec.scope == PROJECT and head == "{project}" and rest and "{" not in rest:
            found.setdefault(Path(rest), spec.family)
    return tuple((family, suffix) for suffix, family in found.items())

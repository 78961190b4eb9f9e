"""The hosts' own instruction files: Claude Code, Cursor, Gemini CLI and Copilot.

Every mode walks the project root down to cwd (never above the root: satchel reads
no file outside its roots, where some hosts go on up to ``/``) and reads the user's
files under the home. Sources, and what is unverified:

* ``claude-code``: the pinned Claude Code 2.1.332 binary (its memory loader, read in
  ``.tools/``) and code.claude.com/docs/en/memory. ``~/.claude/CLAUDE.md``, then
  ``~/.claude/rules/**/*.md``; then in each directory from the root down to cwd
  ``CLAUDE.md``, ``.claude/CLAUDE.md`` (both: neither hides the other),
  ``.claude/rules/**/*.md`` and ``CLAUDE.local.md``. Never AGENTS.md. Rules are read
  recursively, symlinks followed (a loop is visited once). A rule's ``paths:`` (a
  glob, a comma-separated string, or a list) makes it conditional, matched
  gitignore-style against the path relative to the directory holding ``.claude/``
  (the user's rules: relative to cwd); a trailing ``/**`` is dropped and
  ``paths: "**"`` is unconditional, as in the binary. Claude Code itself walks up to
  the filesystem root and orders a directory's rules as ``readdir`` returns them;
  satchel stops at the project root and sorts by name. ``@path`` imports are read as
  Claude Code reads them (`satchel._instructions._claude_imports`).
* ``cursor``: cursor.com/docs/context/rules. ``.cursorrules`` at the root (legacy),
  then ``.cursor/rules/**/*.mdc`` in each directory from the root down to cwd (a
  plain ``.md`` there is ignored by Cursor), then ``AGENTS.md`` in the same
  directories. Frontmatter: ``alwaysApply: true`` is Always; else ``globs`` is Auto
  Attached; else ``description`` is Agent Requested; else Manual (``@rule``). User
  rules live in Cursor's settings, not in files. The order between these sources is
  not documented (unverified).
* ``gemini``: geminicli.com/docs/cli/gemini-md and Gemini CLI 0.61.0 as run.
  ``~/.gemini/GEMINI.md``, then ``GEMINI.md`` in each directory from the root down
  to cwd; never AGENTS.md or CLAUDE.md. The ``context.fileName`` setting adds file
  names read before it (a string or a list: `gemini_context_names`). ``@file.md`` imports are
  inlined as Gemini CLI inlines them (`satchel._instructions._gemini_imports`).
* ``copilot``: docs.github.com, Copilot CLI custom instructions.
  ``~/.copilot/copilot-instructions.md`` and ``~/.copilot/instructions/**/*.instructions.md``;
  then ``.github/copilot-instructions.md`` and ``AGENTS.md`` in each directory from
  the root down to cwd, ``CLAUDE.md`` and ``GEMINI.md`` at the root only, and
  ``.github/instructions/**/*.instructions.md`` (``applyTo`` globs, relative to the
  root) in the same directories. A path-specific file without ``applyTo`` is Manual.
  The order between these sources is not documented (unverified).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from satchel._instructions._claude_imports import read_imports
from satchel._instructions._gemini_imports import inline_imports, project_root
from satchel._instructions._globs import split_patterns
from satchel._instructions._model import ALWAYS, Condition, InstructionFile, Kind, Scope
from satchel._instructions._read import AGENTS, CLAUDE, Loader, project_dirs
from satchel.diagnostics import Diagnostic, type_name
from satchel.layout import Layout

GEMINI = "GEMINI.md"
LOCAL = "CLAUDE.local.md"
COPILOT = "copilot-instructions.md"

ConditionOf = Callable[[Loader, Path, Scope, dict[str, Any], Path], Condition | None]


def claude_code_mode(loader: Loader, trust_project: bool) -> None:
    user = loader.layout.home / ".claude"
    loader.user_paths = {user / CLAUDE}
    _claude_file(loader, user / CLAUDE, "user", "claude", loader.layout.home)
    _rules(loader, user / "rules", "user", ".md", loader.layout.cwd, _claude_condition)
    if not trust_project:
        return
    for d in project_dirs(loader.layout, walk=True):
        _claude_file(loader, d / CLAUDE, "project", "claude")
        _claude_file(loader, d / ".claude" / CLAUDE, "project", "claude")
        _rules(loader, d / ".claude" / "rules", "project", ".md", d, _claude_condition)
        _claude_file(loader, d / LOCAL, "project", "local")


def _claude_file(
    loader: Loader, path: Path, scope: Scope, kind: Kind, directory: Path | None = None
) -> None:
    """A CLAUDE.md (or CLAUDE.local.md), then the files it imports."""
    text = loader.read(path, scope)
    if text and loader.add(path, scope, kind, text, directory=directory):
        for found, got in read_imports(loader, path, text, scope, kind):
            loader.add(found, scope, kind, got, directory=directory)


def cursor_mode(loader: Loader, trust_project: bool) -> None:
    if not trust_project:
        return
    dirs = project_dirs(loader.layout, walk=True)
    loader.load(loader.layout.project / ".cursorrules", "project", "legacy")
    for d in dirs:
        _rules(loader, d / ".cursor" / "rules", "project", ".mdc", d, _cursor_condition)
    for d in dirs:
        loader.load(d / AGENTS, "project", "agents")


def gemini_mode(loader: Loader, trust_project: bool, names: Sequence[str]) -> None:
    user = loader.layout.home / ".gemini"
    loader.user_paths = {user / n for n in names}
    for name in names:
        _gemini_file(loader, user / name, "user")
    if not trust_project:
        return
    for d in project_dirs(loader.layout, walk=True):
        for name in names:
            _gemini_file(loader, d / name, "project")


def copilot_mode(loader: Loader, trust_project: bool) -> None:
    user = loader.layout.home / ".copilot"
    loader.user_paths = {user / COPILOT}
    loader.load(user / COPILOT, "user", "copilot")
    root = loader.layout.project
    _rules(loader, user / "instructions", "user", ".instructions.md", root, _copilot_condition)
    if not trust_project:
        return
    dirs = project_dirs(loader.layout, walk=True)
    for d in dirs:
        loader.load(d / ".github" / COPILOT, "project", "copilot", d)
        loader.load(d / AGENTS, "project", "agents")
        if d == root:
            loader.load(d / CLAUDE, "project", "claude")
            loader.load(d / GEMINI, "project", "gemini")
    for d in dirs:
        folder = d / ".github" / "instructions"
        _rules(loader, folder, "project", ".instructions.md", root, _copilot_condition)


def cursor_rules(
    root: Path, directory: Path, max_file: int
) -> tuple[tuple[InstructionFile, ...], tuple[Diagnostic, ...]]:
    """A Cursor plugin's rules: the ``.mdc`` files below `directory` with their
    conditions, as the project's rules are read (kept inside the plugin `root`)."""
    loader = Loader(Layout.default(root, project=root, home=root, env={}), max_file)
    _rules(loader, directory, "project", ".mdc", root, _cursor_condition)
    return tuple(loader.files), tuple(loader.diags)


def gemini_context_names(value: object) -> tuple[str, ...]:
    """The file names Gemini CLI reads for its ``context.fileName`` setting (a string or
    a list of strings): those names, then ``GEMINI.md``, which Gemini CLI 0.61.0 keeps
    beside them (observed: with ``["AGENTS.md", "CTX.md"]`` it reads GEMINI.md too; its
    ``setGeminiMdFilename`` adds the names to the current ones); ``GEMINI.md`` alone
    when it is unset, empty or not such a value. A name that is not a plain file name
    (``a/b.md``, ``..``) is left out."""
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    kept = (n.strip() for n in names if isinstance(n, str) and plain_name(n.strip()))
    return tuple(dict.fromkeys((*kept, GEMINI)))


def plain_name(name: str) -> bool:
    """Whether `name` is one file name: not empty, no separator, not ``.``/``..``."""
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..")


def _rules(
    loader: Loader,
    directory: Path,
    scope: Scope,
    suffix: str,
    base: Path,
    condition_of: ConditionOf,
) -> None:
    for path in loader.rule_files(directory, scope, suffix):
        text = loader.read(path, scope)
        if not text:
            continue
        split = loader.split_rule(path, scope, text)
        if split is None:
            continue
        fields, body = split
        condition = condition_of(loader, path, scope, fields, base)
        if condition is not None:
            owner = base if scope == "project" else loader.layout.home
            loader.add(path, scope, "rule", body, directory=owner, condition=condition)
            if condition_of is _claude_condition and condition == ALWAYS:
                for found, got in read_imports(loader, path, body, scope, "claude"):
                    loader.add(found, scope, "claude", got, directory=owner)


def _claude_condition(
    loader: Loader, path: Path, scope: Scope, fields: dict[str, Any], base: Path
) -> Condition | None:
    if fields.get("paths") is None:
        return ALWAYS
    patterns = split_patterns(fields["paths"])
    if patterns is None:
        why = f"`paths` is {type_name(fields['paths'])}, not a glob or a list of globs"
        loader.invalid(path, scope, f"{why}: it applies always, as in Claude Code", loaded=True)
        return ALWAYS
    globs = tuple(p.removesuffix("/**") for p in patterns if p.removesuffix("/**"))
    if all(g == "**" for g in globs):
        return ALWAYS
    return Condition("globs", globs, base=base, style="gitignore")


def _cursor_condition(
    loader: Loader, path: Path, scope: Scope, fields: dict[str, Any], base: Path
) -> Condition | None:
    always = fields.get("alwaysApply", False)
    if not isinstance(always, bool):  # `yes` too: Cursor reads YAML 1.2, as satchel does
        why = f"`alwaysApply` is {type_name(always)}, not true or false"
        loader.invalid(path, scope, f"{why}: taken as false", loaded=True)
        always = False
    description = _text_field(loader, path, scope, fields, "description")
    globs = _globs_field(loader, path, scope, fields, "globs")
    if always:
        return Condition("always", description=description)
    if globs:
        return Condition("globs", globs, description, base, "glob")
    return Condition("description" if description else "manual", description=description)


def _copilot_condition(
    loader: Loader, path: Path, scope: Scope, fields: dict[str, Any], base: Path
) -> Condition | None:
    description = _text_field(loader, path, scope, fields, "description")
    globs = _globs_field(loader, path, scope, fields, "applyTo")
    if globs:
        return Condition("globs", globs, description, base, "glob")
    return Condition("manual", description=description)


def _text_field(
    loader: Loader, path: Path, scope: Scope, fields: dict[str, Any], key: str
) -> str | None:
    value = fields.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        why = f"`{key}` is {type_name(value)}, not text: it is left out"
        loader.invalid(path, scope, why, loaded=True)
        return None
    return value.strip()


def _globs_field(
    loader: Loader, path: Path, scope: Scope, fields: dict[str, Any], key: str
) -> tuple[str, ...]:
    value = fields.get(key)
    if value is None:
        return ()
    patterns = split_patterns(value)
    if patterns is None:
        why = f"`{key}` is {type_name(value)}, not a glob or a list of globs: it is left out"
        loader.invalid(path, scope, why, loaded=True)
        return ()
    return patterns


def _gemini_file(loader: Loader, path: Path, scope: Scope) -> None:
    text = loader.read(path, scope)
    if not text:
        return
    bounds: tuple[Path, ...] = (project_root(path.parent),)
    if scope == "project":
        bounds += (loader.layout.project,)
    loader.add(path, scope, "gemini", inline_imports(text, path.parent, bounds, loader.max_file))

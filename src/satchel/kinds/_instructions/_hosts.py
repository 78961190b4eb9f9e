"""The hosts' own instruction files: Claude Code, Cursor, Gemini CLI and Copilot.

Each is an `InstructionRule` its host's definition holds (`satchel.hosts`); the one
reader here, `every_file`, reads what a rule names (a file, the ``{context}`` names,
or a folder of rule files with its condition dialect and import syntax) in the user's
folder, then pass by pass over the project's folders. What the rules say:

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
  Claude Code reads them (`satchel.kinds._instructions._claude_imports`).
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
  inlined as Gemini CLI inlines them (`satchel.kinds._instructions._gemini_imports`).
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

from satchel.core.diagnostics import Diagnostic, type_name
from satchel.core.layout import Layout
from satchel.hosts._instructions import (
    ConditionDialect,
    ImportSyntax,
    InstructionRule,
    InstructionSource,
    RuleFiles,
)
from satchel.kinds._instructions._claude_imports import read_imports
from satchel.kinds._instructions._gemini_imports import inline_imports, project_root
from satchel.kinds._instructions._globs import split_patterns
from satchel.kinds._instructions._model import ALWAYS, Condition, InstructionFile, Kind, Scope
from satchel.kinds._instructions._read import Loader, client_file, project_dirs

GEMINI = "GEMINI.md"
CONTEXT, CLIENT = "{context}", "{client}"

ConditionOf = Callable[[Loader, Path, Scope, dict[str, Any], Path], Condition | None]


def user_folder(layout: Layout, rule: InstructionRule) -> Path | None:
    """The rule's user folder under `layout` (None: it reads no user file)."""
    folder = rule.user_folder
    if folder is None:
        return None
    if folder.startswith("{config}/{client}"):
        return layout.config_home / layout.client / folder.removeprefix("{config}/{client}")
    return layout.home / folder.removeprefix("~/")


def places(
    loader: Loader, source: InstructionSource, folder: Path, names: Sequence[str]
) -> tuple[Path, ...]:
    """The paths `source` names in `folder` (``{context}``: each of `names`;
    ``{client}``: the client's own file, if its name can be one; ``~/``: the home)."""
    if source.path == CONTEXT:
        return tuple(folder / n for n in names)
    if source.path == CLIENT:
        own = client_file(loader.layout.client)
        return () if own is None else (folder / own,)
    if source.path.startswith("~/"):
        return (loader.layout.home / source.path.removeprefix("~/"),)
    return (folder / source.path,)


def user_files(loader: Loader, rule: InstructionRule, names: Sequence[str]) -> set[Path]:
    """The user's files of `rule` (a project folder that is the user's folder does not
    read them again)."""
    user = user_folder(loader.layout, rule)
    if user is None:
        return set()
    return {p for s in rule.user if s.rules is None for p in places(loader, s, user, names)}


def walk_dirs(loader: Loader, rule: InstructionRule) -> list[Path]:
    """The project folders `rule` reads, root first."""
    walk = rule.walk == "root-to-cwd" or loader.layout.ancestors
    return project_dirs(loader.layout, walk=walk)


def every_file(
    loader: Loader,
    rule: InstructionRule,
    trust_project: bool,
    names: Sequence[str],
    max_total: int,
) -> None:
    """Each source of `rule` that is there: the user's folder's, then each pass over
    the project's folders (`InstructionRule.passes`)."""
    user = user_folder(loader.layout, rule)
    if user is not None:
        loader.user_paths = user_files(loader, rule, names)
        for source in rule.user:
            _source(loader, source, user, "user", user, names)
    if not trust_project:
        return
    dirs = walk_dirs(loader, rule)
    for sources in rule.passes:
        for d in dirs:
            for source in sources:
                if not source.root_only or d == loader.layout.project:
                    _source(loader, source, d, "project", d, names)


def _source(
    loader: Loader,
    source: InstructionSource,
    folder: Path,
    scope: Scope,
    level: Path,
    names: Sequence[str],
) -> None:
    for path in places(loader, source, folder, names):
        if source.rules is not None:
            base = _base(loader, source.rules, level)
            _rules(loader, path, scope, source.rules, base, source.imports)
        elif source.imports is not None:
            _IMPORTING[source.imports](loader, path, scope, source.kind)
        else:
            loader.load(path, scope, source.kind, level if source.speaks_for_folder else None)


def _base(loader: Loader, rules: RuleFiles, level: Path) -> Path:
    """The folder a rule's globs are relative to."""
    if rules.base == "root":
        return loader.layout.project
    return loader.layout.cwd if rules.base == "cwd" else level


def _with_at_files(loader: Loader, path: Path, scope: Scope, kind: Kind) -> None:
    """A file, then the files its ``@path`` lines import (Claude Code); a user file
    and its imports speak for the home."""
    directory = loader.layout.home if scope == "user" else None
    text = loader.read(path, scope)
    if text and loader.add(path, scope, kind, text, directory=directory):
        for found, got in read_imports(loader, path, text, scope, kind):
            loader.add(found, scope, kind, got, directory=directory)


def _with_at_inline(loader: Loader, path: Path, scope: Scope, kind: Kind) -> None:
    """A file with its ``@file.md`` imports inlined (Gemini CLI), bounded by its
    repository (and, for a project file, the project)."""
    text = loader.read(path, scope)
    if not text:
        return
    bounds: tuple[Path, ...] = (project_root(path.parent),)
    if scope == "project":
        bounds += (loader.layout.project,)
    loader.add(path, scope, kind, inline_imports(text, path.parent, bounds, loader.max_file))


_IMPORTING: dict[ImportSyntax, Callable[[Loader, Path, Scope, Kind], None]] = {
    "at-files": _with_at_files,
    "at-inline": _with_at_inline,
}


def cursor_rules(
    root: Path, directory: Path, max_file: int
) -> tuple[tuple[InstructionFile, ...], tuple[Diagnostic, ...]]:
    """A Cursor plugin's rules: the ``.mdc`` files below `directory` with their
    conditions, as the project's rules are read (kept inside the plugin `root`)."""
    loader = Loader(Layout.default(root, project=root, home=root, env={}), max_file)
    _rules(loader, directory, "project", _CURSOR_RULES, root, None)
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
    rules: RuleFiles,
    base: Path,
    imports: ImportSyntax | None,
) -> None:
    condition_of = _CONDITIONS[rules.condition]
    for path in loader.rule_files(directory, scope, rules.suffix):
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
            if imports == "at-files" and condition == ALWAYS:
                for found, got in read_imports(loader, path, body, scope, rules.imported):
                    loader.add(found, scope, rules.imported, got, directory=owner)


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


_CONDITIONS: dict[ConditionDialect, ConditionOf] = {
    "paths": _claude_condition,
    "always-apply": _cursor_condition,
    "apply-to": _copilot_condition,
}
_CURSOR_RULES = RuleFiles(".mdc", "always-apply")

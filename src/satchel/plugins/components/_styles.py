"""Output styles: Markdown files whose body goes in the system prompt.

Where Claude Code reads them (https://code.claude.com/docs/en/output-styles and
/plugins-reference; checked against ``claude plugin validate --json`` 2.1.332):

* a plugin's ``output-styles/`` directory, walked for ``*.md`` at any depth; the
  manifest's ``outputStyles`` (a path or a list of paths, files or directories)
  REPLACES that directory;
* the user's ``~/.claude/output-styles/`` and the project's ``.claude/output-styles/``.

Frontmatter is optional: ``name`` (else the file stem), ``description``,
``keep-coding-instructions`` and ``force-for-plugin`` (booleans, default false). A
plugin's style is ``<plugin>:<name>`` (``claude plugin validate`` lists
``t1:Terse`` for ``output-styles/terse.md`` named ``Terse``); a user or project style
is its bare name. A field of the wrong type is ``output_style.field.invalid`` and
takes its default (a non-string scalar ``name`` is used as text, as Claude Code
shows ``name: 5`` as ``t1:5``): the style still loads, as in Claude Code. A file that
cannot be read is ``output_style.invalid`` and skipped.

Rendering (`OutputStyle.segment`): the body is one context segment. Claude Code
drops the coding instructions of its own system prompt for a style unless
``keep-coding-instructions`` is true; satchel has no system prompt of its own, so the
segment says which it is (`replaces_system_prompt`) and the host drops or keeps its
own. ``force-for-plugin`` (plugins only): the style applies while the plugin is
enabled, whatever is selected. Which of a user and a project style of one name wins
is not documented; satchel lets the project's win (unverified).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._text import yes_or_no
from satchel.core.diagnostics import CODES, Diagnostic, diagnostic, recast, type_name
from satchel.core.errors import UnknownOutputStyle
from satchel.core.layout import Layout
from satchel.foundations import frontmatter
from satchel.foundations._contain import Refusal, read_inside
from satchel.plugins._kinds import SEGMENT_ID, OutputStyle, StyleScope
from satchel.plugins._model import Plugin
from satchel.plugins.components._kindfiles import kind_files

__all__ = [
    "DEFAULT_DIR",
    "MAX_STYLE",
    "SEGMENT_ID",
    "OutputStyle",
    "StyleScope",
    "read_output_style",
    "read_output_styles",
    "select_output_style",
    "user_and_project_styles",
]

DEFAULT_DIR = "output-styles"
MAX_STYLE = 256 * 1024
INVALID = "output_style.invalid"
FIELD = "output_style.field.invalid"
_FLAGS = {
    "keep-coding-instructions": "keep_coding_instructions",
    "force-for-plugin": "force_for_plugin",
}


def read_output_style(
    path: Path, root: Path, *, scope: StyleScope, plugin: str | None = None
) -> tuple[OutputStyle | None, list[Diagnostic]]:
    """The style in `path` (which must stay inside `root`), or None when the file
    cannot be read; a field of the wrong type is reported and takes its default."""
    data = read_inside(path, root, MAX_STYLE)
    if isinstance(data, Refusal):
        return None, [data.diagnostic(INVALID, path)]
    problem = frontmatter.check_text(data, 0, path)
    if problem is not None:
        message = f"the output style is not UTF-8 text ({problem.message}); it is skipped"
        return None, [diagnostic(INVALID, message, path, severity="warning")]
    fields, body_start, diags = _head(data, path)
    text = frontmatter.decode_body(data, body_start)
    values: dict[str, Any] = {"name": path.stem}
    found: list[Diagnostic] = list(diags)
    for key, value in fields.items():
        found.extend(_field(values, key, value, path))
    style = OutputStyle(text=text, path=path, scope=scope, plugin=plugin, **values)
    return style, found


def _head(data: bytes, path: Path) -> tuple[Mapping[str, Any], int, tuple[Diagnostic, ...]]:
    """The frontmatter fields ({} when there is none) and where the body starts."""
    if frontmatter.locate(data, complete=True).status == "missing":
        return {}, len(frontmatter.BOM) if data.startswith(frontmatter.BOM) else 0, ()
    parsed = frontmatter.parse(data, path, keys=frozenset(("name", "description", *_FLAGS)))
    diags = tuple(_loads_anyway(d) for d in parsed.diagnostics)
    return parsed.fields or {}, parsed.body_start, diags


def _loads_anyway(found: Diagnostic) -> Diagnostic:
    """A frontmatter problem as a warning when its code allows it: the style loads."""
    if found.severity != "error" or "warning" not in CODES[found.code].emitted:
        return found
    return recast(found, "warning", message=f"{found.message}; the style loads without it")


def _field(values: dict[str, Any], key: str, value: Any, path: Path) -> list[Diagnostic]:
    """Set `key` from `value` in `values`; the problem when its type is wrong."""
    if key in ("name", "description"):
        if isinstance(value, str) and value.strip():
            values[key] = value.strip()
            return []
        if key == "name" and isinstance(value, int | float) and not isinstance(value, bool):
            values[key] = str(value)
        return [_bad(key, "a string", value, path)] if value is not None else []
    if key in _FLAGS:
        flag = yes_or_no(value.lower() if isinstance(value, str) else value)
        if isinstance(flag, bool):
            values[_FLAGS[key]] = flag
            return []
        return [_bad(key, "true or false", value, path)]
    return []  # other keys are not read, as in Claude Code


def _bad(key: str, want: str, value: Any, path: Path) -> Diagnostic:
    if key == "name":
        number = isinstance(value, int | float) and not isinstance(value, bool)
        then = "it is used as text" if number else "the file name is used"
    else:
        then = "it is false" if key in _FLAGS else "it is left out"
    message = f"`{key}` must be {want}, not {type_name(value)}; {then}"
    return diagnostic(FIELD, message, path, severity="warning")


def read_output_styles(
    paths: Iterable[Path], root: Path, *, scope: StyleScope, plugin: str | None = None
) -> tuple[list[OutputStyle], list[Diagnostic]]:
    """The styles of `paths` (files or directories walked for ``*.md``), and every
    problem; a path that does not exist is reported when the caller named it."""
    files, missing = kind_files(paths, (".md",), recursive=True)
    diags = [
        diagnostic(
            INVALID, f"{p.name} does not exist; no style loads from it", p, severity="warning"
        )
        for p in missing
    ]
    styles: list[OutputStyle] = []
    for file in files:
        style, found = read_output_style(file, root, scope=scope, plugin=plugin)
        diags.extend(found)
        if style is not None:
            styles.append(style)
    return styles, diags


def user_and_project_styles(
    layout: Layout, plugins: Sequence[Plugin], *, trust_project: bool
) -> tuple[Mapping[str, OutputStyle], tuple[Diagnostic, ...]]:
    """Every style a load can select, by id: the user's ``~/.claude/output-styles``,
    the project's ``.claude/output-styles`` (when the project loads), whose names win,
    then the enabled `plugins`' (already read)."""
    found: dict[str, OutputStyle] = {}
    diags: list[Diagnostic] = []
    scopes: list[tuple[Path, StyleScope]] = [(layout.home / ".claude" / DEFAULT_DIR, "user")]
    if trust_project:
        scopes.append((layout.project / ".claude" / DEFAULT_DIR, "project"))
    for directory, scope in scopes:
        if not directory.is_dir():
            continue
        styles, problems = read_output_styles([directory], directory, scope=scope)
        diags.extend(problems)
        found.update((s.id, s) for s in styles)
    found.update((s.id, s) for p in plugins for s in p.output_styles)
    return MappingProxyType(found), tuple(diags)


def select_output_style(styles: Mapping[str, OutputStyle], name: str | None) -> OutputStyle | None:
    """The style `name` selects (its id), or, with no name, the first forced plugin
    style by id (None when there is none). `UnknownOutputStyle` when no style has
    that id."""
    if name is None:
        forced = sorted((s for s in styles.values() if s.force_for_plugin and s.plugin), key=_id)
        return forced[0] if forced else None
    style = styles.get(name)
    if style is None:
        known = ", ".join(sorted(styles)) or "none is loaded"
        message = f"no output style {name!r} (loaded: {known})"
        raise UnknownOutputStyle(diagnostic("session.output_style.unknown", message))
    return style


def _id(style: OutputStyle) -> str:
    return style.id

"""Colour themes: a plugin's ``themes/*.json`` (not walked deeper); the manifest's
``experimental.themes`` (a path or a list of paths, files or directories) replaces
that directory.

As ``claude plugin validate --json`` 2.1.332 lists them: a theme is
``<plugin>:<file stem>`` whatever its own ``name`` (``themes/dark.json`` holding
``"name": "Dark Pro"`` is ``t1:dark``); a file that is not a JSON object (bad JSON,
an array) is left out without a word. satchel leaves it out too and says why
(`plugin.theme.invalid`). A theme is data for a host's terminal UI: satchel keeps its
``name`` and ``base`` when they are strings and the file, nothing more (the colour
keys are not documented; https://code.claude.com/docs/en/plugins-reference lists
``themes/`` only by name).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import read_json
from satchel.plugins._kinds import Theme
from satchel.plugins.components._kindfiles import kind_files

__all__ = ["DEFAULT_DIR", "Theme", "read_themes"]

DEFAULT_DIR = "themes"
INVALID = "plugin.theme.invalid"


def read_themes(
    paths: Iterable[Path], root: Path, plugin: str
) -> tuple[list[Theme], list[Diagnostic]]:
    """The themes of `paths` (``*.json`` files, directories one level deep)."""
    files, missing = kind_files(paths, (".json",), recursive=False)
    diags = [_invalid(f"{p.name} does not exist; no theme loads from it", p) for p in missing]
    themes: list[Theme] = []
    for file in files:
        theme, problem = _theme(file, root, plugin)
        if theme is not None:
            themes.append(theme)
        if problem is not None:
            diags.append(problem)
    return themes, diags


def _theme(path: Path, root: Path, plugin: str) -> tuple[Theme | None, Diagnostic | None]:
    value, problem = read_json(path, root, INVALID)
    if problem is not None:
        return None, problem
    if not isinstance(value, dict):
        message = f"a theme is a JSON object, not {type_name(value)}; it is left out"
        return None, _invalid(message, path)
    title, base = value.get("name"), value.get("base")
    return Theme(
        path.stem,
        path,
        title if isinstance(title, str) else None,
        base if isinstance(base, str) else None,
        plugin,
    ), None


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, message, path, severity="warning")

"""Which manifest format a plugin directory holds: a table of markers, read in order.

1. A root ``plugin.json`` whose ``$schema`` is the Agent Plugins 1.0.0 URL is native
   (``agent-plugins``) and wins over any foreign marker beside it, with no ambiguity
   (seed 003: one plugin can carry several hosts' manifests). Another
   ``https://agent-plugins.org/schemas/`` URL is fatal
   ``plugin.schema.version_unsupported``. A ``plugin.json`` that is not a JSON object,
   with no foreign marker beside it, is fatal ``plugin.manifest.invalid``; one without an
   Agent Plugins ``$schema`` counts for nothing (Kimi CLI's old beta ``plugin.json``
   looks like that).
2. Otherwise every row of `DETECTION` is checked. The formats whose markers are
   present: none is fatal ``plugin.compatibility.format_unrecognized``, more than one
   fatal ``plugin.compatibility.format_ambiguous``.

Claude Code's manifest is optional, so the ``.claude-plugin/`` directory marks a
Claude Code plugin even without ``plugin.json`` in it, unless all it holds is a
``marketplace.json`` (a marketplace, not a plugin). A bare Claude default layout
(``skills/``, ``commands/``...) with no ``.claude-plugin/`` is not a marker: it is
every workspace's layout. OpenCode's markers are Vibe's: code under
``.opencode/plugins`` or ``.opencode/tools``, ``opencode.json(c)``, a ``package.json``
with the keyword ``opencode`` or ``opencode-plugin``, or ``.opencode/skills/*/SKILL.md``.

Detection only looks: it lists and stats inside the root and reads two small JSON
files (``plugin.json``, ``package.json``) when they resolve inside it. Without a native
``plugin.json`` the root is listed once, and a marker whose first component is not in
the listing is not looked at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from satchel.diagnostics import Diagnostic, diagnostic, type_name
from satchel.plugins._parts import contained, is_dir, is_file, read_json, resolve_root
from satchel.plugins.model import Format

__all__ = [
    "CODE_SUFFIXES",
    "DETECTION",
    "Marker",
    "NATIVE_MANIFEST",
    "NATIVE_SCHEMA",
    "SCHEMA_PREFIX",
    "detect",
]

NATIVE_MANIFEST = "plugin.json"
NATIVE_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
SCHEMA_PREFIX = "https://agent-plugins.org/schemas/"
CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
OPENCODE_KEYWORDS = frozenset(("opencode", "opencode-plugin"))

Test = Literal["file", "claude-dir", "code", "package-keyword", "skills"]


@dataclass(frozen=True, slots=True)
class Marker:
    """One row of the table: `path` (plugin-relative) marks `format` when `test`
    holds: ``file`` (a file is there), ``claude-dir`` (the ``.claude-plugin``
    directory, not just a marketplace), ``code`` (a directory holding JS/TS),
    ``package-keyword`` (a package.json with an OpenCode keyword) or ``skills``
    (a directory with ``*/SKILL.md``)."""

    format: Format
    path: str
    test: Test


DETECTION: tuple[Marker, ...] = (
    Marker("bundle", "plugin.toml", "file"),
    Marker("claude", ".claude-plugin", "claude-dir"),
    Marker("codex", ".codex-plugin/plugin.json", "file"),
    Marker("kimi", "kimi.plugin.json", "file"),
    Marker("kimi", ".kimi-plugin/plugin.json", "file"),
    Marker("opencode", ".opencode/plugins", "code"),
    Marker("opencode", ".opencode/tools", "code"),
    Marker("opencode", "opencode.json", "file"),
    Marker("opencode", "opencode.jsonc", "file"),
    Marker("opencode", "package.json", "package-keyword"),
    Marker("opencode", ".opencode/skills", "skills"),
)


def detect(root: Path, *, real_root: Path | None = None) -> tuple[Format | None, list[Diagnostic]]:
    """The format of the plugin at `root`, or None and the fatal diagnostic.
    `real_root`: `root` already resolved, when the caller has it."""
    top = resolve_root(Path(root)) if real_root is None else real_root
    native = _native(top)
    if native is not None:
        return native
    found = markers(top, _listing(top))
    formats = list(dict.fromkeys(m.format for m in found))
    if len(formats) == 1:
        return formats[0], []
    if len(formats) > 1:
        seen = ", ".join(f"{m.path} ({m.format})" for m in found)
        message = f"markers of more than one plugin format: {seen}"
        hint = "add a native plugin.json (Agent Plugins 1.0), which takes precedence"
        return None, [_fatal("plugin.compatibility.format_ambiguous", message, top, hint)]
    broken = _broken_native(top)
    if broken is not None:
        return None, [broken]
    message = "no supported plugin manifest found"
    hint = f"add a plugin.json with $schema {NATIVE_SCHEMA}"
    return None, [_fatal("plugin.compatibility.format_unrecognized", message, top, hint)]


def markers(root: Path, names: Collection[str] | None = None) -> list[Marker]:
    """The rows of `DETECTION` that hold in `root` (a resolved directory). `names`: the
    names in `root`, casefolded, when the caller has listed it: a row whose first
    component is not among them cannot hold, and is not looked at."""
    return [
        m
        for m in DETECTION
        if (names is None or m.path.split("/", 1)[0].casefold() in names)
        and _TESTS[m.test](root / m.path, root)
    ]


def _listing(root: Path) -> frozenset[str] | None:
    """The names in `root`, casefolded (a name that differs only in case is still
    looked at, for filesystems that ignore case); None when it cannot be listed."""
    try:
        return frozenset(name.casefold() for name in os.listdir(root))
    except OSError:
        return None


def _native(root: Path) -> tuple[Format | None, list[Diagnostic]] | None:
    """The verdict of the root ``plugin.json``'s ``$schema``; None: no verdict."""
    path = root / NATIVE_MANIFEST
    if not os.path.lexists(path):
        return None
    if not contained(path, root):
        message = "plugin.json resolves outside the plugin root"
        return None, [_fatal("plugin.path.outside_root", message, path)]
    value, _ = read_json(path)
    schema = value.get("$schema") if isinstance(value, dict) else None
    if schema == NATIVE_SCHEMA:
        return "agent-plugins", []
    other = other_version(schema, path)
    return None if other is None else (None, [other])


def other_version(schema: Any, path: Path) -> Diagnostic | None:
    """The fatal diagnostic for a `$schema` naming another Agent Plugins version."""
    if not isinstance(schema, str) or not schema.startswith(SCHEMA_PREFIX):
        return None
    message = f"$schema {schema!r} is not a supported Agent Plugins version (1.0.0)"
    return _fatal("plugin.schema.version_unsupported", message, path, f"use {NATIVE_SCHEMA}")


def _broken_native(root: Path) -> Diagnostic | None:
    """A root plugin.json that is not a JSON object, with nothing else to go on."""
    path = root / NATIVE_MANIFEST
    if not os.path.lexists(path):
        return None
    value, problem = read_json(path)
    if problem is None and not isinstance(value, dict):
        problem = f"it must hold a JSON object, not {type_name(value)}"
    if problem is None:
        return None
    return _fatal("plugin.manifest.invalid", f"plugin.json: {problem}", path)


def _file(path: Path, root: Path) -> bool:
    return os.path.lexists(path) and not is_dir(path)


def _claude_dir(path: Path, root: Path) -> bool:
    if not is_dir(path):
        return False
    if os.path.lexists(path / "plugin.json"):
        return True
    try:
        names = set(os.listdir(path))
    except OSError:
        return True
    return names != {"marketplace.json"}


def _code(path: Path, root: Path) -> bool:
    """Whether the directory holds a JS/TS file (one level of subdirectories too)."""
    return bool(code_files(path, root))


def code_files(directory: Path, root: Path) -> list[Path]:
    """The JS/TS files in `directory` and its immediate subdirectories, in name
    order (only listed, never opened)."""
    found: list[Path] = []
    for path in _entries(directory, root):
        if path.name.endswith(CODE_SUFFIXES):
            found.append(path)
        elif is_dir(path):
            found += [p for p in _entries(path, root) if p.name.endswith(CODE_SUFFIXES)]
    return found


def _entries(directory: Path, root: Path) -> list[Path]:
    if not is_dir(directory) or not contained(directory, root):
        return []
    try:
        return [directory / name for name in sorted(os.listdir(directory))]
    except OSError:
        return []


def opencode_package(path: Path, root: Path) -> bool:
    """Whether `path` is a package.json with the keyword opencode or opencode-plugin."""
    if not is_file(path) or not contained(path, root):
        return False
    value, _ = read_json(path)
    keywords = value.get("keywords") if isinstance(value, dict) else None
    return isinstance(keywords, list) and any(
        isinstance(k, str) and k in OPENCODE_KEYWORDS for k in keywords
    )


def _skills(path: Path, root: Path) -> bool:
    return any(os.path.lexists(p / "SKILL.md") for p in _entries(path, root) if is_dir(p))


_TESTS: dict[Test, Callable[[Path, Path], bool]] = {
    "file": _file,
    "claude-dir": _claude_dir,
    "code": _code,
    "package-keyword": opencode_package,
    "skills": _skills,
}


def _fatal(code: str, message: str, path: Path, hint: str | None = None) -> Diagnostic:
    return diagnostic(code, message, path, hint=hint, severity="error")

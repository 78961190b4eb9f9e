"""Which manifest format a plugin directory holds: a table of markers, read in order.

1. A root ``plugin.json`` whose ``$schema`` is the Agent Plugins 1.0.0 URL is native
   (``agent-plugins``) and wins over any foreign marker beside it, with no diagnostic
   (one plugin can carry several hosts' manifests). Another
   ``https://agent-plugins.org/schemas/`` URL is fatal
   ``plugin.schema.version_unsupported``. A ``plugin.json`` that is not a JSON object,
   with no foreign marker beside it, is fatal ``plugin.manifest.invalid``; one without an
   Agent Plugins ``$schema`` counts for nothing (Kimi CLI's old beta ``plugin.json``
   looks like that).
2. Otherwise every row of `DETECTION` is checked. One format found: that format. More
   than one (obra/superpowers ships Claude Code, Codex, Cursor, Gemini CLI, Kimi and
   OpenCode files side by side): `Detection.ambiguous` says what happens. ``prefer``
   (the default) reads the first of them in `Detection.order` that satchel reads and
   names the others in one info ``plugin.compatibility.manifest_unused``; ``refuse``
   (Mistral Vibe's rule) is fatal ``plugin.compatibility.format_ambiguous``.
3. No marker: a directory *named as a plugin* (`named`: a ``--plugin-dir``, a child of a
   plugins root, an installed plugin) that holds a Claude Code default component
   (``skills/*/SKILL.md``, ``commands/``, ``agents/``, ``hooks/hooks.json``,
   ``.mcp.json``) is a Claude Code plugin without a manifest, as Claude Code loads it.
   Anything else is fatal ``plugin.compatibility.format_unrecognized``.

Claude Code's manifest is optional, so the ``.claude-plugin/`` directory marks a
Claude Code plugin even without ``plugin.json`` in it, unless all it holds is a
``marketplace.json`` (a marketplace, not a plugin). A bare Claude default layout
(``skills/``, ``commands/``...) that is not named as a plugin is not a marker: it is
every workspace's layout. OpenCode's markers are Vibe's: code under
``.opencode/plugins`` or ``.opencode/tools``, ``opencode.json(c)``, a ``package.json``
with the keyword ``opencode`` or ``opencode-plugin``, or ``.opencode/skills/*/SKILL.md``.
A format in `UNREAD` (none today) would be recognised and not read: alone, fatal
``plugin.compatibility.adapter_unavailable``; beside a format satchel reads, one of
the manifests not used.

Detection only looks: it lists and stats inside the root and reads two small JSON
files (``plugin.json``, ``package.json``) when they resolve inside it. Without a native
``plugin.json`` the root is listed once, and a marker whose first component is not in
the listing is not looked at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import contained, is_dir, is_file, probe_json, resolve_root
from satchel.hosts._vocabulary import AMBIGUITY, FORMATS, Ambiguity
from satchel.plugins._model import Format
from satchel.skills._read import SKILL_FILE

__all__ = [
    "is_plugin_dir",
    "plugin_children",
    "AMBIGUITY",
    "CODE_SUFFIXES",
    "CLAUDE_DEFAULTS",
    "DETECTION",
    "FORMAT_ORDER",
    "HOST_NAMES",
    "UNREAD",
    "Ambiguity",
    "Detection",
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
# which manifest a directory holding several is read by: satchel's own first
FORMAT_ORDER: tuple[Format, ...] = tuple(f for f in FORMATS if f != "workspace")
UNREAD: frozenset[Format] = frozenset()  # formats recognised that no adapter reads
HOST_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "agent-plugins": "Agent Plugins 1.0",
        "bundle": "satchel",
        "claude": "Claude Code",
        "codex": "Codex",
        "cursor": "Cursor",
        "gemini": "Gemini CLI",
        "kimi": "Kimi Code",
        "opencode": "OpenCode",
    }
)
# what Claude Code reads from a plugin directory that has no manifest
CLAUDE_DEFAULTS = ("skills", "commands", "agents", "hooks/hooks.json", ".mcp.json")


@model
class Detection:
    """How a directory with several hosts' manifests is read (see the module
    docstring): `ambiguous` ``prefer`` reads the first format of `order` found (a
    format missing from `order` ranks after it, in `FORMAT_ORDER`'s order);
    ``refuse`` loads none of them, as Mistral Vibe does. `reads`: the only formats
    read (a host profile's), the others' manifests being ignored [None: every format]."""

    order: tuple[Format, ...] = FORMAT_ORDER
    ambiguous: Ambiguity = "prefer"
    reads: frozenset[Format] | None = None

    def read(self, fmt: Format) -> bool:
        """Whether plugins in format `fmt` are read at all."""
        return self.reads is None or fmt in self.reads

    def rank(self, fmt: Format) -> int:
        """Where `fmt` comes in the order of preference (lower is preferred)."""
        if fmt in self.order:
            return self.order.index(fmt)
        return len(self.order) + FORMAT_ORDER.index(fmt)


@model
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
    Marker("cursor", ".cursor-plugin/plugin.json", "file"),
    Marker("gemini", "gemini-extension.json", "file"),
    Marker("kimi", "kimi.plugin.json", "file"),
    Marker("kimi", ".kimi-plugin/plugin.json", "file"),
    Marker("opencode", ".opencode/plugins", "code"),
    Marker("opencode", ".opencode/tools", "code"),
    Marker("opencode", "opencode.json", "file"),
    Marker("opencode", "opencode.jsonc", "file"),
    Marker("opencode", "package.json", "package-keyword"),
    Marker("opencode", ".opencode/skills", "skills"),
)


def detect(
    root: Path,
    *,
    real_root: Path | None = None,
    named: bool = False,
    detection: Detection | None = None,
) -> tuple[Format | None, list[Diagnostic]]:
    """The format of the plugin at `root` (with an info naming the manifests not used,
    when there were several), or None and the fatal diagnostic. `real_root`: `root`
    already resolved, when the caller has it. `named`: the caller names `root` as a
    plugin, so Claude Code's default layout alone makes one. `detection`: the order
    of preference and the rule for several formats [`Detection()`]."""
    top = resolve_root(Path(root)) if real_root is None else real_root
    rule = detection or Detection()
    native = _native(top) if rule.read("agent-plugins") else None
    if native is not None:
        return native
    names = _listing(top)
    found = markers(top, names)
    kept = [m for m in found if rule.read(m.format)]
    if kept:
        return _choose(kept, top, rule)
    if found:
        return None, [_unread(found, top, rule)]
    broken = _broken_native(top) if rule.read("agent-plugins") else None
    if broken is not None:
        return None, [broken]
    if named and rule.read("claude") and _claude_layout(top, names):
        return "claude", []
    message = "no supported plugin manifest found"
    hint = f"add a plugin.json with $schema {NATIVE_SCHEMA}"
    return None, [_fatal("plugin.compatibility.format_unrecognized", message, top, hint)]


def _choose(
    found: list[Marker], top: Path, detection: Detection
) -> tuple[Format | None, list[Diagnostic]]:
    """One format of those whose markers are present, by `detection`."""
    formats = sorted(dict.fromkeys(m.format for m in found), key=detection.rank)
    readable = [f for f in formats if f not in UNREAD]
    if len(formats) > 1 and detection.ambiguous == "refuse":
        message = f"markers of more than one plugin format: {_shown(found)}"
        hint = "add a native plugin.json (Agent Plugins 1.0), which takes precedence"
        return None, [_fatal("plugin.compatibility.format_ambiguous", message, top, hint)]
    if not readable:
        message = f"{_shown(found)} is recognised, and satchel has no reader for it"
        hint = f"add a plugin.json with $schema {NATIVE_SCHEMA}"
        return None, [_fatal("plugin.compatibility.adapter_unavailable", message, top, hint)]
    chosen = readable[0]
    unused = [m for m in found if m.format != chosen]
    if not unused:
        return chosen, []
    used = ", ".join(m.path for m in found if m.format == chosen)
    message = (
        f"this directory holds manifests for several hosts; {used} ({HOST_NAMES[chosen]}) "
        f"is read and these are not used: {_shown(unused)}"
    )
    hint = "the order of preference is a setting: [plugin_manifests] in config.toml"
    return chosen, [diagnostic("plugin.compatibility.manifest_unused", message, top, hint=hint)]


def _unread(found: list[Marker], top: Path, rule: Detection) -> Diagnostic:
    """The fatal diagnostic for a directory whose manifests the host does not read."""
    reads = ", ".join(HOST_NAMES[f] for f in FORMAT_ORDER if rule.read(f)) or "no plugin format"
    message = f"the host reads {reads}, not {_shown(found)}"
    hint = "add the manifest this host reads (docs/hosts.md lists each host's formats)"
    return _fatal("plugin.compatibility.host_unread", message, top, hint)


def _shown(found: list[Marker]) -> str:
    return ", ".join(f"{m.path} ({HOST_NAMES[m.format]})" for m in found)


def _claude_layout(root: Path, names: Collection[str] | None) -> bool:
    """Whether `root` holds one of Claude Code's default components (a skills tree,
    ``commands/``, ``agents/``, ``hooks/hooks.json``, ``.mcp.json``)."""
    for relative in CLAUDE_DEFAULTS:
        if names is not None and relative.split("/", 1)[0].casefold() not in names:
            continue
        path = root / relative
        if not contained(path, root):
            continue
        if relative == "skills" and _skills(path, root):
            return True
        if relative in ("commands", "agents") and is_dir(path):
            return True
        if relative.endswith(".json") and is_file(path):
            return True
    return False


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
    value, _ = probe_json(path)
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
    value, problem = probe_json(path)
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
    value, _ = probe_json(path)
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


def is_plugin_dir(path: Path) -> bool:
    """Whether `path` is a directory `satchel.plugins._detect` would read as a plugin:
    it holds a marker of a foreign format, or a ``plugin.json`` and no ``SKILL.md``."""
    if not os.path.isdir(path):
        return False
    root = Path(os.path.realpath(path))
    if markers(root):
        return True
    return os.path.lexists(root / NATIVE_MANIFEST) and not os.path.lexists(root / SKILL_FILE)


def plugin_children(path: Path) -> list[Path] | None:
    """The plugin directories of a plugins root (``.satchel/plugins``): every
    non-hidden child directory, in name order, when each one is a plugin; else None."""
    if not os.path.isdir(path) or os.path.lexists(path / SKILL_FILE):
        return None
    try:
        names = sorted(n for n in os.listdir(path) if not n.startswith("."))
    except OSError:
        return None
    children = [path / n for n in names if os.path.isdir(path / n)]
    if not children or not all(is_plugin_dir(c) for c in children):
        return None
    return children

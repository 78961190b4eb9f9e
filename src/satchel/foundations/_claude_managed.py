"""Claude Code's managed settings: the three locks an organisation sets there that change
what loads, read for a load that follows Claude Code's settings (the claude-code
profile).

    managed, problems = read_claude_managed()

Claude Code 2.1.337 reads its managed settings from ``managed-settings.json`` and the
``managed-settings.d/*.json`` drop-ins of ``/etc/claude-code`` (``/Library/Application
Support/ClaudeCode`` on macOS, ``C:\\Program Files\\ClaudeCode`` on Windows); satchel
reads them there, or in ``$SATCHEL_CLAUDE_MANAGED_DIR`` when that is set (for tests and
images). Claude Code honours these keys only there: in the user's, project's and local
settings files they are ignored, by Claude Code and by satchel (observed; its settings
schema says "Only honored from managed settings"):

- ``strictPluginOnlyCustomization``: ``true`` locks the four surfaces ``skills``,
  ``agents``, ``hooks``, ``mcp``; a list locks those it names (an unknown name locks
  nothing); ``false`` is no lock; any other value locks all four ("treating it as
  true ... until it is fixed"). A locked surface loads only from managed sources and
  plugins: not from ``~/.claude/{surface}/`` or ``.claude/{surface}/``, not settings
  hooks, not ``.mcp.json``. Any lock also turns off the skills-directory plugin scan
  (observed: a lock on ``skills`` alone leaves no ``@skills-dir`` plugin).
- ``disableSideloadFlags``: ``--plugin-dir``, ``--plugin-url``, ``--agents`` and
  ``--mcp-config`` are refused at startup (``claude -p --plugin-dir`` exits 1:
  "--plugin-dir is disabled by your organization's managed settings
  (disableSideloadFlags)").
- ``disableCommandPluginSources``: a marketplace's ``command`` plugin source is never
  installed, updated or re-resolved; unset, it follows ``allowManagedHooksOnly``.

Reading runs nothing; a file that cannot be read or is not a JSON object is reported
(``config.invalid``) and adds no lock.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = ["ENV_DIR", "SURFACES", "ClaudeManaged", "managed_dir", "read_claude_managed"]

ENV_DIR = "SATCHEL_CLAUDE_MANAGED_DIR"
SURFACES = ("skills", "agents", "hooks", "mcp")
MAX_FILE = 1024 * 1024
MAX_DROP_INS = 64


@model
class ClaudeManaged:
    """What Claude Code's managed settings lock: the `locked` surfaces of
    ``strictPluginOnlyCustomization``, `sideload_flags_off` (``disableSideloadFlags``),
    `command_sources_off` (``disableCommandPluginSources``, or ``allowManagedHooksOnly``
    when it is unset), and the `files` they came from."""

    locked: frozenset[str] = frozenset()
    sideload_flags_off: bool = False
    command_sources_off: bool = False
    files: tuple[Path, ...] = ()


def managed_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where Claude Code keeps its managed settings on this platform (or
    ``$SATCHEL_CLAUDE_MANAGED_DIR``)."""
    env = os.environ if environ is None else environ
    given = env.get(ENV_DIR, "")
    if given:
        return Path(given)
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path("C:/Program Files/ClaudeCode")
    return Path("/etc/claude-code")


def read_claude_managed(
    environ: Mapping[str, str] | None = None,
) -> tuple[ClaudeManaged, tuple[Diagnostic, ...]]:
    """The locks of Claude Code's managed settings, and the problems met reading them."""
    folder = managed_dir(environ)
    paths = [folder / "managed-settings.json"]
    try:
        drop_ins = sorted((folder / "managed-settings.d").glob("*.json"))[:MAX_DROP_INS]
    except OSError:
        drop_ins = []
    merged: dict[str, object] = {}
    problems: list[Diagnostic] = []
    read: list[Path] = []
    for path in [*paths, *drop_ins]:
        doc = _document(path, problems)
        if doc is not None:
            merged.update(doc)
            read.append(path)
    return _locks(merged, tuple(read)), tuple(problems)


def _locks(doc: Mapping[str, object], files: tuple[Path, ...]) -> ClaudeManaged:
    strict = doc.get("strictPluginOnlyCustomization")
    if strict is None or strict is False:
        locked: frozenset[str] = frozenset()
    elif isinstance(strict, list):
        locked = frozenset(s for s in strict if s in SURFACES)
    else:  # true, or a value Claude Code treats as true until it is fixed
        locked = frozenset(SURFACES)
    command = doc.get("disableCommandPluginSources")
    command_off = command is True if isinstance(command, bool) else (
        doc.get("allowManagedHooksOnly") is True
    )  # fmt: skip
    return ClaudeManaged(locked, doc.get("disableSideloadFlags") is True, command_off, files)


def _document(path: Path, problems: list[Diagnostic]) -> dict[str, object] | None:
    if not os.path.lexists(path):
        return None
    try:
        doc = loads(read_bounded(path, MAX_FILE))
    except (FileProblem, ValueError) as error:
        message = f"Claude Code's managed settings cannot be read: {error}"
        problems.append(diagnostic("config.invalid", message, path))
        return None
    if not isinstance(doc, dict):
        problems.append(
            diagnostic("config.invalid", "Claude Code's managed settings are not an object", path)
        )
        return None
    return doc

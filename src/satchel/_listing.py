"""Per-skill listing overrides: how the index lists each skill, read from files.

A skill name maps to ``on`` (listed as usual, the default), ``name-only`` (listed
without its description), ``user-invocable-only`` (kept out of the model's index,
still invocable by the user as ``/name``) or ``off`` (out of the index and not
invocable), the four states of Claude Code's ``skillOverrides`` setting (2.1.332
settings schema: "name-only lists the skill without its description;
user-invocable-only hides it from the model but keeps /name; off hides it from
both. Absent = on"; https://code.claude.com/docs/en/settings).

Read, each later file winning for a name:

1. satchel's ``config.toml``, ``[index.overrides]`` (the user's, then a trusted
   project's): ``deploy = "name-only"``;
2. with `claude_settings` (the ``claude-code`` profile, which reads Claude Code's
   settings files), ``skillOverrides`` in ``~/.claude/settings.json``, then a trusted
   project's ``.claude/settings.json`` and ``.claude/settings.local.json``: Claude
   Code's local, project, user order (its policy and flag settings are not read).

Values are checked where the index is built (`satchel._render.build_index`:
``skill.index.override-invalid``, ``skill.index.override-unknown``); a section that
is not a table or object is reported here (``config.invalid``) and ignored. A
settings file that cannot be read is left to the hooks reader, which reports it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from satchel._config import config_files, invalid, read_config
from satchel._files import FileProblem, read_bounded
from satchel._json import loads
from satchel.diagnostics import Diagnostic
from satchel.layout import Layout

__all__ = ["read_overrides"]

MAX_SETTINGS = 1024 * 1024


def read_overrides(
    layout: Layout, *, trust_project: bool, claude_settings: bool
) -> tuple[dict[str, object], list[Diagnostic]]:
    """The listing overrides by skill name, and the problems met reading them."""
    found: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for path in config_files(layout, trust_project=trust_project):
        section = read_config(path, []).get("index", {})  # a bad file: reported elsewhere
        table = section.get("overrides", {}) if isinstance(section, dict) else None
        if not isinstance(table, dict):
            problems.append(invalid("[index.overrides] must be a table of skill names", path))
            continue
        found.update(table)
    if claude_settings:
        for path in _settings(layout, trust_project):
            table = _document(path).get("skillOverrides", {})
            if not isinstance(table, dict):
                problems.append(invalid("skillOverrides must be an object of skill names", path))
                continue
            found.update(table)
    return found, problems


def _settings(layout: Layout, trust_project: bool) -> Iterator[Path]:
    yield layout.home / ".claude" / "settings.json"
    if trust_project:
        yield layout.project / ".claude" / "settings.json"
        yield layout.project / ".claude" / "settings.local.json"


def _document(path: Path) -> dict[str, object]:
    if not os.path.lexists(path):
        return {}
    try:
        doc = loads(read_bounded(path, MAX_SETTINGS))
    except (FileProblem, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}

"""How port writes files: JSON as the hosts' own manifests look, TOML by hand (the
standard library reads TOML and does not write it), and the placeholder spellings."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "LARGEST",
    "json_text",
    "placeholders",
    "project_dir",
    "respelled",
    "toml_string",
    "toml_table",
]

_VAR = re.compile(
    r"\$\{(?:CLAUDE_|KIMI_)?PLUGIN_(ROOT|DATA)\}|\$(?:CLAUDE_|KIMI_)?PLUGIN_(ROOT|DATA)(?!\w)"
)
_DEL = "\x7f"
# the largest whole number every host's reader holds exactly: JavaScript's
# Number.MAX_SAFE_INTEGER (TOML's integers are 64-bit, Python's float exact to it)
LARGEST = 2**53 - 1


def json_text(value: Any) -> str:
    """`value` as JSON, two-space indented, with a final newline (`ValueError` for a
    number JSON has no word for: ``NaN``, ``Infinity``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def toml_string(text: str) -> str:
    """`text` as a TOML basic string (JSON's escapes are TOML's; DEL is escaped too)."""
    return json.dumps(text, ensure_ascii=False).replace(_DEL, "\\u007f")


def toml_table(header: str | None, fields: Mapping[str, str | int | float | bool]) -> str:
    """`header` (``[name]`` or ``[[name]]``; None: the top-level table) and its
    ``key = value`` lines; keys are bare (port only writes bare keys)."""
    lines = [] if header is None else [header]
    for key, value in fields.items():
        lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


def _value(value: str | int | float | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return toml_string(value)


def placeholders(text: str, root: str | None, data: str | None) -> str:
    """`text` with the plugin-root and plugin-data placeholders of every dialect
    (``${CLAUDE_PLUGIN_ROOT}``, ``${PLUGIN_ROOT}``, ``${KIMI_PLUGIN_ROOT}``, and the
    ``DATA`` forms, with or without braces) spelled as `root` and `data`; None keeps
    that one as written."""

    def spelled(match: re.Match[str]) -> str:
        wanted = root if "ROOT" in (match.group(1), match.group(2)) else data
        return match.group(0) if wanted is None else wanted

    return _VAR.sub(spelled, text)


def project_dir(
    text: str, source: tuple[str, ...], target: tuple[str, ...]
) -> tuple[str, str | None]:
    """`text` with each of `source`'s project variables (``$CLAUDE_PROJECT_DIR``,
    ``${GEMINI_PROJECT_DIR}``) that the target does not set written as the first of
    `target`'s, and the first such variable when the target sets none (None: all
    written)."""
    missing: list[str] = []

    def spelled(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in source or name in target:
            return match.group(0)
        if not target:
            missing.append(name)
            return match.group(0)
        return "${" + target[0] + "}" if match.group(1) else "$" + target[0]

    names = "|".join(re.escape(n) for n in source)
    if not names:
        return text, None
    out = re.sub(rf"\$\{{({names})\}}|\$({names})(?!\w)", spelled, text)
    return out, (missing[0] if missing else None)


def respelled(
    text: str, root: str | None, data: str | None, source: tuple[str, ...], target: tuple[str, ...]
) -> str | None:
    """The first plugin-root, plugin-data or project variable of `text` (as written)
    that the target spells otherwise (`placeholders`, `project_dir`): one its host does
    not set, where `text` runs as written (None: every one is set there)."""
    for found in _VAR.finditer(text):
        if placeholders(found.group(0), root, data) != found.group(0):
            return found.group(0)
    names = "|".join(re.escape(n) for n in source)
    if not names:
        return None
    for found in re.finditer(rf"\$\{{({names})\}}|\$({names})(?!\w)", text):
        if project_dir(found.group(0), source, target)[0] != found.group(0):
            return found.group(0)
    return None

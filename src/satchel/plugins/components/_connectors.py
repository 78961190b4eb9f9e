"""Vibe connector requirements: ``connectors.json`` (Vibe Step 9).

``{"schemaVersion": 1, "connectors": [{"id": "github", "tools": ["create_issue"]}]}``:
at most 128 connectors with unique, non-blank ids; each connector's tool names are
unique and 1-256 characters (`tools` may be omitted: none). A requirement is a
declaration: it loads whether or not the account has the connector (whether the
account has it is for the host to say). Any problem drops every connector of the
plugin: each problem is one `plugin.connectors.invalid`.

``connectors.json`` sits at the plugin root, so the directory holding it is the root
it must resolve inside: a symlink that leads elsewhere is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import bounded, versioned_object, with_json
from satchel.plugins._model import Connector

__all__ = ["MAX_CONNECTORS", "MAX_TOOL_NAME", "load_connectors"]

INVALID = "plugin.connectors.invalid"
MAX_CONNECTORS = 128
MAX_TOOL_NAME = 256
_FIELDS = ("id", "tools")


def load_connectors(
    path: Path, plugin: str, *, resolved: bool = False
) -> tuple[tuple[Connector, ...], list[Diagnostic]]:
    """The connectors ``connectors.json`` requires, or none and every problem found.
    `resolved`: the directory holding the file is already a real path."""
    return with_json(
        path, path.parent, INVALID, lambda data: _connectors(data, path, plugin), resolved=resolved
    )


def _connectors(
    data: Any, path: Path, plugin: str
) -> tuple[tuple[Connector, ...], list[Diagnostic]]:
    entries = _entries(data)
    if isinstance(entries, str):
        return (), [_invalid(entries, path)]
    found: list[Connector] = []
    problems: list[str] = []
    for number, entry in enumerate(entries, 1):
        connector, why = _connector(entry, plugin)
        if connector is None:
            problems.extend(f"connector #{number}: {w}" for w in why)
        elif any(c.id == connector.id for c in found):
            problems.append(f"connector #{number}: the id {connector.id!r} is used twice")
        else:
            found.append(connector)
    if problems:
        return (), [_invalid(why, path) for why in problems]
    return tuple(found), []


def _invalid(why: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, f"{why}; no connector of this plugin loads", path)


def _entries(data: Any) -> list[Any] | str:
    problem = versioned_object(data, "connectors.json", ("schemaVersion", "connectors"))
    if problem is not None:
        return problem
    entries = data.get("connectors", [])
    problem = bounded(
        entries,
        list,
        "connectors must be a list",
        MAX_CONNECTORS,
        lambda n: f"{n} connectors are declared; the limit is {MAX_CONNECTORS}",
    )
    return entries if problem is None else problem


def _connector(entry: Any, plugin: str) -> tuple[Connector | None, list[str]]:
    if not isinstance(entry, dict):
        return None, [f"must be an object, not {type_name(entry)}"]
    unknown = [k for k in entry if k not in _FIELDS]
    if unknown:
        return None, [f"unknown field {unknown[0]!r}"]
    ident = entry.get("id")
    if not isinstance(ident, str) or not ident.strip():
        return None, ["id must be a non-blank string"]
    tools = entry.get("tools", [])
    if not isinstance(tools, list):
        return None, [f"{ident!r}: tools must be a list, not {type_name(tools)}"]
    problems = [f"{ident!r}: {why}" for why in _tool_problems(tools)]
    if problems:
        return None, problems
    return Connector(ident, tuple(tools), plugin), []


def _tool_problems(tools: list[Any]) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for number, tool in enumerate(tools, 1):
        if not isinstance(tool, str):
            problems.append(f"tool #{number} must be a string, not {type_name(tool)}")
        elif not 1 <= len(tool) <= MAX_TOOL_NAME:
            problems.append(
                f"tool #{number} is {len(tool)} characters; tool names are 1-{MAX_TOOL_NAME}"
            )
        elif tool in seen:
            problems.append(f"tool {tool!r} is listed twice")
        else:
            seen.add(tool)
    return problems

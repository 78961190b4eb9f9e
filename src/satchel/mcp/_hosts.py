"""The MCP servers other hosts keep in their own files, read where a host profile's
table (`McpFile` rows, `satchel.hosts.Host.mcp_files`) says, never written.

A row names a file (a template: ``{home}``, ``{project}``, ``{cwd}``, ``{config}`` and
``{managed}``, the folder of Claude Code's managed settings), the keys that lead to
its servers (``{project}`` in a key is the project's absolute path: Claude Code's
``projects["/abs/path"].mcpServers``), the shape of an entry, and whose the file is:
``project`` rows are the project's (read only in a trusted project, and never allowed a
code-injecting ``env``), ``user`` rows the user's own. The table is in precedence
order; its rows up to the last ``project`` row rank above satchel's own user
``config.toml``, the rest below it (satchel's project ``config.toml`` ranks above
them all). A ``{project}`` template is read
in every folder from the working directory up to the project root (nearest first)
under a host that reads so (`Layout.ancestors`). An ``exclusive`` file that exists
takes the place of every other row of the table (Claude Code's ``managed-mcp.json``).

Shapes: ``standard`` (``type``, ``command``/``args``/``env``/``cwd``, ``url``/``headers``:
Claude Code's and Codex's) and ``httpUrl`` (Gemini CLI's: ``httpUrl``, ``url`` with
``type``, ``tcp``: `satchel.mcp._gemini`). A ``.toml`` file is read as TOML, any other as JSON.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout, RootSpec
from satchel.foundations._claude_managed import managed_dir
from satchel.foundations._config import read_config
from satchel.foundations._contain import read_json
from satchel.foundations._host_files import StateFiles, dig, expand
from satchel.hosts._mcp import McpFile, McpOff, McpShape
from satchel.mcp._gemini import translated

__all__ = ["INVALID", "McpFile", "McpOff", "McpShape", "host_file_tables", "turned_off"]

INVALID = "config.mcp.invalid"


def turned_off(
    layout: Layout,
    rows: Sequence[McpOff],
    problems: list[Diagnostic],
    state: StateFiles | None = None,
) -> frozenset[str]:
    """The server names `rows` turn off for `layout`'s project (a server of a plugin
    by its ``plugin:<plugin>:<server>`` id, as Claude Code lists it); `state` the
    load's state files, read once."""
    state = StateFiles() if state is None else state
    names: set[str] = set()
    for row in rows:
        path = Path(expand(row.path, {"home": str(layout.home), "config": str(layout.config_home)}))
        keys = tuple(expand(k, {"project": str(layout.project)}) for k in row.keys)
        document, problem = state.read(path, needle=keys[-1] if keys else None)
        if problem is not None:
            problems.append(problem)
        value = dig(document, keys)
        if isinstance(value, list):
            names.update(v for v in value if isinstance(v, str))
    return frozenset(names)


Table = tuple[str, Any, Path, str]  # (owner, the server map, its file, the host's label)


def host_file_tables(
    layout: Layout,
    files: Sequence[McpFile],
    *,
    trust_project: bool,
    environ: Mapping[str, str] | None = None,
    problems: list[Diagnostic],
    state: StateFiles | None = None,
) -> tuple[list[Table], list[Table]]:
    """The server maps of `files` that exist, as (owner, map, path, label), in table order, in
    two parts: the rows up to the last ``project`` row (they rank above satchel's own
    user ``config.toml``) and the rest (below it). A project row is read only when
    `trust_project`. Gemini-shaped entries come back in the standard shape. `state`:
    the load's state files, each read once however many rows name it."""
    read = StateFiles() if state is None else state
    for row in (f for f in files if f.exclusive):
        found = list(_tables(layout, row, environ, problems, read))
        if found:
            return [], found  # the one file that counts
    rows = [f for f in files if not f.exclusive]
    split = max((i + 1 for i, f in enumerate(rows) if f.owner == "project"), default=0)
    parts: tuple[list[Table], list[Table]] = ([], [])
    for at, row in enumerate(rows):
        if row.owner == "project" and not trust_project:
            continue
        parts[at >= split].extend(_tables(layout, row, environ, problems, read))
    return parts


def _tables(
    layout: Layout,
    row: McpFile,
    environ: Mapping[str, str] | None,
    problems: list[Diagnostic],
    read: StateFiles,
) -> Iterator[Table]:
    template = expand(row.path, {"managed": str(managed_dir(environ))})
    keys = tuple(expand(k, {"project": str(layout.project)}) for k in row.keys)
    for found in layout.resolve((RootSpec(row.owner, "", template),)):
        path = found.path
        document = _document(layout, row, path, problems, read)
        servers = dig(document, keys)
        if servers is None and row.bare and isinstance(document, dict) and document:
            servers = document
        if servers is None:
            continue
        if isinstance(servers, dict):
            servers = {k: _shaped(v, row.shape) for k, v in servers.items() if k != "$schema"}
        yield ("project" if row.owner == "project" else "user"), servers, path, row.label


def _document(
    layout: Layout, row: McpFile, path: Path, problems: list[Diagnostic], read: StateFiles
) -> Any:
    """The document at `path`: TOML or JSON; a project's file read only inside the
    project root."""
    if path.suffix == ".toml":
        return read_config(path, problems)
    if row.owner == "project":
        if not os.path.lexists(path):
            return {}
        document, problem = read_json(path, layout.project, INVALID)
    else:  # a file without the server key's name is not parsed
        document, problem = read.read(path, needle=row.keys[-1] if row.keys else None)
    if problem is not None:
        problems.append(problem)
    return document


def _as_written(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    return entry


_SHAPES: Mapping[str, Callable[[Mapping[str, Any]], Mapping[str, Any]]] = {
    "standard": _as_written,
    "httpUrl": translated,
}


def _shaped(entry: Any, shape: McpShape) -> Any:
    """A server entry of `shape` in the standard shape."""
    return _SHAPES[shape](entry) if isinstance(entry, dict) else entry

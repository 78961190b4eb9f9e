"""A Claude Code plugin's language servers: ``.lsp.json`` and manifest ``lspServers``.

Sources: code.claude.com/docs/en/plugins-reference ("LSP servers"), and the pinned
Claude Code 2.1.332 run as ``claude plugin validate --json`` on good and bad shapes
(its ``provides.lspServers`` lists ``{name, command[, args]}`` for each server).

``.lsp.json`` at the plugin root maps server names straight to entries (no wrapping
key). The manifest's ``lspServers`` ADDS to it, as ``mcpServers`` adds to
``.mcp.json``: a path to another such file, an inline object of the same shape, or a
list mixing the two. The fields, as Claude Code's schema accepts them (an unknown
field is refused there: "Unrecognized key"):

* ``command`` (required): a non-empty string without whitespace ("Command should not
  contain spaces. Use args array for arguments."): a bare name on PATH, an absolute
  path, or ``./x`` (``${CLAUDE_PLUGIN_ROOT}/x``) inside the plugin root;
* ``extensionToLanguage`` (required): at least one mapping, each key an extension
  starting with ``.``, each value a language id;
* ``args`` (strings), ``transport`` (``stdio`` | ``socket``), ``env`` (string values),
  ``initializationOptions`` and ``settings`` (any JSON), ``workspaceFolder`` (a string);
* ``startupTimeout`` and ``shutdownTimeout``: integers > 0 (milliseconds);
  ``restartOnCrash``: a boolean; ``maxRestarts``: an integer >= 0.

``${CLAUDE_PLUGIN_ROOT}``/``${CLAUDE_PLUGIN_DATA}`` become the portable
``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` in `args`, `env` values and `workspaceFolder`,
as in MCP server entries (`satchel.mcp._parse`); the runtime expands them.

Where satchel differs on purpose: Claude Code refuses the whole plugin when one entry
is bad (``validate`` reports it; a bad ``.lsp.json`` makes the plugin provide nothing);
satchel drops only that entry (``plugin.lsp.invalid``; a file that is not a JSON
object drops every server of that file) and the rest of the plugin loads. An ``env``
that sets a variable able to inject code (``LD_PRELOAD``, ``PYTHONPATH``...:
`satchel.foundations.process.is_dangerous_env`) or the plugin variables satchel sets itself
refuses the entry, as it does for MCP servers. A server name declared twice: the
first is kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import (
    OUTSIDE_ROOT,
    Bad,
    Refusal,
    resolve_in_root,
    str_list,
    with_json,
)
from satchel.foundations.process._env import is_dangerous_env
from satchel.plugins._context import Ctx
from satchel.plugins._lsp import LspServer, LspTransport

__all__ = ["FIELDS", "INVALID", "load_lsp_servers", "lsp_entries"]

INVALID = "plugin.lsp.invalid"
FIELDS = (
    "command", "args", "extensionToLanguage", "transport", "env", "initializationOptions",
    "settings", "workspaceFolder", "startupTimeout", "shutdownTimeout", "restartOnCrash",
    "maxRestarts",
)  # fmt: skip
_TRANSPORTS: tuple[LspTransport, ...] = ("stdio", "socket")
_RESERVED = ("PLUGIN_ROOT", "PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_CLAUDE_PLACEHOLDER = re.compile(r"\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}")
_ROOT = "${PLUGIN_ROOT}"

Result = tuple[tuple[LspServer, ...], list[Diagnostic]]


def load_lsp_servers(
    ctx: Ctx, files: Sequence[Path], inline: Sequence[Mapping[str, Any]], manifest: Path
) -> tuple[LspServer, ...]:
    """The servers of `files` (``.lsp.json``-shaped: the default file when it is
    there, then those the manifest lists), then of the manifest's inline objects."""
    results: list[Result] = []
    for file in files:
        if not os.path.lexists(file):
            message = f"`lspServers` names {ctx.rel(file)}, which does not exist"
            ctx.add(INVALID, message, manifest)
            continue
        parse = _file_parser(ctx, file)
        results.append(with_json(file, ctx.root, INVALID, parse, resolved=True))
    results += [
        lsp_entries(table, root=ctx.root, plugin=ctx.name, path=manifest) for table in inline
    ]
    return _unique(ctx, results)


def _file_parser(ctx: Ctx, file: Path) -> Callable[[Any], Result]:
    def parse(data: Any) -> Result:
        if not isinstance(data, dict):
            message = (
                f"{ctx.rel(file)} must be a JSON object mapping server names to entries, not "
                f"{type_name(data)}; no language server of this file loads"
            )
            return (), [diagnostic(INVALID, message, file)]
        return lsp_entries(data, root=ctx.root, plugin=ctx.name, path=file)

    return parse


def lsp_entries(table: Mapping[str, Any], *, root: Path, plugin: str, path: Path) -> Result:
    """The servers of one name -> entry object (`root`: the real plugin root); a bad
    entry is dropped with one ``plugin.lsp.invalid`` (or ``plugin.path.outside_root``)."""
    servers: list[LspServer] = []
    problems: list[Diagnostic] = []
    for name, entry in table.items():
        try:
            servers.append(_entry(name, entry, root, plugin, path))
        except Bad as why:
            message = f"language server {name!r}: {why}; it is not loaded"
            problems.append(diagnostic(why.code or INVALID, message, path, hint=why.hint))
    return tuple(servers), problems


def _entry(name: str, entry: Any, root: Path, plugin: str, path: Path) -> LspServer:
    if not name.strip():
        raise Bad("the name is blank")
    if not isinstance(entry, dict):
        raise Bad(f"the entry must be an object, not {type_name(entry)}")
    unknown = [k for k in entry if k not in FIELDS]
    if unknown:
        raise Bad(f"unknown field {unknown[0]!r}", hint=f"the fields are {', '.join(FIELDS)}")
    return LspServer(
        name,
        _command(entry, root),
        _extensions(entry),
        args=_args(entry),
        transport=_transport(entry),
        env=_env(entry),
        initialization_options=entry.get("initializationOptions"),
        settings=entry.get("settings"),
        workspace_folder=_folder(entry),
        startup_timeout=_count(entry, "startupTimeout", least=1),
        shutdown_timeout=_count(entry, "shutdownTimeout", least=1),
        restart_on_crash=_flag(entry, "restartOnCrash"),
        max_restarts=_count(entry, "maxRestarts", least=0),
        plugin=plugin,
        path=path,
    )


def _portable(text: str) -> str:
    return _CLAUDE_PLACEHOLDER.sub(lambda m: "${PLUGIN_" + m.group(1) + "}", text)


def _command(entry: Mapping[str, Any], root: Path) -> str:
    value = entry.get("command")
    if not isinstance(value, str) or not value:
        raise Bad(
            "command must be a non-empty string" if "command" in entry else "it has no command"
        )
    if any(c.isspace() for c in value):
        raise Bad(f"command {value!r} holds whitespace; put its arguments in args")
    value = _portable(value)
    if value.startswith(_ROOT + "/"):
        value = "./" + value[len(_ROOT) + 1 :]
    if "${" in value:
        raise Bad(f"command {value!r} holds a placeholder other than ${{CLAUDE_PLUGIN_ROOT}}/")
    if value.startswith("./"):
        where = resolve_in_root(root, value, resolved=True)
        if isinstance(where, Refusal):
            raise Bad(f"command {where.message}", OUTSIDE_ROOT if where.outside else None)
    return value


def _extensions(entry: Mapping[str, Any]) -> Mapping[str, str]:
    value = entry.get("extensionToLanguage")
    if not isinstance(value, dict):
        if "extensionToLanguage" not in entry:
            raise Bad("it has no extensionToLanguage")
        raise Bad(f"extensionToLanguage must be an object, not {type_name(value)}")
    if not value:
        raise Bad("extensionToLanguage must have at least one mapping")
    for extension, language in value.items():
        if not extension.startswith(".") or len(extension) < 2:
            raise Bad(f"extensionToLanguage key {extension!r} must be an extension such as '.py'")
        if not isinstance(language, str) or not language.strip():
            raise Bad(f"extensionToLanguage[{extension!r}] must be a non-blank language id")
    return MappingProxyType(dict(value))


def _args(entry: Mapping[str, Any]) -> tuple[str, ...]:
    value = entry.get("args", [])
    if not str_list(value):
        raise Bad("args must be a list of strings")
    if any("\0" in a for a in value):
        raise Bad("args holds a NUL byte")
    return tuple(_portable(a) for a in value)


def _transport(entry: Mapping[str, Any]) -> LspTransport:
    value = entry.get("transport", "stdio")
    for known in _TRANSPORTS:
        if value == known:
            return known
    raise Bad(f"transport must be 'stdio' or 'socket', not {value!r}")


def _env(entry: Mapping[str, Any]) -> Mapping[str, str]:
    value = entry.get("env", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Bad("env must be an object whose values are strings")
    for name, text in value.items():
        if name in _RESERVED:
            raise Bad(f"env sets {name}, which satchel sets for every plugin server")
        if not name or "=" in name or "\0" in name or "\0" in text:
            raise Bad(f"env {name!r} is not a valid variable name or holds a NUL byte")
        if is_dangerous_env(name):
            why = "it can make the server process run code its command does not name"
            raise Bad(f"env sets {name}, which is refused: {why}")
    return MappingProxyType({k: _portable(v) for k, v in value.items()})


def _folder(entry: Mapping[str, Any]) -> str | None:
    value = entry.get("workspaceFolder")
    if value is None:
        return None
    if not isinstance(value, str) or not value or "\0" in value:
        raise Bad(f"workspaceFolder must be a non-empty string, not {type_name(value)}")
    return _portable(value)


def _count(entry: Mapping[str, Any], key: str, *, least: int) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        bound = "> 0" if least == 1 else ">= 0"
        raise Bad(f"{key} must be an integer {bound}, not {value!r}")
    return value


def _flag(entry: Mapping[str, Any], key: str) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise Bad(f"{key} must be true or false, not {type_name(value)}")
    return value


def _unique(ctx: Ctx, results: Sequence[Result]) -> tuple[LspServer, ...]:
    servers: dict[str, LspServer] = {}
    for found, diags in results:
        ctx.diags.extend(diags)
        for server in found:
            kept = servers.get(server.name)
            if kept is not None:
                message = (
                    f"language server {server.name!r} is declared again; "
                    f"the one in {kept.path} is kept"
                )
                ctx.add(INVALID, message, server.path)
                continue
            servers[server.name] = server
    return tuple(servers.values())

"""A plugin's MCP servers: Agent Plugins 1.0 ``mcp.json``, Claude Code's ``.mcp.json``
and the bundle's ``[servers.<name>]`` TOML tables (mermaid).

Parsing only: nothing starts here. Values keep ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}``
unexpanded (the supervisor expands them in `args`, `env` values and `cwd`); a `cwd` is
still checked to stay inside its base once expanded. One bad entry drops that entry
(`plugin.mcp.invalid`, or `plugin.path.outside_root` when a path escapes the root);
a bad file drops every server of the file. A missing ``mcp.json`` or ``.mcp.json`` is
no error (the location is optional).

Rules and decisions, for every format:

* ``env`` may not set ``PLUGIN_ROOT`` or ``PLUGIN_DATA`` (satchel sets both last; a
  Claude Code or table entry may not set ``CLAUDE_PLUGIN_ROOT``/``CLAUDE_PLUGIN_DATA``),
  nor a name that can inject code into the server (``LD_PRELOAD``, ``NODE_OPTIONS``,
  ``PYTHONPATH``, ``BASH_ENV``...: `satchel.foundations.process._env.is_dangerous_env`).
  Either makes the entry invalid: the server would run code its command does not name.
* ``cwd`` is ``./…``, ``${PLUGIN_ROOT}[/…]`` or ``${PLUGIN_DATA}[/…]`` and stays inside
  its base. ``"."`` -- Vibe's own example -- means the plugin root and is accepted
  (stored as ``${PLUGIN_ROOT}``); Vibe 3.0.3 and the official JSON schema reject it.
* ``sse`` entries are kept (satchel starts stdio, streamable-http and sse servers; Vibe
  refuses sse). Any other transport is `plugin.mcp.transport_unsupported`.
* A URL is absolute http(s), without user information or fragment; plain http only
  for ``localhost`` and loopback addresses. Header names are HTTP tokens, unique
  ignoring case; values are visible ASCII, Latin-1, space or tab. URLs and header
  values are never echoed in messages (they may hold secrets).
* ``command`` is one token: a bare name looked up on PATH, or ``./path`` inside the
  root. ``mcp.json`` refuses absolute commands and placeholders there (the spec);
  Claude Code and table entries may name an absolute command, as their hosts allow.
* Claude Code's ``${CLAUDE_PLUGIN_ROOT}``/``${CLAUDE_PLUGIN_DATA}`` become the portable
  ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` in `args`, `env` values and `cwd`, and a
  ``${CLAUDE_PLUGIN_ROOT}/x`` command becomes ``./x``. `parse_server_tables` does the
  same, so it serves both the bundle's tables and a manifest's inline ``mcpServers``
  object (Claude Code, Codex, Kimi); it also reads ``transport`` as a synonym of
  ``type``. Claude Code and table entries are lenient: unknown fields go to `extras`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal
from urllib.parse import urlsplit

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import (
    MAX_FILE,
    OUTSIDE_ROOT,
    Bad,
    Refusal,
    is_inside,
    parse_toml,
    read_inside,
    real_below,
    real_path,
    resolve_in_root,
    str_list,
    unknown_keys,
    with_json,
)
from satchel.foundations._net import is_loopback
from satchel.foundations.origin import Origin
from satchel.foundations.process._env import is_dangerous_env
from satchel.mcp._spec import McpServer, Transport

__all__ = [
    "RESERVED_ENV",
    "SCHEMA",
    "check_args",
    "check_command",
    "check_headers",
    "check_url",
    "claude_servers",
    "expand_url",
    "inferred_transport",
    "load_server_files",
    "parse_claude_mcp",
    "parse_mcp_json",
    "parse_server_tables",
]

SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
RESERVED_ENV = ("PLUGIN_ROOT", "PLUGIN_DATA")
INVALID = "plugin.mcp.invalid"
UNSUPPORTED = "plugin.mcp.transport_unsupported"
_OTHER_VERSION = re.compile(r"https://agent-plugins\.org/schemas/[^/]+/mcp\.schema\.json")
_CLAUDE_ENV = ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_STDIO = ("type", "command", "args", "env", "cwd")
_REMOTE = ("type", "url", "headers")
_NATIVE: Mapping[str, Transport] = {
    "stdio": "stdio",
    "streamable-http": "streamable-http",
    "sse": "sse",
}
_HOSTS: Mapping[str, Transport] = {**_NATIVE, "http": "streamable-http"}  # Claude, bundle
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PLACEHOLDER = re.compile(r"\$\{(PLUGIN_ROOT|PLUGIN_DATA)\}")
_CLAUDE_PLACEHOLDER = re.compile(r"\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}")
# Claude Code's variables in a server's url: ${VAR}, and ${VAR:-default} (the default
# when VAR is unset or empty), as code.claude.com/docs/en/mcp describes its expansion
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_DATA = "/satchel-plugin-data.invalid"  # stands in for PLUGIN_DATA when judging a cwd
_ROOT, _DATA_BASE = "${PLUGIN_ROOT}", "${PLUGIN_DATA}"
_CWD_FORMS = '"./…", "${PLUGIN_ROOT}[/…]" or "${PLUGIN_DATA}[/…]"'
_NO_EXTRAS: Mapping[str, Any] = MappingProxyType({})

Result = tuple[tuple[McpServer, ...], list[Diagnostic]]


@model
class _Source:
    root: Path
    plugin: str
    path: Path
    style: Literal["agent-plugins", "claude", "bundle"]
    resolved: bool  # `root` is already a real path

    @property
    def origin(self) -> Origin:
        """The origin of the servers of this source: the plugin at `root`."""
        return Origin("plugin", self.plugin, plugin=self.plugin, path=self.root)


def parse_mcp_json(path: Path, root: Path, plugin: str, *, resolved: bool = False) -> Result:
    """The servers of an Agent Plugins 1.0 ``mcp.json`` (spec §7.2, Vibe Step 4).
    `resolved`: `root` is already a real path."""
    src = _Source(root, plugin, path, "agent-plugins", resolved)
    return with_json(
        path, root, INVALID, lambda data: _native_servers(data, src), resolved=resolved
    )


def _native_servers(data: Any, src: _Source) -> Result:
    servers = _top_level(data)
    if isinstance(servers, str):
        message = f"{servers}; no MCP server of this plugin loads"
        return (), [diagnostic(INVALID, message, src.path)]
    return _entries(servers, src, _native_entry)


def parse_claude_mcp(path: Path, root: Path, plugin: str, *, resolved: bool = False) -> Result:
    """The servers of Claude Code's ``.mcp.json``: ``{"mcpServers": {...}}`` or the
    bare ``{name: {...}}`` map. Unknown entry fields are kept in `extras`. `resolved`:
    `root` is already a real path."""
    src = _Source(root, plugin, path, "claude", resolved)
    return with_json(
        path, root, INVALID, lambda data: _claude_servers(data, src), resolved=resolved
    )


def _claude_servers(data: Any, src: _Source) -> Result:
    servers = data.get("mcpServers", data) if isinstance(data, dict) else data
    if not isinstance(servers, dict):
        message = f"the servers must be a JSON object, not {type_name(servers)}"
        return (), [diagnostic(INVALID, f"{message}; no MCP server of this plugin loads", src.path)]
    servers = {k: v for k, v in servers.items() if k != "$schema"}
    return _entries(servers, src, _claude_entry)


def claude_servers(servers: Mapping[str, Any], *, root: Path, plugin: str, path: Path) -> Result:
    """The servers of an already parsed ``{name: entry}`` map in Claude Code's ``.mcp.json``
    shape (an agent file's inline ``mcpServers`` items), read as `parse_claude_mcp` reads
    them; `path` is the file they came from, for messages."""
    return _entries(servers, _Source(root, plugin, path, "claude", False), _claude_entry)


def parse_server_tables(
    tables: Mapping[str, Any], *, root: Path, plugin: str, path: Path, resolved: bool = False
) -> Result:
    """The servers of a bundle's ``[servers.<name>]`` tables, or of a manifest's inline
    ``mcpServers`` object: `tables` maps each name to its entry (the shape of the host
    config's ``[mcp_servers.<name>]``). Fields other than command, args, env, cwd, url,
    headers, transport and type are kept in `extras`. `resolved`: `root` is already a
    real path."""
    value: object = tables  # a caller may pass anything a TOML file holds
    if not isinstance(value, Mapping):
        message = f"the servers must be a table (name -> server), not {type_name(value)}"
        return (), [diagnostic(INVALID, message, path)]
    return _entries(tables, _Source(root, plugin, path, "bundle", resolved), _bundle_entry)


def load_server_files(
    paths: Sequence[Path], root: Path, plugin: str, *, resolved: bool = False
) -> Result:
    """The servers of the bundle's MCP files (each TOML, at most 1 MiB). A file that is
    listed and missing is an error; a name declared again is dropped (the first wins).
    `resolved`: `root` is already a real path."""
    servers: list[McpServer] = []
    diags: list[Diagnostic] = []
    first: dict[str, Path] = {}
    for path in paths:
        found, problems = _server_file(path, root, plugin, resolved)
        diags.extend(problems)
        for server in found:
            if server.name in first:
                kept = first[server.name]
                message = f"MCP server {server.name!r} is declared again; the one in {kept} is kept"
                diags.append(diagnostic(INVALID, message, path))
                continue
            first[server.name] = path
            servers.append(server)
    return tuple(servers), diags


def _server_file(path: Path, root: Path, plugin: str, resolved: bool) -> Result:
    data = read_inside(path, root, MAX_FILE, resolved=resolved)
    if isinstance(data, Refusal):
        message = f"cannot read the MCP servers file: {data.message}"
        return (), [Refusal(message, data.outside).diagnostic(INVALID, path)]
    doc, problem = parse_toml(data, path, INVALID)
    if doc is None:
        return (), [] if problem is None else [problem]
    if "servers" not in doc:
        return (), [diagnostic(INVALID, "the file has no [servers.<name>] tables", path)]
    return parse_server_tables(
        doc["servers"], root=root, plugin=plugin, path=path, resolved=resolved
    )


def _top_level(data: Any) -> Mapping[str, Any] | str:
    """The ``mcpServers`` object of a valid top level, or what is wrong with it."""
    if not isinstance(data, dict):
        return f"mcp.json must be a JSON object, not {type_name(data)}"
    schema = data.get("$schema")
    if schema != SCHEMA:
        return _schema_problem(schema)
    extra = unknown_keys(data, ("$schema", "mcpServers"))
    if extra:
        return f"unknown top-level field {extra}: mcp.json holds exactly $schema and mcpServers"
    servers = data.get("mcpServers")
    if not isinstance(servers, dict):
        return f"mcpServers must be an object, not {type_name(servers)}"
    return servers


def _schema_problem(schema: Any) -> str:
    if schema is None:
        return f"mcp.json has no $schema; it must be {SCHEMA}"
    if isinstance(schema, str) and _OTHER_VERSION.fullmatch(schema):
        return (
            f"$schema {schema!r} is an Agent Plugins version this client does not support (1.0.0)"
        )
    return f"$schema must be exactly {SCHEMA}"


_Parse = Callable[[str, Any, _Source], McpServer]


def _entries(servers: Mapping[str, Any], src: _Source, parse: _Parse) -> Result:
    found: list[McpServer] = []
    diags: list[Diagnostic] = []
    for name, entry in servers.items():
        try:
            if not isinstance(name, str) or not name.strip() or _CONTROL.search(name):
                raise Bad("a server name must be non-blank, without control characters")
            found.append(parse(name, entry, src))
        except Bad as bad:
            message = f"MCP server {name!r}: {bad}; the entry is skipped"
            diags.append(
                diagnostic(
                    bad.code or INVALID, message, src.path, hint=bad.hint, severity="warning"
                )
            )
    return tuple(found), diags


def _native_entry(name: str, entry: Any, src: _Source) -> McpServer:
    if not isinstance(entry, dict):
        raise Bad(f"the entry must be an object, not {type_name(entry)}")
    if "type" not in entry:
        raise Bad("it has no type (stdio, streamable-http or sse)")
    transport = _transport(entry["type"], _NATIVE)
    own, other = (_STDIO, _REMOTE) if transport == "stdio" else (_REMOTE, _STDIO)
    for key in entry:
        if key in other and key not in own:
            raise Bad(f"{key!r} is not a field of {transport} servers")
        if key not in own:
            raise Bad(f"unknown field {key!r}")
    return _build(name, entry, transport, src)


def _claude_entry(name: str, entry: Any, src: _Source) -> McpServer:
    if not isinstance(entry, dict):
        raise Bad(f"the entry must be an object, not {type_name(entry)}")
    transport = inferred_transport(entry, entry.get("type"))
    return _build(name, _claude_names(entry), transport, src, ("type",))


def _bundle_entry(name: str, entry: Any, src: _Source) -> McpServer:
    if not isinstance(entry, dict):
        raise Bad(f"the entry must be a table, not {type_name(entry)}")
    kinds = {entry[k] for k in ("transport", "type") if k in entry and isinstance(entry[k], str)}
    if len(kinds) > 1:
        raise Bad("transport and type disagree")
    kind = entry.get("transport", entry.get("type"))
    transport = inferred_transport(entry, kind)
    return _build(name, _claude_names(entry), transport, src, ("type", "transport"))


def inferred_transport(entry: Mapping[str, Any], kind: Any) -> Transport:
    """The transport an entry names, or the one its fields imply (command: stdio,
    url: streamable-http), as Claude Code and host configs allow."""
    if kind is not None:
        return _transport(kind, _HOSTS)
    if "command" in entry and "url" in entry:
        raise Bad("it has both command and url; give a type")
    if "command" in entry:
        return "stdio"
    if "url" in entry:
        return "streamable-http"
    raise Bad("it has neither command nor url")


def _transport(kind: Any, known: Mapping[str, Transport]) -> Transport:
    if not isinstance(kind, str):
        raise Bad(f"type must be a string, not {type_name(kind)}")
    if kind not in known:
        hint = 'Agent Plugins calls it "streamable-http"' if kind == "http" else None
        why = "satchel starts stdio, streamable-http and sse servers"
        raise Bad(f"transport {kind!r} is not supported ({why})", UNSUPPORTED, hint)
    return known[kind]


def _build(
    name: str,
    entry: Mapping[str, Any],
    transport: Transport,
    src: _Source,
    kinds: tuple[str, ...] = (),
) -> McpServer:
    fields = _STDIO if transport == "stdio" else _REMOTE
    extras = {k: v for k, v in entry.items() if k not in fields and k not in kinds}
    common: dict[str, Any] = {"origin": src.origin, "path": src.path}
    common["extras"] = MappingProxyType(extras) if extras else _NO_EXTRAS
    if transport != "stdio":
        return McpServer(
            name, transport, url=check_url(entry), headers=check_headers(entry), **common
        )
    return McpServer(
        name,
        transport,
        command=_command(entry, src),
        args=check_args(entry),
        env=_env(entry, src),
        cwd=_cwd(entry, src),
        **common,
    )


def _claude_names(entry: Mapping[str, Any]) -> dict[str, Any]:
    """`entry` with Claude Code's placeholder names made the portable ones, and a
    ``${CLAUDE_PLUGIN_ROOT}/x`` command made ``./x``."""
    out = dict(entry)
    command = out.get("command")
    if isinstance(command, str):
        command = _portable(command)
        out["command"] = (
            "./" + command[len(_ROOT) + 1 :] if command.startswith(_ROOT + "/") else command
        )
    if isinstance(out.get("args"), list):
        out["args"] = [_portable(a) if isinstance(a, str) else a for a in out["args"]]
    if isinstance(out.get("env"), dict):
        out["env"] = {k: _portable(v) if isinstance(v, str) else v for k, v in out["env"].items()}
    if isinstance(out.get("cwd"), str):
        out["cwd"] = _portable(out["cwd"])
    return out


def _portable(text: str) -> str:
    return _CLAUDE_PLACEHOLDER.sub(lambda m: "${PLUGIN_" + m.group(1) + "}", text)


def check_command(entry: Mapping[str, Any]) -> str:
    """An entry's ``command``: a non-blank string without control characters."""
    value = entry.get("command")
    if not isinstance(value, str) or not value.strip():
        raise Bad(
            "command must be a non-empty string" if "command" in entry else "it has no command"
        )
    if _CONTROL.search(value):
        raise Bad("command holds a control character")
    return value


def _command(entry: Mapping[str, Any], src: _Source) -> str:
    value = check_command(entry)
    if "${" in value:
        hint = 'name a file inside the plugin as "./path"; placeholders belong in args'
        raise Bad(f"command {value!r} holds a placeholder, which is not expanded there", hint=hint)
    if value.startswith("./"):
        return _file_inside(value, src)
    if value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:[\\/]", value):
        if src.style == "agent-plugins":
            hint = (
                'ship the executable in the plugin and name it "./path", or use a bare name on PATH'
            )
            raise Bad(f"command {value!r} is absolute", hint=hint)
        return value
    if "/" in value or "\\" in value or value in (".", ".."):
        raise Bad(
            f"command {value!r} must be a bare name looked up on PATH or a ./path inside the plugin"
        )
    if any(c.isspace() for c in value):
        raise Bad(f"command {value!r} is one executable token; put its arguments in args")
    return value


def _file_inside(value: str, src: _Source) -> str:
    if value.endswith("/") or value.rstrip("/") == ".":
        raise Bad(f"command {value!r} must name a file")
    where = resolve_in_root(src.root, value, resolved=src.resolved)
    if isinstance(where, Refusal):
        raise Bad(f"command {where.message}", OUTSIDE_ROOT if where.outside else INVALID)
    if where.is_dir():
        raise Bad(f"command {value!r} is a directory")
    return value


def check_args(entry: Mapping[str, Any]) -> tuple[str, ...]:
    value = entry.get("args", [])
    if not str_list(value):
        raise Bad("args must be a list of strings")
    if any("\0" in a for a in value):
        raise Bad("args holds a NUL byte")
    return tuple(value)


def _env(entry: Mapping[str, Any], src: _Source) -> Mapping[str, str]:
    value = entry.get("env", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Bad("env must be an object whose values are strings")
    reserved = RESERVED_ENV + (() if src.style == "agent-plugins" else _CLAUDE_ENV)
    for name, text in value.items():
        if name in reserved:
            raise Bad(f"env sets {name}, which satchel sets for every plugin server")
        if not name or "=" in name or "\0" in name:
            raise Bad(f"env name {name!r} is not a valid variable name")
        if is_dangerous_env(name):
            why = "it can make the server process run code its command does not name"
            raise Bad(f"env sets {name}, which is refused: {why}")
        if "\0" in text:
            raise Bad(f"the value of env {name} holds a NUL byte")
    return MappingProxyType(dict(value))


def _cwd(entry: Mapping[str, Any], src: _Source) -> str | None:
    if "cwd" not in entry:
        return None
    value = entry["cwd"]
    if not isinstance(value, str):
        raise Bad(f"cwd must be a string, not {type_name(value)}")
    if "\0" in value or "\\" in value:
        raise Bad(f"cwd {value!r} holds a NUL byte or a backslash")
    value = _ROOT if value == "." else value
    if value.startswith("./") or _rooted(value, _ROOT):
        if not _cwd_in_root(value, src):
            raise Bad(f"cwd {value!r} leaves the plugin root", OUTSIDE_ROOT)
    elif _rooted(value, _DATA_BASE):
        expanded = posixpath.normpath(_expand(value, _DATA))
        if not is_inside(Path(expanded), Path(_DATA)):
            raise Bad(f"cwd {value!r} leaves the plugin data directory")
    else:
        raise Bad(f"cwd {value!r} must be {_CWD_FORMS}")
    return value


def _rooted(value: str, base: str) -> bool:
    return value == base or value.startswith(base + "/")


def _expand(value: str, root: str) -> str:
    """`value` with both placeholders replaced in one pass (PLUGIN_DATA by a stand-in)."""
    return _PLACEHOLDER.sub(lambda m: root if m.group(1) == "PLUGIN_ROOT" else _DATA, value)


def _cwd_in_root(value: str, src: _Source) -> bool:
    base = src.root if src.resolved else real_path(src.root)
    if base is None:
        return False
    expanded = _expand(value, str(base))
    if value.startswith("./"):
        expanded = f"{base}/{expanded[2:]}"
    target = real_below(Path(expanded), base)
    return target is not None and is_inside(target, base)


def check_url(entry: Mapping[str, Any]) -> str:
    """The url as written. A ``${VAR:-default}`` in it is judged as its default, the
    URL it stands for when the variable is not set; the supervisor expands it when it
    connects (`expand_url`)."""
    value = entry.get("url")
    if not isinstance(value, str) or not value:
        raise Bad("url must be a non-empty string" if "url" in entry else "it has no url")
    why = url_problem(expand_url(value, {}))
    if why is not None:
        raise Bad(f"url {why}")
    return value


def expand_url(value: str, environ: Mapping[str, str]) -> str:
    """`value` with each ``${VAR}`` and ``${VAR:-default}`` filled from `environ`, as
    Claude Code expands a server's url: a variable unset or empty takes its default;
    one with no default stays as written."""

    def fill(m: re.Match[str]) -> str:
        found = environ.get(m.group(1))
        if found:
            return found
        return m.group(0) if m.group(2) is None else m.group(2)

    return _VARIABLE.sub(fill, value) if "${" in value else value


def url_problem(value: str) -> str | None:
    """Why `value` is not a URL satchel connects to, or None."""
    if any(ord(c) <= 0x20 or ord(c) == 0x7F for c in value):
        return "holds a space or a control character"
    try:
        parts = urlsplit(value)
        _ = parts.port
    except ValueError:
        return "is not a valid URL"
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return "must be an absolute http:// or https:// URL"
    if "@" in parts.netloc:
        return "must not carry user information (user:password@)"
    if "#" in value:
        return "must not have a fragment (#...)"
    if scheme == "http" and not is_loopback(parts.hostname):
        return "uses plain http, allowed only for localhost and loopback addresses; use https"
    return None


def check_headers(entry: Mapping[str, Any]) -> Mapping[str, str]:
    value = entry.get("headers", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Bad("headers must be an object whose values are strings")
    seen: dict[str, str] = {}
    for name, text in value.items():
        if not _TOKEN.fullmatch(name):
            raise Bad(f"header name {name!r} is not an HTTP token")
        if name.lower() in seen:
            raise Bad(f"headers {seen[name.lower()]!r} and {name!r} differ only in case")
        seen[name.lower()] = name
        if not _HEADER_VALUE.fullmatch(text):
            raise Bad(f"the value of header {name!r} holds a character HTTP does not allow")
    return MappingProxyType(dict(value))

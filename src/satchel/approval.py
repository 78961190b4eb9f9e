"""Content-hash approval of a project's executable parts (threat model T03, "MCPoison").

Trusting a folder with `satchel trust` pins what was there to run: a digest of each
project hook and project MCP server (their declaration and the bytes of the scripts
they name inside the project). At every load of that folder, an item whose digest
changed, or that was not there when the folder was trusted, is held back: the hook is
skipped, the server disabled, with ``trust.changed`` naming it, until the user runs
`satchel trust` again. A folder trusted without pins (``trust(layout, folder)`` with no
`approved`, or a host's ``load(trusted=True)``) runs what it holds, as before.

Only project-origin items are pinned: the user's own hooks and servers, and those of
user plugins, are the user's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel._files import FileProblem, read_bounded
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import PROJECT

if TYPE_CHECKING:
    from satchel.environment import Environment
    from satchel.hooks.model import Hook
    from satchel.plugins.model import McpServer

__all__ = ["digests", "hold_back"]

MAX_SCRIPT = 1024 * 1024  # bytes of a named script that count; a bigger one counts by size
_PLACEHOLDERS = ("${CLAUDE_PLUGIN_ROOT}", "${PLUGIN_ROOT}")
_PROJECT_DIRS = ("${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR")


def digests(env: Environment) -> dict[str, str]:
    """Key -> sha256 of every project-origin hook and MCP server of `env`."""
    items: dict[str, str] = {}
    for key, hook in _hooks(env):
        items[key] = _digest(_hook_text(hook), _hook_files(env, hook))
    for key, server in _servers(env):
        items[key] = _digest(_server_text(server), _server_files(env, server))
    return items


def hold_back(env: Environment, approved: Mapping[str, str], folder: Path) -> Environment:
    """`env` with every project item that is new or changed since `approved` held
    back, each with a ``trust.changed`` diagnostic."""
    current = digests(env)
    changed = {k for k, v in current.items() if approved.get(k) != v}
    if not changed:
        return env
    found = [_changed(key, key in approved, folder) for key in sorted(changed)]
    hooks = tuple(
        replace(h, status="skipped", why="changed since the folder was trusted")
        if h.loaded and key in changed
        else h
        for key, h in _keyed_hooks(env)
    )
    servers = tuple(
        replace(s, enabled=False) if _server_key(env, s) in changed else s
        for s in env.mcp_servers.servers
    )
    return replace(
        env,
        hooks=replace(env.hooks, hooks=hooks),
        mcp_servers=replace(env.mcp_servers, servers=servers),
        diagnostics=(*env.diagnostics, *found),
    )


def _changed(key: str, known: bool, folder: Path) -> Diagnostic:
    kind, _, name = key.partition(" ")
    what = "changed" if known else "is new"
    message = (
        f"{kind} {name} {what} since {folder} was trusted; it does not run until "
        f"`satchel trust {folder}` approves it again"
    )
    return diagnostic("trust.changed", message)


# -- what is pinned ---------------------------------------------------------------------


def _keyed_hooks(env: Environment) -> Iterable[tuple[str | None, Hook]]:
    """Every hook with its key (None for one that is not the project's)."""
    for name, hook in env.hooks.named():
        yield (f"hook {name}" if _project_hook(env, hook) else None), hook


def _hooks(env: Environment) -> Iterable[tuple[str, Hook]]:
    return ((k, h) for k, h in _keyed_hooks(env) if k is not None)


def _servers(env: Environment) -> Iterable[tuple[str, McpServer]]:
    for server in env.mcp_servers.servers:
        key = _server_key(env, server)
        if key is not None:
            yield key, server


def _server_key(env: Environment, server: McpServer) -> str | None:
    if server.scope == PROJECT:
        return f"mcp-server {server.name} (project config)"
    plugin = env.plugins.plugins.get(server.plugin or "")
    if server.scope == "plugin" and plugin is not None and plugin.scope == PROJECT:
        return f"mcp-server {server.name} (plugin {plugin.name})"
    return None


def _project_hook(env: Environment, hook: Hook) -> bool:
    if hook.source in ("project", "claude-project", "claude-local"):
        return True
    name = hook.source.removeprefix("plugin:")
    plugin = env.plugins.plugins.get(name) if name != hook.source else None
    return plugin is not None and plugin.scope == PROJECT


# -- digests ------------------------------------------------------------------------------


def _hook_text(hook: Hook) -> dict[str, Any]:
    spec = hook.spec
    return {
        "event": spec.event,
        "matcher": spec.matcher,
        "command": spec.command,
        "args": spec.args,
        "if": spec.condition,
        "timeout": spec.timeout,
        "strict": spec.strict,
        "fail_mode": spec.fail_mode,
    }


def _server_text(server: McpServer) -> dict[str, Any]:
    return {
        "transport": server.transport,
        "command": server.command,
        "args": server.args,
        "env": dict(server.env),
        "cwd": server.cwd,
        "url": server.url,
        "headers": dict(server.headers),
    }


def _hook_files(env: Environment, hook: Hook) -> list[Path]:
    words = [*_words(hook.spec.command), *(hook.spec.args or ())]
    base = hook.root or env.layout.project
    return _named_files(words, base, hook.root, env.layout.project)


def _server_files(env: Environment, server: McpServer) -> list[Path]:
    plugin = env.plugins.plugins.get(server.plugin or "")
    root = plugin.root if plugin is not None else None
    words = [server.command or "", *server.args]
    return _named_files(words, root or env.layout.project, root, env.layout.project)


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _named_files(words: Iterable[str], base: Path, root: Path | None, project: Path) -> list[Path]:
    """The regular files inside the project that `words` name, each once, in order."""
    inside = os.path.realpath(project)
    found: dict[Path, None] = {}
    for word in words:
        text = word
        for mark in _PLACEHOLDERS:
            text = text.replace(mark, str(root or base))
        for mark in _PROJECT_DIRS:
            text = text.replace(mark, str(project))
        if "$" in text or not text:
            continue
        path = Path(os.path.realpath(base / text))
        if path.is_relative_to(inside) and path.is_file():
            found[path] = None
    return list(found)


def _digest(declared: Mapping[str, Any], files: Iterable[Path]) -> str:
    h = hashlib.sha256(json.dumps(declared, sort_keys=True, default=list).encode("utf-8"))
    for path in files:
        h.update(b"\0" + str(path).encode("utf-8") + b"\0")
        try:
            h.update(read_bounded(path, MAX_SCRIPT))
        except FileProblem as e:
            h.update(f"unreadable:{e.kind}:{e.size}".encode())
    return h.hexdigest()

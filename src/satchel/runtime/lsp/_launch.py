"""From an `LspServer` to what starts it: argv, workspace folder and environment.

The rules are those of a plugin's stdio MCP server (`satchel.runtime.mcp._launch`):
``command`` is never expanded (``./x`` is resolved inside the plugin root, a bare name
on the PATH of the server's environment, an absolute path used as written);
``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` are expanded in one pass in each ``args``
element, each ``env`` value and ``workspaceFolder``; the environment is the scrubbed
base, then ``env``, then ``PLUGIN_ROOT``, ``PLUGIN_DATA``, ``CLAUDE_PLUGIN_ROOT`` and
``CLAUDE_PLUGIN_DATA`` last; ``PLUGIN_DATA`` is created before the server starts.

A plugin's ``${user_config.KEY}`` is filled in ``command``, each ``args`` element,
each ``env`` value and ``workspaceFolder``, and each option is exported as
``CLAUDE_PLUGIN_OPTION_<KEY>``, as for its MCP servers; a server naming an option with
no value does not start (``plugin.config.missing``).

The workspace folder is ``workspaceFolder`` (a relative one is taken from the project
root), else the project root; it must be a directory. The server runs in it, and it
is the ``rootUri`` and only ``workspaceFolders`` entry of ``initialize``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from satchel.core.diagnostics import diagnostic
from satchel.foundations._contain import Refusal, real_path, resolve_in_root
from satchel.foundations.process._env import base_env, is_dangerous_env, overlay_env
from satchel.plugins._data import ensure_data_dir
from satchel.plugins._lsp import LspServer
from satchel.plugins._model import Plugin
from satchel.plugins._options import OptionValues
from satchel.plugins.components._user_config import option_environment
from satchel.runtime.mcp._launch import Launch, LaunchRefused, OptionFiller, expand

__all__ = ["FAILED", "launch_lsp", "who"]

FAILED = "plugin.lsp.start_failed"


def who(server: LspServer) -> str:
    """The server in words, for messages."""
    return f"language server {server.name!r} of plugin {server.plugin!r}"


def launch_lsp(
    server: LspServer,
    plugin: Plugin,
    *,
    project: Path,
    environ: Mapping[str, str],
    options: OptionValues | None = None,
) -> Launch:
    """The launch of `server` (`options`: its plugin's userConfig values); `LaunchRefused`
    when it must not start. The launch's `cwd` is the workspace folder."""
    options = options or OptionValues()
    server = _with_options(server, plugin, options)
    root = real_path(plugin.root)
    if root is None:
        raise _refused(server, "its plugin root is unusable")
    data = _data_dir(server, plugin)
    for name in server.env:
        if is_dangerous_env(name):
            why = "it can make the server run code its command does not name"
            message = f"{who(server)} was not started: its env sets {name}, which is refused: {why}"
            raise LaunchRefused(diagnostic("exec.env.refused", message, server.path))
    values = {k: expand(v, str(root), str(data)) for k, v in server.env.items()}
    fixed = option_environment(plugin.user_config, options.values)
    fixed |= {"PLUGIN_ROOT": str(root), "PLUGIN_DATA": str(data)}
    fixed |= {"CLAUDE_PLUGIN_ROOT": str(root), "CLAUDE_PLUGIN_DATA": str(data)}
    env, refused = overlay_env(base_env(environ), values, source=server.path, fixed=fixed)
    if refused:
        raise LaunchRefused(refused[0])
    argv = (_command(server, root), *(expand(a, str(root), str(data)) for a in server.args))
    return Launch(argv, _workspace(server, project, root, data), env)


def _with_options(server: LspServer, plugin: Plugin, options: OptionValues) -> LspServer:
    """`server` with its plugin's ``${user_config.KEY}`` values filled in; raises
    `LaunchRefused` (``plugin.config.missing``) when it names one with no value."""
    fill = OptionFiller(plugin, options)
    folder = server.workspace_folder
    filled = replace(
        server,
        command=fill(server.command),
        args=tuple(fill(a) for a in server.args),
        env={name: fill(value) for name, value in server.env.items()},
        workspace_folder=None if folder is None else fill(folder),
    )
    fill.check(who(server), server.path)
    return filled


def _refused(server: LspServer, why: str) -> LaunchRefused:
    return LaunchRefused(diagnostic(FAILED, f"{who(server)} was not started: {why}", server.path))


def _data_dir(server: LspServer, plugin: Plugin) -> Path:
    if plugin.data_dir is None:
        raise _refused(server, "satchel has no data directory for its plugin (PLUGIN_DATA)")
    try:
        made = ensure_data_dir(plugin.data_dir)
    except OSError as e:
        raise _refused(server, f"its data directory cannot be created: {e}") from None
    return real_path(made) or made


def _command(server: LspServer, root: Path) -> str:
    if not server.command.startswith("./"):
        return server.command
    where = resolve_in_root(root, server.command, resolved=True)
    if isinstance(where, Refusal):
        raise _refused(server, f"command {where.message}")
    return str(where)


def _workspace(server: LspServer, project: Path, root: Path, data: Path) -> Path:
    if server.workspace_folder is None:
        folder = project
    else:
        folder = project / expand(server.workspace_folder, str(root), str(data))
    target = real_path(folder)
    if target is None or not target.is_dir():
        raise _refused(server, f"its workspace folder {str(folder)!r} is not a directory")
    return target

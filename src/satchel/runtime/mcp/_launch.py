"""From an `McpServer` entry to what starts it: argv, working directory and environment.

Plugin servers follow the Agent Plugins rules (spec §7.2, §9):

* ``command`` is one token and is never expanded: ``./x`` is resolved inside the
  plugin root (after symlinks; an escape refuses the server), a bare name is looked up
  on the PATH of the server's environment, an absolute one (Claude Code and bundle
  entries only) is used as written.
* ``${PLUGIN_ROOT}`` and ``${PLUGIN_DATA}`` are expanded in one non-recursive pass in
  each ``args`` element, each ``env`` value and ``cwd``, nowhere else; any other
  ``${...}`` stays literal.
* ``cwd`` defaults to the plugin root and must stay inside its base (the root or the
  data directory) once expanded and resolved.
* The environment is the scrubbed base (`satchel.foundations.process.base_env`), then ``env``, then
  ``PLUGIN_ROOT`` and ``PLUGIN_DATA`` last (for a Claude Code plugin also
  ``CLAUDE_PLUGIN_ROOT``/``CLAUDE_PLUGIN_DATA``). An ``env`` name that can inject
  code (`satchel.foundations.process.is_dangerous_env`) refuses the whole server
  (``exec.env.refused``): parsing already drops such entries; this is the check at
  launch, for servers built in code.
* ``PLUGIN_DATA`` is created (private to the user) before the server starts.
* A plugin's ``${user_config.KEY}`` is filled (`with_options`) in the command, each
  ``args`` element, ``env`` and ``headers`` value, ``cwd`` and ``url``, and each
  option with a value is in the environment as ``CLAUDE_PLUGIN_OPTION_<KEY>``
  (`satchel.plugins.components._user_config`). A server naming an option with no value
  does not start (``plugin.config.missing``); the plugin's other servers do.

The host's own servers (``[mcp_servers.<name>]``) are the user's: their command, env
and cwd are taken as written (no placeholder, any variable); ``cwd`` defaults to the
project root and a relative one, like a ``./`` command, is taken from there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import Refusal, is_inside, real_path, resolve_in_root
from satchel.foundations.process._env import base_env, is_dangerous_env, overlay_env
from satchel.hosts._dialects import server_variables
from satchel.mcp._spec import McpServer
from satchel.plugins._data import ensure_data_dir
from satchel.plugins._model import Plugin
from satchel.plugins._options import OptionValues
from satchel.plugins.components._user_config import fill_user_config, option_environment

__all__ = ["Launch", "LaunchRefused", "OptionFiller", "expand", "launch_spec", "with_options"]

_PLACEHOLDER = re.compile(r"\$\{(PLUGIN_ROOT|PLUGIN_DATA)\}")


@model
class Launch:
    """How to start one stdio server: exactly these argv, cwd and environment."""

    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str]


class LaunchRefused(Exception):
    """A server that must not start; `diagnostic` says why."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.diagnostic = found


def expand(text: str, root: str, data: str) -> str:
    """`text` with ``${PLUGIN_ROOT}`` and ``${PLUGIN_DATA}`` replaced in one pass: a
    value that itself holds a placeholder is not expanded again."""
    return _PLACEHOLDER.sub(lambda m: root if m.group(1) == "PLUGIN_ROOT" else data, text)


class OptionFiller:
    """Fills a plugin's ``${user_config.KEY}`` values into one server's texts and
    remembers the options named with no value: call it on each text, then `check`."""

    def __init__(self, plugin: Plugin, options: OptionValues) -> None:
        self.plugin = plugin
        self.values = options.values
        self.missing: list[str] = []

    def __call__(self, text: str) -> str:
        done, lacking = fill_user_config(text, self.values)
        self.missing.extend(k for k in lacking if k not in self.missing)
        return done

    def check(self, who: str, path: Path | None) -> None:
        """Raise `LaunchRefused` (``plugin.config.missing``) when a text named an
        option with no value; `who` is the server in words."""
        if not self.missing:
            return
        key, name = self.missing[0], self.plugin.name
        message = (
            f"{who} was not started: it needs the userConfig option {key!r} of plugin "
            f"{name!r}, which has no value"
        )
        hint = f"satchel plugin configure {name} --set {key}=VALUE"
        raise LaunchRefused(diagnostic("plugin.config.missing", message, path, hint=hint))


def with_options(server: McpServer, plugin: Plugin, options: OptionValues) -> McpServer:
    """`server` with its plugin's ``${user_config.KEY}`` values filled in. Raises
    `LaunchRefused` (``plugin.config.missing``) when it names an option with no value."""
    fill = OptionFiller(plugin, options)

    def fill_map(items: Mapping[str, str]) -> dict[str, str]:
        return {name: fill(value) for name, value in items.items()}

    filled = replace(
        server,
        command=None if server.command is None else fill(server.command),
        args=tuple(fill(a) for a in server.args),
        env=fill_map(server.env),
        headers=fill_map(server.headers),
        cwd=None if server.cwd is None else fill(server.cwd),
        url=None if server.url is None else fill(server.url),
    )
    fill.check(_who(server), server.path)
    return filled


def launch_spec(
    server: McpServer,
    *,
    plugin: Plugin | None,
    project: Path,
    environ: Mapping[str, str],
    failed: str,
    options: OptionValues | None = None,
) -> Launch:
    """The launch of a stdio `server` (`plugin`: the plugin that declares it, None for
    the host's; `options`: its userConfig values, already filled by `with_options`,
    exported as ``CLAUDE_PLUGIN_OPTION_<KEY>``). Raises `LaunchRefused` (its diagnostic
    under the code `failed`, or ``exec.env.refused``) when it must not start."""
    if server.command is None:
        raise LaunchRefused(diagnostic(failed, f"{_who(server)} has no command", server.path))
    if plugin is None:
        return _host_launch(server, project, environ)
    return _plugin_launch(server, plugin, environ, failed, options or OptionValues())


def _host_launch(server: McpServer, project: Path, environ: Mapping[str, str]) -> Launch:
    assert server.command is not None
    cwd = project if server.cwd is None else project / server.cwd
    command = server.command
    if command.startswith("./"):
        command = str(project / command[2:])
    env = {**base_env(environ), **server.env}
    return Launch((command, *server.args), cwd, env)


def _plugin_launch(
    server: McpServer,
    plugin: Plugin,
    environ: Mapping[str, str],
    failed: str,
    options: OptionValues,
) -> Launch:
    root = real_path(plugin.root)
    if root is None:
        raise LaunchRefused(diagnostic(failed, f"{_who(server)}: its plugin root is unusable"))
    data = _data_dir(server, plugin, failed)
    for name in server.env:
        if is_dangerous_env(name):
            why = "it can make the server run code its command does not name"
            message = (
                f"{_who(server)} was not started: its env sets {name}, which is refused: {why}"
            )
            raise LaunchRefused(diagnostic("exec.env.refused", message, server.path))
    values = {name: expand(v, str(root), str(data)) for name, v in server.env.items()}
    fixed = option_environment(plugin.user_config, options.values)
    fixed |= {"PLUGIN_ROOT": str(root), "PLUGIN_DATA": str(data)}
    names = server_variables(plugin.format)  # Claude Code's CLAUDE_PLUGIN_ROOT...
    if names is not None:
        fixed |= dict.fromkeys(names.plugin_root, str(root))
        fixed |= dict.fromkeys(names.plugin_data, str(data))
    env, refused = overlay_env(base_env(environ), values, source=server.path, fixed=fixed)
    if refused:
        raise LaunchRefused(refused[0])
    argv = (_command(server, root, failed), *(expand(a, str(root), str(data)) for a in server.args))
    return Launch(argv, _cwd(server, root, data, failed), env)


def _data_dir(server: McpServer, plugin: Plugin, failed: str) -> Path:
    if plugin.data_dir is None:
        message = f"{_who(server)}: satchel has no data directory for its plugin (PLUGIN_DATA)"
        raise LaunchRefused(diagnostic(failed, message, server.path))
    try:
        made = ensure_data_dir(plugin.data_dir)
    except OSError as e:
        message = f"{_who(server)}: its data directory {plugin.data_dir} cannot be created: {e}"
        raise LaunchRefused(diagnostic(failed, message, server.path)) from None
    return real_path(made) or made


def _command(server: McpServer, root: Path, failed: str) -> str:
    command = server.command or ""
    if not command.startswith("./"):
        return command  # a bare name (PATH of the server's env) or an absolute path
    where = resolve_in_root(root, command, resolved=True)
    if isinstance(where, Refusal):
        message = f"{_who(server)}: command {where.message}"
        raise LaunchRefused(diagnostic(failed, message, server.path))
    return str(where)


def _cwd(server: McpServer, root: Path, data: Path, failed: str) -> Path:
    if server.cwd is None:
        return root
    text = server.cwd
    if text.startswith("./"):
        text = f"{root}/{text[2:]}"
    target = real_path(expand(text, str(root), str(data)))
    base = data if server.cwd.startswith("${PLUGIN_DATA}") else root
    if target is None or not is_inside(target, base):
        message = f"{_who(server)}: cwd {server.cwd!r} leaves its base directory"
        raise LaunchRefused(diagnostic(failed, message, server.path))
    return target


def _who(server: McpServer) -> str:
    if server.plugin is not None:
        return f"MCP server {server.name!r} of plugin {server.plugin!r}"
    return f"MCP server {server.name!r}"

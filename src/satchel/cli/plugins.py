"""`satchel plugins`: every plugin found, in precedence order, with its status."""

from __future__ import annotations

from satchel.assembly._environment import Environment
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._params import json_option, located
from satchel.cli._plugin import components, masked_set
from satchel.cli._workspace import loaded, say_project
from satchel.plugins import Plugin

WORDS = ("plugin", "format", "namespace", "scope", "status")

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the plugins found, in precedence order.

    Each with its format, namespace, scope, status (enabled, disabled or shadowed),
    what it holds and its directory (and, for a plugin Claude Code installed, its
    ``name@marketplace``). MCP env and header values are never printed.
    `satchel plugin inspect PATH` shows one plugin in full; `satchel doctor` says
    what did not load and why."""
    env = loaded(here)
    if as_json:
        out.print_json({"project": str(env.layout.project), **masked_set(env.plugins)})
    else:
        say_project(env.layout, here.project)
        _print(env)
    return OK


def status(plugin: Plugin) -> str:
    return "enabled" if plugin.enabled else "disabled"


def _print(env: Environment) -> None:
    con = out.console()
    found = env.plugins
    rows = [(p, status(p)) for p in found.plugins.values()]
    rows += [(loser, "shadowed") for _, loser in found.shadowed]
    if not rows:
        where = ", ".join(out.shown(r.path) for r in env.layout.plugin_dirs())
        out.note(f"No plugins found; satchel looked in {where}.")
    else:
        grid = out.table(*WORDS, "components and path")
        for plugin, state in rows:
            row = (plugin.name, plugin.format, plugin.namespace, plugin.scope or "-", state)
            cell = out.safe(components(plugin))
            cell.append("\n")
            cell.append_text(out.safe(out.shown(plugin.root), style="dim"))
            if plugin.installed:
                cell.append_text(out.safe(f" (Claude Code: {plugin.installed})", style="dim"))
            grid.add_row(*(out.safe(c) for c in row), cell)
        con.print(grid)
    if found.diagnostics:
        out.note(out.see_doctor(found.diagnostics, "plugins"))

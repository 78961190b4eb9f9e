"""`satchel plugin inspect PATH`: everything satchel would load from one plugin."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option
from satchel.cli._plugin import PluginCheck, check_plugin, components, masked_plugin, masked_url
from satchel.cli._plugin_kinds import KIND_SECTIONS
from satchel.hooks._spec import HookSpec
from satchel.mcp._spec import McpServer
from satchel.plugins import Plugin, inventory

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

PARAMS = (
    click.Argument(["path"], type=click.Path(path_type=Path)),
    click.Option(
        ["--strict"], is_flag=True, help="Make an unknown manifest field fatal, as Vibe does."
    ),
    click.Option(
        ["--declarative"],
        is_flag=True,
        help="Load as a declarative-only client: no hooks, MCP servers or agents.",
    ),
    json_option(),
)


def run(*, path: Path, strict: bool, declarative: bool, as_json: bool) -> int:
    """Show everything satchel would load from one plugin directory.

    The manifest's basics, the namespace, each skill, command, agent, MCP server,
    hook, knowledge folder, library, connector, Codex app, tool override, output style,
    theme, channel, workflow and hooks module, Claude Code's default settings and
    defaultEnabled, the inventory in Claude Code's shape (--json: provides), and every
    diagnostic. Nothing is run, and MCP env and header values are never printed.
    --strict makes an unknown manifest field fatal, as Mistral Vibe does;
    --declarative loads as a declarative-only client (no hooks, MCP servers or
    agents). Exit 1 when the plugin does not load or has an error."""
    checked = check_plugin(path, strict=strict, executable=not declarative)
    if as_json:
        out.print_json(document(checked))
    else:
        _print(checked)
    return OK if checked.ok else PROBLEMS


def document(checked: PluginCheck) -> dict[str, Any]:
    """`Plugin.to_json()` with secrets masked, Claude Code's ``provides`` inventory
    (`satchel.plugins.inventory`), every diagnostic, and whether it loaded."""
    diagnostics = [d.to_json() for d in checked.diagnostics]
    if checked.plugin is None:
        return {"loaded": False, "root": str(checked.path), "diagnostics": diagnostics}
    doc = masked_plugin(checked.plugin.to_json())
    return {
        "loaded": True,
        **doc,
        "provides": _provides(checked.plugin),
        "diagnostics": diagnostics,
    }


def _provides(plugin: Plugin) -> dict[str, Any]:
    """The inventory, with a URL server's query hidden as `mcp_servers` has it."""
    provides = inventory(plugin)
    provides["mcpServers"] = [
        s if s["type"] == "stdio" else {**s, "target": masked_url(s["target"] or "")}
        for s in provides["mcpServers"]
    ]
    return provides


def _print(checked: PluginCheck) -> None:
    con = out.console()
    plugin = checked.plugin
    if plugin is None:
        con.print(out.safe(f"Not loaded: {out.shown(checked.path)}", style="bold red"))
    else:
        _header(con, plugin)
        for title, section in SECTIONS:
            section(con, title, plugin)
    con.print()
    out.diagnostic_report(con, checked.diagnostics)


def _header(con: Console, plugin: Plugin) -> None:
    title = out.safe(plugin.name, style="bold")
    if plugin.version:
        title.append_text(out.safe(f" {plugin.version}"))
    con.print(title)
    grid = out.table("", "")
    grid.show_header = False
    fmt = plugin.format + (", with the ai.mistral.vibe extension" if plugin.vibe else "")
    rows = [
        ("format", fmt),
        ("namespace", plugin.namespace),
        ("description", plugin.description or "-"),
        ("root", out.shown(plugin.root)),
    ]
    if plugin.instructions is not None:
        rows.append(("instructions", f"{_rel(plugin, plugin.instructions)} (listed, not loaded)"))
    rows.append(("loads", components(plugin)))
    rows.extend(_defaults(plugin))
    for label, value in rows:
        grid.add_row(label, out.safe(value))
    con.print(grid)


def _defaults(plugin: Plugin) -> list[tuple[str, str]]:
    """Claude Code's defaultEnabled and default settings, when the plugin sets them."""
    rows = [] if plugin.default_enabled else [("enabled by default", "no (defaultEnabled)")]
    settings = plugin.settings
    if settings is not None:
        said = [f"agent {settings.agent}"] if settings.agent else []
        said += ["subagentStatusLine"] if settings.subagent_status_line is not None else []
        where = ", ".join(_rel(plugin, p) for p in settings.sources)
        rows.append(("default settings", f"{', '.join(said)} ({where})"))
    return rows


def _rel(plugin: Plugin, path: Path | None) -> str:
    """`path` as the plugin names it (relative to its root), for humans."""
    if path is None:
        return "-"
    try:
        return path.relative_to(plugin.root).as_posix()
    except ValueError:
        return out.shown(path)


def _described(
    con: Console,
    plugin: Plugin,
    headers: Sequence[str],
    rows: Sequence[tuple[list[str], str, Path | None]],
) -> None:
    """A table whose last column is a description over a dim path."""
    grid = out.table(*headers, "description and path")
    for cells, description, path in rows:
        cell = out.safe(out.one_line(description) or "-")
        cell.append("\n")
        cell.append_text(out.safe(_rel(plugin, path), style="dim"))
        grid.add_row(*(out.safe(c) for c in cells), cell)
    con.print(grid)


def _title(con: Console, title: str, n: int) -> None:
    con.print()
    con.print(f"{title}: {n}", style="bold")


def _skills(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.skills:
        _title(con, title, len(plugin.skills))
        rows = [([plugin.qualified(s.name)], s.description, s.path) for s in plugin.skills]
        _described(con, plugin, ("skill",), rows)


def _commands(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.commands:
        _title(con, title, len(plugin.commands))
        rows = [
            ([f"/{c.name}", c.argument_hint or ""], c.description, c.path) for c in plugin.commands
        ]
        _described(con, plugin, ("command", "arguments"), rows)


def _agents(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.agents:
        _title(con, title, len(plugin.agents))
        rows = [([a.name, a.format], a.description, a.path) for a in plugin.agents]
        _described(con, plugin, ("agent", "format"), rows)


def _servers(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.mcp_servers:
        return
    _title(con, title, len(plugin.mcp_servers))
    grid = out.table("server", "transport", "what starts (env and header values hidden)")
    for server in plugin.mcp_servers:
        grid.add_row(out.safe(server.name), out.safe(server.transport), _server(plugin, server))
    con.print(grid)


def _server(plugin: Plugin, server: McpServer) -> Text:
    from rich.text import Text

    if server.transport == "stdio":
        lines = [shlex.join([server.command or "", *server.args])]
        if server.env:
            lines.append(f"env: {', '.join(server.env)}")
        lines.append(f"cwd: {server.cwd or '${PLUGIN_ROOT}'}")
    else:
        lines = [masked_url(server.url or "")]
        if server.headers:
            lines.append(f"headers: {', '.join(server.headers)}")
    if server.extras:
        lines.append(f"other fields: {', '.join(server.extras)}")
    cell = Text()
    cell.append_text(out.safe(lines[0]))
    for line in lines[1:]:
        cell.append("\n")
        cell.append_text(out.safe(line))
    cell.append("\n")
    cell.append_text(out.safe(_rel(plugin, server.path), style="dim"))
    return cell


def _hooks(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.hooks:
        return
    _title(con, title, len(plugin.hooks))
    grid = out.table("event", "matcher", "command and details")
    for hook in plugin.hooks:
        cell = out.safe(_hook_command(hook))
        details = _hook_details(hook)
        if details:
            cell.append("\n")
            cell.append_text(out.safe(details))
        cell.append("\n")
        cell.append_text(out.safe(_rel(plugin, hook.path), style="dim"))
        grid.add_row(out.safe(hook.event), out.safe(hook.matcher or "any"), cell)
    con.print(grid)


def _hook_command(hook: HookSpec) -> str:
    return hook.command if hook.args is None else shlex.join([hook.command, *hook.args])


def _hook_details(hook: HookSpec) -> str:
    parts = [f"{hook.format} hook"]
    if hook.name:
        parts.append(f"name {hook.name}")
    if hook.timeout is not None:
        parts.append(f"timeout {hook.timeout:g} s")
    if hook.strict:
        parts.append("strict")
    if hook.fail_mode:
        parts.append(f"fail {hook.fail_mode}")
    if hook.condition:
        parts.append(f"if {hook.condition}")
    return ", ".join(parts)


def _knowledge(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.knowledge:
        _title(con, title, len(plugin.knowledge))
        rows = [([plugin.qualified(k.name)], k.description, k.path) for k in plugin.knowledge]
        _described(con, plugin, ("knowledge",), rows)


def _libraries(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.libraries:
        return
    _title(con, title, len(plugin.libraries))
    grid = out.table("language", "alias", "path")
    for lib in plugin.libraries:
        grid.add_row(out.safe(lib.language), out.safe(lib.alias), out.safe(_rel(plugin, lib.path)))
    con.print(grid)


def _connectors(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.connectors:
        return
    _title(con, title, len(plugin.connectors))
    grid = out.table("connector", "tools")
    for connector in plugin.connectors:
        grid.add_row(out.safe(connector.id), out.safe(", ".join(connector.tools) or "-"))
    con.print(grid)


def _lsp(con: Console, title: str, plugin: Plugin) -> None:
    """Each language server: its name, its command (never its env) and the extensions
    it serves."""
    if not plugin.lsp_servers:
        return
    _title(con, title, len(plugin.lsp_servers))
    grid = out.table("server", "command", "extensions")
    for server in plugin.lsp_servers:
        command = " ".join((server.command, *server.args))
        served = ", ".join(f"{ext} ({lang})" for ext, lang in server.extensions.items())
        grid.add_row(out.safe(server.name), out.safe(command), out.safe(served or "-"))
    con.print(grid)


def _apps(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.apps:
        return
    _title(con, title, len(plugin.apps))
    grid = out.table("app", "connector id", "capabilities")
    for app in plugin.apps:
        caps = ", ".join(app.capabilities) or "-"
        grid.add_row(out.safe(app.name), out.safe(app.id), out.safe(caps))
    con.print(grid)


def _user_config(con: Console, title: str, plugin: Plugin) -> None:
    """Each userConfig option: its key, type, what it asks and how (never a value)."""
    if not plugin.user_config:
        return
    _title(con, title, len(plugin.user_config))
    grid = out.table("option", "type", "title", "flags")
    for o in plugin.user_config:
        flags = [f for f, on in (("required", o.required), ("sensitive", o.sensitive),
                                 ("multiple", o.multiple)) if on]  # fmt: skip
        if o.choices:
            flags.append("one of " + "/".join(o.choices))
        cells = (o.key, o.type, o.title, ", ".join(flags) or "-")
        grid.add_row(*(out.safe(c) for c in cells))
    con.print(grid)


def _overrides(con: Console, title: str, plugin: Plugin) -> None:
    if not plugin.tool_overrides:
        return
    _title(con, title, len(plugin.tool_overrides))
    grid = out.table("tool", "renamed to", "exposure")
    for o in plugin.tool_overrides:
        grid.add_row(out.safe(o.key), out.safe(o.name or "-"), out.safe(o.exposure or "-"))
    con.print(grid)


def _monitors(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.monitors:
        _title(con, title, len(plugin.monitors))
        rows = [([m.name, m.when], m.description, m.path) for m in plugin.monitors]
        _described(con, plugin, ("monitor", "when"), rows)


def _bin(con: Console, title: str, plugin: Plugin) -> None:
    if plugin.bin:
        _title(con, title, len(plugin.bin))
        con.print(out.safe(", ".join(plugin.bin)))


SECTIONS: tuple[tuple[str, Callable[[Console, str, Plugin], None]], ...] = (
    ("Skills", _skills),
    ("Commands", _commands),
    ("Agents", _agents),
    ("MCP servers", _servers),
    ("Hooks", _hooks),
    ("Knowledge", _knowledge),
    ("Libraries", _libraries),
    ("Connectors", _connectors),
    ("Language servers", _lsp),
    ("Codex apps", _apps),
    ("Tool overrides", _overrides),
    ("Monitors", _monitors),
    ("bin/", _bin),
    ("User configuration", _user_config),
    *KIND_SECTIONS,
)

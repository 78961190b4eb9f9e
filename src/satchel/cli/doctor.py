"""`satchel doctor`: where satchel looked, what it found, what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel._environment import Environment, RootReport
from satchel._render import Index, IndexFormat, build_index
from satchel.agents import AgentType
from satchel.cli import _output as out
from satchel.cli._exit import for_diagnostics
from satchel.cli._ignore import ignore_option, without_ignored
from satchel.cli._params import json_option, located
from satchel.cli._workspace import environment, project_line, trust_command
from satchel.commands import Command
from satchel.plugins import FORMATS, Plugin, PluginSet
from satchel.skills._model import Skill
from satchel.tokens import token_bill

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

INDEX_FORMAT: IndexFormat = "tool"
STATUSES = ("enabled", "disabled", "shadowed")

PARAMS = (*located(), ignore_option(), json_option())


def run(
    *,
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    client: str,
    trust: bool | None,
    plugin_dirs: tuple[Path, ...],
    as_json: bool,
    ignore: Sequence[str] = (),
) -> int:
    """Report where skills were looked for and what is wrong.

    Every skills root by scope and family, the skills that load, the shadowed ones;
    the commands, agent types, plugins (per format and status) and instruction
    files; every diagnostic and the size of the index. Exit 1 when there are errors.
    --ignore (and config.toml's [diagnostics] ignore) hides codes: they are not shown
    and fail nothing."""
    env = environment(directory, project, home, client, trust, plugin_dirs)
    index = build_index(env.skills, format=INDEX_FORMAT)
    # the index's own warnings (skills its caps cut) are diagnostics like the rest
    env = without_ignored(replace(env, diagnostics=(*env.diagnostics, *index.diagnostics)), ignore)
    if as_json:
        out.print_json(_document(env, index))
    else:
        _report(env, index, given=project is not None)
    return for_diagnostics(env.diagnostics)


def _document(env: Environment, index: Index) -> dict[str, Any]:
    return {
        "project": str(env.layout.project),
        "trusted": env.trusted,
        "roots": [_root(r) for r in env.roots],
        "skills": list(env.skills),
        "shadowed": [
            {"name": s.name, "winner": _str(s.winner.path), "loser": _str(s.loser.path)}
            for s in env.shadowed
        ],
        "commands": {
            "loaded": len(env.commands.commands),
            "names": list(env.commands.commands),
            "shadowed": [
                {"name": loser.name, "winner": _str(winner.path), "loser": _str(loser.path)}
                for winner, loser in env.commands.shadowed
            ],
        },
        "agents": {
            "loaded": len(env.agents.agents),
            "names": list(env.agents.agents),
            "shadowed": [
                {"name": s.name, "winner": _str(s.winner.path), "loser": _str(s.loser.path)}
                for s in env.agents.shadowed
            ],
        },
        "plugins": _plugins_document(env.plugins),
        "hooks": _hooks_document(env),
        "mcp_servers": _servers_document(env),
        "instructions": {
            "read": len(env.instructions),
            "paths": [str(f.path) for f in env.instructions],
        },
        "diagnostics": [d.to_json() for d in env.diagnostics],
        "index": _index_size(index),
    }


def _plugins_document(found: PluginSet) -> dict[str, Any]:
    return {
        "loaded": len(found.enabled()),
        "names": list(found.plugins),
        "disabled": [p.name for p in found.plugins.values() if not p.enabled],
        "formats": {
            fmt: dict(zip(STATUSES, counts, strict=True))
            for fmt, counts in _format_counts(found).items()
        },
        "shadowed": [
            {"name": loser.name, "winner": str(winner.root), "loser": str(loser.root)}
            for winner, loser in found.shadowed
        ],
    }


def _hooks_document(env: Environment) -> dict[str, Any]:
    found = env.hooks
    loaded = found.loaded()
    events = {h.event: sum(x.event == h.event for x in loaded) for h in loaded}
    document: dict[str, Any] = {
        "loaded": len(loaded),
        "skipped": [
            {"name": h.name, "source": h.source, "why": h.why} for h in found.hooks if not h.loaded
        ],
        "events": events,
    }
    off = _settings_hooks_off(env)
    if off:
        document["claude_settings_off"] = off
    return document


SETTINGS_HINT = (
    "they are read only when asked: `satchel hooks --claude-settings` and "
    "`satchel hooks run --claude-settings`, or load(claude_settings_hooks=True) from Python"
)


def _settings_hooks_off(env: Environment) -> dict[str, Any] | None:
    """Claude Code settings.json files holding hooks that this load did not read."""
    if env.options.claude_settings_hooks:
        return None
    from satchel.hooks import read_settings_hooks

    lay = env.layout
    paths = (
        lay.project / ".claude" / "settings.json",
        lay.project / ".claude" / "settings.local.json",
        lay.home / ".claude" / "settings.json",
    )
    counts = {path: len(read_settings_hooks(path)[0]) for path in paths}
    files = {str(path): n for path, n in counts.items() if n}
    if not files:
        return None
    return {"hooks": sum(files.values()), "files": files, "hint": SETTINGS_HINT}


def _format_counts(found: PluginSet) -> dict[str, tuple[int, int, int]]:
    """Per format present, in `FORMATS` order: (enabled, disabled, shadowed)."""
    listed = list(found.plugins.values())
    losers = [loser for _, loser in found.shadowed]
    counts = {
        fmt: (
            sum(p.format == fmt and p.enabled for p in listed),
            sum(p.format == fmt and not p.enabled for p in listed),
            sum(p.format == fmt for p in losers),
        )
        for fmt in FORMATS
    }
    return {fmt: n for fmt, n in counts.items() if any(n)}


def _root(report: RootReport) -> dict[str, Any]:
    return {
        "scope": report.root.scope,
        "family": report.root.family,
        "path": str(report.root.path),
        "exists": report.exists,
        "loaded": report.loaded,
        "shadowed": report.shadowed,
        "skipped": report.skipped,
    }


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _index_size(index: Index) -> dict[str, Any]:
    text = index.text
    tokens = token_bill({"skills": text})["skills"]
    return {
        "format": INDEX_FORMAT,
        "bytes": len(text.encode("utf-8")),
        "tokens": tokens,
        "listed": len(index.listed),
        "omitted": [s.name for s in index.omitted],
        "cut_by": index.cut_by,
        "limit": index.limit if index.cut_by else None,
    }


def _index_line(index: Index) -> str:
    """The index's size and, when its caps cut skills, how many and by which cap."""
    size = _index_size(index)
    line = (
        f"Index ({size['format']} format): {size['bytes']:,} bytes, about {size['tokens']:,} tokens"
    )
    if index.cut_by is None:
        return line
    count = len(index.omitted)
    noun = "skill" if count == 1 else "skills"
    unit = "skills" if index.cut_by == "max_skills" else "bytes"
    return (
        f"{line}; {count} {noun} left out by {index.cut_by} "
        f"(at most {index.limit:,} {unit}; see skill.index.omitted)"
    )


def _report(env: Environment, index: Index, *, given: bool) -> None:
    con = out.console()
    con.print(out.safe(project_line(env.layout, given=given), style="bold"), soft_wrap=True)
    sections = (
        _where,
        _roots,
        _skills,
        _shadowed,
        _commands,
        _agents,
        _plugins,
        _hooks,
        _servers,
        _instructions,
    )
    for section in sections:
        section(con, env)
        con.print()
    out.diagnostic_report(con, env.diagnostics)
    con.print()
    con.print(out.safe(_index_line(index), style="bold"), soft_wrap=True)


def _where(con: Console, env: Environment) -> None:
    lay = env.layout
    grid = out.table("", "")
    grid.show_header = False
    for label, path in (("home", lay.home), ("config", lay.config_home)):
        grid.add_row(label, out.safe(out.shown(path)))
    grid.add_row("client", out.safe(lay.client))
    grid.add_row("trusted", out.safe(trust_line(env)))
    con.print(grid)


def trust_line(env: Environment) -> str:
    """Whether the project is trusted and, when not, what that holds back."""
    if env.trusted:
        return "yes"
    command = trust_command(env.layout)
    return (
        "no: the project's plugins and !`cmd` lines do not load and user skills rank "
        f"first (`{command}`)"
    )


def _roots(con: Console, env: Environment) -> None:
    con.print("Roots", style="bold")
    grid = out.table("scope", "family", "path", "status", "loaded", "shadowed")
    for r in env.roots:
        status = f"skipped ({r.skipped})" if r.skipped else "exists" if r.exists else "missing"
        grid.add_row(
            out.safe(r.root.scope),
            out.safe(r.root.family),
            out.safe(out.shown(r.root.path)),
            status,
            str(r.loaded),
            str(r.shadowed),
        )
    con.print(grid)


def _skills(con: Console, env: Environment) -> None:
    con.print(f"Skills: {len(env.skills)} loaded", style="bold")
    if env.skills:
        con.print(out.safe(", ".join(env.skills)))


def _shadowed(con: Console, env: Environment) -> None:
    con.print(f"Shadowed: {len(env.shadowed)}", style="bold")
    if env.shadowed:
        _shadow_grid(con, [(s.name, _origin(s.winner), _origin(s.loser)) for s in env.shadowed])


def _shadow_grid(
    con: Console, rows: list[tuple[str, tuple[Text, Text], tuple[Text, Text]]]
) -> None:
    """Each shadowed name on two rows: the origin kept, then the one hidden."""
    grid = out.table("name", "", "from", "path")
    for name, kept, hidden in rows:
        grid.add_row(out.safe(name), "kept", *kept)
        grid.add_row(out.safe(name), "hidden", *hidden)
    con.print(grid)


def _origin(skill: Skill) -> tuple[Text, Text]:
    where = out.shown(skill.path) if skill.path else "the host catalog"
    return out.safe(f"{skill.scope} {skill.family}".strip()), out.safe(where)


def _commands(con: Console, env: Environment) -> None:
    found = env.commands
    shadowed = len(found.shadowed)
    con.print(f"Commands: {len(found.commands)} loaded, {shadowed} shadowed", style="bold")
    if found.commands:
        con.print(out.safe(", ".join(f"/{name}" for name in found.commands)))
    if found.shadowed:
        rows = [(f"/{b.name}", _command_origin(a), _command_origin(b)) for a, b in found.shadowed]
        _shadow_grid(con, rows)


def _command_origin(command: Command) -> tuple[Text, Text]:
    where = out.shown(command.path) if command.path else "defined in code"
    source = f"{command.scope} {command.plugin or command.family}".strip()
    return out.safe(source), out.safe(where)


def _agents(con: Console, env: Environment) -> None:
    found = env.agents
    shadowed = len(found.shadowed)
    con.print(f"Agents: {len(found.agents)} loaded, {shadowed} shadowed", style="bold")
    if found.agents:
        con.print(out.safe(", ".join(found.agents)))
    if found.shadowed:
        rows = [(s.name, _agent_origin(s.winner), _agent_origin(s.loser)) for s in found.shadowed]
        _shadow_grid(con, rows)


def _agent_origin(agent: AgentType) -> tuple[Text, Text]:
    where = out.shown(agent.path) if agent.path else f"the host {agent.format}"
    source = f"{agent.scope} {agent.plugin or agent.family}".strip() or agent.format
    return out.safe(source), out.safe(where)


def _plugins(con: Console, env: Environment) -> None:
    found = env.plugins
    enabled = len(found.enabled())
    disabled = len(found.plugins) - enabled
    shadowed = len(found.shadowed)
    con.print(f"Plugins: {enabled} loaded, {disabled} disabled, {shadowed} shadowed", style="bold")
    if found.plugins:
        con.print(out.safe(", ".join(found.plugins)))
    counts = _format_counts(found)
    if counts:
        grid = out.table("format", *STATUSES)
        for fmt, row in counts.items():
            grid.add_row(out.safe(fmt), *(str(n) for n in row))
        con.print(grid)
    if found.shadowed:
        rows = [(b.name, _plugin_origin(a), _plugin_origin(b)) for a, b in found.shadowed]
        _shadow_grid(con, rows)


def _plugin_origin(plugin: Plugin) -> tuple[Text, Text]:
    return out.safe(f"{plugin.scope} {plugin.format}".strip()), out.safe(out.shown(plugin.root))


def _hooks(con: Console, env: Environment) -> None:
    document = _hooks_document(env)
    skipped = document["skipped"]
    con.print(f"Hooks: {document['loaded']} loaded, {len(skipped)} skipped", style="bold")
    if document["events"]:
        con.print(out.safe(", ".join(f"{e} {n}" for e, n in document["events"].items())))
    for hook in skipped:
        con.print(out.safe(f"skipped {hook['name']} ({hook['source']}): {hook['why']}"))
    off = document.get("claude_settings_off")
    if off:
        where = ", ".join(out.shown(Path(f)) for f in off["files"])
        count = out.count(off["hooks"], "Claude Code settings.json hook")
        con.print(out.safe(f"{count} not read ({where}): {off['hint']}"), soft_wrap=True)


def _servers_document(env: Environment) -> dict[str, Any]:
    found = env.mcp_servers
    return {
        "configured": len(found.servers),
        "disabled": [s.name for s in found.servers if not s.enabled],
        "names": [s.name for s in found.servers],
        "shadowed": [loser.name for _, loser in found.shadowed],
    }


def _servers(con: Console, env: Environment) -> None:
    document = _servers_document(env)
    disabled, shadowed = len(document["disabled"]), len(document["shadowed"])
    con.print(
        f"MCP servers: {document['configured']} configured, {disabled} disabled, "
        f"{shadowed} shadowed",
        style="bold",
    )
    if document["names"]:
        con.print(out.safe(", ".join(document["names"])))


def _instructions(con: Console, env: Environment) -> None:
    con.print(f"Instruction files: {len(env.instructions)} read", style="bold")
    if env.instructions:
        con.print(out.safe(", ".join(out.shown(f.path) for f in env.instructions)))

"""`satchel doctor`: where satchel looked, what it found, what is wrong.

`DoctorReport.of` gathers it all once into one value, which `to_json` gives as the
--json document and `render` prints for people: the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from satchel.agents import AgentType
from satchel.assembly._environment import Environment, RootReport
from satchel.cli import _doctor_hosts
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import for_diagnostics
from satchel.cli._ignore import ignore_option, without_ignored
from satchel.cli._mcp import held_back
from satchel.cli._params import Choice, json_option, located, model_option
from satchel.cli._plugin import counted
from satchel.cli._workspace import loaded, project_line, trust_command
from satchel.core._model import model
from satchel.core.diagnostics import SEVERITIES, Diagnostic
from satchel.foundations.policy._model import Policy
from satchel.foundations.tokens import token_bill
from satchel.index._render import Index, IndexFormat, build_index
from satchel.kinds.commands import Command
from satchel.plugins import FORMATS, Plugin, PluginSet
from satchel.plugins._options import unset_options
from satchel.reports.checkup._listing import host_index
from satchel.session._conditional import Conditional
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from rich.console import Console

INDEX_FORMAT: IndexFormat = "tool"
STATUSES = ("enabled", "disabled", "shadowed")
SETTINGS_HINT = (
    "they are read only when asked: `satchel hooks --claude-settings` and "
    "`satchel hooks run --claude-settings`, or load(claude_settings_hooks=True) from Python"
)

PLAIN = True  # only lines, tables and diagnostics: no rich when piped (cli._plain)
RUNS_NOTHING = True  # loads and checks only: no signal handling needed (cli._run)

PARAMS = (
    located(),
    model_option(),
    ignore_option(),
    click.Option(
        ["--hosts"],
        metavar="NAMES",
        is_flag=False,
        flag_value="*",
        default=None,
        help="Report, for every agent host found on this machine (or the hosts NAMES, "
        "comma-separated: claude-code,codex), what it loads and what it silently drops, "
        "skips, shortens, refuses or runs twice. Reads only.",
    ),
    click.Option(
        ["--format", "output_format"],
        type=Choice(_doctor_hosts.FORMATS),
        default="text",
        show_default=True,
        help="text for people, json (as --json), or sarif (with --hosts) for "
        "code-scanning dashboards.",
    ),
    click.Option(
        ["--fail-on"],
        type=Choice(SEVERITIES),
        default=None,
        help="Exit 1 when a problem is at this severity or above [error].",
    ),
    json_option(),
)


def run(
    *,
    here: Here,
    as_json: bool,
    model: str | None = None,
    ignore: Sequence[str] = (),
    hosts: str | None = None,
    output_format: str = "text",
    fail_on: str | None = None,
) -> int:
    """Report where skills were looked for and what is wrong.

    Every skills root by scope and family, the skills that load, the shadowed ones;
    the commands, agent types, plugins (per format and status) and instruction
    files; every diagnostic and the size of the index. Exit 1 when there are errors.
    --ignore (and config.toml's [diagnostics] ignore) hides codes: they are not shown
    and fail nothing; --fail-on warning (or info) fails on those too.

    --hosts reports every agent host found on this machine instead (docs/doctor-hosts.md),
    read-only: what each loads, and what it drops, skips, shortens, refuses or runs
    twice, each finding with a code, the host, the file and a fix."""
    if as_json and output_format == "sarif":
        raise click.UsageError("--json and --format sarif ask for two formats: give one")
    fmt = "json" if as_json else output_format
    if hosts is not None:
        _hosts_only(host=here.host, trust=here.trust, plugin_dirs=here.plugin_dirs)
        return _hosts(here.directory, here.project, here.home, hosts, model, ignore, fmt, fail_on)
    if fmt == "sarif":
        raise click.UsageError("--format sarif needs --hosts")
    env = loaded(here, read_held=True, model=model)
    budget = env.index_budget()
    skills = Conditional(env).skills()  # as a session starts: no conditional skill yet
    index = host_index(env, skills) or build_index(
        skills,
        format=INDEX_FORMAT,
        budget=budget,
        overrides=env.skill_overrides,
        known=env.skills,
    )
    # the index's own warnings (skills its budget shortened, named only or cut) are
    # diagnostics like the rest, and the sensitive userConfig options with no value
    # (load leaves the keyring alone), and the project skills' !`cmd` lines held back
    # since `satchel trust` (their bodies are read only here and on activation)
    secrets = unset_options(env.layout, env.plugins.enabled(), sensitive=True)
    found = (*env.diagnostics, *env.held_lines(), *secrets, *index.diagnostics)
    env = without_ignored(replace(env, diagnostics=found), ignore)
    shape = env.host.index.style if env.host is not None and env.host.index.style else None
    report = DoctorReport.of(env, index, given=here.project is not None, shape=shape)
    if fmt == "json":
        out.print_json(report.to_json())
    else:
        report.render(out.console())
    return for_diagnostics(report.diagnostics, fail_on)


def _hosts_only(*, host: str | None, trust: bool | None, plugin_dirs: tuple[Path, ...]) -> None:
    """A usage error for the options --hosts cannot honour: each host is read as
    itself (its own client and trust rules), from the files it reads itself."""
    if host is not None:
        raise click.UsageError("--hosts reports every host: name them there, not with --host")
    given = (
        ("--client", _given("client")),
        ("--trust/--no-trust", trust is not None),
        ("--plugin-dir", bool(plugin_dirs)),
    )
    for option, used in given:
        if used:
            raise click.UsageError(
                f"{option} does not apply to --hosts: each host is read with its own "
                "client, trust rules and plugins"
            )


def _given(name: str) -> bool:
    """Whether the option `name` was given (not its default)."""
    context = click.get_current_context(silent=True)
    source = None if context is None else context.get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _hosts(
    directory: Path | None,
    project: Path | None,
    home: Path | None,
    hosts: str,
    model: str | None,
    ignore: Sequence[str],
    fmt: str,
    fail_on: str | None,
) -> int:
    cwd = (directory or Path.cwd()).resolve()
    return _doctor_hosts.run_hosts(
        cwd=cwd,
        project=project,
        home=home,
        hosts=hosts,
        model=model,
        ignore=ignore,
        output_format=fmt,
        fail_on=fail_on,
    )


@model
class Shown:
    """Where one of two same-named things comes from: its source (``project .claude``)
    and its file, or what stands for a file it has not (``the host catalog``)."""

    source: str
    path: Path | None
    absent: str = "-"

    def shown(self) -> str:
        return out.shown(self.path) if self.path else self.absent


@model
class Shadow:
    """A name two origins hold: the one kept, the one hidden."""

    name: str
    kept: Shown
    hidden: Shown

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "winner": _str(self.kept.path), "loser": _str(self.hidden.path)}


@model
class Found:
    """The names of one kind that load (commands, agents), and the shadowed ones."""

    names: tuple[str, ...]
    shadowed: tuple[Shadow, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "loaded": len(self.names),
            "names": list(self.names),
            "shadowed": [s.to_json() for s in self.shadowed],
        }


@model
class Installed:
    """One plugin a host installed for itself (Claude Code's ``~/.claude/plugins``,
    Codex's ``~/.codex/plugins/cache``): its id there (``name@marketplace``), the
    name it loads under, the folder read and whether the host enables it."""

    id: str
    name: str
    root: Path
    enabled: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "root": str(self.root), "enabled": self.enabled}


@model
class Plugins:
    """The plugins found: their names, the disabled ones, counts per format."""

    names: tuple[str, ...]
    disabled: tuple[str, ...]
    formats: Mapping[str, tuple[int, int, int]]  # (enabled, disabled, shadowed)
    shadowed: tuple[Shadow, ...]
    components: Mapping[str, int] = field(default_factory=dict)  # of the enabled ones
    installed: tuple[Installed, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "loaded": len(self.names) - len(self.disabled),
            "installed": [i.to_json() for i in self.installed],
            "names": list(self.names),
            "disabled": list(self.disabled),
            "formats": {
                fmt: dict(zip(STATUSES, counts, strict=True))
                for fmt, counts in self.formats.items()
            },
            "shadowed": [s.to_json() for s in self.shadowed],
            "components": dict(self.components),
        }


@model
class Hooks:
    """The hooks loaded, per event; the skipped ones and why; Claude Code settings.json
    hooks this load did not read (None when there are none, or they were read)."""

    loaded: int
    events: Mapping[str, int]
    skipped: tuple[Mapping[str, str | None], ...]
    settings_off: Mapping[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "loaded": self.loaded,
            "skipped": [dict(h) for h in self.skipped],
            "events": dict(self.events),
        }
        if self.settings_off:
            document["claude_settings_off"] = dict(self.settings_off)
        return document


@model
class Servers:
    """The MCP servers configured, the disabled and the shadowed ones, by name."""

    names: tuple[str, ...]
    disabled: tuple[str, ...]
    shadowed: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "configured": len(self.names),
            "disabled": list(self.disabled),
            "names": list(self.names),
            "shadowed": list(self.shadowed),
        }


@model
class IndexSize:
    """The index's size, the skills its budget shortened or listed by name only and,
    when it cut skills, which and by which bound."""

    format: str  # satchel's index format, or the host listing style
    bytes: int
    tokens: int
    listed: int
    omitted: tuple[str, ...]
    cut_by: str | None
    limit: int
    shortened: tuple[str, ...] = ()
    name_only: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "bytes": self.bytes,
            "tokens": self.tokens,
            "listed": self.listed,
            "omitted": list(self.omitted),
            "shortened": list(self.shortened),
            "name_only": list(self.name_only),
            "cut_by": self.cut_by,
            "limit": self.limit if self.cut_by else None,
        }

    def line(self) -> str:
        line = f"Index ({self.format} format): {self.bytes:,} bytes, about {self.tokens:,} tokens"
        for names, what, code in (
            (self.shortened, "shortened", "skill.index.shortened"),
            (self.name_only, "listed by name only", "skill.index.name-only"),
        ):
            if names:
                line += f"; {_skills(len(names))} {what} (see {code})"
        if self.cut_by is None or not self.omitted:
            return line
        unit = _UNITS.get(self.cut_by, "bytes")
        return (
            f"{line}; {_skills(len(self.omitted))} left out by {self.cut_by} "
            f"(at most {self.limit:,} {unit}; see skill.index.omitted)"
        )


_UNITS = {"max_skills": "skills", "max_chars": "characters", "max_tokens": "tokens"}


def _skills(count: int) -> str:
    return f"{count} skill" if count == 1 else f"{count} skills"


@model
class Held:
    """What the one trust decision holds back, by name: the project's enabled plugins
    and MCP servers an untrusted folder read and held, and the pin keys of what is new
    or changed since ``satchel trust`` (`Environment.held_keys`)."""

    plugins: tuple[str, ...] = ()
    mcp_servers: tuple[str, ...] = ()
    items: tuple[str, ...] = ()

    @classmethod
    def of(cls, env: Environment) -> Held:
        plugins = tuple(name for name, p in env.plugins.held.items() if p.enabled)
        return cls(plugins, held_back(env), env.held_keys())

    def to_json(self) -> dict[str, Any]:
        return {
            "plugins": list(self.plugins),
            "mcp_servers": list(self.mcp_servers),
            "items": list(self.items),
        }


@model
class DoctorReport:
    """Everything `satchel doctor` says, as one value: `to_json` and `render` read it."""

    project: Path
    project_line: str
    trusted: bool
    trust_line: str
    held: Held
    home: Path
    config: Path
    client: str
    roots: tuple[RootReport, ...]
    skills: tuple[str, ...]
    shadowed: tuple[Shadow, ...]
    commands: Found
    agents: Found
    plugins: Plugins
    hooks: Hooks
    servers: Servers
    instructions: tuple[Path, ...]
    diagnostics: tuple[Diagnostic, ...]
    index: IndexSize
    policy: Policy = field(default_factory=Policy)  # the organisation's, in force

    @classmethod
    def of(
        cls, env: Environment, index: Index, *, given: bool, shape: str | None = None
    ) -> DoctorReport:
        """The report on `env` and its `index` (`shape`: the host's listing style it
        is in; None: satchel's own format); `given`: --project was given."""
        lay, held = env.layout, Held.of(env)
        return cls(
            project=lay.project,
            project_line=project_line(lay, given=given),
            trusted=env.trusted,
            trust_line=trust_line(env, held),
            held=held,
            home=lay.home,
            config=lay.config_home,
            client=lay.client,
            roots=tuple(env.roots),
            skills=tuple(env.skills),
            shadowed=tuple(
                Shadow(s.name, _origin(s.winner), _origin(s.loser)) for s in env.shadowed
            ),
            commands=Found(
                tuple(env.commands.commands),
                tuple(
                    Shadow(b.name, _command_origin(a), _command_origin(b))
                    for a, b in env.commands.shadowed
                ),
            ),
            agents=Found(
                tuple(env.agents.agents),
                tuple(
                    Shadow(s.name, _agent_origin(s.winner), _agent_origin(s.loser))
                    for s in env.agents.shadowed
                ),
            ),
            plugins=_plugins(env.plugins),
            hooks=_hooks(env),
            servers=Servers(
                tuple(s.name for s in env.mcp_servers.servers),
                tuple(s.name for s in env.mcp_servers.servers if not s.enabled),
                tuple(loser.name for _, loser in env.mcp_servers.shadowed),
            ),
            instructions=tuple(f.path for f in env.instructions),
            diagnostics=tuple(env.diagnostics),
            index=_index_size(index, shape or INDEX_FORMAT),
            policy=env.policy,
        )

    def to_json(self) -> dict[str, Any]:
        """The --json document (before the envelope)."""
        return {
            "project": str(self.project),
            "trusted": self.trusted,
            "held_back": self.held.to_json(),
            "roots": [_root(r) for r in self.roots],
            "skills": list(self.skills),
            "shadowed": [s.to_json() for s in self.shadowed],
            "commands": self.commands.to_json(),
            "agents": self.agents.to_json(),
            "plugins": self.plugins.to_json(),
            "hooks": self.hooks.to_json(),
            "mcp_servers": self.servers.to_json(),
            "instructions": {
                "read": len(self.instructions),
                "paths": [str(path) for path in self.instructions],
            },
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "index": self.index.to_json(),
            "policy": self.policy.to_json(),
        }

    def render(self, con: Console) -> None:
        """The report for people, section by section."""
        con.print(out.safe(self.project_line, style="bold"), soft_wrap=True)
        sections = (
            _print_where,
            _print_roots,
            _print_skills,
            _print_shadowed,
            _print_commands,
            _print_agents,
            _print_plugins,
            _print_hooks,
            _print_servers,
            _print_instructions,
            _print_policy,
        )
        for section in sections:
            section(con, self)
            con.print()
        out.diagnostic_report(con, self.diagnostics)
        con.print()
        con.print(out.safe(self.index.line(), style="bold"), soft_wrap=True)


def trust_line(env: Environment, held: Held) -> str:
    """Whether the project is trusted and what the one trust decision holds back (`held`):
    in a folder that is not, the project's plugins and MCP servers it read and held, by
    name; in one that is, the keys of what is new or changed since ``satchel trust``;
    and the command that trusts it."""
    command = trust_command(env.layout)
    if env.trusted and not held.items:
        return "yes"
    if env.trusted:
        keys = ", ".join(held.items)
        return f"yes, but new or changed since, so held back: {keys} (`{command}`)"
    parts = [_named("plugins", held.plugins)]
    parts += [_named("MCP servers", held.mcp_servers)] if held.mcp_servers else []
    return (
        f"no: the project's {', '.join(parts)} and !`cmd` lines do not load and user "
        f"skills rank first (`{command}`)"
    )


def _named(what: str, names: Sequence[str]) -> str:
    return f"{what} ({', '.join(names)})" if names else what


def _origin(skill: Skill) -> Shown:
    return Shown(f"{skill.scope} {skill.family}".strip(), skill.path, "the host catalog")


def _command_origin(command: Command) -> Shown:
    source = f"{command.scope} {command.plugin or command.family}".strip()
    return Shown(source, command.path, "defined in code")


def _agent_origin(agent: AgentType) -> Shown:
    source = f"{agent.scope} {agent.plugin or agent.family}".strip() or agent.format
    return Shown(source, agent.path, f"the host {agent.format}")


def _plugin_origin(plugin: Plugin) -> Shown:
    return Shown(f"{plugin.scope} {plugin.format}".strip(), plugin.root)


def _plugins(found: PluginSet) -> Plugins:
    return Plugins(
        names=tuple(found.plugins),
        disabled=tuple(p.name for p in found.plugins.values() if not p.enabled),
        formats=_format_counts(found),
        shadowed=tuple(
            Shadow(b.name, _plugin_origin(a), _plugin_origin(b)) for a, b in found.shadowed
        ),
        components=_component_counts(found),
        installed=tuple(
            Installed(p.installed, p.name, p.root, p.enabled)
            for p in found.plugins.values()
            if p.installed is not None
        ),
    )


def _component_counts(found: PluginSet) -> dict[str, int]:
    """Every component kind the enabled plugins hold, summed (kinds with none left out)."""
    totals: dict[str, int] = {}
    for plugin in found.enabled():
        for kind, n in plugin.components().items():
            totals[kind] = totals.get(kind, 0) + n
    return {kind: n for kind, n in totals.items() if n}


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


def _hooks(env: Environment) -> Hooks:
    found = env.every_hook()  # a skill's and an agent's own hooks too
    loaded = found.loaded()
    return Hooks(
        loaded=len(loaded),
        events={h.event: sum(x.event == h.event for x in loaded) for h in loaded},
        skipped=tuple(
            {"name": h.name, "source": h.source, "why": h.why} for h in found.hooks if not h.loaded
        ),
        settings_off=_settings_hooks_off(env),
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


def _index_size(index: Index, shape: str) -> IndexSize:
    text = index.text
    return IndexSize(
        format=shape,
        bytes=len(text.encode("utf-8")),
        tokens=token_bill({"skills": text})["skills"],
        listed=len(index.listed),
        omitted=tuple(s.name for s in index.omitted),
        cut_by=index.cut_by,
        limit=index.limit,
        shortened=tuple(s.name for s in index.shortened),
        name_only=tuple(s.name for s in index.name_only),
    )


# ------------------------------------------------------------------- the text


def _print_where(con: Console, report: DoctorReport) -> None:
    grid = out.table("", "")
    grid.show_header = False
    for label, path in (("home", report.home), ("config", report.config)):
        grid.add_row(label, out.safe(out.shown(path)))
    grid.add_row("client", out.safe(report.client))
    grid.add_row("trusted", out.safe(report.trust_line))
    con.print(grid)


def _print_policy(con: Console, report: DoctorReport) -> None:
    """The organisation's policy in force (docs/policy.md): its files and its keys."""
    con.print("Policy", style="bold")
    policy = report.policy
    if not policy.files:
        con.print("  no policy file; nothing is restricted")
        return
    for path in policy.files:
        con.print(out.safe(f"  {out.shown(path)}"), soft_wrap=True)
    for key, value, _ in policy.rows():
        con.print(out.safe(f"  {key} = {value}"), soft_wrap=True)


def _print_roots(con: Console, report: DoctorReport) -> None:
    con.print("Roots", style="bold")
    grid = out.table("scope", "family", "path", "status", "loaded", "shadowed")
    for r in report.roots:
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


def _print_skills(con: Console, report: DoctorReport) -> None:
    con.print(f"Skills: {len(report.skills)} loaded", style="bold")
    if report.skills:
        con.print(out.safe(", ".join(report.skills)))


def _print_shadowed(con: Console, report: DoctorReport) -> None:
    con.print(f"Shadowed: {len(report.shadowed)}", style="bold")
    if report.shadowed:
        _print_shadows(con, report.shadowed)


def _print_shadows(con: Console, shadows: Sequence[Shadow], prefix: str = "") -> None:
    """Each shadowed name on two rows: the origin kept, then the one hidden."""
    grid = out.table("name", "", "from", "path")
    for s in shadows:
        for label, origin in (("kept", s.kept), ("hidden", s.hidden)):
            grid.add_row(
                out.safe(prefix + s.name), label, out.safe(origin.source), out.safe(origin.shown())
            )
    con.print(grid)


def _print_commands(con: Console, report: DoctorReport) -> None:
    found = report.commands
    con.print(f"Commands: {len(found.names)} loaded, {len(found.shadowed)} shadowed", style="bold")
    if found.names:
        con.print(out.safe(", ".join(f"/{name}" for name in found.names)))
    if found.shadowed:
        _print_shadows(con, found.shadowed, "/")


def _print_agents(con: Console, report: DoctorReport) -> None:
    found = report.agents
    con.print(f"Agents: {len(found.names)} loaded, {len(found.shadowed)} shadowed", style="bold")
    if found.names:
        con.print(out.safe(", ".join(found.names)))
    if found.shadowed:
        _print_shadows(con, found.shadowed)


def _print_plugins(con: Console, report: DoctorReport) -> None:
    found = report.plugins
    enabled = len(found.names) - len(found.disabled)
    shadowed = len(found.shadowed)
    line = f"Plugins: {enabled} loaded, {len(found.disabled)} disabled, {shadowed} shadowed"
    con.print(line, style="bold")
    if found.names:
        con.print(out.safe(", ".join(found.names)))
    if found.installed:
        listed = ", ".join(
            f"{i.id} ({'enabled' if i.enabled else 'disabled'})" for i in found.installed
        )
        con.print(out.safe(f"installed by the host: {listed}"))
    if found.components:
        con.print(out.safe(f"holding {counted(found.components)}"))
    if found.formats:
        grid = out.table("format", *STATUSES)
        for fmt, row in found.formats.items():
            grid.add_row(out.safe(fmt), *(str(n) for n in row))
        con.print(grid)
    if found.shadowed:
        _print_shadows(con, found.shadowed)


def _print_hooks(con: Console, report: DoctorReport) -> None:
    hooks = report.hooks
    con.print(f"Hooks: {hooks.loaded} loaded, {len(hooks.skipped)} skipped", style="bold")
    if hooks.events:
        con.print(out.safe(", ".join(f"{e} {n}" for e, n in hooks.events.items())))
    for hook in hooks.skipped:
        con.print(out.safe(f"skipped {hook['name']} ({hook['source']}): {hook['why']}"))
    off = hooks.settings_off
    if off:
        where = ", ".join(out.shown(Path(f)) for f in off["files"])
        count = out.count(off["hooks"], "Claude Code settings.json hook")
        con.print(out.safe(f"{count} not read ({where}): {off['hint']}"), soft_wrap=True)


def _print_servers(con: Console, report: DoctorReport) -> None:
    servers = report.servers
    con.print(
        f"MCP servers: {len(servers.names)} configured, {len(servers.disabled)} disabled, "
        f"{len(servers.shadowed)} shadowed",
        style="bold",
    )
    if servers.names:
        con.print(out.safe(", ".join(servers.names)))


def _print_instructions(con: Console, report: DoctorReport) -> None:
    con.print(f"Instruction files: {len(report.instructions)} read", style="bold")
    if report.instructions:
        con.print(out.safe(", ".join(out.shown(path) for path in report.instructions)))

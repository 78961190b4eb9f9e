"""The gateway: which skill sources `satchel serve` serves, and one filter on them.

`satchel serve` serves the union of every source `load()` reads, ranked by the host
profile's precedence (``--host``; docs/layout.md, docs/hosts.md): the project, the
user, the installed and named plugins (the plugins satchel or Claude Code installed,
from a marketplace's catalogue or not: docs/install.md), and extra skills roots named
on the command line (``--root DIR``) or in a gateway config file (``--config FILE``).
When two sources hold a skill of one name, the profile's winner is served and the
others are shadowed, as `load()` decides.

A gateway config file (TOML) names the sources and the filter of one server instance::

    host = "mermaid"              # the host profile (``--host`` wins)
    project = "shop"              # the project served (the DIR argument wins)

    [sources.team]                # a label of your own
    kind = "skills"               # a skills root: its skills rank after the layout's
    path = "../team-skills"

    [sources.tools]
    kind = "plugin"               # a plugin directory, as ``--plugin-dir``
    path = "../plugins/tools"

    [filter]
    allow = ["refund-*"]          # glob patterns a name must match (none: every name)
    deny = ["*-draft"]            # glob patterns no name may match
    sources = ["project", "team"] # the sources served (none: every one)
    trusted_only = true           # the project only when `satchel trust` recorded it

Relative paths are read from the file's folder. The built-in source labels are
``project``, ``user``, ``plugins`` (every plugin), ``plugin:<name>`` (one plugin),
``extra`` (the ``--root`` roots) and the scopes a host defines in code (``catalog``,
``written``). A source of kind ``mcp`` is a Skills-extension server, named as a
``[skill_servers.<label>]`` table names one, whose skills are fetched and verified when
the gateway starts (`satchel.server._mirror`). Any other kind is refused with
``mcp.gateway.source.unavailable``. An unknown key
is ``mcp.gateway.config.unknown`` (a warning: the rest is read); a bad value,
``mcp.gateway.config.invalid`` (an error: nothing is served).

``trusted_only`` is the load's own trust decision, made once: the project is read
as the user's list says (``--trust`` is not a record), and a folder that is not on it
is hidden whole (`load(untrusted="skip-project")`): its skills, commands and plugins
are not there to serve, and the user's skill of a name it shares is served.

The filter is applied to every candidate in precedence order, before a name is
settled: a source left out no longer hides the others, so the next candidate of that
name is served (a name denied is served from no source). What it removes is gone
from everything the server answers, since the `Environment` handed to `SkillServer`
holds only what it keeps: the tools' skill names, the resources, the prompts (slash
commands, by the same names and sources) and the index in the instructions.
"""

from __future__ import annotations

import atexit
import fnmatch
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.assembly._environment import Environment, load
from satchel.assembly._options import LoadOverrides
from satchel.assembly._policed import skill_servers as policed_skill_servers
from satchel.assembly._skillset import shadow_diagnostic
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations.origin import Originated
from satchel.foundations.policy._read import read_policy
from satchel.foundations.precedence import Shadowed
from satchel.kinds.commands import Command, CommandSet
from satchel.mcp._served import server_from_table
from satchel.mcp._skills_client import SkillServer
from satchel.server._mirror import UNWRITABLE, mirror
from satchel.skills import Skill

__all__ = [
    "BUILTIN_SOURCES",
    "KINDS",
    "Filter",
    "GatewayConfig",
    "Selection",
    "SourceSpec",
    "Spec",
    "gateway_environment",
    "read_config",
    "select",
]

KINDS = ("skills", "plugin", "mcp")
BUILTIN_SOURCES = ("project", "user", "plugins", "extra", "catalog", "written")
_TOP = ("host", "project", "sources", "filter")
_SOURCE_KEYS = ("kind", "path")
_SERVER_KEYS = ("kind", "command", "args", "cwd", "env", "url", "headers", "skills")
_FILTER_KEYS = ("allow", "deny", "sources", "trusted_only")
INVALID = "mcp.gateway.config.invalid"
UNKNOWN = "mcp.gateway.config.unknown"
UNAVAILABLE = "mcp.gateway.source.unavailable"


@model
class Filter:
    """What one server instance serves of its sources: names matching an `allow`
    pattern (none: every name) and no `deny` pattern (`fnmatch`, compared case
    folded), from the `sources` named (None: every one), and project items only
    when the project is trusted in the user's list (`trusted_only`)."""

    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    sources: tuple[str, ...] | None = None
    trusted_only: bool = False

    def admits_name(self, name: str) -> bool:
        folded = name.casefold()
        if self.allow and not any(fnmatch.fnmatchcase(folded, p.casefold()) for p in self.allow):
            return False
        return not any(fnmatch.fnmatchcase(folded, p.casefold()) for p in self.deny)


@model
class SourceSpec:
    """One ``[sources.<label>]`` table: a skills root, a plugin directory, or a
    Skills-extension `server` (its `path` is where its skills are kept once fetched)."""

    label: str
    kind: str
    path: Path
    server: SkillServer | None = None


@model
class GatewayConfig:
    """A gateway config file, read (`read_config`)."""

    host: str | None = None
    project: Path | None = None
    sources: tuple[SourceSpec, ...] = ()
    filter: Filter = field(default_factory=Filter)


def read_config(path: Path) -> tuple[GatewayConfig, tuple[Diagnostic, ...]]:
    """The gateway config at `path` and what is wrong with it; never raises."""
    from satchel.core import _toml

    try:
        data = _toml.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:  # unreadable, not TOML, or nested too deep
        return GatewayConfig(), (diagnostic(INVALID, f"{path.name}: cannot be read: {e}", path),)
    reader = _Reader(path)
    config = reader.config(data)
    return config, tuple(reader.problems)


@dataclass(slots=True)
class _Reader:
    path: Path
    problems: list[Diagnostic] = field(default_factory=list)

    def config(self, data: Mapping[str, Any]) -> GatewayConfig:
        self._unknown(data, _TOP, "")
        host = self._text(data, "host")
        project = self._text(data, "project")
        sources = self._sources(data.get("sources", {}))
        flt = self._filter(data.get("filter", {}), [s.label for s in sources])
        return GatewayConfig(
            host, None if project is None else self._path(project), tuple(sources), flt
        )

    def _sources(self, value: Any) -> list[SourceSpec]:
        if not isinstance(value, dict):
            self._bad("sources must be a table of [sources.<label>] tables")
            return []
        found: list[SourceSpec] = []
        for label, table in value.items():
            if not isinstance(table, dict):
                self._bad(f"sources.{label} must be a table")
                continue
            kind, where = self._text(table, "kind", f"sources.{label}."), table.get("path")
            known = _SERVER_KEYS if kind == "mcp" else _SOURCE_KEYS
            self._unknown(table, known, f"sources.{label}.")
            if kind not in KINDS:
                self._unavailable(label, kind)
                continue
            if kind == "mcp":
                self._server(found, label, table)
                continue
            if not isinstance(where, str):
                self._bad(f"sources.{label}.path must be a string naming a directory")
                continue
            path = self._path(where)
            if not path.is_dir():
                self._bad(f"sources.{label}.path {where!r} is not a directory")
                continue
            found.append(SourceSpec(label, kind, path))
        return found

    def _server(self, found: list[SourceSpec], label: str, table: Mapping[str, Any]) -> None:
        entry = {k: v for k, v in table.items() if k != "kind"}
        server, why = server_from_table(label, entry, self.path.parent)
        if server is None:
            self._bad(f"sources.{label}: {why}")
            return
        found.append(SourceSpec(label, "mcp", Path(), server))

    def _filter(self, value: Any, labels: Sequence[str]) -> Filter:
        if not isinstance(value, dict):
            self._bad("filter must be a table")
            return Filter()
        self._unknown(value, _FILTER_KEYS, "filter.")
        allow, deny = self._patterns(value, "allow"), self._patterns(value, "deny")
        sources = self._patterns(value, "sources") if "sources" in value else None
        for name in sources or ():
            if name not in (*BUILTIN_SOURCES, *labels) and not name.startswith("plugin:"):
                known = ", ".join((*BUILTIN_SOURCES, *labels, "plugin:<name>"))
                self._bad(f"filter.sources names {name!r}, which is no source (known: {known})")
        trusted = value.get("trusted_only", False)
        if not isinstance(trusted, bool):
            self._bad("filter.trusted_only must be true or false")
            trusted = False
        return Filter(allow, deny, sources, trusted)

    def _patterns(self, table: Mapping[str, Any], key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self._bad(f"filter.{key} must be a list of strings")
            return ()
        return tuple(value)

    def _text(self, table: Mapping[str, Any], key: str, where: str = "") -> str | None:
        value = table.get(key)
        if value is None or isinstance(value, str):
            return value
        self._bad(f"{where}{key} must be a string")
        return None

    def _path(self, text: str) -> Path:
        return (self.path.parent / os.path.expanduser(text)).resolve()

    def _unknown(self, table: Mapping[str, Any], known: Sequence[str], where: str) -> None:
        for key in table:
            if key not in known:
                message = (
                    f"{self.path.name}: unknown key {where}{key} "
                    f"(known: {', '.join(where + k for k in known)}); it is ignored"
                )
                self.problems.append(diagnostic(UNKNOWN, message, self.path))

    def _unavailable(self, label: str, kind: str | None) -> None:
        message = (
            f"{self.path.name}: sources.{label}.kind is {kind!r}; a source is one of "
            f"{', '.join(repr(k) for k in KINDS)}"
        )
        self.problems.append(diagnostic(UNAVAILABLE, message, self.path))

    def _bad(self, why: str) -> None:
        self.problems.append(diagnostic(INVALID, f"{self.path.name}: {why}", self.path))


# -- the environment served ----------------------------------------------------------------


@model
class Spec:
    """Everything needed to build the served environment, in any process: the command
    line's location options, the extra roots and the config file (its path: each
    worker reads it again)."""

    directory: str | None = None
    project: str | None = None
    home: str | None = None
    client: str = "satchel"
    host: str | None = None
    trust: bool | None = None
    plugin_dirs: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    config: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Spec:
        given = dict(data)
        for key in ("plugin_dirs", "roots"):
            given[key] = tuple(given.get(key, ()))
        return cls(**given)


@model
class Selection:
    """What the filter kept: the `environment` served, the candidates it `removed`
    (by the filter), and the `problems` of the config file."""

    environment: Environment
    removed: tuple[Skill, ...] = ()
    problems: tuple[Diagnostic, ...] = ()


def gateway_environment(spec: Spec) -> Selection:
    """Load every source `spec` names with its host profile's precedence, then keep
    what its config's filter admits (nothing is loaded when the config has an
    error: the selection's environment is then empty and `problems` say why)."""
    config, problems = (
        read_config(Path(spec.config)) if spec.config is not None else (GatewayConfig(), ())
    )
    host = spec.host or config.host
    cwd = spec.directory or spec.project or (str(config.project) if config.project else None)
    project = spec.project
    home = Path(spec.home) if spec.home is not None else None
    lay, profile, said = _layout(cwd, project, home, spec.client, host)
    scan = [Path(r).resolve() for r in spec.roots]
    plugin_dirs = [Path(d).resolve() for d in spec.plugin_dirs]
    sources, fetched = _fetched(config.sources, lay) if not _failed(problems) else ((), [])
    scan += [s.path for s in sources if s.kind in ("skills", "mcp")]
    plugin_dirs += [s.path for s in sources if s.kind == "plugin"]
    # a fetched copy lives as long as this process: discovery cache entries for it would
    # name a directory no later load reads, so such a load keeps none
    kept = not any(s.kind == "mcp" for s in sources)
    options: LoadOverrides = {"trusted": spec.trust, "plugin_dirs": plugin_dirs, "scan": scan}
    options["cache"] = kept
    if config.filter.trusted_only:  # the user's list alone decides; not on it: hidden
        options["trusted"] = None if spec.trust else spec.trust
        options["untrusted"] = "skip-project"
    env = load(layout=lay, host=profile, **options)
    env = replace(env, diagnostics=(*said, *env.diagnostics, *fetched))
    labels = _Labels(lay, sources, tuple(Path(r).resolve() for r in spec.roots))
    return select(env, config.filter, labels, problems)


def _failed(problems: Sequence[Diagnostic]) -> bool:
    return any(p.severity == "error" for p in problems)


def _fetched(
    sources: Sequence[SourceSpec], lay: Layout
) -> tuple[tuple[SourceSpec, ...], list[Diagnostic]]:
    """`sources` with each Skills-extension server's skills fetched into a private
    directory of this process (`satchel.server._mirror`), removed when it exits; a
    server the policy's ``[mcp]`` lists refuse is not started (`load()` reports the
    policy's own problems)."""
    servers = [s.server for s in sources if s.server is not None]
    if not servers:
        return tuple(sources), []
    policy, _ = read_policy(config_home=lay.config_home, project=lay.project, client=lay.client)
    allowed, found = policed_skill_servers(servers, policy)
    local = [s for s in sources if s.server is None]
    try:
        into = Path(tempfile.mkdtemp(prefix="satchel-gateway-"))
    except OSError as e:
        why = f"no private directory for the skills servers' skills: {e.strerror}"
        return tuple(local), [*found, diagnostic(UNWRITABLE, why)]
    atexit.register(shutil.rmtree, into, ignore_errors=True)
    kept: list[SourceSpec] = []
    for source in sources:  # in the config's order: the roots rank in it
        if source.server is None:
            kept.append(source)
            continue
        if source.server not in allowed:
            continue
        root, problems = mirror(replace(source.server, client=lay.client), into)
        found += problems
        if root is not None:
            kept.append(replace(source, path=root.resolve()))
    return tuple(kept), found


def _layout(
    cwd: str | None, project: str | None, home: Path | None, client: str, host: str | None
) -> tuple[Layout, Any, tuple[Diagnostic, ...]]:
    """The layout of the `host` profile (satchel's without one), the profile, and what
    was wrong in the user's config.toml on the way (first among the diagnostics, as
    `load` puts them)."""
    if host is None:
        return Layout.default(cwd, client=client, home=home, project=project), None, ()
    from satchel.hosts import resolve

    profile, said = resolve(host, config_home=Layout.default(home=home).config_home)
    return profile.layout(cwd, home=home, project=project), profile, said


@model
class _Labels:
    """The source labels of a loaded item: its scope, its plugin, a config source."""

    layout: Layout
    sources: tuple[SourceSpec, ...] = ()
    roots: tuple[Path, ...] = ()

    def of(self, item: Originated) -> set[str]:
        origin = item.origin
        scope = str(origin.scope)
        found = {scope}
        if scope == "plugin":
            found |= {"plugins", f"plugin:{origin.plugin}"}
        where = origin.path.resolve() if origin.path is not None else None
        for source in self.sources:
            if where is not None and where == source.path:
                found.add(source.label)
        if scope == "extra" and where not in self.roots:
            found.discard("extra")  # a config source's root, not a --root one
        return found


def select(
    env: Environment,
    flt: Filter,
    labels: _Labels | None = None,
    problems: tuple[Diagnostic, ...] = (),
) -> Selection:
    """The part of `env` the filter admits, each name settled again among the
    candidates it admits (in `env`'s precedence order)."""
    if any(p.severity == "error" for p in problems):
        empty = replace(env, skills=MappingProxyType({}), shadowed=(), diagnostics=())
        return Selection(_no_commands(empty), (), problems)
    labels = labels or _Labels(env.layout)

    def admits(item: Originated, name: str) -> bool:
        if not flt.admits_name(name):
            return False
        return flt.sources is None or bool(labels.of(item) & set(flt.sources))

    losers: dict[int, list[Skill]] = {}
    for shadow in env.shadowed:
        losers.setdefault(id(shadow.winner), []).append(shadow.loser)
    skills: dict[str, Skill] = {}
    shadowed: list[Shadowed[Skill]] = []
    removed: list[Skill] = []
    for winner in env.skills.values():
        chain = [winner, *losers.get(id(winner), ())]
        kept = [s for s in chain if admits(s, s.name)]
        removed += [s for s in chain if all(s is not k for k in kept)]
        if kept:
            skills[kept[0].name] = kept[0]
            shadowed += [Shadowed(s.name, kept[0], s) for s in kept[1:]]
    notes = [d for d in env.diagnostics if d.code != "skill.shadowed"]
    notes += [shadow_diagnostic(s.winner, s.loser) for s in shadowed]
    commands = env.commands
    kept_commands = {n: c for n, c in commands.commands.items() if admits(c, n)}
    chosen = replace(
        env,
        skills=MappingProxyType(skills),
        shadowed=tuple(shadowed),
        diagnostics=(*problems, *notes),
        commands=_commands(commands, kept_commands),
    )
    return Selection(chosen, tuple(removed), problems)


def _commands(commands: CommandSet, kept: Mapping[str, Command]) -> CommandSet:
    aliases = {a: n for a, n in commands.aliases.items() if n in kept}
    return replace(commands, commands=MappingProxyType(dict(kept)), aliases=aliases)


def _no_commands(env: Environment) -> Environment:
    return replace(env, commands=_commands(env.commands, {}))

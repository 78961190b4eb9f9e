"""`compat(path)`: what every host does with a skill, a plugin or a project.

Each host profile loads the subject for real (`satchel.load(host=...)`, through a
scratch view for a lone skill or plugin, `satchel.compat._view`); what it loads is
listed under the ids that host gives, what it drops is said by the rules of
`satchel.compat._rules`, and the always-on cost by `satchel.compat._budget`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.compat._budget import tokens
from satchel.compat._events import fired_as
from satchel.compat._model import Component, Drop, HostReport, Kind, Loads, Report
from satchel.compat._parts import Key, Part, parts, unread_parts
from satchel.compat._ported import after_port
from satchel.compat._rules import Item, Subject, drops, hook_id
from satchel.compat._view import SKILL_FILE, kind_of, scratch
from satchel.core._model import model
from satchel.core.layout import PROJECT, Layout
from satchel.foundations.origin import Originated
from satchel.hosts import PROFILES, Host, resolve
from satchel.mcp._names import server_id

__all__ = ["compat"]

_HOSTED = ("builtin", "host", "")  # what the host defines itself: not the subject's


def compat(
    path: str | os.PathLike[str],
    *,
    hosts: Iterable[str | Host] | None = None,
    home: str | os.PathLike[str] | None = None,
    project: str | os.PathLike[str] | None = None,
    model: str | None = None,
) -> Report:
    """What each host of `hosts` (every built-in profile by default, in their order;
    a name is looked up as ``--host`` does) loads of `path`, what it drops and why,
    and its always-on token cost. `path` is a skill directory, a plugin directory or
    a project (`project` makes it one; `home` is the user's home a project is read
    with, and where user profiles are found). Never raises for a bad file; nothing
    is run, and nothing is written outside a scratch directory. `model` sizes every
    host's skill listing (None: each host's default model; `satchel.hosts.Host.budget`).
    For a plugin, each host `satchel port` writes for gets its view of the plugin once
    ported (`HostReport.ported`: port run on a copy in the scratch directory)."""
    root = Path(os.path.realpath(path))
    if root.name == SKILL_FILE and root.is_file():  # a SKILL.md stands for its skill
        root = root.parent
    given_home = None if home is None else Path(home)
    given_project = None if project is None else Path(project)
    kind: Kind = "project" if project is not None else kind_of(root)
    wanted = _profiles(hosts, given_home)
    subject = Subject(Path(os.path.realpath(project)) if project is not None else root)
    with scratch() as views:

        def view(host: Host) -> Environment:
            return views.load(host, kind, root, home=given_home, project=given_project)

        envs = {host.name: view(host) for host in wanted}
        others = {h.name: h for h in PROFILES.values() if h.name not in envs}
        every = {**envs, **{name: view(h) for name, h in others.items()}}
        titles = {h.name: h.title for h in (*wanted, *others.values())}
        items = _project_items(every.values(), subject) if kind == "project" else ()
        found = {name: parts(env) for name, env in every.items()}
        base = views.base if kind != "project" else None
        compared = _Compared(subject, items, found, titles, model, base)
        reports = tuple(compared.report(h, envs[h.name]) for h in wanted)
        if kind == "plugin":
            pairs = zip(wanted, reports, strict=True)
            reports = tuple(_with_port(h, r, root, views.base, compared) for h, r in pairs)
    return Report(root if project is None else subject.root, kind, reports)


def _profiles(hosts: Iterable[str | Host] | None, home: Path | None) -> list[Host]:
    if hosts is None:
        return list(PROFILES.values())
    config_home = Layout.default(home=home).config_home
    found: dict[str, Host] = {}
    for host in hosts:
        profile = host if isinstance(host, Host) else resolve(host, config_home=config_home)[0]
        found.setdefault(profile.name, profile)
    return list(found.values())


@model
class _Compared:
    """What every host's report is judged against: the project's `items` some host
    reads, and the plugin parts each host loads (`found`)."""

    subject: Subject
    items: tuple[Item, ...]
    found: Mapping[str, Mapping[str, dict[Key, Part]]]
    titles: Mapping[str, str]
    model: str | None
    scratch: Path | None = None  # the views' folder, for a lone skill or plugin

    def report(self, host: Host, env: Environment) -> HostReport:
        cost, _ = tokens(host, env, model=self.model, scratch=self.scratch)
        index = (cost.index_chars, cost.listed, cost.budget_chars, cost.budget_entries)
        dropped = drops(host, env, self.subject, self.items, index)
        unread = unread_parts(host, env, self.subject, self.found, self.titles, dropped)
        problems = host.model(self.model).diagnostics(host.name)
        found = (*dropped, *unread)
        return HostReport(host.name, host.title, _loads(host, env), found, cost, problems)

    def judge(
        self, host: Host, env: Environment, subject: Subject
    ) -> tuple[Loads, tuple[Drop, ...]]:
        """What `host` loads of a ported copy (`subject`) of the plugin, and what the
        rules say it drops of it."""
        cost, _ = tokens(host, env, model=self.model, scratch=self.scratch)
        index = (cost.index_chars, cost.listed, cost.budget_chars, cost.budget_entries)
        return _loads(host, env), drops(host, env, subject, (), index)


def _with_port(
    host: Host, report: HostReport, root: Path, base: Path, compared: _Compared
) -> HostReport:
    """`report` with the host's view of the plugin once ported for it, if port writes
    for the host."""
    ported = after_port(host, root, base, report, compared.judge)
    return report if ported is None else replace(report, ported=ported)


def _loads(host: Host, env: Environment) -> Loads:
    hooks = tuple(
        hook_id(h, fired_as(h.spec.event, h.event, host.events)) for h in env.hooks.loaded()
    )
    return Loads(
        skills=tuple(env.skills),
        commands=_own(env.commands.commands.items()),
        agents=_own(env.agents.agents.items()),
        hooks=hooks,
        mcp_servers=tuple(server_id(s) for s in env.mcp_servers.servers if s.enabled),
        instructions=tuple(f.label for f in env.instructions),
        plugins=tuple(p.name for p in env.plugins.enabled()),
    )


def _own(named: Iterable[tuple[str, Originated]]) -> tuple[str, ...]:
    """The names of what came from a file, not from the host itself."""
    return tuple(name for name, item in named if item.origin.scope not in _HOSTED)


def _project_items(envs: Iterable[Environment], subject: Subject) -> tuple[Item, ...]:
    """Every skill, command, agent type and plugin some host reads from the project's
    own folders (not from a plugin), once each, in the order first met."""
    seen: dict[str, Item] = {}
    for env in envs:
        for item in _items_of(env, subject):
            seen.setdefault(os.path.realpath(item.path), item)
    return tuple(seen.values())


def _items_of(env: Environment, subject: Subject) -> Iterator[Item]:
    kinds: tuple[tuple[Component, Iterable[tuple[str, Originated]]], ...] = (
        ("skill", env.skills.items()),
        ("command", env.commands.commands.items()),
        ("agent", env.agents.agents.items()),
    )
    for component, named in kinds:
        for name, item in named:
            origin, path = item.origin, getattr(item, "path", None)
            if origin.scope != PROJECT or origin.plugin is not None or origin.path is None:
                continue
            if path is not None and subject.inside(path):
                yield Item(component, name, path, origin.path)
    for plugin in env.plugins.plugins.values():
        real = Path(os.path.realpath(plugin.root))
        if plugin.scope == PROJECT and real != subject.root and subject.inside(plugin.root):
            yield Item("plugin", plugin.name, plugin.root, plugin.root.parent)

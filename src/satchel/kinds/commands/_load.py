"""`load_commands()`: every source in precedence order, one winner per name.

Precedence, highest first:

1. the host's built-in command names (a command named like one is skipped with
   ``command.builtin``);
2. `extra`: commands the host defines in code;
3. the layout's command roots in order: project, then user; within a scope the
   client's own family, then ``.claude``, then ``.agents`` (then ``~/.codex/prompts``);
4. plugin commands, one source per plugin (a command file wins over a same-named
   plugin command).

Names compare case-insensitively. Two commands of one root with the same name: the
first in walk order is kept (``command.name.collision``); the other still answers to
its ``group:name`` alias when it has one (it is listed under that name). Across
sources the lower one is dropped (``command.shadowed``, naming both paths).

Aliases are settled source by source, after that source's names: an alias never
hides a built-in, a name of its own or a higher source, or a higher alias (such an
alias is dropped), but it does hide a lower source's name. So the file
``.claude/commands/tools/deploy.md`` (``/deploy``, alias ``/tools:deploy``) wins
``/tools:deploy`` over the plugin ``tools``'s ``deploy`` command, as it would under
path naming, where ``tools:deploy`` is its name: a command file wins over a
same-named plugin command. Last, each plugin command gets its bare name as an alias
(``/deploy`` for ``tools:deploy``, mermaid's ``/deploy prod``) when nothing else
holds that name: any command's name, a built-in and every other alias win over it;
between two plugins the one given first wins.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from types import MappingProxyType
from typing import Any

from satchel.core._files import same_file
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, Layout
from satchel.foundations.precedence import UNSEEN, Clash, Ladder, Loss, by_name
from satchel.kinds.commands._discover import CommandScan, scan_commands
from satchel.kinds.commands._model import Command, Naming
from satchel.kinds.commands._names import fold

__all__ = ["CommandSet", "load_commands"]

_EMPTY_NAMES: Mapping[str, str] = MappingProxyType({})


@model
class CommandSet:
    """What `load_commands` found. `commands` is in precedence order, then by name;
    `aliases` maps each alias to a canonical name in `commands`; `shadowed` holds
    (winner, loser) for every command hidden by another; `builtins` the host's names."""

    commands: Mapping[str, Command]
    aliases: Mapping[str, str] = field(default_factory=lambda: _EMPTY_NAMES)
    diagnostics: tuple[Diagnostic, ...] = ()
    shadowed: tuple[tuple[Command, Command], ...] = ()
    builtins: tuple[str, ...] = ()
    _index: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {fold(alias): canonical for alias, canonical in self.aliases.items()}
        index.update((fold(name), name) for name in self.commands)
        object.__setattr__(self, "_index", MappingProxyType(index))

    def find(self, name: str) -> Command | None:
        """The command `name` (with or without a leading ``/``) reaches: a canonical
        name or an alias, compared case-insensitively. None for a built-in or an
        unknown name (the host handles its own built-ins)."""
        canonical = self._index.get(fold(name.removeprefix("/")))
        return None if canonical is None else self.commands[canonical]

    def to_json(self) -> dict[str, Any]:
        return {
            "commands": [c.to_json() for c in self.commands.values()],
            "aliases": dict(self.aliases),
            "builtins": list(self.builtins),
            "shadowed": [
                {"name": loser.name, "winner": _where(winner), "loser": _where(loser)}
                for winner, loser in self.shadowed
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def load_commands(
    layout: Layout,
    *,
    builtins: Sequence[str] = (),
    naming: Naming = "stem",
    trust_project: bool = True,
    plugin_commands: Sequence[Command] = (),
    extra: Sequence[Command] = (),
) -> CommandSet:
    """Discover the slash commands for `layout` and settle every name.

    `naming` ``stem`` (mermaid): ``frontend/component.md`` is ``/component``, with
    the alias ``/frontend:component``. ``path`` (Claude Code's newer behaviour): it is
    ``/frontend:component`` and has no alias. `trust_project` False skips the project
    roots. Never raises for bad files; nothing is executed."""
    names = tuple(b.removeprefix("/") for b in builtins)
    assembly = _Assembly(frozenset(fold(b) for b in names))
    assembly.add(extra)
    for root in layout.command_dirs():
        if root.scope == PROJECT and not trust_project:
            if os.path.isdir(root.path):
                message = "project commands here are not loaded: the project is not trusted"
                assembly.ladder.note(diagnostic("discovery.untrusted", message, root.path))
            continue
        assembly.add_scan(scan_commands(root, naming=naming))
    for commands in _by_plugin(plugin_commands):
        assembly.add(commands)
    return assembly.finish(names)


def _by_plugin(commands: Sequence[Command]) -> Iterable[list[Command]]:
    """Plugin commands, one source per plugin, plugins in the order first given."""
    groups: dict[str, list[Command]] = {}
    for command in commands:
        groups.setdefault(command.plugin or "", []).append(command)
    return groups.values()


class _Assembly:
    """Commands on a `Ladder`, source by source: names first, then the aliases of the
    source's winners; built-in names are held by the host, never by a command."""

    def __init__(self, builtins: frozenset[str]) -> None:
        self.builtins = builtins
        self.ladder: Ladder[Command] = Ladder()

    def add_scan(self, scan: CommandScan) -> None:
        self.add(scan.commands, scan.diagnostics)

    def add(self, commands: Iterable[Command], found: Iterable[Diagnostic] = ()) -> None:
        """Offer one source's commands, below every source added before."""
        self.ladder.next_source(found)
        for command in commands:
            self._offer(command)
        for command in sorted(self.ladder.current(), key=by_name):
            for alias in command.aliases:
                self._claim(alias, command)

    def _offer(self, command: Command) -> None:
        if fold(command.name) in self.builtins:
            message = (
                f"/{command.name} is a built-in command; {_where(command)} is skipped"
                if command.path is not None
                else f"/{command.name} is a built-in command; the one defined in code is skipped"
            )
            self.ladder.note(
                diagnostic("command.builtin", message, command.path, hint="rename the command")
            )
            return
        clash = self.ladder.offer(command)
        if clash is None:
            return
        if clash.alias is not None:  # a higher source's alias
            self.ladder.lose(clash, _shadow(clash, f", which answers to /{clash.alias}"))
        elif same_file(clash.winner.path, command.path):
            self.ladder.lose(clash, UNSEEN)
        elif clash.same_source:
            self._collision(clash)
        else:
            self.ladder.lose(clash, _shadow(clash))

    def _free(self, name: str) -> bool:
        return fold(name) not in self.builtins and self.ladder.free(name)

    def _claim(self, alias: str, command: Command) -> None:
        """Give `alias` to `command` unless a built-in, a name or an alias holds it."""
        if fold(alias) not in self.builtins:
            self.ladder.claim(alias, command)

    def _collision(self, clash: Clash[Command]) -> None:
        """Two commands of one source with one name: the loser keeps its alias, if
        that name is free, as its own name."""
        winner, loser = clash.winner, clash.loser
        alias = loser.aliases[0] if loser.aliases else None
        free = alias is not None and self._free(alias)
        fate = f"answers only to /{alias}" if free else "is ignored"
        message = (
            f"two commands are named {loser.name!r} in one root; {_where(winner)} is kept, "
            f"{_where(loser)} {fate}"
        )
        found = diagnostic("command.name.collision", message, loser.path)
        self.ladder.lose(clash, Loss(found, shadowed=not free))
        if free and alias is not None:
            self.ladder.hold(replace(loser, name=alias, aliases=()))

    def finish(self, builtins: tuple[str, ...]) -> CommandSet:
        settled = self.ladder.settled(within=by_name)
        for command in settled.winners:
            bare = _bare_name(command)
            if bare:
                self._claim(bare, command)
        commands = {c.name: c for c in settled.winners}
        aliases = {alias: owner.name for alias, owner in self.ladder.aliases().items()}
        return CommandSet(
            MappingProxyType(commands),
            MappingProxyType(aliases),
            settled.diagnostics,
            settled.pairs(),
            builtins,
        )


def _shadow(clash: Clash[Command], how: str = "") -> Loss:
    winner, loser = clash.winner, clash.loser
    message = (
        f"command /{loser.name} at {_where(loser)} ({_source(loser)}) is shadowed "
        f"by {_where(winner)} ({_source(winner)}){how}"
    )
    return Loss(diagnostic("command.shadowed", message, loser.path))


def _bare_name(command: Command) -> str | None:
    """A plugin command's name without ``<plugin>:`` (None for any other command)."""
    prefix = f"{command.plugin}:"
    if command.plugin and command.name.startswith(prefix):
        return command.name.removeprefix(prefix) or None
    return None


def _where(command: Command) -> str:
    if command.path is not None:
        return str(command.path)
    return f"/{command.name} defined in code"


def _source(command: Command) -> str:
    """``project .claude``, ``user .satchel``, ``plugin:deploy-tools``, ``builtin``."""
    scope = command.tag.strip("()")
    return f"{scope} {command.family}".strip()

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
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from satchel._files import same_file
from satchel.commands._discover import CommandScan, scan_commands
from satchel.commands._model import Command, Naming
from satchel.commands._names import fold
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import PROJECT, Layout

__all__ = ["CommandSet", "load_commands"]

_EMPTY_NAMES: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
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
                assembly.diagnostics.append(diagnostic("discovery.untrusted", message, root.path))
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
    """Winners by folded name, first come first kept, with every loss reported."""

    def __init__(self, builtins: frozenset[str]) -> None:
        self.builtins = builtins
        self.winners: dict[str, tuple[int, Command]] = {}
        self.aliases: dict[str, tuple[str, Command]] = {}  # folded alias: (alias, owner)
        self.diagnostics: list[Diagnostic] = []
        self.shadowed: list[tuple[Command, Command]] = []
        self.rank = 0

    def add_scan(self, scan: CommandScan) -> None:
        self.diagnostics.extend(scan.diagnostics)
        self.add(scan.commands)

    def add(self, commands: Iterable[Command]) -> None:
        """Offer one source's commands, below every source added before."""
        self.rank += 1
        for command in commands:
            self._offer(command)
        mine = [c for rank, c in self.winners.values() if rank == self.rank]
        for command in sorted(mine, key=lambda c: c.name):
            for alias in command.aliases:
                self._claim(alias, command)

    def _offer(self, command: Command) -> None:
        key = fold(command.name)
        if key in self.builtins:
            message = (
                f"/{command.name} is a built-in command; {_where(command)} is skipped"
                if command.path is not None
                else f"/{command.name} is a built-in command; the one defined in code is skipped"
            )
            self.diagnostics.append(
                diagnostic("command.builtin", message, command.path, hint="rename the command")
            )
            return
        if key in self.aliases:  # a higher source's alias
            alias, owner = self.aliases[key]
            self._shadow(owner, command, f", which answers to /{alias}")
            return
        held = self.winners.get(key)
        if held is None:
            self.winners[key] = (self.rank, command)
            return
        rank, winner = held
        if same_file(winner.path, command.path):
            return
        if rank == self.rank:
            self._collision(winner, command)
            return
        self._shadow(winner, command)

    def _shadow(self, winner: Command, loser: Command, how: str = "") -> None:
        self.shadowed.append((winner, loser))
        message = (
            f"command /{loser.name} at {_where(loser)} ({_source(loser)}) is shadowed "
            f"by {_where(winner)} ({_source(winner)}){how}"
        )
        self.diagnostics.append(diagnostic("command.shadowed", message, loser.path))

    def _claim(self, alias: str, command: Command) -> None:
        """Give `alias` to `command` unless a built-in, a name or an alias holds it."""
        key = fold(alias)
        if key not in self.builtins and key not in self.winners and key not in self.aliases:
            self.aliases[key] = (alias, command)

    def _collision(self, winner: Command, loser: Command) -> None:
        """Two commands of one source with one name: the loser keeps its alias, if
        that name is free, as its own name."""
        alias = loser.aliases[0] if loser.aliases else None
        key = None if alias is None else fold(alias)
        free = key is not None and all(
            key not in s for s in (self.winners, self.builtins, self.aliases)
        )
        fate = f"answers only to /{alias}" if free else "is ignored"
        message = (
            f"two commands are named {loser.name!r} in one root; {_where(winner)} is kept, "
            f"{_where(loser)} {fate}"
        )
        self.diagnostics.append(diagnostic("command.name.collision", message, loser.path))
        if free and alias is not None and key is not None:
            self.winners[key] = (self.rank, replace(loser, name=alias, aliases=()))
        else:
            self.shadowed.append((winner, loser))

    def finish(self, builtins: tuple[str, ...]) -> CommandSet:
        ordered = sorted(self.winners.values(), key=lambda item: (item[0], item[1].name))
        for _, command in ordered:
            bare = _bare_name(command)
            if bare:
                self._claim(bare, command)
        commands = {c.name: c for _, c in ordered}
        aliases = {alias: owner.name for alias, owner in self.aliases.values()}
        return CommandSet(
            MappingProxyType(commands),
            MappingProxyType(aliases),
            tuple(self.diagnostics),
            tuple(self.shadowed),
            builtins,
        )


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

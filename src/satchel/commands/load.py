"""`load_commands()`: every source in precedence order, one winner per name.

Precedence, highest first:

1. the host's built-in command names (a command named like one is skipped with
   ``command.builtin``);
2. `extra`: commands the host defines in code;
3. the layout's command roots in order: project, then user; within a scope the
   client's own family, then ``.claude``, then ``.agents`` (then ``~/.codex/prompts``);
4. plugin commands (a command file wins over a same-named plugin command).

Names compare case-insensitively. Two commands of one root with the same name: the
first in walk order is kept (``command.name.collision``); the other still answers to
its ``group:name`` alias when it has one (it is listed under that name). Across
sources the lower one is dropped (``command.shadowed``, naming both paths).
Aliases are settled after every canonical name: an alias never hides a command's
name, a built-in, or an alias of a higher command (such an alias is dropped).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from satchel.commands.discover import CommandScan, scan_commands
from satchel.commands.model import Command, Naming
from satchel.commands.names import fold
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

    `naming` ``stem`` (seed 000): ``frontend/component.md`` is ``/component``, with
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
        held = self.winners.get(key)
        if held is None:
            self.winners[key] = (self.rank, command)
            return
        rank, winner = held
        if _same_file(winner, command):
            return
        if rank == self.rank:
            self._collision(winner, command)
            return
        self.shadowed.append((winner, command))
        message = (
            f"command /{command.name} at {_where(command)} ({_source(command)}) is shadowed "
            f"by {_where(winner)} ({_source(winner)})"
        )
        self.diagnostics.append(diagnostic("command.shadowed", message, command.path))

    def _collision(self, winner: Command, loser: Command) -> None:
        """Two commands of one source with one name: the loser keeps its alias, if
        that name is free, as its own name."""
        alias = loser.aliases[0] if loser.aliases else None
        key = None if alias is None else fold(alias)
        free = key is not None and key not in self.winners and key not in self.builtins
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
        commands = {c.name: c for _, c in ordered}
        taken = set(self.winners) | set(self.builtins)
        aliases: dict[str, str] = {}
        for _, command in ordered:
            for alias in command.aliases:
                key = fold(alias)
                if key not in taken:
                    taken.add(key)
                    aliases[alias] = command.name
        return CommandSet(
            MappingProxyType(commands),
            MappingProxyType(aliases),
            tuple(self.diagnostics),
            tuple(self.shadowed),
            builtins,
        )


def _where(command: Command) -> str:
    if command.path is not None:
        return str(command.path)
    return f"/{command.name} defined in code"


def _source(command: Command) -> str:
    """``project .claude``, ``user .satchel``, ``plugin:deploy-tools``, ``builtin``."""
    scope = command.origin.strip("()")
    return f"{scope} {command.family}".strip()


def _same_file(a: Command, b: Command) -> bool:
    if a.path is None or b.path is None:
        return False
    try:
        return os.path.samefile(a.path, b.path)
    except OSError:
        return False

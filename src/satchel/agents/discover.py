"""Find agent types in every layer and settle which one owns each name.

Precedence, highest first (seed 000): the host's config types, project files, user
files, then plugin types. Within a scope the layout's order holds: the client's
own family, then ``.claude``, then ``.agents``. Names compare case-insensitively.
A project file or a plugin cannot redefine a built-in type (``general``,
``explore``): a cloned repository must not loosen them. A user file and the host's
config can; such a type is marked `overrides_builtin`.

An agents directory holds Claude Code ``.md`` files and Vibe ``.toml`` files,
walked recursively in name order (bounded by the layout's walk limits), at most
128 files per directory. Nothing is executed; a bad file becomes a diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.agents.bundle import config_agents
from satchel.agents.claude import parse_claude
from satchel.agents.model import AgentType
from satchel.agents.read import read_agent_file
from satchel.agents.tools import DEFAULT_TOOL_MAP
from satchel.agents.vibe import parse_vibe
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import PROJECT, USER, Layout, WalkBounds
from satchel.text import fold_name

__all__ = [
    "AgentSet",
    "BUILTIN_TYPES",
    "DirScan",
    "load_agents",
    "MAX_AGENTS",
    "parse_agent",
    "scan_agent_dir",
    "ShadowedAgent",
]

BUILTIN_TYPES = ("general", "explore")
MAX_AGENTS = 128  # files per directory (seed 003)
SUFFIXES = (".md", ".toml")
SKIP_DIRS = frozenset(("node_modules",))
_NO_CONFIG: Mapping[str, Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class ShadowedAgent:
    """An agent type hidden by a same-named one of higher precedence."""

    name: str
    winner: AgentType
    loser: AgentType


@dataclass(frozen=True, slots=True)
class AgentSet:
    """Every agent type that won its name, in precedence order, and what went wrong."""

    agents: Mapping[str, AgentType]
    diagnostics: tuple[Diagnostic, ...] = ()
    shadowed: tuple[ShadowedAgent, ...] = ()
    builtins: tuple[str, ...] = BUILTIN_TYPES

    def get(self, name: str) -> AgentType | None:
        """The agent type called `name`, compared case-insensitively."""
        found = self.agents.get(name)
        if found is not None:
            return found
        key = fold_name(name)
        return next((a for n, a in self.agents.items() if fold_name(n) == key), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": [agent.to_json() for agent in self.agents.values()],
            "builtins": list(self.builtins),
            "shadowed": [
                {"name": s.name, "winner": _origin(s.winner), "loser": _origin(s.loser)}
                for s in self.shadowed
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@dataclass(slots=True)
class DirScan:
    """What one agents directory held, in file name order."""

    directory: Path
    exists: bool = False
    agents: list[AgentType] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_agents(
    layout: Layout,
    *,
    builtins: Sequence[str | AgentType] = BUILTIN_TYPES,
    config_types: Mapping[str, Mapping[str, Any]] = _NO_CONFIG,
    plugin_types: Sequence[AgentType] = (),
    trust_project: bool = True,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> AgentSet:
    """Every agent type for `layout`, in precedence order. `builtins` names the host's
    built-in types (or gives them as `AgentType` values, which rank after user files);
    `config_types` are the host config's ``[agents.types.<name>]`` tables; plugin
    types come from enabled plugins. With `trust_project` False, project directories
    are not read. Never raises for a bad file."""
    names = tuple(b if isinstance(b, str) else b.name for b in builtins)
    asm = _Assembly(names)
    configured, diags = config_agents(config_types, tool_map=tool_map)
    asm.diagnostics.extend(diags)
    asm.add(configured, may_redefine=True)
    for root in layout.agent_dirs():
        if root.scope == PROJECT and not trust_project:
            asm.untrusted(root.path)
            continue
        scan = scan_agent_dir(
            root.path,
            scope=root.scope,
            family=root.family,
            contain=root.scope != USER,
            walk=layout.walk,
            tool_map=tool_map,
        )
        asm.diagnostics.extend(scan.diagnostics)
        asm.add(scan.agents, may_redefine=root.scope == USER)
    asm.add([b for b in builtins if isinstance(b, AgentType)], may_redefine=True)
    asm.add(plugin_types, may_redefine=False)
    return asm.finish()


def scan_agent_dir(
    directory: Path,
    *,
    scope: str = "",
    family: str = "",
    namespace: str | None = None,
    plugin: str | None = None,
    recursive: bool = True,
    contain: bool = True,
    walk: WalkBounds | None = None,
    limit: int = MAX_AGENTS,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> DirScan:
    """Read the agent files under `directory`: the first `limit` ``.md`` and
    ``.toml`` files in path order. With `contain`, a symlinked file must point
    inside `directory`. `namespace` prefixes every name (``<namespace>:<name>``)."""
    scan = DirScan(directory)
    files = _agent_files(directory, recursive, walk or WalkBounds(), scan)
    if len(files) > limit:
        message = (
            f"{len(files)} agent files in this directory; only the first {limit} "
            "(in file name order) are read"
        )
        scan.diagnostics.append(diagnostic("agent.limit", message, directory))
        files = files[:limit]
    for path, regular in files:
        if not regular:
            message = "cannot read the agent file: not a regular file; it is skipped"
            scan.diagnostics.append(diagnostic("agent.invalid", message, path, severity="warning"))
            continue
        data, diags = read_agent_file(path, contain=directory if contain else None)
        scan.diagnostics.extend(diags)
        if data is None:
            continue
        agent, diags = parse_agent(
            data,
            path,
            scope=scope,
            family=family,
            namespace=namespace,
            plugin=plugin,
            tool_map=tool_map,
        )
        scan.diagnostics.extend(diags)
        if agent is not None:
            scan.agents.append(agent)
    return scan


def parse_agent(
    data: bytes,
    path: Path,
    *,
    scope: str = "",
    family: str = "",
    namespace: str | None = None,
    plugin: str | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """One agent file's content, by its suffix: ``.toml`` is Vibe's, else Claude Code's."""
    parse = parse_vibe if path.suffix == ".toml" else parse_claude
    return parse(
        data,
        path,
        scope=scope,
        family=family,
        namespace=namespace,
        plugin=plugin,
        tool_map=tool_map,
    )


def _agent_files(
    directory: Path, recursive: bool, walk: WalkBounds, scan: DirScan
) -> list[tuple[Path, bool]]:
    """(path, whether it is a regular file or a symlink) for every candidate file,
    in path order. Hidden entries, README.md and symlinked directories are passed
    over; the walk stops at the layout's depth and directory limits."""
    found: list[tuple[tuple[str, ...], Path, bool]] = []
    stack: list[tuple[Path, tuple[str, ...]]] = [(directory, ())]
    budget = walk.max_dirs
    while stack:
        current, parts = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            continue
        except OSError as e:
            if parts or not isinstance(e, NotADirectoryError):
                message = f"cannot list: {e.strerror}"
                scan.diagnostics.append(diagnostic("discovery.root.unreadable", message, current))
            else:
                message = "an agents directory that is not a directory"
                scan.diagnostics.append(
                    diagnostic("discovery.root.not-directory", message, current)
                )
            continue
        scan.exists = True
        subdirs: list[tuple[Path, tuple[str, ...]]] = []
        for entry in entries:
            name = entry.name
            if name.startswith(".") or not _utf8_name(entry, scan):
                continue
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_link = entry.is_symlink()
                is_file = entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if recursive and name not in SKIP_DIRS:
                    subdirs.append((path, (*parts, name)))
            elif name.endswith(SUFFIXES) and name.lower() != "readme.md":
                found.append(((*parts, name), path, is_file or is_link))
            elif is_link and recursive and os.path.isdir(path):
                message = "a symlinked directory in an agents directory is not walked"
                scan.diagnostics.append(
                    diagnostic("agent.invalid", message, path, severity="warning")
                )
        if len(parts) + 1 > walk.max_depth and subdirs:
            message = f"directories deeper than {walk.max_depth} levels are not read"
            scan.diagnostics.append(diagnostic("discovery.limit", message, subdirs[0][0]))
            subdirs = []
        budget -= len(subdirs)
        if budget < 0:
            message = f"more than {walk.max_dirs} directories; the rest are not read"
            scan.diagnostics.append(diagnostic("discovery.limit", message, directory))
            break
        stack.extend(reversed(subdirs))
    found.sort(key=lambda item: item[0])
    return [(path, ok) for _, path, ok in found]


def _utf8_name(entry: os.DirEntry[str], scan: DirScan) -> bool:
    try:
        entry.name.encode("utf-8")
    except UnicodeEncodeError:
        message = "the file name is not valid UTF-8; it is not read"
        scan.diagnostics.append(
            diagnostic("encoding.not-utf8", message, Path(entry.path), severity="warning")
        )
        return False
    return True


class _Assembly:
    """Winners by folded name, first come first kept, each loss reported."""

    def __init__(self, builtins: Sequence[str]) -> None:
        self.builtins = tuple(builtins)
        self.protected = frozenset(fold_name(b) for b in builtins)
        self.winners: dict[str, tuple[int, AgentType]] = {}
        self.diagnostics: list[Diagnostic] = []
        self.shadowed: list[ShadowedAgent] = []
        self.rank = 0

    def untrusted(self, directory: Path) -> None:
        self.rank += 1
        if os.path.isdir(directory):
            message = "project agents here are not loaded: the project is not trusted"
            self.diagnostics.append(diagnostic("discovery.untrusted", message, directory))

    def add(self, agents: Sequence[AgentType], *, may_redefine: bool) -> None:
        self.rank += 1
        for agent in agents:
            self._offer(agent, may_redefine)

    def _offer(self, agent: AgentType, may_redefine: bool) -> None:
        key = fold_name(agent.name)
        if key in self.protected and agent.format != "builtin":
            if not may_redefine:
                self.diagnostics.append(_protected(agent))
                return
            agent = replace(agent, overrides_builtin=True)
        held = self.winners.get(key)
        if held is None:
            self.winners[key] = (self.rank, agent)
            return
        winner = held[1]
        if _same_file(winner, agent):
            return
        self.shadowed.append(ShadowedAgent(agent.name, winner, agent))
        if agent.format == "builtin":
            return  # replacing a built-in type (from the user dir or config) is no surprise
        message = f"agent {agent.name!r} from {_origin(agent)} is shadowed by {_origin(winner)}"
        self.diagnostics.append(diagnostic("agent.shadowed", message, agent.path))

    def finish(self) -> AgentSet:
        ordered = sorted(self.winners.values(), key=lambda item: (item[0], item[1].name))
        return AgentSet(
            MappingProxyType({a.name: a for _, a in ordered}),
            tuple(self.diagnostics),
            tuple(self.shadowed),
            self.builtins,
        )


def _protected(agent: AgentType) -> Diagnostic:
    where = "a plugin" if agent.scope != PROJECT else "a project file"
    return diagnostic(
        "agent.builtin.protected",
        f"{where} cannot redefine the built-in agent type {agent.name!r}; it is skipped",
        agent.path,
        hint="rename the agent, or define it in your user agents directory",
    )


def _origin(agent: AgentType) -> str:
    if agent.format == "config":
        return "the host config"
    if agent.format == "builtin":
        return "the built-in type"
    where = f"plugin {agent.plugin}" if agent.plugin else f"{agent.scope} {agent.family}".strip()
    if agent.path is None:
        return where or "code"
    return f"{agent.path} ({where})" if where else str(agent.path)


def _same_file(a: AgentType, b: AgentType) -> bool:
    one_each = ("claude", "vibe")  # other formats hold several types in one file
    if a.path is None or b.path is None or a.format not in one_each or b.format not in one_each:
        return False
    try:
        return os.path.samefile(a.path, b.path)
    except OSError:
        return False

"""Find agent types in every layer and settle which one owns each name.

Precedence, highest first (mermaid): the host's config types, project files, user
files, then plugin types. Within a scope the layout's order holds: the client's
own family, then ``.claude``, then ``.agents``. Names compare case-insensitively.
A project file or a plugin cannot redefine a built-in type (``general``,
``explore``): a cloned repository must not loosen them. A user file and the host's
config can; such a type is marked `overrides_builtin`. Nor can they approve
everything: a project or plugin agent's ``yolo`` safety is capped at
``destructive`` (`agent.safety.capped`); plugin types handed in are capped here.

An agents directory holds Claude Code ``.md`` files and Vibe ``.toml`` files,
walked recursively in name order (bounded by the layout's walk limits). Vibe reads at
most 128 agent files a directory (Vibe), so at most 128 ``.toml`` files are read;
Claude Code has no such cap, so ``.md`` files are bounded only by satchel's own
4,096. Past a cap, the files left out are still listed (not read) and one
`agent.limit` warning names each of them. Nothing is executed; a bad file becomes a
diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.agents._bundle import config_agents
from satchel.agents._claude import parse_claude
from satchel.agents._fields import cap_safety
from satchel.agents._model import AgentType
from satchel.agents._read import read_agent_file
from satchel.agents._tools import DEFAULT_TOOL_MAP
from satchel.agents._vibe import parse_vibe
from satchel.core._files import list_sorted, open_root, same_file
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, USER, Layout, WalkBounds
from satchel.foundations.origin import NO_ORIGIN, Origin, root_origin
from satchel.foundations.precedence import (
    UNSEEN,
    Clash,
    Loss,
    Shadowed,
    Source,
    Verdict,
    by_name,
    fold_name,
    settle,
)

__all__ = [
    "AgentSet",
    "BUILTIN_TYPES",
    "DirScan",
    "load_agents",
    "MAX_AGENTS",
    "MAX_CLAUDE_AGENTS",
    "parse_agent",
    "scan_agent_dir",
    "ShadowedAgent",
]

BUILTIN_TYPES: tuple[str, ...] = ("general", "explore")
MAX_AGENTS = 128  # Vibe agent files (.toml) per directory (Vibe)
MAX_CLAUDE_AGENTS = 4096  # Claude Code agent files (.md) per directory: satchel's bound
SUFFIXES = (".md", ".toml")
SKIP_DIRS = frozenset(("node_modules",))
_ONE_EACH = frozenset(("claude", "vibe"))  # formats of one type per file; others hold several
_NO_CONFIG: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
_Parse = Callable[[bytes, Path], tuple[AgentType | None, list[Diagnostic]]]


@model
class _Dir:
    """A subdirectory the walk will list when it reaches it."""

    path: Path
    parts: tuple[str, ...]


# a subdirectory, or (path, whether it is a regular file or a symlink)
_Entry = _Dir | tuple[Path, bool]


# An agent type hidden by a same-named one of higher precedence: the one record of
# every kind, `Shadowed[AgentType]` (the bare class, so it still constructs and checks).
ShadowedAgent = Shadowed


@model
class AgentSet:
    """Every agent type that won its name, in precedence order, and what went wrong."""

    agents: Mapping[str, AgentType]
    diagnostics: tuple[Diagnostic, ...] = ()
    shadowed: tuple[Shadowed[AgentType], ...] = ()
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
    protected = frozenset(fold_name(b) for b in names)
    configured, found = config_agents(config_types, tool_map=tool_map)
    capped, caps = _capped(plugin_types)
    given = [b for b in builtins if isinstance(b, AgentType)]
    sources = [
        Source(configured, found, _gate(protected, may_redefine=True)),
        *_dir_sources(layout, protected, trust_project, tool_map),
        Source(given, admit=_gate(protected, may_redefine=True)),
        Source(capped, caps, _gate(protected, may_redefine=False)),
    ]
    settled = settle(sources, lost=_lost, within=by_name)
    return AgentSet(
        MappingProxyType({a.name: a for a in settled.winners}),
        settled.diagnostics,
        settled.shadowed,
        names,
    )


def _dir_sources(
    layout: Layout,
    protected: frozenset[str],
    trust_project: bool,
    tool_map: Mapping[str, Sequence[str]],
) -> Iterator[Source[AgentType]]:
    """Each agents directory of the layout as one source (a user directory may redefine
    a built-in type)."""
    for root in layout.agent_dirs():
        if root.scope == PROJECT and not trust_project:
            yield _untrusted(root.path)
            continue
        scan = scan_agent_dir(
            root.path,
            origin=root_origin(root),
            contain=root.scope != USER,
            walk=layout.walk,
            tool_map=tool_map,
        )
        yield Source(scan.agents, scan.diagnostics, _gate(protected, root.scope == USER))


def _untrusted(directory: Path) -> Source[AgentType]:
    if not os.path.isdir(directory):
        return Source()
    message = "project agents here are not loaded: the project is not trusted"
    return Source(diagnostics=(diagnostic("discovery.untrusted", message, directory),))


def _capped(agents: Sequence[AgentType]) -> tuple[list[AgentType], list[Diagnostic]]:
    """Plugin types with ``yolo`` capped at ``destructive``, however they were built
    (`agent.safety.capped`)."""
    kept: list[AgentType] = []
    found: list[Diagnostic] = []
    for agent in agents:
        agent, capped = cap_safety(agent, untrusted=True)
        if capped is not None:
            found.append(capped)
        kept.append(agent)
    return kept, found


def scan_agent_dir(
    directory: Path,
    *,
    origin: Origin = NO_ORIGIN,
    recursive: bool = True,
    contain: bool = True,
    walk: WalkBounds | None = None,
    vibe_limit: int = MAX_AGENTS,
    claude_limit: int = MAX_CLAUDE_AGENTS,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> DirScan:
    """Read the agent files under `directory`: the first `claude_limit` ``.md`` and
    `vibe_limit` ``.toml`` files in path order (an `agent.limit` warning names the
    rest). With `contain`, a symlinked file must point inside `directory`. Every
    agent carries `origin`; its `namespace` prefixes every name
    (``<namespace>:<name>``)."""
    scan = DirScan(directory)
    parse = partial(
        parse_agent,
        origin=origin,
        tool_map=tool_map,
    )
    inside = directory if contain else None
    caps = {".md": claude_limit, ".toml": vibe_limit}
    for path, regular in _agent_files(directory, recursive, walk or WalkBounds(), scan, caps):
        agent = _read_one(scan, path, regular, inside, parse)
        if agent is not None:
            scan.agents.append(agent)
    return scan


def _read_one(
    scan: DirScan, path: Path, regular: bool, contain: Path | None, parse: _Parse
) -> AgentType | None:
    """The agent in one file, its problems added to `scan`."""
    if not regular:
        message = "cannot read the agent file: not a regular file; it is skipped"
        scan.diagnostics.append(diagnostic("agent.invalid", message, path, severity="warning"))
        return None
    data, diags = read_agent_file(path, contain=contain)
    scan.diagnostics.extend(diags)
    if data is None:
        return None
    agent, diags = parse(data, path)
    scan.diagnostics.extend(diags)
    return agent


def parse_agent(
    data: bytes,
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """One agent file's content, by its suffix: ``.toml`` is Vibe's, else Claude Code's."""
    parse = parse_vibe if path.suffix == ".toml" else parse_claude
    return parse(data, path, origin=origin, tool_map=tool_map)


def _agent_files(
    directory: Path, recursive: bool, walk: WalkBounds, scan: DirScan, caps: Mapping[str, int]
) -> list[tuple[Path, bool]]:
    """(path, whether it is a regular file or a symlink) for the first candidate files
    of each suffix, up to its cap in `caps`, in path order. The files past a cap are
    still found (not read), and one `agent.limit` warning per suffix names them."""
    files: list[tuple[Path, bool]] = []
    taken = dict.fromkeys(caps, 0)
    left: dict[str, list[Path]] = {suffix: [] for suffix in caps}
    for item in _Walk(directory, recursive, walk, scan).files():
        suffix = ".toml" if item[0].suffix == ".toml" else ".md"
        if taken[suffix] == caps[suffix]:
            left[suffix].append(item[0])
            continue
        taken[suffix] += 1
        files.append(item)
    for suffix, paths in left.items():
        if paths:
            scan.diagnostics.append(_cut(directory, suffix, caps[suffix], paths))
    return files


_KINDS = {".md": "Claude Code agent files (.md)", ".toml": "Vibe agent files (.toml)"}


def _cut(directory: Path, suffix: str, cap: int, paths: Sequence[Path]) -> Diagnostic:
    names = ", ".join(path.relative_to(directory).as_posix() for path in paths)
    message = (
        f"more than {cap} {_KINDS[suffix]} in this directory; only the first {cap} (in file "
        f"name order) are read; {len(paths)} not read: {names}"
    )
    return diagnostic("agent.limit", message, directory)


class _Walk:
    """Candidate files under one agents directory, found lazily in path order.

    Each directory is listed once, in name order, when the walk reaches it; its
    subdirectories are walked where they sort. Hidden entries, README.md and
    symlinked directories are passed over; the walk stops at the layout's depth and
    directory limits (files already found still count)."""

    def __init__(self, root: Path, recursive: bool, bounds: WalkBounds, scan: DirScan) -> None:
        self.root = root
        self.recursive = recursive
        self.bounds = bounds
        self.scan = scan
        self.budget = bounds.max_dirs
        self.stopped = False  # the directory limit was hit: list no more

    def files(self) -> Iterator[tuple[Path, bool]]:
        stack = [iter(self._list(self.root, ()))]
        while stack:
            item = next(stack[-1], None)
            if item is None:
                stack.pop()
            elif isinstance(item, _Dir):
                if not self.stopped:
                    stack.append(iter(self._list(item.path, item.parts)))
            else:
                yield item

    def _list(self, current: Path, parts: tuple[str, ...]) -> list[_Entry]:
        """The candidates in `current`, in name order, with the walk's limits applied."""
        entries = self._scandir(current, parts)
        if entries is None:
            return []
        self.scan.exists = True
        found = [e for e in (self._entry(entry, parts) for entry in entries) if e is not None]
        subdirs = [e for e in found if isinstance(e, _Dir)]
        if subdirs and len(parts) + 1 > self.bounds.max_depth:
            message = f"directories deeper than {self.bounds.max_depth} levels are not read"
            self._report("discovery.limit", message, subdirs[0].path)
            return [e for e in found if not isinstance(e, _Dir)]
        self.budget -= len(subdirs)
        if self.budget < 0:
            message = f"more than {self.bounds.max_dirs} directories; the rest are not read"
            self._report("discovery.limit", message, self.root)
            self.stopped = True
        return found

    def _scandir(self, current: Path, parts: tuple[str, ...]) -> list[os.DirEntry[str]] | None:
        if not parts:
            return open_root(str(current), self.scan.diagnostics, "an agents directory")
        try:
            return list_sorted(current)
        except FileNotFoundError:
            return None
        except OSError as e:
            self._report("discovery.root.unreadable", f"cannot list: {e.strerror}", current)
            return None

    def _entry(self, entry: os.DirEntry[str], parts: tuple[str, ...]) -> _Entry | None:
        """A subdirectory to walk, a candidate file, or None for anything else."""
        name = entry.name
        if name.startswith(".") or not _utf8_name(entry, self.scan):
            return None
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_link = entry.is_symlink()
            is_file = entry.is_file(follow_symlinks=False)
        except OSError:
            return None
        if is_dir:
            walk = self.recursive and name not in SKIP_DIRS
            return _Dir(path, (*parts, name)) if walk else None
        if name.endswith(SUFFIXES) and name.lower() != "readme.md":
            return path, is_file or is_link
        if is_link and self.recursive and os.path.isdir(path):
            message = "a symlinked directory in an agents directory is not walked"
            self.scan.diagnostics.append(
                diagnostic("agent.invalid", message, path, severity="warning")
            )
        return None

    def _report(self, code: str, message: str, path: Path) -> None:
        self.scan.diagnostics.append(diagnostic(code, message, path))


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


def _gate(
    protected: frozenset[str], may_redefine: bool
) -> Callable[[AgentType], Verdict[AgentType]]:
    """How a source's types meet the built-in names: a source that `may_redefine` them
    marks its type `overrides_builtin`; any other has it skipped."""

    def admit(agent: AgentType) -> Verdict[AgentType]:
        if fold_name(agent.name) not in protected or agent.format == "builtin":
            return agent, None
        if not may_redefine:
            return None, _protected(agent)
        return replace(agent, overrides_builtin=True), None

    return admit


def _lost(clash: Clash[AgentType]) -> Loss:
    winner, agent = clash.winner, clash.loser
    if {winner.format, agent.format} <= _ONE_EACH and same_file(winner.path, agent.path):
        return UNSEEN
    if agent.format == "builtin":
        return Loss()  # replacing a built-in type (from the user dir or config) is no surprise
    message = f"agent {agent.name!r} from {_origin(agent)} is shadowed by {_origin(winner)}"
    return Loss(diagnostic("agent.shadowed", message, agent.path))


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

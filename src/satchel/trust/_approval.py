"""Content-hash approval of a project's executable parts (threat model T03, "MCPoison").

Trusting a folder with `satchel trust` pins what was there to run: a digest of each
project hook and project MCP server: its declaration and every file inside the
project it can run (`satchel.trust._reach`): the bytes of each file its command names, and
the listing (path, mode, a file's size and modification time) of each folder it can
run files from: a plugin's whole root; for a hook, the folder of each named script
and, when its files cannot be determined, the whole directory it runs in (the plugin
root, or the project tree without `ENVIRONMENT_DIRS`). Claude Code's
``settings.json`` hooks are pinned whether or not the load that pins reads them. At
every load of that folder, an item whose digest
changed, or that was not there when the folder was trusted, is held back: the hook is
skipped, the server disabled, with ``trust.changed`` naming it, until the user runs
`satchel trust` again. A folder trusted without pins (``trust(layout, folder)`` with no
`approved`, or a host's ``load(trusted=True)``) runs what it holds, as before.

A project plugin's other programs (its language servers, monitors and ``bin/``
executables) are pinned together, with the plugin's whole root: when any of them
changed, or the plugin is new, all three are held back (the plugin's skills and the
rest still load) with one ``trust.changed``.

The hooks a project skill or agent type declares in its own frontmatter are pinned
like a hooks file's (`Declaring`): named by their owner (``hook
skill:<name>/<event>/<matcher>#<n>``, ``hook agent:<name>/...``), each with its
declaration and what it can run, and a skill's hooks with the skill's whole folder
too. They are read later (a skill's when it is activated, an agent's when it is
spawned), so what is held back is carried in the environment's `Trust.held`, and
`scoped_hooks` marks them as the runner will see them.

The `` !`cmd` `` lines of a project skill's ``SKILL.md`` are pinned by `satchel trust`
too (``shell skill:<name>#<n>``, `shell_key`, the n-th line of its body), each with its
text, what it can run (read as a hook's command is, in the working directory, with
``SKILL_DIR``, ``CLAUDE_SKILL_DIR``, ``PROJECT_DIR`` and ``CLAUDE_PROJECT_DIR`` set) and
the skill's whole folder, as a skill's own hooks are. A body is read only when the
skill is activated, so a load reads none: the environment's `Trust` carries the pins,
and each line is checked against them as it is about to run (`held_line`), so a line
edited after the load is checked as it is then; `held_lines` lists them all for
``satchel doctor``.

Only project-origin items are pinned: the user's own hooks and servers, and those of
user plugins, are the user's.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel.agents._spawn import subagent_hooks
from satchel.core._files import ENVIRONMENT_DIRS, FileProblem, read_bounded
from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import SkillBodyError
from satchel.core.layout import PROJECT
from satchel.foundations._interpolation import command_variables, find_commands
from satchel.foundations.origin import Origin, Trust
from satchel.hooks._load import compile_hooks, load_hooks
from satchel.hooks._model import HookSet
from satchel.hooks._scoped import agent_owner, skill_hooks, skill_owner
from satchel.hooks._variables import host_variables
from satchel.mcp._approved import SERVED, SERVER, held_served, served_pins
from satchel.trust._reach import Reach, argv_reach, shell_reach

if TYPE_CHECKING:
    from satchel.agents._model import AgentType
    from satchel.core.layout import Layout
    from satchel.hooks._model import Hook
    from satchel.hooks._spec import HookSpec
    from satchel.mcp._servers import McpServerSet
    from satchel.mcp._spec import McpServer
    from satchel.plugins._model import Plugin
    from satchel.skills._model import Skill
    from satchel.trust._trust import Pins

__all__ = [
    "CHANGED",
    "ENVIRONMENT_DIRS",
    "MAX_TREE",
    "Declaring",
    "Executables",
    "HeldBack",
    "declaring",
    "digests",
    "declared_by_agent",
    "declared_by_skill",
    "hold_back",
    "held_hooks",
    "held_line",
    "held_lines",
    "held_shell",
    "programs_key",
    "server_key",
    "shell_key",
    "scoped_hooks",
]

MAX_SCRIPT = 1024 * 1024  # bytes of a named script that count; a bigger one counts by size
MAX_TREE = 100_000  # entries of a pinned folder listed; past it the count stands for the rest
_PLACEHOLDERS = ("CLAUDE_PLUGIN_ROOT", "PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "PLUGIN_DATA")
CHANGED = "changed since the folder was trusted"
_SERVED = (f"{SERVED} ", f"{SERVER} ")  # held by the load itself (`satchel.mcp._approved`)


@model
class Executables:
    """What approval pins and holds back: the `hooks` and MCP `servers` one load found,
    the `plugins` they came from (by name: a plugin's scope and root), the `skills`
    and `agents` whose frontmatter may declare hooks of their own, the `layout` they
    were read for, and whether that load read Claude Code's ``settings.json`` hooks
    (`settings_read`)."""

    layout: Layout
    hooks: HookSet
    servers: McpServerSet
    plugins: Mapping[str, Plugin]
    settings_read: bool = False
    skills: Mapping[str, Skill] = field(default_factory=dict)
    agents: Mapping[str, AgentType] = field(default_factory=dict)


@model
class HeldBack:
    """The hooks and servers after `hold_back`, a ``trust.changed`` diagnostic for each
    item held back, and the keys of every item held back (`changed`, `Trust.held`: a
    project plugin's language servers, monitors and bin/ stay declared, and
    `Trust.runs` keeps them from running); `skills` names the project's served skills
    held back (``mcp.skills.changed``, `satchel.mcp._approved`)."""

    hooks: HookSet
    servers: McpServerSet
    diagnostics: tuple[Diagnostic, ...] = ()
    changed: frozenset[str] = frozenset()
    skills: frozenset[str] = frozenset()  # served skills whose set is not the pinned one


@model
class Declaring:
    """A skill or agent type whose frontmatter declares hooks: its `owner`
    (``skill:<name>``, ``agent:<name>``), the `specs` as declared (an agent's ``Stop``
    already its ``SubagentStop``), the `origin` they run with, whether they are the
    `project`'s (a project file, or a project plugin's), the folder pinned whole with
    them (a skill's directory; None for an agent type), and what was wrong with them."""

    owner: str
    specs: tuple[HookSpec, ...]
    origin: Origin
    project: bool
    folder: Path | None = None
    problems: tuple[Diagnostic, ...] = ()


@dataclass(slots=True)
class _Pinning:
    """One `digests` call: the items pinned and the folder listings already taken."""

    items: Executables
    listings: dict[Path, bytes] = field(default_factory=dict)

    def listing(self, top: Path) -> bytes:
        if top not in self.listings:
            self.listings[top] = _listing(top)
        return self.listings[top]


def digests(items: Executables, *, every_source: bool = True) -> dict[str, str]:
    """Key -> sha256 of every project-origin hook and MCP server of `items`; with
    `every_source`, Claude Code's project ``settings.json`` hooks too, even when the
    load did not read them (a later load may), and the project skills' `` !`cmd` ``
    lines (their bodies read now)."""
    pinning = _Pinning(items)
    found: dict[str, str] = {}
    for key, hook in _hooks(items, every_source):
        found[key] = _digest(_hook_text(hook), _hook_reach(items.layout, hook), pinning)
    for key, server in _servers(items):
        found[key] = _digest(_server_text(server), _server_reach(items, server), pinning)
    for key, plugin in _programs(items):
        found[key] = _digest(_programs_text(plugin), Reach((), (plugin.root,)), pinning)
    for item in declaring(items):
        if not item.project:
            continue
        hooks = compile_hooks(item.specs, item.origin, project=True, owner=item.owner)
        whole = () if item.folder is None else (item.folder,)
        for name, hook in hooks.named():
            reach = _hook_reach(items.layout, hook)
            reach = replace(reach, trees=(*reach.trees, *whole))
            found[f"hook {name}"] = _digest(_hook_text(hook), reach, pinning)
    if every_source:
        for skill in _project_skills(items):
            for number, command in enumerate(_commands(skill), 1):
                found[shell_key(skill.name, number)] = _line_digest(skill, command, pinning)
    found.update(served_pins(items.skills.values()))
    return found


def shell_key(skill: str, number: int) -> str:
    """How the `number`-th `` !`cmd` `` line of the skill `skill` is pinned."""
    return f"shell skill:{skill}#{number}"


def held_line(
    items: Executables, trust: Trust, skill: Skill, number: int, command: str
) -> str | None:
    """Why `command`, the `number`-th `` !`cmd` `` line of `skill`'s body, is held back
    by the pins `trust` carries (it is new or changed since ``satchel trust``), or None:
    it is not the project's, the folder carries no pins, or it is as pinned."""
    pins = trust.pins
    if pins is None or not _project_origin(items, skill.origin):
        return None
    key = shell_key(skill.name, number)
    if pins.approved.get(key) == _line_digest(skill, command, _Pinning(items)):
        return None
    what = "changed" if key in pins.approved else "is new"
    return f"{key} {what} since {pins.folder} was trusted"


def held_lines(items: Executables, trust: Trust) -> tuple[Diagnostic, ...]:
    """A ``trust.changed`` for each `` !`cmd` `` line of a project skill that `trust`'s
    pins hold back as the bodies are now (what ``satchel doctor`` lists)."""
    pins = trust.pins
    if pins is None:
        return ()
    keys = held_shell(items, trust)
    return tuple(_changed(key, key in pins.approved, pins.folder) for key in keys)


def held_shell(items: Executables, trust: Trust) -> tuple[str, ...]:
    """The keys (``shell skill:<name>#<n>``) of the `` !`cmd` `` lines of project skills
    that `trust`'s pins hold back as the bodies are now (reads them)."""
    pins = trust.pins
    if pins is None or not trust.run_project:
        return ()
    found: list[str] = []
    pinning = _Pinning(items)
    for skill in _project_skills(items):
        for number, command in enumerate(_commands(skill), 1):
            key = shell_key(skill.name, number)
            if pins.approved.get(key) != _line_digest(skill, command, pinning):
                found.append(key)
    return tuple(found)


def _project_skills(items: Executables) -> Iterator[Skill]:
    return (s for s in items.skills.values() if _project_origin(items, s.origin))


def _commands(skill: Skill) -> tuple[str, ...]:
    """The `` !`cmd` `` lines of `skill`'s body, in order (none when it cannot be read)."""
    try:
        body = skill.body()
    except SkillBodyError:
        return ()
    return tuple(c.command for c in find_commands(body))


def _line_digest(skill: Skill, command: str, pinning: _Pinning) -> str:
    lay = pinning.items.layout
    directory = skill.directory or lay.cwd
    variables = {"HOME": str(lay.home), **command_variables(directory, lay.project)}
    inside = [lay.project, *([skill.directory] if skill.directory is not None else [])]
    found = shell_reach(command, cwd=lay.cwd, variables=variables, inside=inside)
    whole = (*inside[1:], *([lay.project] if found.undetermined is not None else []))
    reach = replace(found, trees=(*found.trees, *whole))
    return _digest({"shell": command}, reach, pinning)


def declaring(items: Executables) -> Iterator[Declaring]:
    """Every skill (in `items.skills`' order) and agent type whose frontmatter declares
    hooks (or tried to: a bad ``hooks`` field's problems)."""
    for skill in items.skills.values():
        found = declared_by_skill(items, skill)
        if found is not None:
            yield found
    for agent in items.agents.values():
        found = declared_by_agent(items, agent)
        if found is not None:
            yield found


def declared_by_skill(items: Executables, skill: Skill) -> Declaring | None:
    """The hooks `skill`'s frontmatter declares (None: it has no ``hooks`` field)."""
    if "hooks" not in skill.extras:
        return None
    specs, problems, origin = skill_hooks(skill)
    project = _project_origin(items, skill.origin)
    owner = skill_owner(skill.name)
    return Declaring(owner, specs, origin, project, skill.directory, problems)


def declared_by_agent(items: Executables, agent: AgentType) -> Declaring | None:
    """The hooks `agent`'s frontmatter declares, as they fire inside it (None: none)."""
    if not agent.hooks:
        return None
    origin = Origin(agent.origin.scope, agent.origin.family, path=agent.path)
    project = _project_origin(items, agent.origin)
    return Declaring(agent_owner(agent.name), subagent_hooks(agent.hooks), origin, project)


def scoped_hooks(item: Declaring, trust: Trust, *, executable: bool = True) -> HookSet:
    """`item`'s hooks as the runner will see them: compiled, a project's held back
    when the project is not trusted (`hook.untrusted`) or when they are new or changed
    since it was (`Trust.held`)."""
    found = compile_hooks(
        item.specs,
        item.origin,
        project=item.project,
        trust=trust,
        executable=executable,
        owner=item.owner,
    )
    found = replace(found, diagnostics=(*item.problems, *found.diagnostics))
    return held_hooks(found, trust) if item.project else found


def held_hooks(hooks: HookSet, trust: Trust) -> HookSet:
    """`hooks` with each one `trust` holds back (its key in `Trust.held`) skipped."""
    if not trust.held:
        return hooks
    marked = tuple(
        replace(h, status="skipped", why=CHANGED) if h.loaded and trust.holds(f"hook {n}") else h
        for n, h in hooks.named()
    )
    return replace(hooks, hooks=marked)


def hold_back(items: Executables, pins: Pins) -> HeldBack:
    """`items`' hooks and servers with every project item that is new or changed since
    the folder was pinned held back, each with a ``trust.changed`` diagnostic, and the
    project's served skills whose set of (URI, digest) is not the pinned one."""
    current = digests(items, every_source=False)
    approved = pins.approved
    changed = {k for k, v in current.items() if approved.get(k) != v and not k.startswith(_SERVED)}
    skills, notes = held_served(items.skills.values(), approved, pins.folder)
    if not changed:
        return HeldBack(items.hooks, items.servers, notes, skills=skills)
    found = tuple(_changed(key, key in approved, pins.folder) for key in sorted(changed))
    hooks = tuple(
        replace(h, status="skipped", why=CHANGED) if h.loaded and key in changed else h
        for key, h in _keyed_hooks(items)
    )
    servers = tuple(
        replace(s, enabled=False) if _server_key(items, s) in changed else s
        for s in items.servers.servers
    )
    return HeldBack(
        replace(items.hooks, hooks=hooks),
        replace(items.servers, servers=servers),
        (*found, *notes),
        frozenset(changed),
        skills,
    )


def _changed(key: str, known: bool, folder: Path) -> Diagnostic:
    kind, _, name = key.partition(" ")
    trust = f"`satchel trust {folder}`"
    if kind == PROGRAMS:
        what = "changed" if known else "are new"
        message = (
            f"the language servers, monitors and bin/ of plugin {name} {what} since "
            f"{folder} was trusted; they do not run until {trust} approves them again"
        )
        return diagnostic("trust.changed", message)
    what = "changed" if known else "is new"
    message = (
        f"{kind} {name} {what} since {folder} was trusted; it does not run until "
        f"{trust} approves it again"
    )
    return diagnostic("trust.changed", message)


# -- what is pinned ---------------------------------------------------------------------


def _keyed_hooks(items: Executables) -> Iterable[tuple[str | None, Hook]]:
    """Every hook with its key (None for one that is not the project's)."""
    for name, hook in items.hooks.named():
        yield (f"hook {name}" if _project_hook(items, hook) else None), hook


def _hooks(items: Executables, every_source: bool) -> Iterator[tuple[str, Hook]]:
    yield from ((k, h) for k, h in _keyed_hooks(items) if k is not None)
    if not every_source or items.settings_read:
        return
    settings = load_hooks(items.layout, own_files=False, claude_settings=True)
    for name, hook in settings.named():
        if hook.origin.scope == PROJECT:
            yield f"hook {name}", hook


def _servers(items: Executables) -> Iterable[tuple[str, McpServer]]:
    for server in items.servers.servers:
        key = _server_key(items, server)
        if key is not None:
            yield key, server


def _server_key(items: Executables, server: McpServer) -> str | None:
    return server_key(server, items.plugins)


def server_key(server: McpServer, plugins: Mapping[str, Plugin]) -> str | None:
    """How `server` is pinned (None: it is not the project's); `plugins` by name, the
    one it may come from among them."""
    if server.scope == PROJECT:
        return f"mcp-server {server.name} (project config)"
    plugin = plugins.get(server.plugin or "")
    if server.scope == "plugin" and plugin is not None and plugin.scope == PROJECT:
        return f"mcp-server {server.name} (plugin {plugin.name})"
    return None


PROGRAMS = "plugin-programs"


def _programs_key(plugin: Plugin) -> str | None:
    """The key of a project plugin's language servers, monitors and bin/ (None for a
    plugin that is not the project's, or has none of them)."""
    if plugin.scope != PROJECT or not (plugin.lsp_servers or plugin.monitors or plugin.bin):
        return None
    return programs_key(plugin.name)


def programs_key(plugin: str) -> str:
    """How the language servers, monitors and bin/ of the project plugin named `plugin`
    are pinned together: ``plugin-programs <plugin>``."""
    return f"{PROGRAMS} {plugin}"


def _programs(items: Executables) -> Iterator[tuple[str, Plugin]]:
    for plugin in items.plugins.values():
        key = _programs_key(plugin)
        if key is not None:
            yield key, plugin


def _programs_text(plugin: Plugin) -> dict[str, Any]:
    return {
        "lsp": [s.to_json() for s in plugin.lsp_servers],
        "monitors": [m.to_json() for m in plugin.monitors],
        "bin": list(plugin.bin),
    }


def _project_hook(items: Executables, hook: Hook) -> bool:
    """Whether `hook` is the project's: from a project file, or from a plugin the
    project holds."""
    return _project_origin(items, hook.origin)


def _project_origin(items: Executables, origin: Origin) -> bool:
    """Whether what came from `origin` is the project's: from a project file, or from
    a plugin the project holds."""
    if origin.plugin is None:
        return origin.scope == PROJECT
    plugin = items.plugins.get(origin.plugin)
    return plugin is not None and plugin.scope == PROJECT


# -- digests ------------------------------------------------------------------------------


def _hook_text(hook: Hook) -> dict[str, Any]:
    spec = hook.spec
    return {
        "event": spec.event,
        "matcher": spec.matcher,
        "command": spec.command,
        "args": spec.args,
        "if": spec.condition,
        "timeout": spec.timeout,
        "strict": spec.strict,
        "fail_mode": spec.fail_mode,
        # a handler that is no command (http, mcp_tool, prompt, agent): its own fields
        **(
            {}
            if spec.type == "command"
            else {"type": spec.type, "params": jsonable(dict(spec.params))}
        ),
    }


def _server_text(server: McpServer) -> dict[str, Any]:
    return {
        "transport": server.transport,
        "command": server.command,
        "args": server.args,
        "env": dict(server.env),
        "cwd": server.cwd,
        "url": server.url,
        "headers": dict(server.headers),
    }


def _hook_reach(lay: Layout, hook: Hook) -> Reach:
    """What `hook` can run: its words read as the runner will run them (in the plugin
    root or the working directory, with the variables the runner sets); a plugin
    hook's whole root; and, when that cannot be determined, the directory it runs in."""
    variables = {"HOME": str(lay.home), **host_variables(hook, lay)}
    inside = [lay.project, *([hook.root] if hook.root is not None else [])]
    cwd = hook.root or lay.cwd
    if hook.spec.type != "command":
        found = Reach()  # nothing on disk runs: a URL, a server's tool, a prompt
    elif hook.spec.args is None:
        found = shell_reach(hook.spec.command, cwd=cwd, variables=variables, inside=inside)
        if hook.root is not None:  # it may run in the project instead (plugin_cwd)
            also = shell_reach(hook.spec.command, cwd=lay.cwd, variables=variables, inside=inside)
            found = _union(found, also)
    else:
        words = [_placeholders(w, variables) for w in (hook.spec.command, *hook.spec.args)]
        found = argv_reach(words, cwd=cwd, inside=inside)
    whole = hook.root if hook.root is not None else lay.project
    if hook.root is not None or found.undetermined is not None:
        found = replace(found, trees=(*found.trees, whole))
    return found


def _server_reach(items: Executables, server: McpServer) -> Reach:
    """What `server` can run: the files its argv names, and a plugin server's whole
    root. (A server started by name, ``npx pkg``, runs nothing of the project.)"""
    plugin = items.plugins.get(server.plugin or "")
    root = plugin.root if plugin is not None else None
    variables = {} if root is None else {"PLUGIN_ROOT": str(root), "CLAUDE_PLUGIN_ROOT": str(root)}
    words = [_placeholders(w, variables) for w in (server.command or "", *server.args) if w]
    project = items.layout.project
    inside = [project, *([root] if root is not None else [])]
    found = argv_reach(words, cwd=root or project, inside=inside) if words else Reach()
    trees = tuple(t for t in found.trees if root is not None and t.is_relative_to(root))
    return Reach(found.files, (*trees, *([root] if root is not None else [])))


def _placeholders(text: str, variables: Mapping[str, str]) -> str:
    for name in _PLACEHOLDERS:
        if name in variables:
            text = text.replace("${" + name + "}", variables[name])
    return text


def _union(a: Reach, b: Reach) -> Reach:
    files = tuple(dict.fromkeys((*a.files, *b.files)))
    trees = tuple(dict.fromkeys((*a.trees, *b.trees)))
    return Reach(files, trees, a.undetermined or b.undetermined)


def _digest(declared: Mapping[str, Any], reach: Reach, pinning: _Pinning) -> str:
    import hashlib  # only when a project's executables are pinned

    h = hashlib.sha256(json.dumps(declared, sort_keys=True, default=list).encode("utf-8"))
    for path in reach.files:
        h.update(b"\0file\0" + str(path).encode("utf-8") + b"\0")
        try:
            h.update(read_bounded(path, MAX_SCRIPT))
        except FileProblem as e:
            h.update(f"unreadable:{e.kind}:{e.size}:{_stamp(path)}".encode())
    for top in _outermost(reach.trees):
        h.update(b"\0tree\0" + str(top).encode("utf-8") + b"\0" + pinning.listing(top))
    return h.hexdigest()


def _outermost(trees: Iterable[Path]) -> list[Path]:
    """Each folder once, leaving out those inside another (the outer one lists them)."""
    unique = sorted(set(trees), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for tree in unique:
        if not any(tree.is_relative_to(k) for k in kept):
            kept.append(tree)
    return sorted(kept)


def _listing(top: Path) -> bytes:
    """Every entry under `top` (not following links, without `ENVIRONMENT_DIRS`) with
    its mode, and a file's size and modification time, in a stable order; at most
    `MAX_TREE`."""
    lines: list[str] = []
    for count, (relative, st) in enumerate(_walk(top)):
        if count >= MAX_TREE:
            lines.append(f"... and more past {MAX_TREE}")
            break
        if stat.S_ISDIR(st.st_mode):  # its own times move when a cache appears inside
            lines.append(f"{relative}\0{st.st_mode:o}")
        else:
            lines.append(f"{relative}\0{st.st_mode:o}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def _walk(top: Path) -> Iterator[tuple[str, os.stat_result]]:
    pending = [top]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listed:
                entries = sorted(listed, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name in ENVIRONMENT_DIRS:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            yield os.path.relpath(entry.path, top), st
            if stat.S_ISDIR(st.st_mode):
                pending.append(Path(entry.path))


def _stamp(path: Path) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return f"{st.st_size}:{st.st_mtime_ns}"

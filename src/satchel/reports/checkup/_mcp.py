"""MCP servers across hosts: a server of one name configured differently in two
hosts' files (``hosts.mcp.differs``: what differs, and where), and the servers a host
will not start: held back by its trust rules (``hosts.mcp.untrusted``), blocked by
name in its settings (``hosts.mcp.policy``: Gemini CLI's ``mcp.excluded`` and
``mcp.allowed``), turned off in its config (``hosts.mcp.off``) or whose command is
not there (``hosts.mcp.missing-command``: a bare name on no folder of the machine's
``PATH``, a relative one not in the folder the host starts it in: its ``cwd``, else
the working folder).

What each host starts is its view's `env.mcp_servers` (each host's files as its
profile names them). In a folder a host does not trust at all (Gemini CLI, by its own
list of trusted folders, which the report's trusting read does not ask), the host
starts none: the load says ``mcp.server.untrusted`` once for all of them when it
knows; this check says it of each server, and the base check leaves the load's word
out. A server satchel's own policy refuses is the load's ``policy.denied``, left as it
is. Read-only: a command is looked
up with `os.access` on each folder of ``PATH``; settings files through the bounded
state reader.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from satchel.core._model import model
from satchel.foundations._host_files import dig, expand, read_state
from satchel.hosts._mcp import McpApproval, McpPolicy
from satchel.hosts._rules import TRUST_LISTS
from satchel.hosts._trust import folder_verdicts
from satchel.mcp._hosts import turned_off
from satchel.mcp._spec import McpServer
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._machine import HostView, Machine

__all__ = ["UNTRUSTED", "mcp_findings"]

UNTRUSTED = "mcp.server.untrusted"  # the load's word for a host that starts none here


def mcp_findings(machine: Machine) -> Iterator[HostFinding]:
    """Servers that differ between hosts, then each host's servers it will not start."""
    yield from _differs(machine)
    for view in machine.views:
        yield from _not_started(machine, view)


# --- the same name, configured differently ------------------------------------------------


def _own(view: HostView) -> dict[str, McpServer]:
    """The host's own servers (not its plugins'), the one that counts of each name."""
    found: dict[str, McpServer] = {}
    for server in view.env.mcp_servers.servers:
        if server.scope != "plugin":
            found.setdefault(server.name, server)
    return found


def _facts(server: McpServer) -> dict[str, str]:
    """What a host starts for `server`, in words, by what it is."""
    return {
        "transport": server.transport,
        "command": server.command or "-",
        "args": " ".join(server.args) or "-",
        "env keys": ", ".join(sorted(server.env)) or "-",
        "url": server.url or "-",
    }


def _differs(machine: Machine) -> Iterator[HostFinding]:
    owns = [(view, _own(view)) for view in machine.views]
    for view, mine in owns:
        for name, server in mine.items():
            here = _facts(server)
            others = [
                _difference(machine, other.host.title, theirs[name], here)
                for other, theirs in owns
                if other is not view and name in theirs and _facts(theirs[name]) != here
            ]
            if others:
                yield _differs_finding(machine, view, server, others)


def _difference(machine: Machine, title: str, other: McpServer, here: Mapping[str, str]) -> str:
    there = _facts(other)
    what = "; ".join(f"{k} {there[k]} not {here[k]}" for k in here if here[k] != there[k])
    return f"{title}'s ({_where(machine, other)}: {what})"


def _differs_finding(
    machine: Machine, view: HostView, server: McpServer, others: Sequence[str]
) -> HostFinding:
    listed = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
    message = f"MCP server {server.name!r} of {_where(machine, server)} differs from {listed}"
    fix = "give the server one definition in every host's config, or different names"
    return HostFinding.new(view.name, "hosts.mcp.differs", message, fix, server.path)


def _where(machine: Machine, server: McpServer) -> str:
    if server.scope == "plugin":
        return f"plugin {server.plugin}"
    return "the host's settings" if server.path is None else machine.shown(server.path)


# --- what a host will not start -----------------------------------------------------------


def _not_started(machine: Machine, view: HostView) -> Iterator[HostFinding]:
    """Each server `view`'s host will not start, for the first reason that holds: its
    folder not trusted, blocked by name, not approved (or refused), turned off, its
    command not there."""
    env, title = view.env, view.host.title
    untrusted = any(d.code == UNTRUSTED for d in env.diagnostics) or not _starts_here(view)
    off = turned_off(env.layout, view.host.mcp_off or (), [])
    approval = _approval(view)
    blocks = _blocks(view, machine)
    for server in env.mcp_servers.servers:
        said = f"MCP server {server.name!r} of {_where(machine, server)}"
        asked = _project_own(view, server)
        if untrusted:
            why = f"{title} starts no MCP server in a folder it does not trust"
            yield _untrusted(view, server, f"{said} is not started: {why}")
        elif (blocked := blocks.why(server.name)) is not None:
            fix = "change the host's mcp lists, if you mean it to run"
            message = f"{said} is blocked: {blocked}"
            yield HostFinding.new(view.name, "hosts.mcp.policy", message, fix, server.path)
        elif asked and server.name in approval.refused:
            yield _off(view, server, f"{said} is refused in {title}'s settings")
        elif asked and not approval.approves(server.name):
            why = f"{title} has not approved it for this project"
            yield _untrusted(view, server, f"{said} is not started: {why}")
        elif not server.enabled:
            where = "for this project" if server.name in off else "in its config"
            yield _off(view, server, f"{said} is turned off {where}: {title} does not start it")
        else:
            yield from _command(machine, view, server, said)


def _starts_here(view: HostView) -> bool:
    """Whether a host that starts no server in a folder it does not trust (Gemini CLI)
    trusts this one, by its own list (the report reads every host as trusted)."""
    verdicts = TRUST_LISTS[view.host.trust_list]
    if view.host.untrusted_servers or verdicts is None:
        return True
    return folder_verdicts(view.env.layout, verdicts)[0]


@model
class Blocks:
    """The names a host's settings block (`excluded`: name -> which list names it)
    and the allowed lists that count, each as its words (``mcp.allowed of ~/...``) and
    the names it allows (`allowed`; a name must be in each)."""

    excluded: Mapping[str, str]
    allowed: tuple[tuple[str, frozenset[str]], ...] = ()

    def why(self, name: str) -> str | None:
        """Why a server of `name` is blocked (None: it is not)."""
        if name in self.excluded:
            return f"{self.excluded[name]} names it"
        missing = next((where for where, names in self.allowed if name not in names), None)
        return None if missing is None else f"{missing} does not name it"


def _blocks(view: HostView, machine: Machine) -> Blocks:
    """What the host's settings block by name (`Host.mcp_policy`)."""
    rule: McpPolicy | None = view.host.mcp_policy
    if rule is None:
        return Blocks({})
    layout = view.env.layout
    values = layout.values()
    paths = dict.fromkeys(Path(expand(t, values)) for t in rule.files)  # the home's once
    documents = [(path, read_state(path)[0]) for path in paths]
    excluded: dict[str, str] = {}
    for path, names in _lists(documents, rule.excluded):
        for name in names:
            excluded.setdefault(name, f"{'.'.join(rule.excluded)} of {machine.shown(path)}")
    allowed = [
        (f"{'.'.join(rule.allowed)} of {machine.shown(path)}", frozenset(names))
        for path, names in _lists(documents, rule.allowed)
    ]
    if rule.allowed_lists == "union" and allowed:
        allowed = [(allowed[0][0], frozenset().union(*(names for _, names in allowed)))]
    return Blocks(excluded, tuple(allowed))


def _lists(
    documents: Sequence[tuple[Path, Mapping[str, object]]], keys: tuple[str, ...]
) -> list[tuple[Path, list[str]]]:
    """Each file that sets the list at `keys`, with its names."""
    found = ((path, dig(document, keys)) for path, document in documents)
    return [(path, _names(value)) for path, value in found if isinstance(value, list)]


def _untrusted(view: HostView, server: McpServer, message: str) -> HostFinding:
    fix = "trust the project in the host (or approve the server), if you mean it to run"
    return HostFinding.new(view.name, "hosts.mcp.untrusted", message, fix, server.path)


def _off(view: HostView, server: McpServer, message: str) -> HostFinding:
    fix = "turn it on in the host, or remove it from the config"
    return HostFinding.new(view.name, "hosts.mcp.off", message, fix, server.path)


def _project_own(view: HostView, server: McpServer) -> bool:
    """Whether `server` comes from one of the project's own files of the host's table
    (those its approval is asked for)."""
    labels = {row.label for row in view.host.mcp_files or () if row.owner == "project"}
    return server.scope == "project" and server.family in labels


@model
class Approval:
    """What a host's settings say of the project's own servers: the names `refused`,
    and those it approves (`every` one, or the `named` ones)."""

    refused: frozenset[str]
    every: bool
    named: frozenset[str]

    def approves(self, name: str) -> bool:
        return self.every or name in self.named


def _approval(view: HostView) -> Approval:
    """The host's approval of its project servers, as its settings say (every one, for
    a host that asks for none). Nothing is approved in a project whose trust flag is
    not set."""
    rule: McpApproval | None = view.host.mcp_approval
    if rule is None:
        return Approval(frozenset(), every=True, named=frozenset())
    layout = view.env.layout
    values = layout.values()
    flag_file, keys = rule.trust
    flag, _ = read_state(Path(expand(flag_file, values)))
    trusted = dig(flag, tuple(expand(k, values) for k in keys)) is True
    every, named, refused = False, set[str](), set[str]()
    for template in rule.settings:
        settings, _ = read_state(Path(expand(template, values)))
        every = every or settings.get(rule.every) is True
        named.update(_names(settings.get(rule.named)))
        refused.update(_names(settings.get(rule.refused)))
    if not trusted:
        every, named = False, set()
    return Approval(frozenset(refused), every, frozenset(named))


def _names(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _command(
    machine: Machine, view: HostView, server: McpServer, said: str
) -> Iterator[HostFinding]:
    """``hosts.mcp.missing-command`` when the server's command is not there."""
    command = server.command
    if server.transport != "stdio" or not command or "$" in command:
        return
    if "/" in command:
        if server.scope == "plugin":
            return  # relative to its plugin's root: the plugin checks say it
        base = _started_in(view, server)
        if base is None or _runnable(base / command):  # an absolute command stays itself
            return
        where = f"{command} is not a program in {machine.shown(base)}"
    else:
        folders = machine.env.get("PATH")
        if folders is None or any(
            _runnable(Path(d, command)) for d in folders.split(os.pathsep) if d
        ):
            return
        where = f"{command} is on no folder of PATH"
    message = f"{said} will fail to start: {where}"
    fix = f"install {command}, or give the server the full path of its program"
    yield HostFinding.new(view.name, "hosts.mcp.missing-command", message, fix, server.path)


def _started_in(view: HostView, server: McpServer) -> Path | None:
    """The folder a host starts `server` in, where a relative command is found: its
    own ``cwd`` (relative: to the working folder), else the host's working folder
    (None: a ``cwd`` with ``~`` or a variable, which this check does not guess)."""
    cwd, own = view.env.layout.cwd, server.cwd
    if own and (own.startswith("~") or "$" in own):
        return None
    return cwd / own if own else cwd


def _runnable(path: Path) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)

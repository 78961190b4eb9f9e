"""The rules by which a host drops, cuts or ignores what a project holds, each a
``compat.*`` diagnostic (docs/compat.md lists them with their sources).

Where the loader already says it (a manifest the host does not read, a plugin skill
its rule refuses, what a declarative-only host leaves alone, a file it refuses), the
loader's own diagnostic is said again under a ``compat.*`` code, so `satchel compat`
never disagrees with `load(host=...)`. The profile facts the loader does not apply
(`Host.skill_fields`, `Host.limits`, `Host.events`) are checked here on what loaded.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.compat._events import fired_as
from satchel.compat._model import Component, Drop
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.hooks._model import Hook
from satchel.hosts import Host
from satchel.runtime.hooks._answers import REFUSALS_STAND, STRICTER_EVENTS
from satchel.runtime.hooks._runner import MAX_TIMEOUT
from satchel.skills._fields import MOVED_TO_METADATA
from satchel.skills._model import Skill

__all__ = ["REFUSALS", "Item", "Subject", "drops", "hook_id", "skill_fields"]

_EXECUTABLE: Mapping[str, Component] = {
    "plugin.hooks.unsupported": "hook",
    "plugin.mcp.unsupported": "mcp_server",
    "plugin.agents.unsupported": "agent",
}
_VIBE_RULE = "must be given and equal its directory name"
# Loader codes that leave an item out whatever their severity: a warning of one of these
# is a refusal as much as an error is (an agent file over the size limit, an MCP server
# whose url is refused, a hook file that does not parse, ...)
REFUSALS = frozenset(
    ("agent.builtin.protected", "agent.invalid", "agent.limit", "command.builtin",
     "command.toml.invalid", "config.mcp.invalid", "hook.file.invalid",
     "hook.matcher.invalid", "output_style.invalid", "plugin.agent.invalid",
     "plugin.apps.invalid", "plugin.channel.invalid", "plugin.config.invalid",
     "plugin.connectors.invalid", "plugin.hooks.invalid", "plugin.knowledge.invalid",
     "plugin.libraries.invalid", "plugin.library.alias_collision", "plugin.library.invalid",
     "plugin.lsp.invalid", "plugin.mcp.invalid", "plugin.mcp.transport_unsupported",
     "plugin.module.invalid", "plugin.settings.invalid", "plugin.skill.invalid",
     "plugin.theme.invalid", "plugin.workflow.invalid", "skill.file.misnamed")
)  # fmt: skip
# the first words of a loader code -> the component it is about (longest first)
_COMPONENTS: tuple[tuple[tuple[str, ...], Component], ...] = (
    (("plugin", "skill"), "skill"),
    (("plugin", "command"), "command"),
    (("plugin", "agents"), "agent"),
    (("plugin", "agent"), "agent"),
    (("plugin", "hooks"), "hook"),
    (("plugin", "mcp"), "mcp_server"),
    (("plugin", "theme"), "theme"),
    (("plugin", "channel"), "channel"),
    (("plugin", "workflow"), "workflow"),
    (("plugin", "module"), "hooks_module"),
    (("plugin", "lsp"), "lsp_server"),
    (("plugin", "monitor"), "monitor"),
    (("plugin", "bin"), "bin"),
    (("plugin", "config"), "user_option"),
    (("plugin", "apps"), "app"),
    (("output_style",), "output_style"),
    (("config", "mcp"), "mcp_server"),
    (("plugin",), "plugin"),
    (("skill",), "skill"),
    (("frontmatter",), "skill"),
    (("command",), "command"),
    (("agent",), "agent"),
    (("hook",), "hook"),
    (("mcp",), "mcp_server"),
    (("instructions",), "instruction"),
)
_OVERFLOW = {
    "shorten": "it shortens every description evenly to fit",
    "least-used": "it drops the descriptions of the least-used skills first",
    "last": "the entries past it are left out",
    "none": "it has no budget",
}


@model
class Subject:
    """What is being checked: its real path, which drops are reported relative to and
    limited to (a project's user home is not the subject)."""

    root: Path

    def inside(self, path: Path | None) -> bool:
        return path is not None and Path(os.path.realpath(path)).is_relative_to(self.root)

    def rel(self, path: Path | None) -> str | None:
        if not self.inside(path):
            return None
        assert path is not None
        rel = Path(os.path.realpath(path)).relative_to(self.root).as_posix()
        return rel if rel != "." else ""


@model
class Item:
    """A project item some host reads: its component kind, id, file and the root folder
    it was found in (for `compat.root.unread`)."""

    component: Component
    id: str
    path: Path
    root: Path


def drops(
    host: Host,
    env: Environment,
    subject: Subject,
    items: Iterable[Item] = (),
    index: tuple[int, int, int | None, int | None] | None = None,
) -> tuple[Drop, ...]:
    """Every drop of `host` over its load `env`: the loader's refusals, the profile's
    field, name, description and event rules, the `items` in folders it does not read,
    and `index` (characters, entries, budget characters, budget entries) over budget."""
    found = [
        *_from_loader(host, env, subject),
        *_unread(host, env, subject, items),
        *_skill_rules(host, env, subject),
        *_hook_rules(host, env, subject),
    ]
    if index is not None:
        found.extend(_index_over(host, *index))
    return tuple(found)


def _drop(
    code: str, message: str, component: Component, ident: str, path: Path | None, subject: Subject
) -> Drop:
    return Drop(diagnostic(code, message, path), component, ident, subject.rel(path))


def _from_loader(host: Host, env: Environment, subject: Subject) -> Iterator[Drop]:
    """The loader's own refusals of the subject's files, said again as ``compat.*``."""
    plugins = [Path(os.path.realpath(p.root)) for p in env.plugins.plugins.values()]
    for found in env.diagnostics:
        if not subject.inside(found.path):
            continue
        drop = _recast(host, found, subject, _plugin_of(found.path, plugins))
        if drop is not None:
            yield drop


def _recast(host: Host, found: Diagnostic, subject: Subject, plugin: str | None) -> Drop | None:
    path = found.path
    ident = _name_of(path)
    if found.code == "plugin.compatibility.host_unread":
        return _drop("compat.format.unread", found.message, "plugin", ident, path, subject)
    if found.code in _EXECUTABLE:  # declarative-only, or a format that does not carry it
        code, message = "compat.executable.off", found.message
        if host.executable:
            code, message = "compat.load.refused", f"{found.code}: {found.message}"
        return _drop(code, message, _EXECUTABLE[found.code], plugin or ident, path, subject)
    if found.code == "skill.name.refused":  # the profile's name limit (Codex)
        return _drop("compat.name.refused", found.message, "skill", ident, path, subject)
    if found.code == "plugin.skill.invalid" and _VIBE_RULE in found.message:
        message = f"{host.title} names a plugin skill by its directory only: {found.message}"
        return _drop("compat.name.refused", message, "skill", ident, path, subject)
    if found.severity == "error" or found.code in REFUSALS:
        message = f"{found.code}: {found.message}"
        return _drop("compat.load.refused", message, _component(found.code), ident, path, subject)
    return None


def _plugin_of(path: Path | None, roots: Iterable[Path]) -> str | None:
    """The directory name of the plugin whose root holds `path`, if any."""
    if path is None:
        return None
    real = Path(os.path.realpath(path))
    return next((root.name for root in roots if real.is_relative_to(root)), None)


def _name_of(path: Path | None) -> str:
    """A file's id when the host never named it: a SKILL.md's directory, else the name."""
    if path is None:
        return ""
    return path.parent.name if path.name == "SKILL.md" else path.name


def _component(code: str) -> Component:
    words = tuple(code.split("."))
    return next((c for first, c in _COMPONENTS if words[: len(first)] == first), "plugin")


def _unread(
    host: Host, env: Environment, subject: Subject, items: Iterable[Item]
) -> Iterator[Drop]:
    """`compat.root.unread`: each project item in a folder this host does not read."""
    lay = env.layout
    roots: dict[Component, tuple[Path, ...]] = {
        "skill": tuple(r.path for r in lay.skill_roots()),
        "command": tuple(r.path for r in lay.command_dirs()),
        "agent": tuple(r.path for r in lay.agent_dirs()),
        "plugin": tuple(r.path for r in lay.plugin_dirs()),
    }
    real = {kind: {os.path.realpath(p) for p in paths} for kind, paths in roots.items()}
    for item in items:
        if os.path.realpath(item.root) in real.get(item.component, set()):
            continue
        where = subject.rel(item.root) or str(item.root)
        reads = [subject.rel(p) for p in roots.get(item.component, ()) if subject.inside(p)]
        told = ", ".join(r for r in reads if r) or "none of the project's folders"
        noun = item.component.replace("_", " ")
        message = f"{noun} {item.id!r} is in {where}, which {host.title} does not read " \
            f"(it reads {told})"  # fmt: skip
        yield _drop("compat.root.unread", message, item.component, item.id, item.path, subject)


def skill_fields(skill: Skill) -> tuple[str, ...]:
    """The frontmatter fields `skill` sets, as written (``allowed-tools``), in the
    spec's order, then its other fields; metadata only when it holds more than the
    fields satchel moved into it."""
    found = ["name", "description"]
    if skill.license is not None:
        found.append("license")
    if skill.compatibility is not None:
        found.append("compatibility")
    moved = tuple(f".{key}" for key in MOVED_TO_METADATA)
    if any(not key.endswith(moved) for key in skill.metadata):
        found.append("metadata")
    if skill.allowed_tools:
        found.append("allowed-tools")
    found.extend(skill.extras)
    return tuple(found)


def _skill_rules(host: Host, env: Environment, subject: Subject) -> Iterator[Drop]:
    """Fields the host does not read, names over its limit, descriptions it cuts."""
    for ident, skill in env.skills.items():
        if not subject.inside(skill.path):
            continue
        yield from _fields(host, ident, skill, subject)
        yield from _limits(host, ident, skill, subject)


def _fields(host: Host, ident: str, skill: Skill, subject: Subject) -> Iterator[Drop]:
    if host.skill_fields is None:
        return
    reads = ", ".join(host.skill_fields)
    for name in skill_fields(skill):
        if name not in host.skill_fields:
            message = f"`{name}` is not a field {host.title} reads (it reads {reads})"
            yield _drop("compat.field.ignored", message, "skill", ident, skill.path, subject)


def _own_name(skill: Skill) -> str:
    """The skill's name without its plugin's namespace."""
    namespace = skill.origin.namespace
    if namespace and skill.name.startswith(f"{namespace}:"):
        return skill.name[len(namespace) + 1 :]
    return skill.name


def _limits(host: Host, ident: str, skill: Skill, subject: Subject) -> Iterator[Drop]:
    limits, name = host.limits, _own_name(skill)
    if limits.name is not None and len(name) > limits.name:
        message = (
            f"the name is {len(name):,} characters; {host.title} refuses names over {limits.name:,}"
        )
        yield _drop("compat.name.refused", message, "skill", ident, skill.path, subject)
    size = len(skill.description)
    if limits.description is not None and size > limits.description:
        message = (
            f"the description is {size:,} characters; {host.title} cuts it to "
            f"{limits.description:,}"
        )
        yield _drop("compat.description.cut", message, "skill", ident, skill.path, subject)


def hook_id(hook: Hook, fired: str | None) -> str:
    """A hook as the host would list it: ``<source>/<event>/<matcher>``, the event in
    the host's spelling (as declared when the host never fires it)."""
    return f"{hook.source}/{fired or hook.spec.event}/{hook.spec.matcher or '*'}"


def _hook_rules(host: Host, env: Environment, subject: Subject) -> Iterator[Drop]:
    """`compat.event.missing`: each loaded hook whose event the host never fires;
    `compat.hook.timeout.capped`: each whose declared timeout satchel cuts where the
    host waits it out; `compat.hook.stricter`: each whose refusals satchel's runner
    keeps where the host lets the call run (its definition's `HookDialect.stricter`)."""
    waits = host.hooks.waits_declared_timeout
    for hook in env.hooks.loaded():
        if not subject.inside(hook.spec.path or hook.origin.path):
            continue
        fired = fired_as(hook.spec.event, hook.event, host.events)
        if waits and (hook.spec.timeout or 0) > MAX_TIMEOUT:
            yield _capped(host, hook, fired, subject)
        if fired is not None:
            yield from _stricter(host, hook, fired, subject)
            continue
        if host.events:
            message = f"{host.title} never fires {hook.spec.event}"
            if hook.event != hook.spec.event:
                message += f" (satchel's {hook.event})"
        else:
            message = f"{host.title} fires no hook events (its profile lists none)"
        path = hook.spec.path or hook.origin.path
        yield _drop("compat.event.missing", message, "hook", hook_id(hook, None), path, subject)


def _stricter(host: Host, hook: Hook, fired: str, subject: Subject) -> Iterator[Drop]:
    """`compat.hook.stricter`: a hook on a gate of a host whose refusals satchel keeps."""
    rule = host.hooks.stricter
    if not rule or hook.event not in STRICTER_EVENTS:
        return
    message = f"satchel's runner is stricter than {host.title} ({REFUSALS_STAND}): {rule}"
    path = hook.spec.path or hook.origin.path
    yield _drop("compat.hook.stricter", message, "hook", hook_id(hook, fired), path, subject)


def _capped(host: Host, hook: Hook, fired: str | None, subject: Subject) -> Drop:
    """A declared timeout over satchel's ceiling: the host waits it, satchel does not."""
    declared = hook.spec.timeout or 0
    message = (
        f"the hook declares a timeout of {declared:,g} s: {host.title} waits that long, "
        f"satchel's runner stops it at {MAX_TIMEOUT:,g} s (its max_timeout: no file may "
        "hold a tool call for longer)"
    )
    path = hook.spec.path or hook.origin.path
    return _drop("compat.hook.timeout.capped", message, "hook", hook_id(hook, fired), path, subject)


def _index_over(
    host: Host, chars: int, entries: int, budget: int | None, cap: int | None
) -> Iterator[Drop]:
    """`compat.index.over`: the always-on index is larger than the host's budget."""
    over = []
    if budget is not None and chars > budget:
        over.append(f"{chars:,} characters of {budget:,}")
    if cap is not None and entries > cap:
        over.append(f"{entries:,} skills of {cap:,}")
    if not over:
        return
    message = (
        f"the skill index is over {host.title}'s budget ({'; '.join(over)}): "
        f"{_OVERFLOW[host.index.overflow]}"
    )
    yield Drop(diagnostic("compat.index.over", message), "index", "skills")

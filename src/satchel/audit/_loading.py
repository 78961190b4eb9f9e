"""Rules for what loading refused or held back: the entries that do not run, said so.

An audit is read before anything is trusted, so what the loader would not run is as
telling as what it would: a plugin's MCP server refused for setting ``LD_PRELOAD``, a
hook file refused as invalid, a plugin disabled in the config or shadowed by another
of its name, an MCP server shadowed by the host's own. Each is a finding carrying the
loader's own words; the diagnostic stays in `satchel doctor` too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from satchel.audit._model import Finding
from satchel.core._text import escape
from satchel.core.diagnostics import Diagnostic
from satchel.hooks import Hook
from satchel.mcp import McpServerSet
from satchel.plugins import Plugin, PluginSet

__all__ = ["REFUSALS", "held_back_findings", "held_hook_findings", "refusal_findings"]

# Diagnostic codes that mean an executable entry (a hook, an MCP server, a plugin's
# code or manifest) was refused by the loader.
REFUSALS = frozenset(
    (
        "config.mcp.invalid",
        "exec.env.refused",
        "hook.file.invalid",
        "plugin.compatibility.executable_format_unsupported",
        "plugin.compatibility.format_ambiguous",
        "plugin.hooks.invalid",
        "plugin.manifest.invalid",
        "plugin.mcp.invalid",
        "plugin.mcp.transport_unsupported",
        "plugin.path.outside_root",
    )
)


def refusal_findings(found: Iterable[Diagnostic], trust: str) -> Iterator[Finding]:
    """One `A-LOAD-REFUSED` per refusal among the load diagnostics `found`."""
    for d in found:
        if d.code in REFUSALS:
            message = f"the loader refused this entry ({d.code}): {_one_line(d.message)}"
            yield Finding.of("A-LOAD-REFUSED", message, d.path, d.line, trust)


def held_back_findings(
    plugins: PluginSet, servers: McpServerSet, trust_of: Callable[[Path | None], str]
) -> Iterator[Finding]:
    """Plugins disabled or shadowed, and MCP servers shadowed: listed, never loaded
    (the held ones' too: as they would be once the project is trusted). `trust_of(path)`
    is the trust state each would need once it loads."""
    for plugin in (*plugins.plugins.values(), *plugins.held.values()):
        if not plugin.enabled:
            off = "in the config" if plugin.default_enabled else "by default (defaultEnabled)"
            message = (
                f"plugin {_name(plugin)} is disabled {off}: its hooks, MCP servers "
                "and scripts do not load (audit its directory to see them)"
            )
            yield Finding.of("A-LOAD-HELD-BACK", message, plugin.root, None, trust_of(plugin.root))
    for winner, loser in (*plugins.shadowed, *plugins.held_shadowed):
        message = (
            f"plugin {_name(loser)} is shadowed by the plugin of that name at "
            f"{_path(winner.root)}: it does not load (audit its directory to see it)"
        )
        yield Finding.of("A-LOAD-HELD-BACK", message, loser.root, None, trust_of(loser.root))
    for kept, hidden in (*servers.shadowed, *servers.held_shadowed):
        message = (
            f"MCP server {_quoted(hidden.name)} is shadowed by the one of that name in "
            f"{_path(kept.path)}: it does not start"
        )
        yield Finding.of("A-LOAD-HELD-BACK", message, hidden.path, None, trust_of(hidden.path))


def held_hook_findings(hooks: Iterable[Hook], trust: str) -> Iterator[Finding]:
    """Hooks that would run once the project is trusted (again) but that the one trust
    decision holds back as the folder stands now: not trusted yet, or changed since it
    was trusted. Each carries the loader's reason; `trust` is what releases them."""
    for hook in hooks:
        spec = hook.spec
        command = spec.command if spec.args is None else " ".join([spec.command, *spec.args])
        message = (
            f"{hook.source} hook on {spec.event} runs {_quoted(command)} but is held back: "
            f"{_one_line(hook.why or 'it does not load')}"
        )
        yield Finding.of("A-LOAD-HELD-BACK", message, spec.path, None, trust)


def _name(plugin: Plugin) -> str:
    return f"{_quoted(plugin.name)} ({plugin.format}, {plugin.scope or 'no'} scope)"


def _path(path: Path | None) -> str:
    return "code" if path is None else _quoted(str(path))


def _quoted(text: str) -> str:
    return '"' + _one_line(text) + '"'


def _one_line(text: str, width: int = 200) -> str:
    line = escape(text, newlines=True)
    return line if len(line) <= width else line[: width - 3] + "..."

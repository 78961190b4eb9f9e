"""The hosts port writes for, each read from its host definition (`Host.port`: the
manifest it reads, the format satchel reads it as, how it spells the plugin-root
placeholders, MCP servers and hooks; `Host.carries`: the component kinds it keeps of
that format). Nothing here names a host: a host with a `PortSpec` is a target.

Sources are the host definitions' (`satchel.hosts`), and for the placeholders:
Claude Code's plugins reference (``${CLAUDE_PLUGIN_ROOT}``, ``${CLAUDE_PLUGIN_DATA}``),
Gemini CLI's extensions reference (``${extensionPath}``), Kimi Code's hooks.md
(``KIMI_PLUGIN_ROOT`` in a hook's environment), Agent Plugins 1.0 and Mistral Vibe's
plugins page (``${PLUGIN_ROOT}``, ``${PLUGIN_DATA}``). Codex gives a hook
``PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_ROOT`` in its environment (observed, 0.171.0):
port keeps commands as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.core._model import model
from satchel.hooks._events import canonical, host_name
from satchel.hooks._spec import HookSpec
from satchel.hosts import Host
from satchel.hosts._port import McpDialect, PluginNameRule, PortHooks, PortSpec
from satchel.hosts._profiles import PROFILES
from satchel.plugins._carry import Part
from satchel.plugins._model import Format

__all__ = [
    "CLAUDE_SPELLED",
    "CLAUDE_TOOLS",
    "TARGETS",
    "Target",
    "fires",
    "hook_key",
    "source_hooks",
    "source_words",
    "target_event",
]

# the plugin formats whose hooks name events as Claude Code does (Kimi's are the same)
CLAUDE_SPELLED: frozenset[Format] = frozenset(("claude", "kimi"))
# the plugin formats whose hook matchers name Claude Code's tools
CLAUDE_TOOLS: frozenset[Format] = frozenset(("claude",))


@model
class Target:
    """One host port writes for: its `spec` (`Host.port`) and the `profile` whose
    events it checks and whose `Host.carries` says what it keeps."""

    spec: PortSpec
    profile: Host

    @property
    def name(self) -> str:
        """``--to``'s name for it."""
        return self.spec.name

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def manifest(self) -> str:
        """The manifest written, plugin-relative."""
        return self.spec.manifest

    @property
    def format(self) -> Format:
        """The plugin format satchel reads the manifest as."""
        return self.spec.format

    @property
    def host(self) -> str:
        """The host profile's name."""
        return self.profile.name

    @property
    def root(self) -> str | None:
        return self.spec.root

    @property
    def data(self) -> str | None:
        return self.spec.data

    @property
    def names(self) -> PluginNameRule | None:
        return self.spec.names

    @property
    def mcp(self) -> McpDialect:
        return self.spec.mcp

    @property
    def hooks(self) -> PortHooks:
        return self.spec.hooks

    @property
    def hook_spelling(self) -> str | None:
        """How a hook command names the plugin root."""
        return self.spec.hook_root or self.spec.root

    @property
    def events(self) -> tuple[str, ...]:
        """The hook events the host fires, in its own spelling."""
        return self.profile.events

    def keeps(self, part: Part) -> bool:
        """Whether the host keeps `part` of a plugin in the written format."""
        return self.profile.keeps(self.spec.format, part)


TARGETS: Mapping[str, Target] = MappingProxyType(
    {
        spec.name: Target(spec, host)
        for spec, host in sorted(
            ((h.port, h) for h in PROFILES.values() if h.port is not None),
            key=lambda pair: (pair[0].standard, pair[0].name),
        )
    }
)


def hook_key(hook: HookSpec) -> str:
    """The hook's event as the inventory names it: satchel's name when a table knows
    it (``before_tool_use``), else Claude Code's spelling of it (``PermissionRequest``)."""
    return canonical(hook.event, hook.format) or claude_event(hook)


def claude_event(hook: HookSpec) -> str:
    """The hook's event in Claude Code's spelling (Kimi's is the same)."""
    if hook.format in CLAUDE_SPELLED:
        return hook.event
    found = canonical(hook.event, hook.format)
    return hook.event if found is None else host_name(found, "claude")


def target_event(hook: HookSpec, target: Target) -> str | None:
    """The hook's event as `target` spells it, or None when the host lacks it."""
    names = target.hooks.events
    if names is not None:
        key = canonical(hook.event, hook.format)
        return None if key is None else names.get(key)
    name = claude_event(hook)
    return name if name in target.events else None


def fires(fmt: Format, event: str) -> bool | None:
    """Whether the host whose own plugin format is `fmt` fires `event` (its own
    spelling); None when no host port writes for has that format."""
    host = next((t for t in TARGETS.values() if t.format == fmt and not t.spec.standard), None)
    return None if host is None else event in host.events


def source_hooks(fmt: str) -> tuple[PortHooks, tuple[str, ...]] | None:
    """How the host whose own hook format is `fmt` spells hooks (its `PortHooks`: its
    tools) and the project variables it sets for a hook; None when port writes for no
    such host."""
    host = next((t for t in TARGETS.values() if t.format == fmt and not t.spec.standard), None)
    if host is None:
        return None
    return host.hooks, host.profile.hooks.variables.project


def source_words(fmt: str) -> Mapping[str, str]:
    """The placeholders of the host whose own hook format is `fmt`, each -> satchel's
    spelling of it (Gemini CLI's ``${extensionPath}`` -> ``${PLUGIN_ROOT}``)."""
    host = next((t for t in TARGETS.values() if t.format == fmt and not t.spec.standard), None)
    return MappingProxyType({}) if host is None else host.profile.hooks.variables.placeholders

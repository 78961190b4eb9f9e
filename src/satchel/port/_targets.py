"""The hosts port writes for: the manifest each reads, its plugin format in satchel,
the events it fires, and how it spells the plugin-root placeholders.

Sources (the host profiles' in `satchel.hosts`, and):

* Claude Code: https://code.claude.com/docs/en/plugins-reference (``.claude-plugin/
  plugin.json``; ``${CLAUDE_PLUGIN_ROOT}``, ``${CLAUDE_PLUGIN_DATA}``).
* Codex: https://developers.openai.com/codex/plugins/build and ``openai/codex``
  ``codex-rs/core-plugins/src/manifest.rs`` (``.codex-plugin/plugin.json``, paths
  starting with ``./``). Codex's placeholder for the plugin root is not documented:
  port keeps commands as written.
* Cursor: https://cursor.com/docs/reference/plugins (``.cursor-plugin/plugin.json``).
* Gemini CLI: https://geminicli.com/docs/extensions/reference and
  https://geminicli.com/docs/hooks (``gemini-extension.json``, ``${extensionPath}``,
  ``commands/*.toml``, ``hooks/hooks.json`` with Gemini's event names).
* Kimi Code: ``MoonshotAI/kimi-code`` ``docs/en/customization/plugins.md`` and
  ``hooks.md`` (``kimi.plugin.json``, ``KIMI_PLUGIN_ROOT`` in a hook's environment).
* Mistral Vibe and Agent Plugins 1.0: https://agent-plugins.org/spec/1.0 and
  https://docs.mistral.ai/vibe/plugins (a root ``plugin.json``, ``mcp.json``,
  ``ai.mistral.vibe/hooks.toml``; ``${PLUGIN_ROOT}``, ``${PLUGIN_DATA}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel._model import model
from satchel.hooks._events import CURSOR_NAMES, canonical, host_name
from satchel.hooks._events import GEMINI_EVENTS as GEMINI_NAMES
from satchel.hooks._spec import HookSpec
from satchel.hosts._profiles import PROFILES
from satchel.plugins._model import Format

__all__ = ["GEMINI_EVENTS", "TARGETS", "Target", "hook_key", "target_event"]


@model
class Target:
    """One host port writes for: `name` (``--to``), `title`, the `manifest` it writes
    (plugin-relative), the plugin `format` satchel reads it as, the `host` profile
    whose events it checks, and the spellings of ``${PLUGIN_ROOT}`` and
    ``${PLUGIN_DATA}`` in its MCP entries and hook commands (None: kept as written;
    `hook_root`: the root's spelling in hook commands only, when it differs)."""

    name: str
    title: str
    manifest: str
    format: Format
    host: str
    root: str | None = None
    data: str | None = None
    hook_root: str | None = None

    @property
    def hook_spelling(self) -> str | None:
        """How a hook command names the plugin root."""
        return self.hook_root or self.root

    @property
    def events(self) -> tuple[str, ...]:
        """The hook events the host fires, in its own spelling."""
        return PROFILES[self.host].events


_CLAUDE = ("${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}")
_NATIVE = ("${PLUGIN_ROOT}", "${PLUGIN_DATA}")
TARGETS: Mapping[str, Target] = MappingProxyType(
    {
        t.name: t
        for t in (
            Target("claude-code", "Claude Code", ".claude-plugin/plugin.json", "claude",
                   "claude-code", *_CLAUDE),
            Target("codex", "Codex", ".codex-plugin/plugin.json", "codex", "codex"),
            Target("cursor", "Cursor", ".cursor-plugin/plugin.json", "cursor", "cursor"),
            Target("gemini", "Gemini CLI", "gemini-extension.json", "gemini", "gemini",
                   "${extensionPath}"),
            Target("kimi", "Kimi Code", "kimi.plugin.json", "kimi", "kimi",
                   hook_root="${KIMI_PLUGIN_ROOT}"),
            Target("vibe", "Mistral Vibe", "plugin.json", "agent-plugins", "vibe", *_NATIVE),
            Target("agent-plugins", "Agent Plugins 1.0", "plugin.json", "agent-plugins",
                   "satchel", *_NATIVE),
        )
    }
)  # fmt: skip

# satchel's event -> Gemini CLI's: `satchel.hooks._events.GEMINI_EVENTS` turned round.
# It agrees with Gemini CLI's own `gemini hooks migrate` (0.61.0, packages/cli/src/
# commands/hooks/migrate.ts, EVENT_MAPPING) for Claude Code's events.
GEMINI_EVENTS: Mapping[str, str] = MappingProxyType(
    {event: name for name, event in GEMINI_NAMES.items()}
)
_VIBE = MappingProxyType(
    {"before_tool_use": "pre_tool", "after_tool_use": "post_tool", "stop": "post_agent"}
)


def hook_key(hook: HookSpec) -> str:
    """The hook's event as the inventory names it: satchel's name when a table knows
    it (``before_tool_use``), else Claude Code's spelling of it (``PermissionRequest``)."""
    return canonical(hook.event, hook.format) or claude_event(hook)


def claude_event(hook: HookSpec) -> str:
    """The hook's event in Claude Code's spelling (Kimi's is the same)."""
    if hook.format in ("claude", "kimi"):
        return hook.event
    found = canonical(hook.event, hook.format)
    return hook.event if found is None else host_name(found, "claude")


def target_event(hook: HookSpec, target: Target) -> str | None:
    """The hook's event as `target` spells it, or None when the host lacks it."""
    key = canonical(hook.event, hook.format)
    if target.format == "gemini":
        return None if key is None else GEMINI_EVENTS.get(key)
    if target.format == "agent-plugins":
        return None if key is None else _VIBE.get(key)
    if target.format == "cursor":
        return None if key is None else CURSOR_NAMES.get(key)
    name = claude_event(hook)
    return name if name in target.events else None

"""Which agent type Claude Code's main thread runs as: the ``agent`` setting, with the
plugins' default settings below the user's, project's and local ones.

    chosen = main_agent(layout, env.plugins.enabled(), trust_project=True)

A plugin's ``settings.json`` (or manifest ``settings``) "appl[ies] default
configuration when the plugin is enabled" and "setting agent activates one of the
plugin's custom agents as the main thread" (code.claude.com/docs/en/plugins, "Ship
default settings"); a default sits below every settings file
(code.claude.com/docs/en/settings, settings precedence). So the first of these that
sets ``agent`` wins: the project's ``.claude/settings.local.json``, its
``.claude/settings.json`` (both only in a trusted project), the user's
``~/.claude/settings.json``, then the enabled plugins' defaults in load order, each
naming the plugin's agent by its namespaced name (``<plugin>:<agent>``). Managed
settings and ``--agent`` sit above all of them; satchel reads neither. Which of two
plugins' defaults wins is not documented: satchel takes the first plugin in load
order (unverified). A settings file that cannot be read, or whose ``agent`` is not a
string, is passed over (the enabledPlugins reader reports files it cannot read).
Nothing is run.

When a plugin's default chose it, Claude Code 2.1.332 says so at session start
(its binary): 'Plugin "NAME" set this session's agent. That will stop working in a
future release: set `agent` in your own settings or pass --agent.'; `MainAgent.note`
is that note as ``plugin.settings.deprecated``, without the ``--agent`` flag satchel
has no counterpart of.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations._contain import probe_json
from satchel.plugins._claude_installed import settings_files
from satchel.plugins._model import Plugin

__all__ = ["MainAgent", "main_agent"]


@model
class MainAgent:
    """The agent type the main thread runs as (`name`, as the agent types are named),
    the file that set it (for a plugin's default: its ``settings.json`` when that sets
    anything, else its manifest), and the plugin whose default it is (None: a settings
    file)."""

    name: str
    source: Path
    plugin: str | None = None

    def note(self) -> Diagnostic | None:
        """Claude Code's deprecation note when a plugin's default chose it (None else)."""
        if self.plugin is None:
            return None
        message = (
            f'Plugin "{self.plugin}" set this session\'s agent. That will stop working in '
            "a future release: set `agent` in your own settings."
        )
        return diagnostic("plugin.settings.deprecated", message, self.source)

    def to_json(self) -> dict[str, str | None]:
        return {"name": self.name, "source": str(self.source), "plugin": self.plugin}


def main_agent(
    layout: Layout, plugins: Iterable[Plugin], *, trust_project: bool
) -> MainAgent | None:
    """The main thread's agent type as the settings and the enabled `plugins`' default
    settings choose it (see the module docstring); None when nothing sets one."""
    for path in settings_files(layout, trust_project):
        data, why = probe_json(path) if path.is_file() else (None, "absent")
        agent = data.get("agent") if why is None and isinstance(data, dict) else None
        if isinstance(agent, str) and agent.strip():
            return MainAgent(agent, path)
    for plugin in plugins:
        chosen = _plugin_default(plugin)
        if chosen is not None:
            return chosen
    return None


def _plugin_default(plugin: Plugin) -> MainAgent | None:
    settings = plugin.settings
    if not plugin.enabled or settings is None or settings.agent is None:
        return None
    wanted = {settings.agent, plugin.qualified(settings.agent)}
    for agent in plugin.agents:
        if agent.name in wanted:
            return MainAgent(agent.name, settings.sources[-1], plugin.name)
    return None

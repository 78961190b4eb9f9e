"""A Claude Code plugin's default settings: the root ``settings.json`` and the manifest's
``settings`` object (Claude Code 2.1.49+).

    {"agent": "security-reviewer", "subagentStatusLine": {"type": "command", "command": "..."}}

"Plugins can include a settings.json file at the plugin root to apply default
configuration when the plugin is enabled. Currently, only the agent and
subagentStatusLine keys are supported"; "settings from settings.json take priority over
settings declared in plugin.json" (code.claude.com/docs/en/plugins, "Ship default
settings"). So the manifest's ``settings`` is read first and ``settings.json`` wins key
by key. ``agent`` names one of the plugin's agents, which the main thread runs as; the
user's, project's and local settings' own ``agent`` win over it
(`satchel.plugins._main_agent`).

Claude Code ignores other keys without a word; satchel names each one
(``plugin.settings.ignored``): a plugin cannot set ``model`` or ``permissions`` this way.
A value of the wrong shape (``agent`` not a non-blank string, ``subagentStatusLine`` not
an object) is dropped with ``plugin.settings.invalid``, as is a ``settings.json`` that
cannot be read or is not an object. An ``agent`` the plugin has no agent of is checked
by the reader once agents are loaded (`agent_problem`).

Observed with Claude Code 2.1.332 (``claude plugin validate --json``): both files are
accepted with any keys; a manifest ``settings`` that is not an object is a manifest
error (fatal here too: `satchel.plugins.formats._claude`); ``agent`` and
``subagentStatusLine`` draw deprecation notes and still apply. Its loader adds them for
an enabled plugin whose settings set the key (``plugin-agent-setting-deprecated``,
``plugin-subagent-status-line-deprecated``); `deprecation_notes` gives the same notes,
in its words, as ``plugin.settings.deprecated`` warnings (`satchel.load` adds them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import with_json
from satchel.plugins._context import frozen
from satchel.plugins._model import Plugin, PluginSettings

__all__ = ["ALLOWED", "AGENT_NOTE", "FILE", "STATUS_LINE_NOTE", "agent_problem",
           "deprecation_notes", "load_settings"]  # fmt: skip

FILE = "settings.json"
ALLOWED = ("agent", "subagentStatusLine")
INVALID = "plugin.settings.invalid"
IGNORED = "plugin.settings.ignored"
DEPRECATED = "plugin.settings.deprecated"
# Claude Code 2.1.332's words (its binary)
AGENT_NOTE = "A plugin's `agent` setting is deprecated and will stop applying in a future release."
STATUS_LINE_NOTE = (
    "subagentStatusLine is deprecated in favor of mods and will stop working in a future release."
)


def load_settings(
    root: Path, manifest: Mapping[str, Any], manifest_path: Path
) -> tuple[PluginSettings | None, list[Diagnostic]]:
    """The plugin's default settings (None when it sets none) and the problems found.
    `root` is the plugin's real root; `manifest` its (type-checked) manifest."""
    problems: list[Diagnostic] = []
    values: dict[str, Any] = {}
    sources: list[Path] = []
    declared = manifest.get("settings")
    if isinstance(declared, dict) and declared:
        _merge(values, sources, declared, manifest_path, "plugin.json settings", problems)
    path = root / FILE
    found, read = with_json(path, root, INVALID, lambda data: ((data,), []), resolved=True)
    problems.extend(_unread(d) for d in read)
    for data in found:
        if isinstance(data, dict):
            _merge(values, sources, data, path, FILE, problems)
        else:
            message = f"{FILE} must be a JSON object, not {type_name(data)}; it is not read"
            problems.append(diagnostic(INVALID, message, path))
    if not values:
        return None, problems
    line = values.get("subagentStatusLine")
    settings = PluginSettings(
        values.get("agent"), None if line is None else frozen(line), tuple(sources)
    )
    return settings, problems


def deprecation_notes(plugins: Iterable[Plugin]) -> tuple[Diagnostic, ...]:
    """Claude Code's deprecation note for each enabled plugin whose default settings set
    ``agent`` or ``subagentStatusLine`` (the settings still apply)."""
    notes: list[Diagnostic] = []
    for plugin in plugins:
        settings = plugin.settings
        if not plugin.enabled or settings is None:
            continue
        where = settings.sources[-1] if settings.sources else plugin.root
        for note, set_ in (
            (AGENT_NOTE, settings.agent is not None),
            (STATUS_LINE_NOTE, settings.subagent_status_line is not None),
        ):
            if set_:
                notes.append(diagnostic(DEPRECATED, f"plugin {plugin.name!r}: {note}", where))
    return tuple(notes)


def agent_problem(settings: PluginSettings, names: Iterable[str], namespace: str) -> str | None:
    """Why the settings' ``agent`` cannot apply: the plugin has no agent of that name
    (bare or ``<namespace>:<name>``); None when it can or none is set."""
    agent = settings.agent
    if agent is None:
        return None
    known = set(names)
    if agent in known or f"{namespace}:{agent}" in known:
        return None
    return f"agent {agent!r} is not an agent of this plugin; it is not applied"


def _unread(found: Diagnostic) -> Diagnostic:
    return diagnostic(INVALID, f"{FILE} is not read: {found.message}", found.path)


def _merge(
    values: dict[str, Any],
    sources: list[Path],
    table: Mapping[str, Any],
    path: Path,
    label: str,
    problems: list[Diagnostic],
) -> None:
    """`table`'s keys over `values`: the allowed ones of the right shape; the rest
    reported."""
    used = False
    for key, value in table.items():
        if key not in ALLOWED:
            message = (
                f"{label}: `{key}` is not a setting a plugin may set (only "
                f"{' and '.join(ALLOWED)}); it is ignored"
            )
            problems.append(diagnostic(IGNORED, message, path))
            continue
        why = _shape(key, value)
        if why is not None:
            message = f"{label}: `{key}` must be {why}; it is dropped"
            problems.append(diagnostic(INVALID, message, path))
            continue
        values[key] = value
        used = True
    if used and path not in sources:
        sources.append(path)


def _shape(key: str, value: Any) -> str | None:
    if key == "agent" and not isinstance(value, str):
        return f"an agent's name, not {type_name(value)}"
    if key == "agent" and not value.strip():
        return "an agent's name, not blank"
    if key == "subagentStatusLine" and not isinstance(value, dict):
        return f"an object, not {type_name(value)}"
    return None

"""Channels: the manifest's ``channels``, MCP servers of the plugin bound as inbound
message channels, each with its own ``userConfig``.

The shape ``claude plugin validate --json`` 2.1.332 accepts (its messages, since no
documentation page describes it yet): an array ("expected array") of objects with
``server`` (a string, required) and ``userConfig`` (optional: an object of options,
each with ``type`` one of ``string``, ``number``, ``boolean``, ``directory``,
``file``, and a string ``title`` and ``description``); any other key is refused
("Unrecognized key"). Claude Code refuses the whole plugin for a bad channel; a
``channels`` that is not an array is fatal here too (`plugin.manifest.invalid`), and
a bad entry is left out with `plugin.channel.invalid` while the rest loads.

A channel is data: satchel lists it and the server it names (the server itself
loads with the plugin's other MCP servers); delivering inbound messages is the
host's. The options' other fields (``required``, ``default``, ``sensitive``, ...)
are kept as written.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.plugins._kinds import Channel

__all__ = ["OPTION_TYPES", "Channel", "read_channels", "type_problem"]

INVALID = "plugin.channel.invalid"
OPTION_TYPES = ("string", "number", "boolean", "directory", "file")
_KEYS = ("server", "userConfig")


def read_channels(
    value: Any, manifest: Path, plugin: str
) -> tuple[list[Channel], list[Diagnostic]]:
    """The channels of a ``channels`` array (`type_problem` has refused any other
    value), each bad entry reported and left out."""
    found: list[Channel] = []
    diags: list[Diagnostic] = []
    for number, entry in enumerate(value if isinstance(value, list) else [], 1):
        problem = _problem(entry)
        if problem is not None:
            message = f"channel #{number}: {problem}; it is left out"
            diags.append(diagnostic(INVALID, message, manifest, severity="warning"))
        else:
            config = MappingProxyType(dict(entry.get("userConfig", {})))
            found.append(Channel(entry["server"], config, plugin))
    return found, diags


def type_problem(value: Any) -> str | None:
    """What ``channels`` should be, when `value` is not that (fatal, as in Claude Code)."""
    return None if isinstance(value, list) else f"an array of channels, not {type_name(value)}"


def _problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"must be an object, not {type_name(entry)}"
    unknown = [k for k in entry if k not in _KEYS]
    if unknown:
        return f"unknown key {unknown[0]!r}"
    if not isinstance(entry.get("server"), str) or not entry["server"].strip():
        return "`server` must name one of the plugin's MCP servers"
    config = entry.get("userConfig", {})
    if not isinstance(config, dict):
        return f"`userConfig` must be an object, not {type_name(config)}"
    for key, option in config.items():
        problem = _option(option)
        if problem is not None:
            return f"userConfig {key!r}: {problem}"
    return None


def _option(option: Any) -> str | None:
    if not isinstance(option, dict):
        return f"must be an object, not {type_name(option)}"
    if option.get("type") not in OPTION_TYPES:
        return f"`type` must be one of {', '.join(OPTION_TYPES)}"
    for key in ("title", "description"):
        if not isinstance(option.get(key), str):
            return f"`{key}` must be a string"
    return None

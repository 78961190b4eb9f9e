"""Which host definition speaks for a hook file or a plugin: the one lookup from a
format to its `HookDialect`, read off the definitions (`HookDialect.format`,
`HookDialect.server_format`), never written beside them.

A load reads hooks without naming a host, so this module imports the definitions
with hook rules of their own (`HOOK_HOSTS`) and not the whole profile table
(`satchel.hosts._profiles`, imported only when a profile is named);
tests/hooks/test_dialects.py checks that every built-in profile with hook rules is
one of them.
"""

from __future__ import annotations

from functools import cache

from satchel.hosts._claude_code import CLAUDE_CODE
from satchel.hosts._codex import CODEX
from satchel.hosts._copilot import COPILOT
from satchel.hosts._cursor import CURSOR
from satchel.hosts._gemini import GEMINI
from satchel.hosts._hooks import HookDialect, HookVariables
from satchel.hosts._kimi import KIMI
from satchel.hosts._model import Host
from satchel.hosts._satchel import SATCHEL, SATCHEL_HOOKS
from satchel.hosts._vibe import VIBE

__all__ = [
    "HOOK_HOSTS",
    "PLAIN",
    "dialect_for",
    "hook_dialect",
    "hook_dialects",
    "server_variables",
]

HOOK_HOSTS: tuple[Host, ...] = (SATCHEL, CLAUDE_CODE, CODEX, GEMINI, CURSOR, COPILOT, KIMI, VIBE)
"""The built-in host definitions with hook rules of their own, satchel's first."""

PLAIN = HookDialect()
"""The dialect of a host with none of its own: the three common payload fields,
Claude Code's words, exit-code answers."""


@cache
def hook_dialects() -> tuple[HookDialect, ...]:
    """The dialect of each of `HOOK_HOSTS`, in that order."""
    return tuple(host.hooks for host in HOOK_HOSTS)


@cache
def _by_format() -> dict[str, HookDialect]:
    found: dict[str, HookDialect] = {}
    for dialect in hook_dialects():
        if dialect.format is not None:
            found.setdefault(dialect.format, dialect)
    return found


def hook_dialect(format: str | None) -> HookDialect:
    """The dialect hook files in `format` (`satchel.hooks.HookSpec.format`) are read and
    run in: the host definition's whose own format it is; satchel's for None or a
    format no definition claims."""
    return _by_format().get(format or "", SATCHEL_HOOKS)


def server_variables(plugin_format: str) -> HookVariables | None:
    """The variables the MCP servers of a plugin in `plugin_format` get beside
    ``PLUGIN_ROOT`` and ``PLUGIN_DATA`` (Claude Code's ``CLAUDE_PLUGIN_ROOT``...); None
    when no host definition names the format its servers'."""
    for dialect in hook_dialects():
        if dialect.server_format == plugin_format:
            return dialect.variables
    return None


def dialect_for(host: str | None) -> HookDialect:
    """The dialect of the built-in host profile named `host` (`PLAIN` for None or a
    name no built-in profile has)."""
    from satchel.hosts._profiles import PROFILES  # only when a profile is named

    found = PROFILES.get(host or "")
    return PLAIN if found is None else found.hooks

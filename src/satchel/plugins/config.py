"""satchel's ``config.toml``: which plugins are enabled, and how plugin skills are named.

Read from the client's user directory (``{config}/satchel/config.toml``) and, in a
trusted project, the project's (``{project}/.satchel/config.toml``)::

    [plugins.deploy-tools]
    enabled = false

    [load]
    plugin_skill_rule = "vibe"   # or "claude-code", the default

Plugins are enabled by default. The user's file wins over the project's: a
repository cannot turn on a plugin its user turned off, nor choose the skill rule
its user chose. ``[load]`` holds `load()` options that have a config key; an
option given to `load()` wins over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.config import CONFIG_FILE, config_files, invalid, read_config
from satchel.diagnostics import Diagnostic, type_name
from satchel.layout import Layout
from satchel.plugins._parts import SKILL_RULES, SkillRule

__all__ = ["CONFIG_FILE", "config_files", "configured_skill_rule", "enabled_plugins"]


def enabled_plugins(
    layout: Layout, *, trust_project: bool
) -> tuple[Mapping[str, bool], tuple[Diagnostic, ...]]:
    """Plugin name -> enabled, for every plugin a config file names."""
    settings: dict[str, bool] = {}
    problems: list[Diagnostic] = []
    for path in config_files(layout, trust_project=trust_project):
        document = read_config(path, problems)
        for name, on in _plugins_table(document.get("plugins", {}), path, problems).items():
            settings.setdefault(name, on)  # the earlier (user's) file wins
    return MappingProxyType(settings), tuple(problems)


def _plugins_table(table: Any, path: Path, problems: list[Diagnostic]) -> dict[str, bool]:
    if not isinstance(table, dict):
        problems.append(invalid(f"[plugins] must be a table, not {type_name(table)}", path))
        return {}
    found: dict[str, bool] = {}
    for name, entry in table.items():
        on = entry.get("enabled", True) if isinstance(entry, dict) else None
        if not isinstance(on, bool):
            message = f"[plugins.{name}] enabled must be true or false"
            problems.append(invalid(message, path))
            continue
        found[name] = on
    return found


def configured_skill_rule(
    layout: Layout, *, trust_project: bool
) -> tuple[SkillRule | None, tuple[Diagnostic, ...]]:
    """``[load] plugin_skill_rule`` of the first config file that sets it (the user's
    first), or None; a bad value is reported and ignored."""
    problems: list[Diagnostic] = []
    for path in config_files(layout, trust_project=trust_project):
        table = read_config(path, []).get("load", {})
        value = table.get("plugin_skill_rule") if isinstance(table, dict) else None
        if value is None:
            continue
        for rule in SKILL_RULES:
            if value == rule:
                return rule, tuple(problems)
        allowed = " or ".join(repr(r) for r in SKILL_RULES)
        problems.append(invalid(f"[load] plugin_skill_rule must be {allowed}", path))
    return None, tuple(problems)

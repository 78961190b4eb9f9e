"""satchel's ``config.toml``: which plugins are enabled, how a directory holding
several hosts' manifests is read, and how plugin skills are named.

Read from the client's user directory (``{config}/satchel/config.toml``) and, in a
trusted project, the project's (``{project}/.satchel/config.toml``)::

    [plugins.deploy-tools]
    enabled = false

    [plugin_manifests]
    ambiguous = "refuse"                  # or "prefer" (the default)
    order = ["codex", "claude", "kimi"]   # formats first in preference

    [load]
    plugin_skill_rule = "vibe"   # or "claude-code", the default

Plugins are enabled by default. The user's file wins over the project's: a
repository cannot turn on a plugin its user turned off, nor change how its user's
plugins are read or their skills named. ``[load]`` holds `load()` options that have
a config key. An option given to `load()` wins over every file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, type_name
from satchel.core.layout import Layout
from satchel.foundations._config import CONFIG_FILE, config_files, invalid, read_config
from satchel.plugins._context import SKILL_RULES, SkillRule
from satchel.plugins._detect import AMBIGUITY, Ambiguity, Detection
from satchel.plugins._model import FORMATS, Format

__all__ = [
    "CONFIG_FILE",
    "PluginConfig",
    "config_files",
    "enabled_plugins",
    "plugin_config",
]

MANIFESTS = "plugin_manifests"


@model
class PluginConfig:
    """What the config files say of plugins: name -> enabled, the `[plugin_manifests]`
    settings and ``[load] plugin_skill_rule`` found (None: not set) and the problems met."""

    enabled: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    ambiguous: Ambiguity | None = None
    order: tuple[Format, ...] | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    skill_rule: SkillRule | None = None

    def detection(
        self,
        *,
        ambiguous: Ambiguity | None = None,
        order: tuple[Format, ...] | None = None,
        reads: tuple[Format, ...] | None = None,
    ) -> Detection:
        """The detection rule: the host's `ambiguous` and `order` when given, else
        these settings, else the defaults; `reads` the only formats read (None: all)."""
        default = Detection()
        return Detection(
            order=order or self.order or default.order,
            ambiguous=ambiguous or self.ambiguous or default.ambiguous,
            reads=None if reads is None else frozenset(reads),
        )


def plugin_config(layout: Layout, *, trust_project: bool) -> PluginConfig:
    """The plugin settings of every config file (the user's first: it wins)."""
    settings: dict[str, bool] = {}
    problems: list[Diagnostic] = []
    ambiguous: Ambiguity | None = None
    order: tuple[Format, ...] | None = None
    rule: SkillRule | None = None
    for path in config_files(layout, trust_project=trust_project):
        document = read_config(path, problems)
        for name, on in _plugins_table(document.get("plugins", {}), path, problems).items():
            settings.setdefault(name, on)  # the earlier (user's) file wins
        found_ambiguous, found_order = _manifests_table(document.get(MANIFESTS), path, problems)
        ambiguous = ambiguous or found_ambiguous
        order = order or found_order
        rule = rule or _skill_rule(document.get("load"), path, problems)
    return PluginConfig(MappingProxyType(settings), ambiguous, order, tuple(problems), rule)


def enabled_plugins(
    layout: Layout, *, trust_project: bool
) -> tuple[Mapping[str, bool], tuple[Diagnostic, ...]]:
    """Plugin name -> enabled, for every plugin a config file names."""
    found = plugin_config(layout, trust_project=trust_project)
    return found.enabled, found.diagnostics


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


def _manifests_table(
    table: Any, path: Path, problems: list[Diagnostic]
) -> tuple[Ambiguity | None, tuple[Format, ...] | None]:
    """`[plugin_manifests]`: ``ambiguous`` and ``order``, each None when unset or bad."""
    if table is None:
        return None, None
    if not isinstance(table, dict):
        message = f"[{MANIFESTS}] must be a table, not {type_name(table)}"
        problems.append(invalid(message, path))
        return None, None
    ambiguous = table.get("ambiguous")
    if ambiguous is not None and ambiguous not in AMBIGUITY:
        message = f"[{MANIFESTS}] ambiguous must be one of {', '.join(map(repr, AMBIGUITY))}"
        problems.append(invalid(message, path))
        ambiguous = None
    order = table.get("order")
    if order is not None and not (
        isinstance(order, list) and order and all(f in FORMATS for f in order)
    ):
        message = f"[{MANIFESTS}] order must be a list of formats: {', '.join(FORMATS)}"
        problems.append(invalid(message, path))
        order = None
    return cast("Ambiguity | None", ambiguous), None if order is None else tuple(order)


def _skill_rule(table: Any, path: Path, problems: list[Diagnostic]) -> SkillRule | None:
    """``[load] plugin_skill_rule``, or None when unset or bad (a bad value is reported)."""
    value = table.get("plugin_skill_rule") if isinstance(table, dict) else None
    if value is None:
        return None
    for rule in SKILL_RULES:
        if value == rule:
            return rule
    allowed = " or ".join(repr(r) for r in SKILL_RULES)
    problems.append(invalid(f"[load] plugin_skill_rule must be {allowed}", path))
    return None

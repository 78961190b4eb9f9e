"""satchel's ``config.toml``: which plugins are enabled.

Read from the client's user directory (``{config}/satchel/config.toml``) and, in a
trusted project, the project's (``{project}/.satchel/config.toml``)::

    [plugins.deploy-tools]
    enabled = false

Plugins are enabled by default. The user's file wins over the project's: a
repository cannot turn on a plugin its user turned off.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel._files import FileProblem, read_bounded
from satchel.diagnostics import Diagnostic, diagnostic, type_name
from satchel.layout import Layout

__all__ = ["CONFIG_FILE", "config_files", "enabled_plugins"]

CONFIG_FILE = "config.toml"
MAX_CONFIG = 1024 * 1024


def config_files(layout: Layout, *, trust_project: bool) -> tuple[Path, ...]:
    """The config files in precedence order: the user's, then (if trusted) the project's."""
    user = layout.config_home / layout.client / CONFIG_FILE
    if not trust_project:
        return (user,)
    return user, layout.project / f".{layout.client}" / CONFIG_FILE


def enabled_plugins(
    layout: Layout, *, trust_project: bool
) -> tuple[Mapping[str, bool], tuple[Diagnostic, ...]]:
    """Plugin name -> enabled, for every plugin a config file names."""
    settings: dict[str, bool] = {}
    problems: list[Diagnostic] = []
    for path in config_files(layout, trust_project=trust_project):
        for name, on in _read(path, problems).items():
            settings.setdefault(name, on)  # the earlier (user's) file wins
    return MappingProxyType(settings), tuple(problems)


def _read(path: Path, problems: list[Diagnostic]) -> dict[str, bool]:
    if not os.path.lexists(path):
        return {}  # nothing to open: the usual case
    try:
        data = read_bounded(path, MAX_CONFIG)
    except FileProblem as e:
        if e.kind != "missing":
            problems.append(_invalid(f"cannot read it: {e.message}", path))
        return {}
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        problems.append(_invalid(f"not valid TOML: {e}", path))
        return {}
    return _plugins_table(document.get("plugins", {}), path, problems)


def _plugins_table(table: Any, path: Path, problems: list[Diagnostic]) -> dict[str, bool]:
    if not isinstance(table, dict):
        problems.append(_invalid(f"[plugins] must be a table, not {type_name(table)}", path))
        return {}
    found: dict[str, bool] = {}
    for name, entry in table.items():
        on = entry.get("enabled", True) if isinstance(entry, dict) else None
        if not isinstance(on, bool):
            message = f"[plugins.{name}] enabled must be true or false"
            problems.append(_invalid(message, path))
            continue
        found[name] = on
    return found


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic("config.invalid", f"{path.name}: {message}", path)

"""satchel's ``config.toml``: where the files are and how one is read.

Read from the client's user directory (``{config}/<client>/config.toml``) and, in a
trusted project, the project's (``{project}/.<client>/config.toml``). Each section has
its reader: ``[plugins.<name>]`` (`satchel.plugins._config`), ``[mcp_servers.<name>]``
(`satchel.mcp._config`) and ``[diagnostics]`` (`ignored_codes`, here). A file that
cannot be read or is not TOML is reported once per reader (``config.invalid``) and its
settings are ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from satchel.core._ignore import unknown_selectors
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout

__all__ = ["CONFIG_FILE", "config_files", "ignored_codes", "invalid", "read_config"]

CONFIG_FILE = "config.toml"
MAX_CONFIG = 1024 * 1024


def config_files(layout: Layout, *, trust_project: bool) -> tuple[Path, ...]:
    """The config files: the user's, then (if trusted) the project's."""
    user = layout.config_home / layout.client / CONFIG_FILE
    if not trust_project:
        return (user,)
    return user, layout.project / f".{layout.client}" / CONFIG_FILE


def read_config(path: Path, problems: list[Diagnostic]) -> dict[str, Any]:
    """The TOML document at `path`; {} when it is absent or bad (bad: reported)."""
    from satchel.core import _toml  # only when a TOML file is read

    return _toml.read_document(path, MAX_CONFIG, problems, invalid)


def invalid(message: str, path: Path) -> Diagnostic:
    """A ``config.invalid`` diagnostic about the file at `path`."""
    return diagnostic("config.invalid", f"{path.name}: {message}", path)


def ignored_codes(
    layout: Layout, *, trust_project: bool, problems: list[Diagnostic]
) -> tuple[str, ...]:
    """The codes and code prefixes ``[diagnostics] ignore = [...]`` names, in the user's
    config and (if `trust_project`) the project's, in that order. A value that is not a
    list of strings, or a name that selects no code, is reported (``config.invalid``)
    and left out."""
    found: list[str] = []
    for path in config_files(layout, trust_project=trust_project):
        section = read_config(path, problems).get("diagnostics", {})
        if not isinstance(section, dict):
            problems.append(invalid("[diagnostics] must be a table", path))
            continue
        value = section.get("ignore", [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(invalid("[diagnostics] ignore must be a list of code names", path))
            continue
        for name in unknown_selectors(value):
            problems.append(
                invalid(f"[diagnostics] ignore names no diagnostic code: {name!r}", path)
            )
        found += [v for v in value if v not in found and not unknown_selectors([v])]
    return tuple(found)

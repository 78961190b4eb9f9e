"""`satchel validate PATH...`: check skills and plugins as their author, one by one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from satchel.cli import _output as out
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._plugin import PluginCheck, check_plugin, is_plugin_dir, plugin_children
from satchel.skills.check import Checked, check_paths

Check = Checked | PluginCheck


def validate(
    *,
    paths: Sequence[Path],
    strict: bool,
    unicode_names: bool,
    client: str,
    as_json: bool,
) -> int:
    """Check skills and plugins as their author; exit 1 on errors.

    Each PATH is a skill directory, its SKILL.md, a directory whose subdirectories
    are skills, a plugin directory (any format satchel reads), or a directory whose
    subdirectories are all plugins. --strict applies the Agent Skills spec exactly,
    and makes an unknown plugin manifest field fatal. Nothing is run."""
    checked: list[Check] = []
    for path in paths:
        plugins = [path] if is_plugin_dir(path) else plugin_children(path)
        if plugins is not None:
            checked += [check_plugin(p, strict=strict) for p in plugins]
        else:
            checked += check_paths(
                [path], strict=strict, unicode_names=unicode_names, client=client
            )
    if as_json:
        found = [d for c in checked for d in c.diagnostics]
        out.print_json({"checked": [_json(c) for c in checked]}, found)
    else:
        _print(checked)
    return OK if all(c.ok for c in checked) else PROBLEMS


def _json(c: Check) -> dict[str, Any]:
    if isinstance(c, PluginCheck):
        return c.to_json()
    return {**c.to_json(), "kind": "skill"}


def _print(checked: list[Check]) -> None:
    con = out.console()
    for c in checked:
        if c.ok:
            line = out.safe("ok    ", style="green") + out.safe(_name(c))
            con.print(line + out.safe(f"  {out.shown(c.path)}", style="dim"), soft_wrap=True)
        else:
            verdict = out.safe("fail  ", style="bold red")
            con.print(verdict + out.safe(out.shown(c.path)), soft_wrap=True)
        if c.diagnostics:
            con.print(out.diagnostic_grid(c.diagnostics, indent=6))
    failed = sum(not c.ok for c in checked)
    con.print(f"{_counted(checked)} checked: {len(checked) - failed} ok, {failed} failed")


def _name(c: Check) -> str:
    if isinstance(c, PluginCheck):
        return "" if c.plugin is None else f"{c.plugin.name} (plugin, {c.plugin.format})"
    return c.skill.name if c.skill else ""


def _counted(checked: list[Check]) -> str:
    """``2 skills``, ``1 plugin``, ``2 skills and 1 plugin``."""
    plugins = sum(isinstance(c, PluginCheck) for c in checked)
    skills = len(checked) - plugins
    if not plugins:
        return out.count(skills, "skill")
    if not skills:
        return out.count(plugins, "plugin")
    return f"{out.count(skills, 'skill')} and {out.count(plugins, 'plugin')}"

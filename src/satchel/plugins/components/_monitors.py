"""Claude Code plugin monitors: ``monitors/monitors.json`` or the manifest's
``experimental.monitors``.

Facts (Claude Code 2.1.332: the plugin schema and the monitor loader in its binary, and
`claude plugin validate --json` run on good and bad files; the plugins reference at
https://code.claude.com/docs/en/plugins-reference):

* ``experimental.monitors`` is a path (relative to the plugin root) to a JSON file
  holding the monitors array, or the array itself. When it is absent,
  ``monitors/monitors.json`` at the plugin root is read if present. A top-level
  ``monitors`` still loads and is reported as deprecated (`plugin.monitor.deprecated`,
  with Claude Code's own warning).
* Each monitor is an object with exactly ``name``, ``command`` and ``description``
  (non-empty strings) and an optional ``when``: ``"always"`` (the default: armed at
  session start) or ``"on-skill-invoke:<skill>"`` (armed the first time that skill is
  dispatched). Names are unique within a plugin. There is no ``env`` or ``cwd``: a
  monitor runs in the session's working directory.
* ``validate`` lists each as ``{name, command}`` in ``provides.monitors``.
* A command referring to ``${user_config.*}`` is refused by Claude Code when it arms
  (the value would reach a shell); satchel refuses it on reading
  (`plugin.monitor.user_config`), whether or not the plugin declares ``userConfig``.

Where satchel differs on purpose: Claude Code drops the whole plugin's inventory when
its monitors file is bad (``provides`` is null, with no message); satchel keeps the
rest of the plugin and drops only its monitors, each problem one
`plugin.monitor.invalid` error.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import type_name
from satchel.foundations._contain import read_json
from satchel.plugins._context import Ctx
from satchel.plugins._model import Monitor

__all__ = ["DEFAULT", "DEPRECATED", "read_monitors"]

DEFAULT = "monitors/monitors.json"
INVALID = "plugin.monitor.invalid"
DEPRECATED = (
    "'monitors' is an experimental component; declare it under 'experimental.monitors' "
    "instead of at the top level. Top-level still loads for now but will be removed in a "
    "future release."
)
_FIELDS = ("name", "command", "description", "when")
_SKILL_WHEN = "on-skill-invoke:"
_USER_CONFIG = "${user_config."


def read_monitors(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[Monitor, ...]:
    """The plugin's monitors (`path`: its manifest), or none and every problem found."""
    declared, where = _declared(ctx, manifest, path)
    if declared is None:
        fixed = ctx.fixed(DEFAULT)
        if fixed is None:
            return ()
        declared, where = fixed, fixed
    if isinstance(declared, str):
        target = ctx.entry(declared, "`experimental.monitors`", path)
        if target is None:
            return ()
        if not target.is_file():
            _invalid(ctx, f"`experimental.monitors` names {declared}, which is not a file", path)
            return ()
        declared, where = target, target
    if isinstance(declared, Path):
        data, problem = read_json(declared, ctx.root, INVALID, resolved=True)
        if problem is not None:
            ctx.diags.append(problem)
            return ()
        declared = data
    return _monitors(ctx, declared, where)


def _declared(ctx: Ctx, manifest: Mapping[str, Any], path: Path) -> tuple[Any, Path]:
    """What the manifest declares (None: nothing), ``experimental.monitors`` first."""
    experimental = manifest.get("experimental")
    if isinstance(experimental, dict) and "monitors" in experimental:
        return experimental["monitors"], path
    if "monitors" in manifest:
        ctx.add("plugin.monitor.deprecated", DEPRECATED, path)
        return manifest["monitors"], path
    return None, path


def _monitors(ctx: Ctx, data: Any, where: Path) -> tuple[Monitor, ...]:
    if not isinstance(data, list):
        _invalid(ctx, f"monitors must be an array, not {type_name(data)}", where)
        return ()
    found: list[Monitor] = []
    problems: list[str] = []
    for number, entry in enumerate(data, 1):
        monitor, why = _monitor(entry, ctx.name, where)
        if monitor is None:
            problems.append(f"monitor #{number}: {why}")
        elif any(m.name == monitor.name for m in found):
            problems.append(f"monitor #{number}: the name {monitor.name!r} is used twice")
        else:
            found.append(monitor)
    for why in problems:
        _invalid(ctx, why, where)
    if problems:
        return ()
    kept: list[Monitor] = []
    for monitor in found:
        if _USER_CONFIG in monitor.command:
            message = (
                f"monitor {monitor.name!r} refers to ${{user_config.*}} in its command; the "
                "value would reach a shell, so the monitor does not load"
            )
            hint = "have the monitor's script read the value from a file instead"
            ctx.add("plugin.monitor.user_config", message, where, hint=hint)
        else:
            kept.append(monitor)
    return tuple(kept)


def _monitor(entry: Any, plugin: str, where: Path) -> tuple[Monitor | None, str]:
    if not isinstance(entry, dict):
        return None, f"must be an object, not {type_name(entry)}"
    unknown = [k for k in entry if k not in _FIELDS]
    if unknown:
        return None, f"unknown field {unknown[0]!r}"
    for key in ("name", "command", "description"):
        value = entry.get(key)
        if not isinstance(value, str) or not value:
            got = "empty" if value == "" else type_name(value)
            return None, f"{key} must be a non-empty string, not {got}"
    when = entry.get("when", "always")
    if not isinstance(when, str) or not (when == "always" or when.startswith(_SKILL_WHEN)):
        return None, f'when must be "always" or "on-skill-invoke:<skill>", not {when!r}'
    if when == _SKILL_WHEN:
        return None, "on-skill-invoke: must specify a skill name"
    name, command, description = entry["name"], entry["command"], entry["description"]
    return Monitor(name, command, description, when, plugin, where), ""


def _invalid(ctx: Ctx, why: str, where: Path) -> None:
    ctx.add(INVALID, f"{why}; no monitor of this plugin loads", where)

"""`satchel plugin configure NAME`: set, unset and show a plugin's userConfig values.

As ``claude plugin configure <plugin> [--json] [--values-stdin]`` does in Claude Code
2.1.332: each value is held to its option (type, min, max, the allowed values) before
anything is kept; a bad one is ``plugin.config.value`` with Claude Code's wording and
nothing is stored. Values that are not sensitive go to ``plugin-options.json`` in the
user config directory, sensitive ones to the system keyring
(`satchel.plugins._options`). On a terminal with nothing to set, each option is
prompted for (a sensitive one without echo). Sensitive values are never printed.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from satchel.cli import _output as out
from satchel.cli._again import again
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded
from satchel.core._json import loads
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.plugins._model import Plugin, UserOption
from satchel.plugins._options import store_path, stored_values, write_values
from satchel.plugins.components._user_config import check_value, parse_text, show_value

VALUE = "plugin.config.value"

PARAMS = (
    click.Argument(["name"]),
    located(),
    click.Option(
        ["--set", "assignments"],
        multiple=True,
        metavar="KEY=VALUE",
        help="Set one option (repeatable); a list is comma-separated.",
    ),
    click.Option(
        ["--unset", "unset"], multiple=True, metavar="KEY", help="Forget one option's value."
    ),
    click.Option(
        ["--values-stdin"],
        "values_stdin",
        is_flag=True,
        help="Read the values to set as one JSON object on stdin.",
    ),
    json_option(),
)


def run(
    *,
    name: str,
    here: Here,
    assignments: tuple[str, ...],
    unset: tuple[str, ...],
    values_stdin: bool,
    as_json: bool,
) -> int:
    """Set, unset or show the userConfig values of the plugin NAME.

    --set KEY=VALUE (repeatable) and --values-stdin (a JSON object) set values,
    --unset KEY forgets one; with none of them on a terminal, each option is prompted
    for. Every value is checked against its option (type, min, max, allowed values)
    before anything is kept: values that are not sensitive go to plugin-options.json
    in the user config directory, sensitive ones to the system keyring. The values are
    shown afterwards, sensitive ones masked. Exit 1 on a bad value or a store that
    cannot be used."""
    env = loaded(here)
    plugin = _find(env.plugins.plugins, name)
    if plugin is None:
        close = difflib.get_close_matches(name, list(env.plugins.plugins), n=3, cutoff=0.6)
        message = f"no plugin named {name!r}; `{again('plugins')}` lists the plugins that load"
        return out.fail("cli.plugin.unknown", message, as_json=as_json, suggestions=close)
    given, problems = _given(plugin, assignments, values_stdin)
    problems += [_unknown(plugin, key) for key in unset if _option(plugin, key) is None]
    if not given and not unset and not problems and _interactive(as_json, values_stdin):
        given = _prompted(plugin, env.layout)
    if problems:
        return _refused(plugin, problems, as_json)
    diags = write_values(env.layout, plugin, given, unset) if given or unset else []
    stored, read = stored_values(env.layout, plugin)
    _report(env.layout, plugin, stored, sorted(given), list(unset), [*diags, *read], as_json)
    return PROBLEMS if diags else OK


def _find(plugins: Mapping[str, Plugin], name: str) -> Plugin | None:
    return plugins.get(name) or next((p for p in plugins.values() if p.installed == name), None)


def _option(plugin: Plugin, key: str) -> UserOption | None:
    return next((o for o in plugin.user_config if o.key == key), None)


def _unknown(plugin: Plugin, key: str) -> Diagnostic:
    message = f"{key!r} isn't declared in the userConfig of plugin {plugin.name!r}"
    return diagnostic(VALUE, message)


def _given(
    plugin: Plugin, assignments: Sequence[str], from_stdin: bool
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The values asked for, checked; one ``plugin.config.value`` per bad one."""
    raw: dict[str, Any] = {}
    problems: list[Diagnostic] = []
    if from_stdin:
        read, problem = _stdin_values()
        raw.update(read)
        problems.extend(problem)
    for item in assignments:
        key, sep, text = item.partition("=")
        if not sep:
            problems.append(diagnostic(VALUE, f"--set takes KEY=VALUE, not {key!r}"))
            continue
        option = _option(plugin, key)
        raw[key] = text if option is None else parse_text(option, text)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        option = _option(plugin, key)
        if option is None:
            problems.append(_unknown(plugin, key))
            continue
        if isinstance(value, str) and option.type in ("number", "boolean"):
            value = parse_text(option, value)
        why = check_value(option, value)
        if why is not None:
            problems.append(diagnostic(VALUE, f"{key}: {why}; nothing is stored"))
        else:
            values[key] = value
    return values, problems


def _stdin_values() -> tuple[dict[str, Any], list[Diagnostic]]:
    try:
        data = loads(sys.stdin.read())
    except ValueError as e:
        return {}, [diagnostic(VALUE, f"--values-stdin: not valid JSON: {e}")]
    if not isinstance(data, dict):
        return {}, [diagnostic(VALUE, "--values-stdin takes one JSON object of key: value")]
    return {str(k): tuple(v) if isinstance(v, list) else v for k, v in data.items()}, []


def _interactive(as_json: bool, values_stdin: bool) -> bool:
    return not as_json and not values_stdin and sys.stdin.isatty()


def _prompted(plugin: Plugin, layout: Layout) -> dict[str, Any]:
    """Each option asked for on the terminal until its answer is one it takes;
    Enter keeps the current value."""
    stored, _ = stored_values(layout, plugin)
    found: dict[str, Any] = {}
    for option in plugin.user_config:
        current = stored.get(option.key, option.default)
        label = f"{option.title} ({option.key}, {option.type})"
        shown = "" if current is None or option.sensitive else show_value(option, current)
        while True:
            text = click.prompt(
                label, default=shown, hide_input=option.sensitive, show_default=bool(shown)
            )
            kept = text == shown and (current is not None or not option.required)
            if kept or (text == "" and not option.required):
                break
            value = parse_text(option, text)
            why = check_value(option, value)
            if why is None:
                found[option.key] = value
                break
            click.echo(why, err=True)
    return found


def _refused(plugin: Plugin, problems: list[Diagnostic], as_json: bool) -> int:
    message = f"nothing was stored for plugin {plugin.name!r}: {problems[0].message}"
    return out.fail(VALUE, message, as_json=as_json, diagnostics=problems)


def _report(
    layout: Layout,
    plugin: Plugin,
    stored: Mapping[str, Any],
    changed: list[str],
    removed: list[str],
    diags: list[Diagnostic],
    as_json: bool,
) -> None:
    rows = [_row(o, stored.get(o.key)) for o in plugin.user_config]
    if as_json:
        document = {
            "plugin": plugin.name,
            "store": str(store_path(layout)),
            "changed": changed,
            "removed": removed,
            "options": rows,
        }
        out.print_json(document, diags)
        return
    if not plugin.user_config:
        out.say(f"plugin {plugin.name} declares no userConfig options")
    else:
        grid = out.table("option", "type", "value", "from")
        for option, row in zip(plugin.user_config, rows, strict=True):
            shown = show_value(option, row["value"])
            grid.add_row(*(out.safe(c) for c in (option.key, option.type, shown, row["from"])))
        out.console().print(grid)
    for found in diags:
        out.say(f"{found.code}: {found.message}")


def _row(option: UserOption, value: Any) -> dict[str, Any]:
    """One option with its value (masked when sensitive) and where it comes from."""
    source = "set" if value not in (None, "") else "default" if option.default is not None else ""
    if not source:
        source = "missing" if option.required else "unset"
    shown = option.default if source == "default" else value if source == "set" else None
    if isinstance(shown, tuple):
        shown = list(shown)
    if option.sensitive and shown is not None:
        shown = "***"
    return {**option.to_json(), "value": shown, "from": source}

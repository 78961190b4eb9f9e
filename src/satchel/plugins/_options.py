"""Where a plugin's ``userConfig`` values are kept, and what they read as at run time.

Values that are not sensitive are kept in ``<config dir>/<client>/plugin-options.json``
(``~/.config/satchel/plugin-options.json``, beside ``config.toml`` and the
marketplaces), ``{"version": 1, "plugins": {"<plugin>": {"<key>": value}}}``, keyed by
Claude Code's id for a plugin it installed (``name@marketplace``), else the name.
Sensitive values go to the system keyring through `keyring` (service ``<client>
plugin options``, user ``<plugin>/<key>``), as Claude Code keeps them in the keychain.
A keyring that is missing or fails is ``plugin.config.store``: the value is not kept
(never written to the file instead) and, at run time, reads as unset.

Reading values reads files and the keyring only; nothing runs. The keyring is touched
only for a plugin that declares a sensitive option.

`unset_options` names each required option that has no value and no default, one
``plugin.config.unset`` per option, when the plugin loads (`satchel.load`: the options
that are not sensitive, from the file; loading leaves the keyring alone) and in
``satchel doctor`` (the sensitive ones too, from the keyring). ``satchel plugin
inspect`` reads one directory as its author, with no user's store, and does not
report it. The plugin still loads; the
components that name the option do not start (``plugin.config.missing``, at start).
Claude Code 2.1.332 also loads such a plugin: ``claude plugin install``/``enable``
print "N userConfig option(s) not yet set (M required) — run /plugin configure NAME in
Claude Code, or pass --config KEY=VALUE." (its binary), and a server needing one is
"not started: it needs configuration"; satchel names each option instead of counting.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import write_atomic
from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations._contain import probe_json
from satchel.plugins._model import Plugin
from satchel.plugins.components._user_config import effective_values

__all__ = [
    "STORE",
    "OptionValues",
    "option_values",
    "stored_values",
    "unset_options",
    "write_values",
]

STORE = "plugin-options.json"
VERSION = 1
CODE = "plugin.config.store"
UNSET = "plugin.config.unset"


@model
class OptionValues:
    """What a plugin's options read as: each value as text, the required options that
    have none, and what went wrong reading them. `values` may hold sensitive values:
    it is never printed (its `repr` names the keys only)."""

    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    missing: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def __repr__(self) -> str:
        return f"OptionValues(keys={sorted(self.values)!r}, missing={self.missing!r})"


def store_path(layout: Layout) -> Path:
    """The file holding the values that are not sensitive."""
    return layout.config_home / layout.client / STORE


def plugin_key(plugin: Plugin) -> str:
    """The id values are kept under."""
    return plugin.installed or plugin.name


def option_values(layout: Layout, plugin: Plugin, *, secrets: bool = True) -> OptionValues:
    """What `plugin`'s options read as now (none when it declares none); without
    `secrets` the keyring is not read (a sensitive option then reads as unset)."""
    if not plugin.user_config:
        return OptionValues()
    stored, diags = stored_values(layout, plugin, secrets=secrets)
    values, missing = effective_values(plugin.user_config, stored)
    return OptionValues(MappingProxyType(values), missing, tuple(diags))


def unset_options(
    layout: Layout, plugins: Iterable[Plugin], *, sensitive: bool = False
) -> tuple[Diagnostic, ...]:
    """One ``plugin.config.unset`` per required option of the enabled `plugins` with no
    value and no default: the options that are not sensitive (read from the file), or,
    with `sensitive`, the sensitive ones (read from the keyring). A store that cannot
    be read is reported once."""
    found: dict[Diagnostic, None] = {}
    for plugin in plugins:
        chosen = tuple(o for o in plugin.user_config if o.sensitive is sensitive and o.required)
        if not plugin.enabled or not chosen or all(o.default is not None for o in chosen):
            continue
        read = option_values(layout, plugin, secrets=sensitive)
        found.update(dict.fromkeys(read.diagnostics))
        for option in chosen:
            if option.key in read.missing:
                found[_unset(plugin, option.key)] = None
    return tuple(found)


def _unset(plugin: Plugin, key: str) -> Diagnostic:
    message = (
        f"plugin {plugin.name!r}: required option {key!r} has no value and no default; "
        "the components that name it do not start"
    )
    hint = f"satchel plugin configure {plugin.name}"
    return diagnostic(UNSET, message, plugin.root, hint=hint)


def stored_values(
    layout: Layout, plugin: Plugin, *, secrets: bool = True
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The values set for `plugin` (file and, with `secrets`, keyring), and what could
    not be read."""
    data, diags = _read(layout)
    row = data.get(plugin_key(plugin), {})
    found = dict(row) if isinstance(row, dict) else {}
    sensitive = [o.key for o in plugin.user_config if o.sensitive]
    for key in sensitive:
        found.pop(key, None)  # a sensitive value is never read from the file
    if sensitive and secrets:
        kept, problem = _keyring_read(layout, plugin_key(plugin), sensitive)
        found.update(kept)
        diags.extend(problem)
    return found, diags


def write_values(
    layout: Layout, plugin: Plugin, values: Mapping[str, Any], unset: Iterable[str] = ()
) -> list[Diagnostic]:
    """Keep `values` and forget `unset` for `plugin`; the diagnostics of what failed.
    Sensitive values go to the keyring first: when it fails, nothing is written."""
    sensitive = {o.key for o in plugin.user_config if o.sensitive}
    gone = list(unset)
    secret = {k: v for k, v in values.items() if k in sensitive}
    problems = _keyring_write(
        layout, plugin_key(plugin), secret, [k for k in gone if k in sensitive]
    )
    if problems:
        return problems
    data, diags = _read(layout)
    if diags:
        return diags
    row = dict(data.get(plugin_key(plugin)) or {})
    row.update(
        {k: list(v) if isinstance(v, tuple) else v for k, v in values.items() if k not in sensitive}
    )
    for key in gone:
        row.pop(key, None)
    data[plugin_key(plugin)] = row
    if not row:
        data.pop(plugin_key(plugin))
    path = store_path(layout)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"version": VERSION, "plugins": data}, indent=2) + "\n")
        os.chmod(path, 0o600)
    except OSError as e:
        return [diagnostic(CODE, f"{STORE} cannot be written: {e.strerror or e}", path)]
    return []


def _read(layout: Layout) -> tuple[dict[str, Any], list[Diagnostic]]:
    path = store_path(layout)
    if not os.path.lexists(path):
        return {}, []
    data, problem = probe_json(path)
    if problem is None and not (isinstance(data, dict) and data.get("version") == VERSION):
        problem = "it is not a version 1 record"
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if problem is None and not isinstance(plugins, dict):
        problem = "its plugins must be an object"
    if problem is not None:
        return {}, [diagnostic(CODE, f"{STORE}: {problem}; its values are not used", path)]
    assert isinstance(plugins, dict)
    return dict(plugins), []


def _service(layout: Layout) -> str:
    return f"{layout.client} plugin options"


def _keyring_read(
    layout: Layout, plugin: str, keys: list[str]
) -> tuple[dict[str, Any], list[Diagnostic]]:
    try:
        import keyring  # only for a plugin with a sensitive option

        found = {k: keyring.get_password(_service(layout), f"{plugin}/{k}") for k in keys}
    except Exception as e:  # noqa: BLE001  # any keyring failure is a diagnostic, never a traceback
        return {}, [_keyring_problem("read", plugin, e)]
    return {k: _decoded(v) for k, v in found.items() if v is not None}, []


def _decoded(text: str) -> Any:
    """A keyring entry as the value it holds (kept as JSON; plain text as it is)."""
    try:
        return loads(text)
    except ValueError:  # not JSON, or nested too deep
        return text


def _keyring_write(
    layout: Layout, plugin: str, values: Mapping[str, Any], unset: list[str]
) -> list[Diagnostic]:
    if not values and not unset:
        return []
    try:
        import keyring
        from keyring.errors import PasswordDeleteError

        for key, value in values.items():
            kept = json.dumps(list(value) if isinstance(value, tuple) else value)
            keyring.set_password(_service(layout), f"{plugin}/{key}", kept)
        for key in unset:
            with contextlib.suppress(PasswordDeleteError):  # nothing was kept
                keyring.delete_password(_service(layout), f"{plugin}/{key}")
    except Exception as e:  # noqa: BLE001  # any keyring failure is a diagnostic, never a traceback
        return [_keyring_problem("write", plugin, e)]
    return []


def _keyring_problem(verb: str, plugin: str, e: Exception) -> Diagnostic:
    why = " ".join(str(e).split()) or type(e).__name__
    message = (
        f"the system keyring cannot {verb} the sensitive options of {plugin!r} ({why}); "
        "they are not kept anywhere else"
    )
    hint = "install a keyring backend (see the keyring package), or set PYTHON_KEYRING_BACKEND"
    return diagnostic(CODE, message, hint=hint)

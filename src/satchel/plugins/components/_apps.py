"""Codex apps: the ChatGPT connectors a Codex plugin declares in its ``.app.json``.

    {"apps": {"github": {"id": "connector_76869538009648d5b282a4bb21c3d157"},
              "atlassian": {"id": "connector_692d...", "capabilities": ["read", "write"]}}}

The manifest's ``apps`` names the file (``"apps": "./.app.json"``, a plugin-relative
path); without the field a root ``.app.json`` is read (Codex 0.171.0 names
``.app.json`` beside ``.mcp.json`` among its plugin defaults; the default is read off
its binary, not from a document). Each key of ``apps`` is the app's name; ``id`` is the
connector id (a non-blank string, required) and ``capabilities`` an optional list of
strings. The shape is the one all 154 ``.app.json`` files of github.com/openai/plugins
share (153 declare one app, ``plugins/codex-security`` three); another key of an app
is kept out of the model and reported.

A bad file drops every app of the plugin (``plugin.apps.invalid``, one per problem); a
bad app drops that app. An app is a declaration: Codex resolves the id against the
ChatGPT account's connectors, a service satchel cannot reach, so each plugin that
declares apps gets one ``plugin.apps.unavailable`` (info) naming them. Nothing is run
or fetched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import bounded, str_list, with_json
from satchel.plugins._model import App

__all__ = ["FILE", "MAX_APPS", "load_apps", "unavailable"]

FILE = ".app.json"
MAX_APPS = 128
INVALID = "plugin.apps.invalid"
_FIELDS = ("id", "capabilities")


def load_apps(path: Path, root: Path, plugin: str) -> tuple[tuple[App, ...], list[Diagnostic]]:
    """The apps the file at `path` (inside the real root `root`) declares, and the
    problems found; nothing when the file is absent."""
    return with_json(path, root, INVALID, lambda data: _apps(data, path, plugin), resolved=True)


def unavailable(apps: tuple[App, ...], plugin: str) -> Diagnostic | None:
    """The one note that the plugin's apps are declared and not reachable here."""
    if not apps:
        return None
    names = ", ".join(f"{a.name} ({a.id})" for a in apps)
    message = (
        f"plugin {plugin!r} declares Codex apps that satchel cannot reach (they are "
        f"ChatGPT connectors Codex resolves for the signed-in account): {names}"
    )
    return diagnostic("plugin.apps.unavailable", message, apps[0].path)


def _apps(data: Any, path: Path, plugin: str) -> tuple[tuple[App, ...], list[Diagnostic]]:
    if not isinstance(data, dict):
        return (), [_invalid(f"{FILE} must be a JSON object, not {type_name(data)}", path)]
    extra = [k for k in data if k != "apps"]
    table = data.get("apps", {})
    problem = bounded(
        table,
        dict,
        "apps must be an object of apps by name",
        MAX_APPS,
        lambda n: f"{n} apps are declared; the limit is {MAX_APPS}",
    )
    if problem is not None:
        return (), [_invalid(problem, path)]
    problems = [diagnostic(INVALID, f"`{k}` is not a field of {FILE}; it is ignored", path)
                for k in extra]  # fmt: skip
    found: list[App] = []
    for name, entry in table.items():
        app, why = _app(name, entry, path, plugin)
        problems.extend(diagnostic(INVALID, f"app {name!r}: {w}", path) for w in why)
        if app is not None:
            found.append(app)
    return tuple(found), problems


def _invalid(why: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, f"{why}; no app of this plugin loads", path)


def _app(name: str, entry: Any, path: Path, plugin: str) -> tuple[App | None, list[str]]:
    if not isinstance(entry, dict):
        return None, [f"must be an object, not {type_name(entry)}; it is dropped"]
    ident = entry.get("id")
    if not isinstance(ident, str) or not ident.strip():
        return None, ["id must be a non-blank string; it is dropped"]
    capabilities = entry.get("capabilities", [])
    if not str_list(capabilities):
        return None, ["capabilities must be a list of strings; it is dropped"]
    notes = [f"`{k}` is not an app field; it is ignored" for k in entry if k not in _FIELDS]
    return App(name, ident, tuple(capabilities), path, plugin), notes

"""Codex apps: a Codex plugin's ``.app.json`` read into `Plugin.apps`, each plugin's apps
noted as not reachable here, and every bad file or app reported.

`openai-alpaca/` is a copy of ``plugins/alpaca/.codex-plugin/plugin.json`` and
``plugins/alpaca/.app.json`` from github.com/openai/plugins at commit 3fdeeb49 (MIT, as
its manifest says); its icon is left out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from satchel.plugins import read_plugin
from satchel.plugins.components._apps import load_apps
from tests.support import codes, put

ALPACA = Path(__file__).parent / "openai-alpaca"
ALPACA_ID = "connector_691f721a77bc8191be115b65c85075c0"
# plugins/codex-security/.app.json's shape: three apps, one asking for capabilities
SECURITY = {
    "apps": {
        "linear": {"id": "asdk_app_69a089a326dc8191b32a3f2553f5be2c"},
        "github": {"id": "connector_76869538009648d5b282a4bb21c3d157"},
        "atlassian": {"id": "connector_692de805e3ec8191834719067174a384",
                      "capabilities": ["read", "write"]},
    }
}  # fmt: skip


def apps_of(root: Path, doc: Any):
    path = put(root, ".app.json", json.dumps(doc))
    return load_apps(path, root, "demo")


def test_a_real_openai_plugin_lists_its_app(tmp_path: Path):
    root = tmp_path / "alpaca"
    shutil.copytree(ALPACA, root)
    plugin, diags = read_plugin(root)
    assert plugin is not None and plugin.format == "codex"
    assert [a.to_json() for a in plugin.apps] == [
        {
            "name": "alpaca",
            "id": ALPACA_ID,
            "capabilities": [],
            "path": str(root.resolve() / ".app.json"),
            "plugin": "alpaca",
        }
    ]
    assert plugin.components()["apps"] == 1
    [note] = diags
    assert (note.code, note.severity) == ("plugin.apps.unavailable", "info")
    assert note.message == (
        "plugin 'alpaca' declares Codex apps that satchel cannot reach (they are ChatGPT "
        f"connectors Codex resolves for the signed-in account): alpaca ({ALPACA_ID})"
    )


def test_several_apps_keep_their_order_and_capabilities(root: Path):
    apps, diags = apps_of(root, SECURITY)
    assert diags == []
    assert [(a.name, a.capabilities) for a in apps] == [
        ("linear", ()),
        ("github", ()),
        ("atlassian", ("read", "write")),
    ]


def test_without_the_field_a_root_app_json_is_read(root: Path):
    put(root, ".codex-plugin/plugin.json", json.dumps({"name": "sec"}))
    put(root, ".app.json", json.dumps(SECURITY))
    plugin, diags = read_plugin(root)
    assert plugin is not None and [a.name for a in plugin.apps] == ["linear", "github", "atlassian"]
    assert codes(diags) == ["plugin.apps.unavailable"]


def test_a_bad_file_drops_every_app(root: Path):
    apps, diags = apps_of(root, {"apps": [{"id": "x"}]})
    assert apps == ()
    assert [(d.code, d.message) for d in diags] == [
        ("plugin.apps.invalid", "apps must be an object of apps by name, not a list; "
         "no app of this plugin loads"),
    ]  # fmt: skip


def test_a_bad_app_is_dropped_and_the_rest_load(root: Path):
    doc = {
        "apps": {
            "blank": {"id": " "},
            "caps": {"id": "c1", "capabilities": "read"},
            "good": {"id": "g1", "scopes": ["x"]},
        },
        "version": 2,
    }
    apps, diags = apps_of(root, doc)
    assert [a.name for a in apps] == ["good"]
    assert [(d.code, d.message) for d in diags] == [
        ("plugin.apps.invalid", "`version` is not a field of .app.json; it is ignored"),
        ("plugin.apps.invalid", "app 'blank': id must be a non-blank string; it is dropped"),
        ("plugin.apps.invalid",
         "app 'caps': capabilities must be a list of strings; it is dropped"),
        ("plugin.apps.invalid", "app 'good': `scopes` is not an app field; it is ignored"),
    ]  # fmt: skip


def test_an_apps_path_leaving_the_root_is_refused(root: Path):
    put(root, ".codex-plugin/plugin.json", json.dumps({"name": "sec", "apps": "../x.json"}))
    plugin, diags = read_plugin(root)
    assert plugin is not None and plugin.apps == ()
    assert codes(diags) == ["plugin.path.outside_root"]

"""A Claude Code plugin's language servers: ``.lsp.json`` and manifest ``lspServers``,
read as the pinned Claude Code reads them (its ``provides.lspServers``), and each bad
shape refused with its rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel.plugins import read_plugin
from tests.support import codes, put
from tests.tools import claude_validate

GO = {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}}
PY = {"command": "pylsp", "extensionToLanguage": {".py": "python", ".pyi": "python"}}


def tree(root: Path, lsp: Any = None, **manifest: Any) -> Path:
    fields = {"name": "kit", "version": "1.0.0", "description": "d", "author": {"name": "a"}}
    put(root, ".claude-plugin/plugin.json", json.dumps({**fields, **manifest}))
    if lsp is not None:
        put(root, ".lsp.json", lsp if isinstance(lsp, str) else json.dumps(lsp))
    return root


def validate(claude_code: Path, root: Path, tmp_path: Path) -> dict[str, Any]:
    """The pinned Claude Code's ``validate --json`` report on `root`."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return claude_validate(claude_code, root, home)


def servers(root: Path):
    plugin, diags = read_plugin(root)
    assert plugin is not None, diags
    return plugin, diags


def test_every_field_is_read_and_claude_placeholders_become_portable(root):
    entry = {
        "command": "${CLAUDE_PLUGIN_ROOT}/bin/ls",
        "args": ["--log", "${CLAUDE_PLUGIN_DATA}/log"],
        "extensionToLanguage": {".ts": "typescript", ".tsx": "typescriptreact"},
        "transport": "stdio",
        "env": {"LIB": "${CLAUDE_PLUGIN_ROOT}/lib"},
        "initializationOptions": {"preferences": {"quote": "single"}},
        "settings": {"ts": {"format": True}},
        "workspaceFolder": "web",
        "startupTimeout": 5000,
        "shutdownTimeout": 1000,
        "restartOnCrash": True,
        "maxRestarts": 0,
    }
    plugin, diags = servers(tree(root, {"ts": entry}))
    [server] = plugin.lsp_servers
    assert diags == []
    assert server.to_json() == {
        "name": "ts",
        "command": "./bin/ls",
        "args": ["--log", "${PLUGIN_DATA}/log"],
        "extensions": {".ts": "typescript", ".tsx": "typescriptreact"},
        "languages": ["typescript", "typescriptreact"],
        "transport": "stdio",
        "env": {"LIB": "${PLUGIN_ROOT}/lib"},
        "initialization_options": {"preferences": {"quote": "single"}},
        "settings": {"ts": {"format": True}},
        "workspace_folder": "web",
        "startup_timeout": 5000,
        "shutdown_timeout": 1000,
        "restart_on_crash": True,
        "max_restarts": 0,
        "plugin": "kit",
        "path": str(root / ".lsp.json"),
    }
    assert (server.language_of("app/page.tsx"), server.language_of("README")) == (
        "typescriptreact",
        None,
    )
    assert plugin.components()["lsp_servers"] == 1
    assert plugin.to_json()["lsp_servers"] == [server.to_json()]


def test_the_default_file_a_listed_file_and_an_inline_object_all_load(root):
    put(
        root,
        "more/servers.json",
        json.dumps({"rs": {**GO, "extensionToLanguage": {".rs": "rust"}}}),
    )
    tree(root, {"py": PY}, lspServers=["./more/servers.json", {"go": GO}])
    plugin, diags = servers(root)
    assert diags == []
    assert [(s.name, s.path) for s in plugin.lsp_servers] == [
        ("py", root / ".lsp.json"),
        ("rs", root / "more/servers.json"),
        ("go", root / ".claude-plugin/plugin.json"),
    ]


def test_the_names_are_claude_codes(claude_code: Path, tmp_path: Path):
    root = tree(tmp_path / "kit", {"py": PY}, lspServers={"go": GO})
    provides = validate(claude_code, root, tmp_path)["provides"]
    plugin, _ = servers(root)
    mine = [
        {"name": s.name, "command": s.command, **({"args": list(s.args)} if s.args else {})}
        for s in plugin.lsp_servers
    ]
    assert sorted(provides["lspServers"], key=str) == sorted(mine, key=str)


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ({"extensionToLanguage": {".x": "x"}}, "it has no command"),
        ({"command": "", "extensionToLanguage": {".x": "x"}}, "command must be a non-empty string"),
        ({"command": "go pls", "extensionToLanguage": {".x": "x"}},
         "command 'go pls' holds whitespace; put its arguments in args"),
        ({"command": "x"}, "it has no extensionToLanguage"),
        ({"command": "x", "extensionToLanguage": {}},
         "extensionToLanguage must have at least one mapping"),
        ({"command": "x", "extensionToLanguage": {"go": "go"}},
         "extensionToLanguage key 'go' must be an extension such as '.py'"),
        ({**PY, "transport": "tcp"}, "transport must be 'stdio' or 'socket', not 'tcp'"),
        ({**PY, "startupTimeout": 0}, "startupTimeout must be an integer > 0, not 0"),
        ({**PY, "shutdownTimeout": 1.5}, "shutdownTimeout must be an integer > 0, not 1.5"),
        ({**PY, "maxRestarts": -1}, "maxRestarts must be an integer >= 0, not -1"),
        ({**PY, "restartOnCrash": "yes"}, "restartOnCrash must be true or false, not a string"),
        ({**PY, "args": [1]}, "args must be a list of strings"),
        ({**PY, "bogus": 1}, "unknown field 'bogus'"),
        ({**PY, "env": {"LD_PRELOAD": "x.so"}},
         "env sets LD_PRELOAD, which is refused: it can make the server process run code "
         "its command does not name"),
        ({**PY, "env": {"CLAUDE_PLUGIN_ROOT": "/x"}},
         "env sets CLAUDE_PLUGIN_ROOT, which satchel sets for every plugin server"),
    ],
)  # fmt: skip
def test_a_bad_entry_is_dropped_and_the_others_load(root, entry, why):
    plugin, diags = servers(tree(root, {"bad": entry, "py": PY}))
    assert [s.name for s in plugin.lsp_servers] == ["py"]
    assert [(d.code, d.message) for d in diags] == [
        ("plugin.lsp.invalid", f"language server 'bad': {why}; it is not loaded")
    ]


def test_claude_code_refuses_the_whole_plugin_where_satchel_drops_one_entry_on_purpose(
    claude_code: Path, tmp_path: Path
):
    """Rule: loaders collect, never stop (docs/architecture.md)."""
    root = tree(tmp_path / "kit", lspServers={"bad": {**GO, "command": "go pls"}, "py": PY})
    report = validate(claude_code, root, tmp_path)
    assert report["provides"] is None
    assert [e["path"] for e in report["manifest"]["errors"]] == ["lspServers.bad.command"]
    plugin, diags = servers(root)
    assert ([s.name for s in plugin.lsp_servers], codes(diags)) == (["py"], ["plugin.lsp.invalid"])


def test_a_command_leaving_the_root_is_outside_root(root):
    plugin, diags = servers(tree(root, {"up": {**PY, "command": "./../x"}}))
    assert plugin.lsp_servers == ()
    assert codes(diags) == ["plugin.path.outside_root"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", ".lsp.json must be a JSON object mapping server names to entries, not a list; "
                "no language server of this file loads"),
        ('{"py":', None),
    ],
)  # fmt: skip
def test_a_bad_lsp_json_loads_no_server_of_it(root, text, message):
    plugin, diags = servers(tree(root, text, lspServers={"go": GO}))
    assert [s.name for s in plugin.lsp_servers] == ["go"]
    assert codes(diags) == ["plugin.lsp.invalid"]
    if message is not None:
        assert diags[0].message == message


def test_a_missing_listed_file_and_a_name_declared_twice_are_reported(root):
    plugin, diags = servers(tree(root, {"py": PY}, lspServers=["./none.json", {"py": GO}]))
    assert [(s.name, s.command) for s in plugin.lsp_servers] == [("py", "pylsp")]
    assert [(d.code, d.message) for d in diags] == [
        ("plugin.lsp.invalid", "`lspServers` names none.json, which does not exist"),
        (
            "plugin.lsp.invalid",
            f"language server 'py' is declared again; the one in {root / '.lsp.json'} is kept",
        ),
    ]


def test_lsp_servers_of_the_wrong_type_make_the_manifest_invalid(root):
    plugin, diags = read_plugin(tree(root, lspServers=5))
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.invalid"]

"""Claude Code's .mcp.json (both shapes) and the bundle's [servers.<name>] TOML tables
(mermaid), which also serve a manifest's inline mcpServers object."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from satchel.mcp._parse import load_server_files, parse_claude_mcp, parse_server_tables
from tests.plugins.helpers import write_json_file
from tests.support import codes, put

SERVERS = {
    "github": {
        "command": "${CLAUDE_PLUGIN_ROOT}/bin/github-mcp",
        "args": ["--config", "${CLAUDE_PLUGIN_ROOT}/config.json", "--cache=${CLAUDE_PLUGIN_DATA}"],
        "env": {"STATE": "${CLAUDE_PLUGIN_DATA}/state", "TOKEN": "${GITHUB_TOKEN}"},
    },
    "docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"X-Key": "${KEY}"}},
    "events": {"type": "sse", "url": "https://events.example.com/sse"},
}


def claude(root: Path, doc: Any):
    return parse_claude_mcp(write_json_file(root / ".mcp.json", doc), root, "demo")


def claude_one(root: Path, entry: dict[str, Any]):
    return claude(root, {"s": entry})


@pytest.mark.parametrize("wrapped", [True, False])
def test_both_shapes_load_the_same_servers(root, wrapped):
    servers, diags = claude(root, {"mcpServers": SERVERS} if wrapped else SERVERS)
    assert diags == []
    github, docs, events = servers
    assert (github.transport, github.command) == ("stdio", "./bin/github-mcp")
    assert github.args == ("--config", "${PLUGIN_ROOT}/config.json", "--cache=${PLUGIN_DATA}")
    assert dict(github.env) == {"STATE": "${PLUGIN_DATA}/state", "TOKEN": "${GITHUB_TOKEN}"}
    assert (docs.transport, docs.url) == ("streamable-http", "https://docs.example.com/mcp")
    assert dict(docs.headers) == {"X-Key": "${KEY}"}
    assert events.transport == "sse"
    assert {s.plugin for s in servers} == {"demo"}
    assert {s.path for s in servers} == {root / ".mcp.json"}


def test_a_schema_key_in_the_bare_map_is_not_a_server(root):
    servers, diags = claude(root, {"$schema": "x", **SERVERS})
    assert diags == [] and len(servers) == 3


def test_type_is_inferred_from_command_or_url(root):
    servers, diags = claude(root, {"a": {"command": "node"}, "b": {"url": "https://x.example/mcp"}})
    assert diags == []
    assert [s.transport for s in servers] == ["stdio", "streamable-http"]


@pytest.mark.parametrize("kind", ["stdio", "streamable-http"])
def test_explicit_types_load(root, kind):
    entry = (
        {"type": kind, "command": "node"}
        if kind == "stdio"
        else {"type": kind, "url": "https://x.example"}
    )
    servers, diags = claude_one(root, entry)
    assert diags == [] and servers[0].transport == kind


def test_unknown_entry_fields_are_kept_in_extras(root):
    entry = {"command": "node", "timeout": 30, "headersHelper": "./h.sh", "disabled": False}
    servers, diags = claude_one(root, entry)
    assert diags == []
    assert dict(servers[0].extras) == {"timeout": 30, "headersHelper": "./h.sh", "disabled": False}


def test_a_cwd_is_normalised_and_checked(root):
    servers, diags = claude_one(root, {"command": "node", "cwd": "${CLAUDE_PLUGIN_ROOT}/srv"})
    assert diags == [] and servers[0].cwd == "${PLUGIN_ROOT}/srv"
    _, diags = claude_one(root, {"command": "node", "cwd": "${CLAUDE_PLUGIN_ROOT}/.."})
    assert codes(diags) == ["plugin.path.outside_root"]


@pytest.mark.parametrize(
    ("entry", "code", "words"),
    [
        (
            {"type": "ws", "url": "wss://x.example"},
            "plugin.mcp.transport_unsupported",
            "transport 'ws'",
        ),
        (
            {"command": "node", "url": "https://x.example"},
            "plugin.mcp.invalid",
            "both command and url",
        ),
        ({"args": []}, "plugin.mcp.invalid", "it has neither command nor url"),
        (
            {"command": "${CLAUDE_PLUGIN_ROOT}/../x"},
            "plugin.path.outside_root",
            "outside the plugin root",
        ),
        ({"command": "${CLAUDE_PLUGIN_DATA}/bin/x"}, "plugin.mcp.invalid", "holds a placeholder"),
        ({"command": "bin/x"}, "plugin.mcp.invalid", "must be a bare name"),
        (
            {"command": "node", "env": {"CLAUDE_PLUGIN_ROOT": "/x"}},
            "plugin.mcp.invalid",
            "env sets CLAUDE_",
        ),
        (
            {"command": "node", "env": {"PLUGIN_DATA": "/x"}},
            "plugin.mcp.invalid",
            "env sets PLUGIN_DATA",
        ),
        (
            {"command": "node", "env": {"NODE_OPTIONS": "-r x"}},
            "plugin.mcp.invalid",
            "which is refused",
        ),
        ({"url": "http://example.com/mcp"}, "plugin.mcp.invalid", "uses plain http"),
        ({"url": "https://u:p@example.com/mcp"}, "plugin.mcp.invalid", "user information"),
        ("node", "plugin.mcp.invalid", "the entry must be an object, not a string"),
    ],
)
def test_claude_entries_that_are_refused(root, entry, code, words):
    servers, diags = claude(root, {"bad": entry, "good": {"command": "node"}})
    assert [s.name for s in servers] == ["good"]
    assert codes(diags) == [code]
    assert words in diags[0].message


def test_an_absolute_command_is_allowed_as_claude_code_allows_it(root):
    servers, diags = claude_one(root, {"command": "/usr/local/bin/server"})
    assert diags == [] and servers[0].command == "/usr/local/bin/server"


@pytest.mark.parametrize("doc", [[], "x", {"mcpServers": []}])
def test_a_bad_top_level_loads_nothing(root, doc):
    servers, diags = claude(root, doc)
    assert servers == () and codes(diags) == ["plugin.mcp.invalid"]
    assert diags[0].message.endswith("; no MCP server of this plugin loads")


def test_a_missing_claude_file_is_no_error(root):
    assert parse_claude_mcp(root / ".mcp.json", root, "demo") == ((), [])


def test_invalid_json_has_a_line(root):
    servers, diags = parse_claude_mcp(put(root / ".mcp.json", '{\n"a": }'), root, "demo")
    assert servers == () and diags[0].line == 2


# --- the bundle's [servers.<name>] tables -------------------------------------------


def tables(root: Path, value: Any):
    return parse_server_tables(value, root=root, plugin="demo", path=root / "servers.toml")


def test_server_tables_in_the_host_config_shape(root):
    put(root / "bin" / "serve", "#!/bin/sh\n")
    servers, diags = tables(
        root,
        {
            "local": {"command": "./bin/serve", "args": ["-v"], "env": {"A": "1"}, "cwd": "./"},
            "path": {"command": "uvx", "args": ["pkg"], "enabled": True},
            "remote": {"url": "https://x.example/mcp", "headers": {"A": "b"}},
            "legacy": {"transport": "sse", "url": "https://x.example/sse"},
            "typed": {"type": "http", "url": "https://x.example/mcp"},
        },
    )
    assert diags == []
    local, path, remote, legacy, typed = servers
    assert (local.command, local.args, dict(local.env), local.cwd) == (
        "./bin/serve",
        ("-v",),
        {"A": "1"},
        "./",
    )
    assert path.command == "uvx" and dict(path.extras) == {"enabled": True}
    assert remote.transport == "streamable-http"
    assert legacy.transport == "sse" and legacy.extras == {}
    assert typed.transport == "streamable-http"


def test_server_tables_contain_dot_slash_commands(root):
    servers, diags = tables(root, {"x": {"command": "./../../bin/sh"}})
    assert servers == () and codes(diags) == ["plugin.path.outside_root"]


def test_server_tables_allow_an_absolute_command_and_a_path_lookup(root):
    servers, diags = tables(root, {"a": {"command": "/usr/bin/env"}, "b": {"command": "node"}})
    assert diags == [] and [s.command for s in servers] == ["/usr/bin/env", "node"]


def test_server_tables_normalise_claude_placeholders_for_inline_manifests(root):
    entry = {"command": "${CLAUDE_PLUGIN_ROOT}/bin/x", "args": ["${CLAUDE_PLUGIN_DATA}"]}
    servers, diags = tables(root, {"x": entry})
    assert diags == []
    assert (servers[0].command, servers[0].args) == ("./bin/x", ("${PLUGIN_DATA}",))


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"transport": "stdio", "type": "sse", "command": "x"}, "transport and type disagree"),
        ({"transport": "grpc", "url": "https://x.example"}, "transport 'grpc' is not supported"),
        ({"command": "x", "env": {"LD_PRELOAD": "/x.so"}}, "env sets LD_PRELOAD, which is refused"),
        ({"command": "x", "args": "a b"}, "args must be a list of strings"),
        (["x"], "the entry must be a table, not a list"),
    ],
)
def test_server_tables_refuse_bad_entries(root, entry, words):
    servers, diags = tables(root, {"bad": entry})
    assert servers == ()
    assert words in diags[0].message


def test_server_tables_that_are_not_a_table(root):
    servers, diags = tables(root, ["x"])
    assert servers == () and codes(diags) == ["plugin.mcp.invalid"]
    assert "the servers must be a table (name -> server), not a list" in diags[0].message


def test_load_server_files_reads_each_file_and_keeps_the_first_of_a_name(root):
    one = put(
        root / "mcp" / "one.toml",
        '[servers.a]\ncommand = "node"\n[servers.b]\nurl = "https://x.example"\n',
    )
    two = put(
        root / "mcp" / "two.toml",
        '[servers.a]\ncommand = "python3"\n[servers.c]\ncommand = "uvx"\n',
    )
    servers, diags = load_server_files([one, two], root, "demo")
    assert [(s.name, s.path) for s in servers] == [("a", one), ("b", one), ("c", two)]
    assert servers[0].command == "node"
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert diags[0].path == two
    assert f"MCP server 'a' is declared again; the one in {one} is kept" == diags[0].message


def test_load_server_files_reports_each_bad_file_and_loads_the_rest(root, tmp_path):
    good = put(root / "good.toml", '[servers.ok]\ncommand = "node"\n')
    broken = put(root / "broken.toml", '[servers.x]\ncommand = "node\n')
    empty = put(root / "empty.toml", "title = 'no servers'\n")
    big = put(root / "big.toml", "# " + "x" * (1 << 20) + "\n")
    outside = put(tmp_path / "outside.toml", '[servers.evil]\ncommand = "sh"\n')
    (root / "linked.toml").symlink_to(outside)
    missing = root / "missing.toml"
    paths = [good, broken, empty, big, root / "linked.toml", missing]
    servers, diags = load_server_files(paths, root, "demo")
    assert [s.name for s in servers] == ["ok"]
    assert [(d.code, d.path) for d in diags] == [
        ("plugin.mcp.invalid", broken),
        ("plugin.mcp.invalid", empty),
        ("plugin.mcp.invalid", big),
        ("plugin.path.outside_root", root / "linked.toml"),
        ("plugin.mcp.invalid", missing),
    ]
    assert diags[0].line == 2 and "not valid TOML" in diags[0].message
    assert diags[1].message == "the file has no [servers.<name>] tables"
    assert "the limit is 1048576" in diags[2].message
    assert diags[4].message == "cannot read the MCP servers file: no such file"


def test_load_server_files_servers_not_a_table(root):
    path = put(root / "s.toml", 'servers = "x"\n')
    servers, diags = load_server_files([path], root, "demo")
    assert servers == () and "not a string" in diags[0].message

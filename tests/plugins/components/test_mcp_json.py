"""Agent Plugins 1.0 mcp.json (spec §7.2 and §9; Vibe's MCP rules): every rule a test.

Where the official schema can tell, it is the oracle: a fixture that loads validates
against mcp.schema.json, and one refused for a shape rule fails it too."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

from satchel.mcp._parse import SCHEMA, parse_mcp_json
from tests.plugins.helpers import MCP, REMOTE, STDIO, mcp_doc, mcp_schema_valid, write_json_file
from tests.support import codes, put


def load(root: Path, doc: Any):
    path = write_json_file(root / "mcp.json", doc) if not isinstance(doc, str | bytes) else None
    if path is None:
        path = put(root / "mcp.json", doc)
    return parse_mcp_json(path, root, "demo")


def one(root: Path, entry: dict[str, Any], *, oracle: bool | None = True):
    """Load one server entry; `oracle` is what the official schema must say (None:
    the schema cannot tell this rule)."""
    doc = mcp_doc({"s": entry})
    if oracle is not None:
        assert mcp_schema_valid(doc) is oracle
    return load(root, doc)


def refused(root: Path, entry: dict[str, Any], code: str = "plugin.mcp.invalid", **kw: Any) -> str:
    servers, diags = one(root, entry, **kw)
    assert servers == ()
    assert codes(diags) == [code]
    assert diags[0].path == root / "mcp.json"
    assert diags[0].message.startswith("MCP server 's': ")
    assert diags[0].message.endswith("; the entry is skipped")
    return diags[0].message


# --- Vibe's example and the top level ------------------------------------------------


def test_the_schema_url_is_the_spec_one():
    assert SCHEMA == MCP


def test_the_vibe_guide_example_loads_with_placeholders_kept(root):
    doc = mcp_doc(
        {
            "lookup": {**STDIO, "env": {"DEBUG": "true"}, "cwd": "./"},
            "remote-api": {**REMOTE, "headers": {"X-Custom-Header": "value"}},
        }
    )
    assert mcp_schema_valid(doc)
    servers, diags = load(root, doc)
    assert diags == []
    lookup, remote = servers
    assert (lookup.name, lookup.transport, lookup.command) == ("lookup", "stdio", "node")
    assert lookup.args == ("${PLUGIN_ROOT}/server/index.js",)
    assert dict(lookup.env) == {"DEBUG": "true"}
    assert lookup.cwd == "./"
    assert (lookup.plugin, lookup.path) == ("demo", root / "mcp.json")
    assert remote.transport == "streamable-http"
    assert remote.url == "https://api.example.com/mcp"
    assert dict(remote.headers) == {"X-Custom-Header": "value"}
    assert remote.command is None and lookup.url is None


def test_cwd_dot_from_the_vibe_guide_means_the_plugin_root(root):
    # Vibe's plugin guide writes "cwd": "."; Vibe 3.0.3 and the official schema reject it.
    doc = mcp_doc({"lookup": {**STDIO, "cwd": "."}})
    assert not mcp_schema_valid(doc)
    servers, diags = load(root, doc)
    assert diags == []
    assert servers[0].cwd == "${PLUGIN_ROOT}"


def test_an_empty_mcp_servers_object_is_valid(root):
    assert mcp_schema_valid(mcp_doc({}))
    assert load(root, mcp_doc({})) == ((), [])


def test_a_missing_file_is_no_error(root):
    assert parse_mcp_json(root / "mcp.json", root, "demo") == ((), [])


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ([], "mcp.json must be a JSON object, not a list"),
        ({"mcpServers": {}}, f"mcp.json has no $schema; it must be {MCP}"),
        (
            {
                "$schema": "https://agent-plugins.org/schemas/1.1.0/mcp.schema.json",
                "mcpServers": {},
            },
            "is an Agent Plugins version this client does not support (1.0.0)",
        ),
        (
            {
                "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
                "mcpServers": {},
            },
            f"$schema must be exactly {MCP}",
        ),
        ({"$schema": "https://example.com/x.json", "mcpServers": {}}, "$schema must be exactly"),
        ({"$schema": MCP}, "mcpServers must be an object, not null"),
        ({"$schema": MCP, "mcpServers": []}, "mcpServers must be an object, not a list"),
        (
            {"$schema": MCP, "mcpServers": {}, "servers": {}},
            "unknown top-level field 'servers': mcp.json holds exactly $schema and mcpServers",
        ),
    ],
)
def test_a_bad_top_level_disables_mcp_for_the_plugin(root, doc, words):
    assert not mcp_schema_valid(doc)
    servers, diags = load(root, doc)
    assert servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert words in diags[0].message
    assert diags[0].message.endswith("; no MCP server of this plugin loads")


def test_a_bad_top_level_drops_good_entries_too(root):
    doc = {**mcp_doc({"ok": STDIO}), "extra": 1}
    assert load(root, doc)[0] == ()


def test_invalid_json_names_line_and_column(root):
    servers, diags = load(root, '{\n  "$schema": 1,\n  oops\n}')
    assert servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert diags[0].line == 3
    assert (
        "not valid JSON: Expecting property name enclosed in double quotes (line 3, column 3)"
        in (diags[0].message)
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"$schema": "a", "$schema": "b", "mcpServers": {}}', "the key '$schema' appears twice"),
        ('{"$schema": NaN}', "NaN is not a JSON value"),
        (b'{"a": "\xff"}', "not valid UTF-8"),
        ('{"a": [' * 100_000, "not valid JSON"),
        ('{"$schema": 1, "mcpServers": {},}', "not valid JSON"),
    ],
)
def test_strict_json(root, text, words):
    servers, diags = load(root, text)
    assert servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert words in diags[0].message


def test_a_byte_order_mark_is_allowed(root):
    import json

    servers, diags = load(root, b"\xef\xbb\xbf" + json.dumps(mcp_doc({"s": STDIO})).encode())
    assert diags == [] and len(servers) == 1


def test_a_file_over_one_mib_is_refused(root):
    doc = mcp_doc({"s": {**STDIO, "args": ["x" * (1 << 20)]}})
    servers, diags = load(root, doc)
    assert servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert "the limit is 1048576 (1024 KiB)" in diags[0].message


def test_a_fifo_is_refused_without_blocking(root):
    os.mkfifo(root / "mcp.json")
    servers, diags = parse_mcp_json(root / "mcp.json", root, "demo")
    assert servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert "not a regular file" in diags[0].message


def test_an_mcp_json_symlinked_out_of_the_root_is_not_read(root, tmp_path):
    outside = write_json_file(tmp_path / "elsewhere.json", mcp_doc({"s": STDIO}))
    (root / "mcp.json").symlink_to(outside)
    servers, diags = parse_mcp_json(root / "mcp.json", root, "demo")
    assert servers == ()
    assert codes(diags) == ["plugin.path.outside_root"]
    assert diags[0].severity == "warning"


def test_an_mcp_json_symlink_inside_the_root_is_followed(root):
    write_json_file(root / "config" / "servers.json", mcp_doc({"s": STDIO}))
    (root / "mcp.json").symlink_to("config/servers.json")
    servers, diags = parse_mcp_json(root / "mcp.json", root, "demo")
    assert diags == [] and [s.name for s in servers] == ["s"]


# --- entries: closed variants, isolation ---------------------------------------------


def test_a_bad_entry_is_dropped_and_the_others_load(root):
    doc = mcp_doc({"good": STDIO, "bad": {**STDIO, "oops": 1}, "remote": REMOTE})
    servers, diags = load(root, doc)
    assert [s.name for s in servers] == ["good", "remote"]
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert diags[0].message == "MCP server 'bad': unknown field 'oops'; the entry is skipped"


def test_an_entry_without_type_is_invalid(root):
    message = refused(root, {"command": "node"}, oracle=False)
    assert "it has no type (stdio, streamable-http or sse)" in message


def test_an_entry_that_is_not_an_object_is_invalid(root):
    assert "the entry must be an object, not a string" in refused(root, "node", oracle=False)  # type: ignore[arg-type]


def test_a_type_that_is_not_a_string_is_invalid(root):
    assert "type must be a string, not a number" in refused(
        root, {"type": 1, "command": "x"}, oracle=False
    )


@pytest.mark.parametrize(
    ("entry", "field", "variant"),
    [
        ({**STDIO, "url": "https://x.example/mcp"}, "url", "stdio"),
        ({**STDIO, "headers": {}}, "headers", "stdio"),
        ({**REMOTE, "command": "node"}, "command", "streamable-http"),
        ({**REMOTE, "env": {}}, "env", "streamable-http"),
        ({"type": "sse", "url": "https://x.example/sse", "cwd": "./"}, "cwd", "sse"),
    ],
)
def test_a_field_of_another_variant_makes_the_entry_invalid(root, entry, field, variant):
    message = refused(root, entry, oracle=False)
    assert f"{field!r} is not a field of {variant} servers" in message


@pytest.mark.parametrize("entry", [{**STDIO, "timeout": 5}, {**REMOTE, "oauth": {}}])
def test_an_unknown_field_makes_the_entry_invalid(root, entry):
    assert "unknown field" in refused(root, entry, oracle=False)


@pytest.mark.parametrize("kind", ["ws", "http", "websocket", "stdio2"])
def test_other_transports_are_unsupported(root, kind):
    message = refused(
        root,
        {"type": kind, "url": "https://x.example"},
        "plugin.mcp.transport_unsupported",
        oracle=False,
    )
    assert f"transport {kind!r} is not supported" in message


def test_http_gets_a_hint(root):
    _, diags = one(root, {"type": "http", "url": "https://x.example"}, oracle=False)
    assert diags[0].hint == 'Agent Plugins calls it "streamable-http"'


def test_sse_servers_are_kept(root):
    servers, diags = one(
        root, {"type": "sse", "url": "https://x.example/sse", "headers": {"A": "b"}}
    )
    assert diags == []
    assert servers[0].transport == "sse"
    assert dict(servers[0].headers) == {"A": "b"}


# --- stdio: command ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["node", "uvx", "my-server", "python3.12"])
def test_a_bare_command_is_a_path_lookup(root, command):
    servers, diags = one(root, {"type": "stdio", "command": command})
    assert diags == [] and servers[0].command == command


def test_a_dot_slash_command_inside_the_root_loads(root):
    put(root / "bin" / "server", "#!/bin/sh\n")
    servers, diags = one(root, {"type": "stdio", "command": "./bin/server"})
    assert diags == [] and servers[0].command == "./bin/server"


def test_a_dot_slash_command_need_not_exist_yet(root):
    servers, diags = one(root, {"type": "stdio", "command": "./dist/server"})
    assert diags == [] and servers[0].command == "./dist/server"


@pytest.mark.parametrize("command", ["./../x", "./bin/../../x", "./a/./../../etc/passwd"])
def test_a_dot_slash_command_that_leaves_the_root_is_refused(root, command):
    message = refused(
        root, {"type": "stdio", "command": command}, "plugin.path.outside_root", oracle=True
    )
    assert "outside the plugin root" in message


def test_a_dot_slash_command_through_a_symlink_out_of_the_root_is_refused(root, tmp_path):
    put(tmp_path / "evil" / "server", "#!/bin/sh\n")
    (root / "bin").symlink_to(tmp_path / "evil")
    refused(root, {"type": "stdio", "command": "./bin/server"}, "plugin.path.outside_root")


def test_a_dot_slash_command_symlinked_inside_the_root_loads(root):
    put(root / "real" / "server", "#!/bin/sh\n")
    (root / "bin").symlink_to("real")
    _, diags = one(root, {"type": "stdio", "command": "./bin/server"})
    assert diags == []


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("/usr/bin/node", "command '/usr/bin/node' is absolute"),
        ("C:\\node.exe", "is absolute"),
        ("bin/server", "must be a bare name looked up on PATH or a ./path inside the plugin"),
        ("bin\\server", "must be a bare name looked up on PATH"),
        ("../server", "must be a bare name looked up on PATH"),
        ("${PLUGIN_ROOT}/bin/server", "holds a placeholder, which is not expanded there"),
        ("${PLUGIN_DATA}/server", "holds a placeholder"),
        ("npx -y pkg", "is one executable token; put its arguments in args"),
        ("./", "must name a file"),
        ("./bin/", "must name a file"),
        (".\\bin\\server", "must be a bare name looked up on PATH"),
        ("./bin\\server", "holds a backslash"),
        ("..", "must be a bare name"),
        ("node\nx", "control character"),
        ("   ", "command must be a non-empty string"),
    ],
)
def test_command_rules(root, command, words):
    assert words in refused(root, {"type": "stdio", "command": command}, oracle=None)


def test_a_command_that_names_a_directory_is_refused(root):
    (root / "bin").mkdir()
    assert "is a directory" in refused(root, {"type": "stdio", "command": "./bin"})


def test_an_empty_or_missing_command_is_refused(root):
    assert "command must be a non-empty string" in refused(
        root, {"type": "stdio", "command": ""}, oracle=False
    )
    assert "it has no command" in refused(root, {"type": "stdio"}, oracle=False)


def test_an_absolute_command_has_a_hint(root):
    _, diags = one(root, {"type": "stdio", "command": "/bin/sh"})
    assert diags[0].hint is not None and "./path" in diags[0].hint


# --- stdio: args, env ----------------------------------------------------------------


@pytest.mark.parametrize("args", [["a", 1], "a b", {"a": "b"}, [None]])
def test_args_must_be_a_list_of_strings(root, args):
    assert "args must be a list of strings" in refused(root, {**STDIO, "args": args}, oracle=False)


def test_placeholders_stay_unexpanded_and_others_stay_literal(root):
    entry = {
        "type": "stdio",
        "command": "node",
        "args": ["${PLUGIN_ROOT}/a.js", "--data=${PLUGIN_DATA}", "${HOME}", "$PLUGIN_ROOT"],
        "env": {"CONFIG": "${PLUGIN_DATA}/config.json", "OTHER": "${FOO}"},
        "cwd": "${PLUGIN_DATA}/work",
    }
    servers, diags = one(root, entry)
    assert diags == []
    server = servers[0]
    assert server.args == tuple(entry["args"])
    assert dict(server.env) == entry["env"]
    assert server.cwd == "${PLUGIN_DATA}/work"


@pytest.mark.parametrize("name", ["PLUGIN_ROOT", "PLUGIN_DATA"])
def test_env_may_not_set_the_reserved_names(root, name):
    message = refused(root, {**STDIO, "env": {name: "/x"}}, oracle=False)
    assert f"env sets {name}, which satchel sets for every plugin server" in message


@pytest.mark.parametrize(
    "name",
    ["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "NODE_OPTIONS", "NODE_PATH", "PYTHONPATH",
     "PYTHONSTARTUP", "BASH_ENV", "ENV", "PERL5OPT", "GIT_SSH_COMMAND", "BASH_FUNC_ls%%"],
)  # fmt: skip
def test_env_may_not_set_a_name_that_injects_code(root, name):
    # The schema cannot tell: this is satchel's rule (a server would run code its
    # command does not name).
    message = refused(root, {**STDIO, "env": {name: "x"}}, oracle=True)
    assert f"env sets {name}, which is refused" in message


def test_claude_names_are_plain_variables_in_mcp_json(root):
    servers, diags = one(root, {**STDIO, "env": {"CLAUDE_PLUGIN_ROOT": "x"}})
    assert diags == [] and dict(servers[0].env) == {"CLAUDE_PLUGIN_ROOT": "x"}


@pytest.mark.parametrize(
    ("env", "words", "oracle"),
    [
        ({"A": 1}, "env must be an object whose values are strings", False),
        (["A=1"], "env must be an object", False),
        ({"": "x"}, "env name '' is not a valid variable name", True),
        ({"A=B": "x"}, "env name 'A=B' is not a valid variable name", True),
        ({"A": "x\u0000y"}, "the value of env A holds a NUL byte", True),
    ],
)
def test_env_shape(root, env, words, oracle):
    assert words in refused(root, {**STDIO, "env": env}, oracle=oracle)


# --- stdio: cwd ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cwd", ["./", "./sub", "./sub/../other", "${PLUGIN_ROOT}", "${PLUGIN_ROOT}/sub",
            "${PLUGIN_DATA}", "${PLUGIN_DATA}/cache", "./${PLUGIN_DATA}"]
)  # fmt: skip
def test_cwd_forms_that_load(root, cwd):
    servers, diags = one(root, {**STDIO, "cwd": cwd})
    assert diags == [] and servers[0].cwd == cwd


def test_cwd_defaults_to_none_meaning_the_plugin_root(root):
    servers, _ = one(root, STDIO)
    assert servers[0].cwd is None


@pytest.mark.parametrize(
    "cwd", ["sub", "/tmp", "$PLUGIN_ROOT", "${PLUGIN_ROOT}sub", "${HOME}/x", "~/x", ""]
)
def test_cwd_must_have_one_of_the_three_forms(root, cwd):
    message = refused(root, {**STDIO, "cwd": cwd}, oracle=False)
    assert 'must be "./…", "${PLUGIN_ROOT}[/…]" or "${PLUGIN_DATA}[/…]"' in message


@pytest.mark.parametrize("cwd", ["./..", "./a/../../b", "${PLUGIN_ROOT}/..", "${PLUGIN_ROOT}/../x"])
def test_a_cwd_that_leaves_the_root_is_refused(root, cwd):
    message = refused(root, {**STDIO, "cwd": cwd}, "plugin.path.outside_root")
    assert "leaves the plugin root" in message


def test_a_cwd_through_a_symlink_out_of_the_root_is_refused(root, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (root / "work").symlink_to(tmp_path / "elsewhere")
    refused(root, {**STDIO, "cwd": "./work"}, "plugin.path.outside_root")
    refused(root, {**STDIO, "cwd": "${PLUGIN_ROOT}/work"}, "plugin.path.outside_root")


@pytest.mark.parametrize("cwd", ["${PLUGIN_DATA}/..", "${PLUGIN_DATA}/a/../../b"])
def test_a_cwd_that_leaves_the_data_directory_is_refused(root, cwd):
    assert "leaves the plugin data directory" in refused(root, {**STDIO, "cwd": cwd})


@pytest.mark.parametrize(("cwd", "oracle"), [(5, False), ("./a\\b", True)])
def test_cwd_type_and_backslash(root, cwd, oracle):
    refused(root, {**STDIO, "cwd": cwd}, oracle=oracle)


# --- remote: url, headers ------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["https://api.example.com/mcp", "HTTPS://API.EXAMPLE.COM/mcp?x=1", "http://localhost:3000/mcp",
     "http://LOCALHOST/mcp", "http://127.0.0.1:8080/mcp", "http://127.1.2.3/", "http://[::1]:9000/mcp",
     "https://example.com/${NOT_EXPANDED}"],
)  # fmt: skip
def test_urls_that_load(root, url):
    servers, diags = one(root, {"type": "streamable-http", "url": url})
    assert diags == [] and servers[0].url == url


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://example.com/mcp", "uses plain http, allowed only for localhost and loopback"),
        ("http://10.0.0.1/mcp", "uses plain http"),
        ("http://localhost.example.com/", "uses plain http"),
        ("ftp://example.com/mcp", "must be an absolute http:// or https:// URL"),
        ("/mcp", "must be an absolute http:// or https:// URL"),
        ("example.com/mcp", "must be an absolute http:// or https:// URL"),
        ("https:///mcp", "must be an absolute http:// or https:// URL"),
        ("https://example.com/mcp#frag", "must not have a fragment"),
        ("https://example.com/mcp#", "must not have a fragment"),
        ("https://example.com:99999/", "is not a valid URL"),
        ("https://[::1/", "is not a valid URL"),
        ("https://exa mple.com/", "holds a space or a control character"),
    ],
)
def test_url_rules(root, url, words):
    assert words in refused(root, {"type": "streamable-http", "url": url}, oracle=True)


def test_userinfo_is_refused_and_never_echoed(root):
    message = refused(root, {"type": "sse", "url": "https://me:s3cret@example.com/sse"})
    assert "must not carry user information" in message
    assert "s3cret" not in message


def test_an_empty_or_missing_url_is_refused(root):
    assert "url must be a non-empty string" in refused(
        root, {"type": "sse", "url": ""}, oracle=False
    )
    assert "it has no url" in refused(root, {"type": "sse"}, oracle=False)


def test_header_names_are_http_tokens(root):
    message = refused(root, {**REMOTE, "headers": {"X Bad": "v"}})
    assert "header name 'X Bad' is not an HTTP token" in message


def test_header_names_may_not_differ_only_in_case(root):
    message = refused(root, {**REMOTE, "headers": {"X-Api-Key": "a", "x-api-key": "b"}})
    assert "headers 'X-Api-Key' and 'x-api-key' differ only in case" in message


@pytest.mark.parametrize("value", ["a\r\nInjected: 1", "a\nb", "nul\u0000", "emoji 😀"])
def test_header_values_hold_only_what_http_allows(root, value):
    message = refused(root, {**REMOTE, "headers": {"X-Token": value}})
    assert "the value of header 'X-Token' holds a character HTTP does not allow" in message
    assert value not in message


def test_header_values_may_hold_tabs_latin1_and_placeholders(root):
    headers = {"Authorization": "Bearer ${TOKEN}", "X-Name": "caf\u00e9\tbar"}
    servers, diags = one(root, {**REMOTE, "headers": headers})
    assert diags == [] and dict(servers[0].headers) == headers


def test_headers_must_be_a_string_map(root):
    assert "headers must be an object" in refused(
        root, {**REMOTE, "headers": {"A": 1}}, oracle=False
    )


# --- the oracle agrees on a full valid document --------------------------------------


def test_every_loading_fixture_of_this_module_validates(root):
    doc = mcp_doc(
        {
            "a": {**STDIO, "env": {"DEBUG": "1"}, "cwd": "${PLUGIN_DATA}/x"},
            "b": {"type": "sse", "url": "http://127.0.0.1:1/sse", "headers": {"A": "b"}},
            "c": {"type": "stdio", "command": "./bin/x", "args": []},
            "d": copy.deepcopy(REMOTE),
        }
    )
    assert mcp_schema_valid(doc)
    servers, diags = load(root, doc)
    assert diags == [] and [s.name for s in servers] == ["a", "b", "c", "d"]


def test_to_json_round_trips_through_json(root):
    import json

    servers, _ = load(root, mcp_doc({"a": {**STDIO, "env": {"A": "1"}}}))
    assert json.loads(json.dumps(servers[0].to_json()))["env"] == {"A": "1"}

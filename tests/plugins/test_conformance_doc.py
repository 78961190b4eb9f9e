"""docs/conformance.md stays true: every test it names exists, every checklist row
names a test or says it has none, and the conformance rules no other module tests
are tested here, each on a real plugin tree."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import satchel
from satchel.plugins import load_plugins, read_plugin
from tests.plugins.helpers import MCP, add_skill, mcp_json, native, vibe, write_json
from tests.support import codes, put

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "conformance.md"
REFERENCE = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
SECTIONS = ("[4]", "[5]", "[6, 7]", "[7.2]", "[9]", "[8]", "[11]")
VIBE_CODES = (
    "plugin.manifest.invalid", "plugin.schema.version_unsupported",
    "plugin.compatibility.format_unrecognized", "plugin.namespace.reserved",
    "plugin.namespace.collision", "plugin.name.collision", "plugin.path.outside_root",
    "plugin.skill.invalid", "plugin.hooks.invalid", "plugin.knowledge.invalid",
    "plugin.agent.invalid", "plugin.libraries.invalid", "plugin.library.invalid",
    "plugin.library.alias_collision", "plugin.connectors.invalid",
    "plugin.mcp.connection_failed", "plugin.mcp.authorization_required",
    "plugin.tool_override.unused",
)  # fmt: skip
STDIO = {"type": "stdio", "command": "node"}


# -- the document -------------------------------------------------------------------


@cache
def _tests_in(relative: str) -> frozenset[str]:
    """The names of the test functions (module level or in classes) of a test file."""
    tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    )


def test_every_test_the_document_names_exists():
    references = REFERENCE.findall(DOC.read_text(encoding="utf-8"))
    assert len(references) >= 100  # the pattern still matches the document
    missing = [
        f"{path}::{name}"
        for path, name in references
        if not (ROOT / path).is_file() or name not in _tests_in(path)
    ]
    assert missing == []


def test_every_checklist_row_names_a_test_or_says_it_has_none():
    rows = [
        line
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith(("| item ", "| code "))
    ]
    assert len(rows) >= 50
    bare = [row for row in rows if "::test_" not in row and "not yet tested" not in row]
    assert bare == []


def test_the_document_has_every_section_and_every_vibe_diagnostic_code():
    text = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^## (\[[\d.,\s]+\])", text, re.M)
    assert tuple(headings) == SECTIONS
    listed = re.findall(r"^\| `(plugin\.[a-z_.]+)` \|", text, re.M)
    assert [code for code in listed if code in VIBE_CODES] == list(VIBE_CODES)


# -- conformance rules tested nowhere else ------------------------------------------


def test_a_fatal_manifest_discovers_nothing(layout, project):
    # [5]: any other schema violation rejects the plugin; nothing of it is discovered
    root = project / ".satchel" / "plugins" / "broken"
    native(root, validate=False, name="broken", keywords="not-a-list")
    add_skill(root, "skills/lint")
    mcp_json(root, {"lookup": STDIO})
    env = satchel.load(layout=layout, include_workspace_plugin=False)
    assert env.plugins.plugins == {}
    assert list(env.skills) == []
    assert codes(env.plugins.diagnostics) == ["plugin.manifest.invalid"]
    assert env.plugins.diagnostics[0].severity == "error"


def test_an_mcp_json_that_is_a_directory_invalidates_mcp_only(tmp_path: Path):
    # [6, 7]: a location present but of the wrong kind makes that component invalid
    root = tmp_path / "demo"
    native(root)
    (root / "mcp.json").mkdir()
    add_skill(root, "skills/lint")
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert [s.name for s in plugin.skills] == ["lint"]
    assert plugin.mcp_servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]
    assert diags[0].message == "it is not a regular file"


def test_env_names_and_other_placeholders_are_kept_as_written(tmp_path: Path):
    # [9]: no expansion in env keys; anything else that looks like a placeholder stays
    root = tmp_path / "demo"
    native(root)
    env = {"${PLUGIN_ROOT}": "a", "X": "${PLUGIN_ROOT}/${PLUGIN_DATA}/${HOME}/$PLUGIN_ROOT"}
    write_json(root, "mcp.json", {"$schema": MCP, "mcpServers": {"s": {**STDIO, "env": env}}})
    plugin, diags = read_plugin(root)
    assert plugin is not None and diags == []
    assert dict(plugin.mcp_servers[0].env) == env


def test_library_aliases_shared_by_plugins_are_dropped_when_plugins_load(layout, project):
    # Vibe: plugin.library.alias_collision, raised when the plugins are settled
    plugins = project / ".satchel" / "plugins"
    for name in ("alpha", "beta"):
        native(plugins / name, name=name, extensions=vibe())
        put(plugins / name, "python/shared.py", "X = 1\n")
        put(plugins / name, "python/own.py", "Y = 2\n")
        libraries = {"shared": "./python/shared.py", f"{name}_own": "./python/own.py"}
        write_json(plugins / name, "libraries.json", {"schemaVersion": 1, "python": libraries})
    found = load_plugins(layout, include_workspace=False)
    aliases = {p.name: [lib.alias for lib in p.libraries] for p in found.plugins.values()}
    assert aliases == {"alpha": ["alpha_own"], "beta": ["beta_own"]}
    assert codes(found.diagnostics) == ["plugin.library.alias_collision"] * 2

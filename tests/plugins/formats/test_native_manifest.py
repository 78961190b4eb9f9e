"""Agent Plugins 1.0 manifest rules (spec §5, Vibe's plugin.json rules), one test each; the
official schema is the oracle for every fixture."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from satchel.plugins.formats._native import load
from tests.plugins.helpers import NATIVE, audited, native, only, schema_valid, write_json
from tests.support import codes, put

FULL = {
    "version": "1.0.0",
    "description": "What this plugin provides.",
    "author": {"name": "Author Name", "email": "author@example.com", "url": "https://example.com"},
    "homepage": "https://example.com/my-plugin",
    "repository": "https://github.com/example/my-plugin",
    "license": "MIT",
    "keywords": ["productivity", "finance"],
    "extensions": {},
}


def test_a_minimal_manifest_loads(plugin_dir: Path):
    native(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert diags == []
    assert plugin is not None
    assert (plugin.name, plugin.format, plugin.vibe) == ("demo", "agent-plugins", False)
    assert plugin.root == Path(os.path.realpath(plugin_dir))


def test_every_manifest_field_is_read(plugin_dir: Path):
    native(plugin_dir, name="my-plugin", **FULL)
    plugin, diags = read_plugin(plugin_dir, scope="user")
    assert diags == []
    assert plugin is not None
    assert (plugin.version, plugin.description, plugin.scope) == (
        "1.0.0",
        "What this plugin provides.",
        "user",
    )
    assert plugin.manifest["keywords"] == ["productivity", "finance"]


def test_plugin_json_outside_the_root_rejects_the_plugin(tmp_path: Path, plugin_dir: Path):
    elsewhere = tmp_path / "elsewhere"
    native(elsewhere)
    (plugin_dir / "plugin.json").symlink_to(elsewhere / "plugin.json")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.path.outside_root"]
    assert diags[0].severity == "error"


def test_a_symlinked_plugin_json_inside_the_root_is_fine(plugin_dir: Path):
    manifest = {"$schema": NATIVE, "name": "demo"}
    write_json(plugin_dir, "meta/manifest.json", manifest)
    (plugin_dir / "plugin.json").symlink_to(plugin_dir / "meta" / "manifest.json")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []


def test_an_unknown_top_level_field_is_reported_and_ignored(plugin_dir: Path):
    manifest = native(plugin_dir, validate=False, commands="./commands")
    assert not schema_valid(manifest)  # the schema is closed
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert codes(diags) == ["plugin.manifest.field.unknown"]
    assert diags[0].severity == "warning" and "commands" in diags[0].message
    assert plugin.commands == ()  # never given meaning


def test_strict_makes_an_unknown_field_fatal_as_vibe_does(plugin_dir: Path):
    native(plugin_dir, validate=False, displayName="Demo", icon="x.png")
    plugin, diags = read_plugin(plugin_dir, strict=True)
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.invalid"]
    assert "displayName" in diags[0].message and "icon" in diags[0].message


@pytest.mark.parametrize(
    "fields",
    [
        {"name": None},
        {"name": 7},
        {"version": 1},
        {"description": ["a"]},
        {"homepage": False},
        {"repository": {"url": "https://x"}},
        {"license": None},
        {"author": "Ann <ann@example.com>"},
        {"author": {"name": "Ann", "twitter": "@ann"}},
        {"author": {"email": 5}},
        {"keywords": "finance"},
        {"keywords": ["ok", 3]},
    ],
    ids=lambda f: json.dumps(f),
)
def test_any_other_schema_violation_is_fatal(plugin_dir: Path, fields: dict[str, object]):
    manifest = {"$schema": NATIVE, "name": "demo", **fields}
    manifest = {k: v for k, v in manifest.items() if not (k == "name" and v is None)}
    assert not schema_valid(manifest)
    write_json(plugin_dir, "plugin.json", manifest)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.invalid"]


@pytest.mark.parametrize(
    "name",
    ["", "Demo", "my--plugin", "my..plugin", "-demo", "demo-", ".demo", "demo.", "my_plugin",
     "my plugin", "a" * 65, "ünï"],
)  # fmt: skip
def test_the_name_rule(plugin_dir: Path, name: str):
    manifest = {"$schema": NATIVE, "name": name}
    assert not schema_valid(manifest)
    write_json(plugin_dir, "plugin.json", manifest)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.invalid"]


@pytest.mark.parametrize("name", ["a", "7", "a.b-c", "x" * 64, "v1.2.3", "0day"])
def test_names_the_rule_allows(plugin_dir: Path, name: str):
    native(plugin_dir, name=name)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.name == name
    assert diags == []


def test_the_1_1_0_schema_is_an_unsupported_version(plugin_dir: Path):
    write_json(
        plugin_dir,
        "plugin.json",
        {"$schema": "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json", "name": "demo"},
    )
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.schema.version_unsupported"]


def test_a_manifest_without_schema_is_not_native(plugin_dir: Path):
    write_json(plugin_dir, "plugin.json", {"name": "demo"})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.compatibility.format_unrecognized"]
    # read as native anyway (a host calling the adapter), it is invalid
    assert codes(load(plugin_dir)[1]) == ["plugin.manifest.invalid"]


def test_a_foreign_schema_url_is_not_native(plugin_dir: Path):
    write_json(plugin_dir, "plugin.json", {"$schema": "https://example.com/s.json", "name": "x"})
    assert codes(read_plugin(plugin_dir)[1]) == ["plugin.compatibility.format_unrecognized"]


@pytest.mark.parametrize(
    "text", ["[1, 2]", '"plugin"', "{", "", '{"$schema": "' + NATIVE + '", "name": "a",}']
)
def test_a_manifest_that_is_not_a_json_object_is_fatal(plugin_dir: Path, text: str):
    put(plugin_dir, "plugin.json", text)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.invalid"]


def test_version_urls_email_and_license_are_checked_by_type_only(plugin_dir: Path):
    native(
        plugin_dir,
        version="not semver at all",
        homepage="not a url",
        repository="git@github.com:x/y",
        license="Some-Made-Up-License",
        author={"name": "", "email": "nope", "url": "::"},
    )
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert plugin.version == "not semver at all"


def test_a_non_object_extensions_is_reported_and_ignored(plugin_dir: Path):
    manifest = native(plugin_dir, validate=False, extensions=["ai.mistral.vibe"])
    assert not schema_valid(manifest)
    put(plugin_dir, "ai.mistral.vibe/hooks.toml", '[[hooks]]\nname = "h"\n')
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and not plugin.vibe
    assert codes(diags) == ["plugin.extension.invalid"]
    assert diags[0].severity == "warning"


def test_unimplemented_extension_namespaces_are_ignored_unvalidated(plugin_dir: Path):
    # the schema wants object values; the spec says not to validate them
    native(
        plugin_dir,
        validate=False,
        extensions={"com.example.tool": "not an object", "dev.other": {"anything": [1, None]}},
    )
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert not plugin.vibe


def test_no_schema_is_fetched_and_nothing_runs_while_loading(plugin_dir: Path):
    native(plugin_dir, **FULL)
    code = f"from satchel.plugins import read_plugin\nread_plugin({str(plugin_dir)!r})\n"
    events = ("socket.connect", "socket.getaddrinfo", "urllib.Request", "subprocess.Popen",
              "os.system", "os.exec", "os.posix_spawn")  # fmt: skip
    assert audited(code, events) == []


def test_the_plugin_root_must_be_a_directory(tmp_path: Path):
    file = put(tmp_path, "plugin.json", json.dumps({"$schema": NATIVE, "name": "demo"}))
    for root in (file, tmp_path / "missing"):
        plugin, diags = read_plugin(root)
        assert plugin is None
        assert codes(diags) == ["plugin.manifest.invalid"]


def test_fatal_diagnostics_are_errors_and_warnings_stay_listed(plugin_dir: Path):
    native(plugin_dir, validate=False, extra="x", name="Bad")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.manifest.field.unknown", "plugin.manifest.invalid"]
    assert [d.severity for d in only(diags, "plugin.manifest.invalid")] == ["error"]

"""`build_marketplace`: one repository of plugins, the catalogue of each host, read back
by satchel's catalogue reader and loaded by the real hosts: Claude Code 2.1.337's
`claude plugin marketplace add` and `install`, Codex 0.171.0's `codex plugin
marketplace add` and `codex plugin add`, each from the local folder. Cursor is not
run: its catalogue is checked with satchel's reader only."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from satchel.install._agreement import agreement
from satchel.install._catalogue import CATALOGUE_FILES, read_catalogue_file
from satchel.port import RECORD
from satchel.port._marketplace import build_marketplace, formats_named
from tests.support import put, skill_md
from tests.tools import CALL, claude_plugin, claude_validate

CLAUDE = ".claude-plugin/marketplace.json"
CODEX = ".agents/plugins/marketplace.json"
CURSOR = ".cursor-plugin/marketplace.json"


def two_plugins(root: Path) -> Path:
    """alpha, a Claude Code plugin at 1.2.0, and beta, a Codex plugin at 0.3.0."""
    alpha = {"name": "alpha", "version": "1.2.0", "description": "The alpha plugin."}
    put(root / "plugins/alpha/.claude-plugin/plugin.json", json.dumps(alpha))
    put(root / "plugins/alpha/skills/greet/SKILL.md", skill_md("greet", "Greets."))
    beta = {"name": "beta", "version": "0.3.0", "description": "The beta plugin."}
    put(root / "plugins/beta/.codex-plugin/plugin.json", json.dumps(beta))
    put(root / "plugins/beta/skills/count/SKILL.md", skill_md("count", "Counts."))
    return root


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = two_plugins(tmp_path_factory.mktemp("m") / "market")
    report = build_marketplace(root, name="acme", owner="Acme", description="Acme's tools.")
    assert report.ok, report.diagnostics
    return root


@pytest.fixture(scope="module")
def claude_installed(claude_code_next: Path, market: Path, tmp_path_factory) -> list[dict]:
    """`claude plugin marketplace add MARKET`, `install alpha@acme`, then `list --json`."""
    home = tmp_path_factory.mktemp("claude-home")
    for args in (("marketplace", "add", str(market)), ("install", "alpha@acme")):
        done = claude_plugin(claude_code_next, home, home, *args)
        assert done.returncode == 0, done.stdout + done.stderr
    listed = claude_plugin(claude_code_next, home, home, "list", "--json")
    return [p for p in json.loads(listed.stdout) if p["id"].endswith("@acme")]


@pytest.fixture(scope="module")
def codex_installed(codex: Path, market: Path, tmp_path_factory) -> tuple[Path, str]:
    """`codex plugin marketplace add MARKET`, then `codex plugin add` of each plugin:
    Codex's home and the config.toml it wrote."""
    home = tmp_path_factory.mktemp("codex-home")
    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PATH": os.environ["PATH"]}
    (home / ".codex").mkdir()
    for args in (["marketplace", "add", str(market)], ["add", "alpha@acme"], ["add", "beta@acme"]):
        done = subprocess.run(
            [str(codex), "plugin", *args], env=env, capture_output=True, text=True,
            timeout=CALL, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    return home / ".codex", (home / ".codex/config.toml").read_text(encoding="utf-8")


def test_each_catalogue_lists_each_plugin_at_its_manifests_version(market: Path):
    for fmt, rel in CATALOGUE_FILES.items():
        catalogue, said = read_catalogue_file(fmt, market / rel)
        assert said == ()
        assert catalogue is not None
        assert (catalogue.name, catalogue.owner["name"]) == ("acme", "Acme")
        listed = [(e.name, e.version, e.source.kind, e.source.path) for e in catalogue.entries]
        versions = ("1.2.0", "0.3.0") if fmt != "cursor" else (None, None)
        assert listed == [
            ("alpha", versions[0], "path", "plugins/alpha"),
            ("beta", versions[1], "path", "plugins/beta"),
        ]


def test_cursors_catalogue_holds_only_the_fields_its_schema_allows(market: Path):
    # cursor/plugins schemas/marketplace.schema.json: both objects are closed
    doc = json.loads((market / CURSOR).read_text())
    assert set(doc) <= {"name", "owner", "metadata", "plugins"}
    assert set(doc["owner"]) <= {"name", "email"}
    for entry in doc["plugins"]:
        assert set(entry) <= {"name", "source", "description", "minClientVersions"}
        assert isinstance(entry["source"], str)


def test_a_name_cursor_refuses_is_left_out_of_its_catalogue_only(tmp_path):
    root = two_plugins(tmp_path / "market")
    put(
        root / "plugins/gamma_x/.claude-plugin/plugin.json", '{"name": "gamma_x", "version": "1.0"}'
    )
    report = build_marketplace(root, name="acme", owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.name.invalid",
            ".cursor-plugin/marketplace.json: the plugin name 'gamma_x' is not one this catalogue "
            "takes (lowercase letters, digits, '.' and '-', starting and ending with a letter or "
            "digit); it is not listed there",
        )
    ]
    for rel, names in ((CLAUDE, ["alpha", "beta", "gamma_x"]), (CURSOR, ["alpha", "beta"])):
        assert [p["name"] for p in json.loads((root / rel).read_text())["plugins"]] == names


def test_each_catalogue_has_the_description_in_metadata(market: Path):
    for rel in CATALOGUE_FILES.values():
        assert json.loads((market / rel).read_text())["metadata"] == {
            "description": "Acme's tools."
        }


def test_claude_codes_validator_finds_no_error_in_its_catalogue(claude_code_next, market, tmp_path):
    report = claude_validate(claude_code_next, market / CLAUDE, tmp_path)
    assert report["success"] is True
    assert report["manifest"]["type"] == "marketplace"
    assert report["manifest"]["errors"] == []
    # only the plugins' own advice is left (no author in alpha's manifest)
    assert [w["path"] for w in report["manifest"]["warnings"]] == [
        "plugins[0] plugin.json → author"
    ]


def test_the_catalogues_agree_with_each_other_and_the_manifests(market: Path):
    assert agreement(market) == ([], [])


def test_claude_code_adds_the_marketplace_and_installs_its_plugin(claude_installed, market):
    (alpha,) = claude_installed
    assert (alpha["id"], alpha["version"], alpha["enabled"]) == ("alpha@acme", "1.2.0", True)
    assert alpha["readFromFolder"] == str(market / "plugins/alpha")


def test_codex_adds_the_marketplace_and_installs_each_plugin(codex_installed, market):
    codex_home, config = codex_installed
    assert '[marketplaces.acme]\nsource_type = "local"' in config
    assert f'source = "{market}"' in config
    for plugin in ("alpha", "beta"):
        assert f'[plugins."{plugin}@acme"]\nenabled = true' in config
    cached = sorted(p.relative_to(codex_home) for p in codex_home.glob("plugins/cache/acme/*/*"))
    assert cached == [Path("plugins/cache/acme/alpha/1.2.0"), Path("plugins/cache/acme/beta/0.3.0")]


def test_the_written_files_are_recorded_and_a_second_build_changes_nothing(tmp_path):
    root = two_plugins(tmp_path / "market")
    build_marketplace(root, name="acme", owner="Acme")
    record = json.loads((root / RECORD).read_text())
    assert sorted(record["files"]) == sorted(CATALOGUE_FILES.values())
    again = build_marketplace(root)  # name and owner from the catalogue there
    assert [(f.path, f.action) for f in again.files] == [
        (CLAUDE, "unchanged"), (CODEX, "unchanged"), (CURSOR, "unchanged")
    ]  # fmt: skip


def test_a_new_version_is_written_over_what_build_wrote(tmp_path):
    root = two_plugins(tmp_path / "market")
    build_marketplace(root, name="acme", owner="Acme")
    manifest = root / "plugins/alpha/.claude-plugin/plugin.json"
    manifest.write_text(manifest.read_text().replace("1.2.0", "1.3.0"))
    report = build_marketplace(root)
    # Cursor's entries give no version: its catalogue is unchanged
    assert [f.action for f in report.files] == ["written", "written", "unchanged"]
    catalogue, _ = read_catalogue_file("codex", root / CODEX)
    assert catalogue is not None and catalogue.entries[0].version == "1.3.0"


def test_a_hand_written_catalogue_is_refused_and_kept_byte_for_byte(tmp_path):
    root = two_plugins(tmp_path / "market")
    mine = '{"name": "mine", "owner": {"name": "Me"}, "plugins": []}\n'
    put(root / CLAUDE, mine)
    report = build_marketplace(root)
    assert [(f.path, f.action) for f in report.files] == [
        (CLAUDE, "refused"), (CODEX, "written"), (CURSOR, "written")
    ]  # fmt: skip
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.file.exists",
            "marketplace: .claude-plugin/marketplace.json exists and port did not write it; "
            "it is left as it is",
        )
    ]
    assert (root / CLAUDE).read_text() == mine
    # its name and owner are the marketplace's
    catalogue, _ = read_catalogue_file("cursor", root / CURSOR)
    assert catalogue is not None and (catalogue.name, catalogue.owner["name"]) == ("mine", "Me")
    forced = build_marketplace(root, force=True)
    assert forced.files[0].action == "written"


def test_a_plugin_without_a_version_is_listed_without_one(tmp_path):
    root = two_plugins(tmp_path / "market")
    put(root / "plugins/gamma/.claude-plugin/plugin.json", json.dumps({"name": "gamma"}))
    report = build_marketplace(root, name="acme", owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.marketplace.unversioned",
            "plugin 'gamma' has no version; its entries are written without one",
        )
    ]
    assert not report.ok
    doc = json.loads((root / CLAUDE).read_text())
    assert doc["plugins"][2] == {"name": "gamma", "source": "./plugins/gamma"}


def test_no_owner_is_an_error_and_nothing_is_written(tmp_path):
    root = two_plugins(tmp_path / "market")
    report = build_marketplace(root)
    assert [d.code for d in report.diagnostics] == ["port.marketplace.owner"]
    assert report.files == ()
    assert not any((root / rel).exists() for rel in CATALOGUE_FILES.values())


def test_no_plugin_is_an_error(tmp_path):
    report = build_marketplace(tmp_path, owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.marketplace.empty",
            "no plugin folder below plugins/ or the marketplace's own folder",
        )
    ]


def test_to_writes_only_the_named_hosts_catalogues(tmp_path):
    root = two_plugins(tmp_path / "market")
    report = build_marketplace(root, formats_named(["codex"]), name="acme", owner="Acme")
    assert [f.path for f in report.files] == [CODEX]
    assert not (root / CLAUDE).exists()
    with pytest.raises(ValueError, match="'gemini' has no marketplace file"):
        formats_named(["gemini"])


def test_a_name_two_folders_give_is_an_error_and_neither_is_listed(tmp_path):
    root = two_plugins(tmp_path / "market")
    again = {"name": "alpha", "version": "2.0.0"}
    put(root / "plugins/alpha-copy/.claude-plugin/plugin.json", json.dumps(again))
    report = build_marketplace(root, name="acme", owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.marketplace.duplicate",
            "the plugin name 'alpha' is given by 2 folders (./plugins/alpha, "
            "./plugins/alpha-copy); none of them is listed",
        )
    ]
    assert report.files == ()
    assert not any((root / rel).exists() for rel in CATALOGUE_FILES.values())


def test_a_plugin_folder_linked_from_outside_the_root_is_not_read(tmp_path):
    root = two_plugins(tmp_path / "market")
    outside = {"name": "gamma", "version": "1.0.0", "description": "Read from outside."}
    put(tmp_path / "outside/gamma/.claude-plugin/plugin.json", json.dumps(outside))
    (root / "plugins/gamma").symlink_to(tmp_path / "outside/gamma")
    report = build_marketplace(root, name="acme", owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "port.marketplace.outside",
            "plugins/gamma leads out of the marketplace's folder; it is not listed",
        )
    ]
    assert [name for name, _, _ in report.plugins] == ["alpha", "beta"]
    doc = json.loads((root / CLAUDE).read_text())
    assert [entry["source"] for entry in doc["plugins"]] == ["./plugins/alpha", "./plugins/beta"]
    assert agreement(root)[0] == []


def test_plugin_folders_that_fail_to_read_are_said_to_not_be_missing(tmp_path):
    put(tmp_path / "plugins/alpha/.claude-plugin/plugin.json", "{not json")
    report = build_marketplace(tmp_path, owner="Acme")
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "plugin.manifest.invalid",
            ".claude-plugin/plugin.json: it is not valid JSON: Expecting property name "
            "enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        (
            "port.marketplace.empty",
            "no plugin to list: 1 plugin folder failed to read (said above)",
        ),
    ]
    assert report.files == ()


def test_an_owner_name_given_keeps_the_catalogues_other_owner_fields(tmp_path):
    root = two_plugins(tmp_path / "market")
    owner = {"name": "Old", "email": "team@example.com"}
    put(root / CLAUDE, json.dumps({"name": "acme", "owner": owner, "plugins": []}))
    report = build_marketplace(root, owner="New", force=True)
    assert report.ok, report.diagnostics
    for rel in (CLAUDE, CODEX, CURSOR):
        doc = json.loads((root / rel).read_text())
        assert doc["owner"] == {"name": "New", "email": "team@example.com"}, rel

"""`satchel validate` of a folder holding catalogues: each catalogue against the others
and against the manifests of the plugins it lists (names, versions, sources), then
each of those plugins."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from satchel.port._marketplace import build_marketplace
from tests.port.test_marketplace import CLAUDE, CODEX, CURSOR, two_plugins

from .support import check_golden


def built(tmp_path: Path) -> Path:
    root = two_plugins(tmp_path / "market")
    build_marketplace(root, name="acme", owner="Acme")
    return root


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def said(satchel, root: Path) -> tuple[int, list[tuple[str, str, str]]]:
    run = satchel("validate", "--json", root)
    (market, *plugins) = run.json()["checked"]
    assert market["kind"] == "marketplace"
    assert [p["name"] for p in plugins] == ["alpha", "beta"]
    return run.code, [
        (d["code"], d["message"], Path(d["path"]).relative_to(root).as_posix())
        for d in market["diagnostics"]
    ]


def test_a_built_marketplace_agrees(satchel, tmp_path):
    assert said(satchel, built(tmp_path)) == (0, [])


def test_an_entry_naming_its_plugin_otherwise(satchel, tmp_path):
    root = built(tmp_path)
    edit(root / CURSOR, '"name": "beta"', '"name": "bet"')
    code, found = said(satchel, root)
    assert code == 1
    assert found == [
        (
            "catalogue.entry.name_mismatch",
            "the marketplace entry 'bet' has source ./plugins/beta, whose "
            ".codex-plugin/plugin.json names the plugin 'beta'",
            CURSOR,
        )
    ]


def test_an_entry_version_and_a_missing_source(satchel, tmp_path):
    root = built(tmp_path)
    edit(root / CODEX, '"0.3.0"', '"0.4.0"')
    edit(root / CLAUDE, "./plugins/alpha", "./plugins/gone")
    code, found = said(satchel, root)
    assert code == 1
    assert found == [
        (
            "catalogue.entry.source_missing",
            "the marketplace entry 'alpha' has source ./plugins/gone, where there is no plugin",
            CLAUDE,
        ),
        (
            "catalogue.entry.version_mismatch",
            "the marketplace entry 'beta' gives version 0.4.0, but the plugin's "
            ".codex-plugin/plugin.json gives 0.3.0",
            CODEX,
        ),
        (
            "catalogue.entry.source_mismatch",
            "plugin 'alpha' comes from ./plugins/gone in .claude-plugin/marketplace.json but "
            "from ./plugins/alpha in .agents/plugins/marketplace.json",
            CODEX,
        ),
        (
            "catalogue.entry.source_mismatch",
            "plugin 'alpha' comes from ./plugins/gone in .claude-plugin/marketplace.json but "
            "from ./plugins/alpha in .cursor-plugin/marketplace.json",
            CURSOR,
        ),
    ]


def test_a_catalogue_leaving_a_plugin_out(satchel, tmp_path):
    root = built(tmp_path)
    doc = json.loads((root / CODEX).read_text())
    doc["plugins"] = doc["plugins"][:1]
    (root / CODEX).write_text(json.dumps(doc))
    code, found = said(satchel, root)
    assert code == 0  # a warning
    assert found == [
        (
            "catalogue.entry.unlisted",
            "plugin 'beta' is listed in .claude-plugin/marketplace.json but not in "
            ".agents/plugins/marketplace.json",
            CODEX,
        )
    ]


def test_entries_disagreeing_about_a_version_the_manifest_lacks(satchel, tmp_path):
    root = built(tmp_path)
    manifest = root / "plugins/beta/.codex-plugin/plugin.json"
    manifest.write_text(json.dumps({"name": "beta"}))
    edit(root / CODEX, '"0.3.0"', '"0.5.0"')
    code, found = said(satchel, root)
    assert code == 0  # a warning
    assert found == [
        (
            "catalogue.entry.version_mismatch",
            "plugin 'beta' is version 0.3.0 in .claude-plugin/marketplace.json but 0.5.0 in "
            ".agents/plugins/marketplace.json",
            CODEX,
        )
    ]


def test_the_human_report(satchel, tmp_path, monkeypatch):
    root = built(tmp_path)
    edit(root / CODEX, '"0.3.0"', '"0.4.0"')
    monkeypatch.chdir(tmp_path)
    run = satchel("validate", "market")
    check_golden("validate-marketplace.txt", run.out)


def test_an_entry_version_is_said_once_by_the_marketplace(satchel, tmp_path):
    """The listed plugin's own check would say the same disagreement (its version
    against the entries that list it): the marketplace checked in the same run says it,
    the plugin does not again."""
    root = built(tmp_path)
    edit(root / CODEX, '"0.3.0"', '"0.4.0"')
    # a plugin looks for the catalogues listing it up to its work tree's top
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    run = satchel("validate", "--json", root)
    (market, *plugins) = run.json()["checked"]
    codes = [d["code"] for d in market["diagnostics"]]
    assert codes.count("catalogue.entry.version_mismatch") == 1
    assert [d["code"] for p in plugins for d in p["diagnostics"]].count(
        "catalogue.entry.version_mismatch"
    ) == 0
    alone = satchel("validate", "--json", root / "plugins" / "beta").json()["checked"]
    assert [d["code"] for d in alone[0]["diagnostics"]].count(
        "catalogue.entry.version_mismatch"
    ) == 1

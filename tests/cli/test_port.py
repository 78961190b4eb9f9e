"""`satchel port`: the human and JSON reports as golden files, the exit codes, and
--dry-run printing what it would write."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.plugins.multihost import NAME, multihost_plugin
from tests.port.plugins import claude_plugin, codex_plugin
from tests.support import check_golden, put

from .support import GOLDEN, WORKSPACE


def test_the_human_report_lists_each_targets_files_and_drops(satchel, tmp_path, monkeypatch):
    claude_plugin(tmp_path / "release-kit")
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "release-kit", "--to", "claude-code,codex,kimi,vibe")
    assert run.code == 1  # something was dropped
    check_golden("port-release-kit.txt", run.out, GOLDEN)


def test_nothing_dropped_exits_0(satchel, tmp_path, monkeypatch):
    codex_plugin(tmp_path / "lint-suite")
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "lint-suite", "--to", "claude-code,cursor")
    assert run.code == 0, run.out
    assert run.out.splitlines()[:8] == [
        "Port of lint-suite (Codex)",
        "",
        "claude-code (Claude Code)",
        "  wrote       .claude-plugin/plugin.json",
        "",
        "cursor (Cursor)",
        "  wrote       .cursor-plugin/plugin.json",
        "",
    ]


def test_the_json_report_is_the_envelope(satchel, tmp_path, monkeypatch):
    claude_plugin(tmp_path / "release-kit")
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "release-kit", "--to", "gemini,cursor", "--json")
    assert run.code == 1
    doc = run.json()
    assert doc["version"] == 1
    assert [t["target"] for t in doc["targets"]] == ["gemini", "cursor"]
    text = json.dumps(doc, indent=2, sort_keys=True) + "\n"
    check_golden(
        "port-release-kit.json", text, GOLDEN, clean=lambda t: t.replace(str(tmp_path), "<tmp>")
    )


def test_dry_run_prints_each_file_and_writes_none(satchel, tmp_path, monkeypatch):
    codex_plugin(tmp_path / "lint-suite")
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "lint-suite", "--to", "kimi", "--dry-run")
    assert run.code == 0
    check_golden("port-dry-run.txt", run.out, GOLDEN)
    assert not (tmp_path / "lint-suite" / "kimi.plugin.json").exists()


def test_a_refused_file_exits_1_and_is_named(satchel, tmp_path, monkeypatch):
    codex_plugin(tmp_path / "lint-suite")
    put(tmp_path / "lint-suite", "kimi.plugin.json", '{"name": "mine"}\n')
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "lint-suite", "--to", "kimi")
    assert run.code == 1
    assert "  refused     kimi.plugin.json" in run.out.splitlines()
    assert (
        "lint-suite/kimi.plugin.json: error port.file.exists: kimi: kimi.plugin.json exists and "
        "port did not write it; it is left as it is (hint: pass --force to replace it)"
    ) in run.out.splitlines()
    assert (tmp_path / "lint-suite" / "kimi.plugin.json").read_text() == '{"name": "mine"}\n'


def test_not_a_plugin_exits_1(satchel, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    run = satchel("port", "empty", "--to", "codex")
    assert run.code == 1
    assert run.out.splitlines()[0] == "Not a plugin: empty"


def test_an_unknown_target_is_a_usage_error(satchel, tmp_path):
    run = satchel("port", str(tmp_path), "--to", "codex,emacs")
    assert run.code == 2
    assert "unknown target 'emacs'" in run.err


EXAMPLE_PLUGINS = ("deploy-kit", "lint-kit", "meeting-notes", "pr-tools", "style-guide")
EVERY_TARGET = "claude-code,codex,cursor,gemini,kimi,vibe"


@pytest.mark.parametrize("name", EXAMPLE_PLUGINS)
def test_each_bundled_example_plugin_ports_to_every_host(satchel, tmp_path, monkeypatch, name):
    """A copy of the example plugin (port writes beside the source, never into the
    checkout), ported to every target: what each target gets and what it cannot hold."""
    shutil.copytree(WORKSPACE / ".satchel" / "plugins" / name, tmp_path / name, symlinks=True)
    monkeypatch.chdir(tmp_path)
    run = satchel("port", name, "--to", EVERY_TARGET, "--dry-run")
    assert run.code in (0, 1), run.err
    check_golden(f"port-example-{name}.txt", run.out, GOLDEN)


def test_a_plugin_for_six_hosts_ports_without_touching_its_own_manifests(
    satchel, tmp_path, monkeypatch
):
    root = multihost_plugin(tmp_path / NAME)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    monkeypatch.chdir(tmp_path)
    run = satchel("port", NAME, "--to", EVERY_TARGET)
    check_golden("port-multihost.txt", run.out, GOLDEN)
    assert {p: p.read_bytes() for p in before} == before  # hand-written files untouched

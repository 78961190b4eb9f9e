"""`satchel marketplace build`: the human report as a golden file, --dry-run, --to,
the JSON envelope and the exit codes."""

from __future__ import annotations

import json

from tests.port.test_marketplace import two_plugins

from .support import check_golden


def test_the_human_report_lists_the_plugins_and_files(satchel, tmp_path, monkeypatch):
    two_plugins(tmp_path / "market")
    monkeypatch.chdir(tmp_path)
    run = satchel("marketplace", "build", "market", "--name", "acme", "--owner", "Acme")
    assert run.code == 0, run.out
    check_golden("marketplace-build.txt", run.out)


def test_dry_run_prints_each_file_and_writes_none(satchel, tmp_path, monkeypatch):
    root = two_plugins(tmp_path / "market")
    monkeypatch.chdir(tmp_path)
    run = satchel("marketplace", "build", "market", "--owner", "Acme", "--to", "codex", "--dry-run")
    assert run.code == 0, run.out
    check_golden("marketplace-build-dry-run.txt", run.out)
    assert not (root / ".agents").exists()


def test_the_json_report_is_the_envelope(satchel, tmp_path):
    root = two_plugins(tmp_path / "market")
    (root / "plugins/alpha/.claude-plugin/plugin.json").write_text(json.dumps({"name": "alpha"}))
    run = satchel("marketplace", "build", root, "--owner", "Acme", "--json")
    assert run.code == 1  # alpha has no version
    doc = run.json()
    assert doc["version"] == 1
    assert doc["plugins"] == [
        {"name": "alpha", "version": None, "source": "./plugins/alpha"},
        {"name": "beta", "version": "0.3.0", "source": "./plugins/beta"},
    ]
    assert [d["code"] for d in doc["diagnostics"]] == ["port.marketplace.unversioned"]


def test_a_target_without_a_catalogue_is_a_usage_error(satchel, tmp_path):
    run = satchel("marketplace", "build", tmp_path, "--owner", "Acme", "--to", "kimi")
    assert run.code == 2
    assert "'kimi' has no marketplace file" in run.err

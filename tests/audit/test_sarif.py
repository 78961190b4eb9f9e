"""SARIF 2.1.0 output, validated against the schema kept in this folder (see
SARIF_SCHEMA.md) and checked by hand where code-scanning services rely on it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from satchel import __version__
from satchel.audit import RULES, audit_path, to_sarif

from .hostile import build

SCHEMA = json.loads(
    (Path(__file__).parent / "sarif-2.1.0-rtm.5.schema.json").read_text(encoding="utf-8")
)


def validate(doc: dict) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    # What the OASIS text requires and dashboards read, checked by hand too:
    assert doc["version"] == "2.1.0"
    assert doc["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    [run] = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "satchel"
    rules = [r["id"] for r in driver["rules"]]
    assert rules == list(RULES)
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        assert result["message"]["text"]
        for location in result.get("locations", []):
            artifact = location["physicalLocation"]["artifactLocation"]
            assert not artifact["uri"].startswith("/")


def test_every_rule_fires_on_the_hostile_workspace_and_the_log_is_valid(tmp_path):
    project, home, _ = build(tmp_path)
    from satchel.audit import Limits

    report = audit_path(project, home=home, limits=Limits(max_files=3))
    assert {f.rule for f in report.findings} == set(RULES)
    doc = json.loads(json.dumps(to_sarif(report, version=__version__, base=tmp_path)))
    validate(doc)


def test_levels_scores_and_properties_follow_the_severity(tmp_path):
    project, home, _ = build(tmp_path)
    report = audit_path(project, home=home)
    doc = to_sarif(report, version="9.9.9", base=tmp_path)
    run = doc["runs"][0]
    assert run["tool"]["driver"]["semanticVersion"] == "9.9.9"
    by_rule = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    levels = {"high": ("error", "8.0"), "medium": ("warning", "5.0"), "low": ("note", "2.0")}
    for rule in RULES.values():
        entry = by_rule[rule.id]
        level, score = levels[rule.severity]
        assert entry["defaultConfiguration"]["level"] == level
        assert entry["properties"]["security-severity"] == score
        assert ("heuristic" in entry["properties"]["tags"]) == rule.heuristic
    results = run["results"]
    assert len(results) == len(report.findings)
    for finding, result in zip(report.findings, results, strict=True):
        assert result["level"] == levels[finding.severity][0]
        assert result["properties"]["trustNeeded"] == finding.trust_needed
        assert result["properties"]["heuristic"] == finding.heuristic


def test_paths_outside_the_base_are_file_uris(tmp_path):
    project, home, _ = build(tmp_path)
    report = audit_path(project, home=home)
    doc = to_sarif(report, version="0", base=project)
    uris = [
        loc["physicalLocation"]["artifactLocation"]
        for r in doc["runs"][0]["results"]
        for loc in r.get("locations", [])
    ]
    assert {"uri": (home / ".claude" / "agents" / "wild.md").as_uri()} in uris
    assert {"uri": ".claude/settings.json", "uriBaseId": "%SRCROOT%"} in uris
    validate(json.loads(json.dumps(doc)))


def test_the_example_golden_is_valid_sarif():
    golden = Path(__file__).parent / "golden" / "audit-workspace.sarif"
    validate(json.loads(golden.read_text(encoding="utf-8")))

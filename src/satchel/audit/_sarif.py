"""A `Report` as SARIF 2.1.0, the format code-scanning dashboards read.

One run, one rule per `RULES` entry (so rule indexes are stable), one result per
finding. Paths under `base` (the current directory) are relative URIs with the
``%SRCROOT%`` base id, as code-scanning services expect; others are ``file://`` URIs.
Severity maps to SARIF's level (high: error, medium: warning, low: note) and to a
``security-severity`` score (8.0, 5.0, 2.0). Each result's properties carry
satchel's own severity, the trust state it needs and whether it is a heuristic.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from satchel.audit._model import RULES, TRUST_STATES, Finding, Report

__all__ = ["SARIF_SCHEMA", "SARIF_VERSION", "locations", "to_sarif"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"high": "error", "medium": "warning", "low": "note"}
SCORE = {"high": "8.0", "medium": "5.0", "low": "2.0"}
_INDEX = {rule: i for i, rule in enumerate(RULES)}


def to_sarif(report: Report, *, version: str, base: Path) -> dict[str, Any]:
    """The SARIF log of `report`; `version` is satchel's, `base` the directory that
    relative URIs are relative to."""
    driver = {
        "name": "satchel",
        "semanticVersion": version,
        "rules": [_rule(rule_id) for rule_id in RULES],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {"driver": driver},
                "results": [_result(f, base) for f in report.findings],
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


def _rule(rule_id: str) -> dict[str, Any]:
    rule = RULES[rule_id]
    tags = ["security", "heuristic" if rule.heuristic else "structural"]
    return {
        "id": rule.id,
        "name": "".join(w.capitalize() for w in rule.id.lower().split("-")[1:]),
        "shortDescription": {"text": rule.title},
        "help": {"text": f"See {rule.id} in docs/audit.md of satchel."},
        "defaultConfiguration": {"level": LEVEL[rule.severity]},
        "properties": {"security-severity": SCORE[rule.severity], "tags": tags},
    }


def _result(finding: Finding, base: Path) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": _INDEX[finding.rule],
        "level": LEVEL[finding.severity],
        "message": {"text": finding.message},
        "properties": {
            "severity": finding.severity,
            "trustNeeded": finding.trust_needed,
            "trustNeededText": TRUST_STATES.get(finding.trust_needed, finding.trust_needed),
            "heuristic": finding.heuristic,
        },
    }
    if finding.path is not None:
        result["locations"] = locations(finding.path, finding.line, base)
    return result


def locations(path: Path, line: int | None, base: Path) -> list[dict[str, Any]]:
    """A result's ``locations``: `path` (relative to `base` when inside it) and `line`."""
    physical: dict[str, Any] = {"artifactLocation": artifact(path, base)}
    if line is not None:
        physical["region"] = {"startLine": line}
    return [{"physicalLocation": physical}]


def artifact(path: Path, base: Path) -> dict[str, str]:
    try:
        relative = Path(path).relative_to(base)
    except ValueError:
        return {"uri": Path(os.path.abspath(path)).as_uri()}
    return {"uri": relative.as_posix(), "uriBaseId": "%SRCROOT%"}

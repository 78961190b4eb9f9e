"""A `MachineReport` as SARIF 2.1.0, as ``satchel audit --format sarif`` writes its
own: one run, one rule per finding code in the report (sorted, so rule indexes are
stable for one report), one result per finding. A finding's level is its severity
(error, warning; info is SARIF's ``note``); its properties carry the host and the
fix line. Paths in a message or fix are written as the report writes them (`Machine.said`);
a location's path under `base` is a relative ``%SRCROOT%`` URI, others ``file://``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from satchel.audit._sarif import SARIF_SCHEMA, SARIF_VERSION, locations
from satchel.core.diagnostics import CODES
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._report import MachineReport

__all__ = ["to_sarif"]

LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def to_sarif(report: MachineReport, *, version: str, base: Path) -> dict[str, Any]:
    """The SARIF log of `report`; `version` is satchel's, `base` the directory that
    relative URIs are relative to."""
    codes = sorted({f.code for f in report.findings})
    index = {code: i for i, code in enumerate(codes)}
    driver = {"name": "satchel", "semanticVersion": version, "rules": [_rule(c) for c in codes]}
    said = report.machine.said
    results = [_result(f, index[f.code], base, said) for f in report.findings]
    run = {"tool": {"driver": driver}, "results": results, "columnKind": "unicodeCodePoints"}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _rule(code: str) -> dict[str, Any]:
    entry = CODES[code]
    return {
        "id": code,
        "shortDescription": {"text": entry.meaning},
        "help": {"text": f"See {code} in docs/diagnostics.md of satchel."},
        "defaultConfiguration": {"level": LEVEL[entry.severity]},
    }


def _result(
    finding: HostFinding, rule: int, base: Path, said: Callable[[str], str]
) -> dict[str, Any]:
    message, fix = finding.told(said)
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule,
        "level": LEVEL[finding.severity],
        "message": {"text": f"{message} (fix: {fix})"},
        "properties": {"host": finding.host, "severity": finding.severity, "fix": fix},
    }
    if finding.path is not None:
        result["locations"] = locations(finding.path, finding.line, base)
    return result

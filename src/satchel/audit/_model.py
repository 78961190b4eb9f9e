"""What an audit reports: `Finding` values, the `RULES` that name them, a `Report`.

A finding is not a diagnostic: nothing is wrong with the file, but it holds something
that can run, reach a network, or steer a model, and a person should know before they
trust it. Each rule has one stable id and one fixed severity (``high``, ``medium``,
``low``). Structural rules are exact; heuristic rules read prose, can be wrong either
way, and are never above ``medium``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.foundations.policy._model import Policy

__all__ = [
    "LEVELS",
    "RULES",
    "TRUST_STATES",
    "Finding",
    "Report",
    "Rule",
    "Severity",
    "at_least",
]

Severity = Literal["high", "medium", "low"]
LEVELS: tuple[Severity, ...] = ("high", "medium", "low")

# What it takes for a finding to run (or, for text, to reach the model):
TRUST_STATES = MappingProxyType(
    {
        "none": "nothing: it is the user's or the host's own configuration",
        "trusted-project": "the project folder trusted (`satchel trust` or --trust)",
        "trusted-source": "its source trusted: a trusted project, or installed by the user",
        "loaded": "nothing: it is there once the skill, plugin, agent or instruction file loads",
    }
)


@model
class Rule:
    """One audit rule: its id, fixed severity, a one-line title and whether it is a
    text heuristic."""

    id: str
    severity: Severity
    title: str
    heuristic: bool = False


def _rules(*rules: Rule) -> Mapping[str, Rule]:
    return MappingProxyType({rule.id: rule for rule in rules})


RULES = _rules(
    Rule("A-HOOK-PRESENT", "medium", "A hook runs a command when its event fires"),
    Rule("A-MCP-SERVER", "medium", "An MCP server starts a local command"),
    Rule("A-MCP-REMOTE-URL", "medium", "An MCP server talks to a remote URL"),
    Rule("A-MCP-UNPINNED-PACKAGE", "high", "An MCP server runs a package without an exact version"),
    Rule("A-MCP-ENV-DANGEROUS", "high", "An MCP server sets a variable that loads code"),
    Rule("A-MCP-SHELL-WRAPPER", "medium", "An MCP server's command is a shell given a script"),
    Rule("A-PLUGIN-JS", "medium", "A plugin ships JavaScript its host runs (satchel never does)"),
    Rule("A-LSP-SERVER", "medium", "A plugin's language server starts a local command"),
    Rule("A-MONITOR", "medium", "A plugin monitor runs a shell command in the background"),
    Rule("A-MCP-HEADERS-HELPER", "medium", "An MCP server runs a command for its headers"),
    Rule("A-STATUS-LINE", "medium", "A plugin's settings run a status line command"),
    Rule("A-OPTION-DEFAULT", "low", "A server runs with a plugin option's default value"),
    Rule("A-PLUGIN-BIN", "low", "A plugin puts programs first on the shell tool's PATH"),
    Rule("A-EXEC-SHELL-INTERP", "medium", "A skill body runs a shell command when invoked"),
    Rule("A-EXEC-SCRIPTS", "low", "A skill ships a script the model can ask to run"),
    Rule("A-EXEC-OPAQUE-BINARY", "medium", "A compiled or binary file no reviewer can read"),
    Rule("A-TXT-HIDDEN-UNICODE", "high", "Invisible or control characters in text"),
    Rule("A-TXT-BIDI", "high", "Bidirectional controls that reorder what a reader sees"),
    Rule("A-TXT-FAKE-MARKER", "low", "Text that imitates a runtime truncation marker"),
    Rule("A-RES-SYMLINK-ESCAPE", "high", "A symlink that leads out of its root"),
    Rule("A-SIZE-TREE", "low", "A tree larger than the audit limits"),
    Rule("A-ALLOWED-TOOLS-BROAD", "medium", "allowed-tools grants any shell command"),
    Rule("A-AGENT-YOLO", "high", "An agent type approves every tool call"),
    Rule("A-AGENT-DESTRUCTIVE", "medium", "An agent type may run destructive tools unasked"),
    Rule(
        "A-TXT-INSTRUCTION-OVERRIDE",
        "medium",
        "Prose that tells the model to ignore its instructions",
        heuristic=True,
    ),
    Rule(
        "A-TXT-CONCEALMENT",
        "medium",
        "Prose that tells the model to hide something from the user",
        heuristic=True,
    ),
    Rule("A-TXT-EXFILTRATION", "medium", "Prose that sends data to a URL", heuristic=True),
    Rule(
        "A-TXT-PIPE-TO-SHELL",
        "medium",
        "Prose that downloads a script into a shell",
        heuristic=True,
    ),
    Rule("A-LOAD-REFUSED", "medium", "An executable entry the loader refused"),
    Rule("A-LOAD-HELD-BACK", "low", "A plugin, hook or MCP server that loads but is held back"),
    Rule("A-AGENT-TOOLS-BROAD", "medium", "An agent type's tool list grants any shell command"),
)


@model
class Finding:
    """One risky construct: the rule, its severity (the rule's), an exact message,
    the file and 1-based line where known, the trust state it needs to run (a key of
    `TRUST_STATES`) and whether it comes from a heuristic."""

    rule: str
    severity: Severity
    message: str
    path: Path | None
    line: int | None
    trust_needed: str
    heuristic: bool = False

    @classmethod
    def of(
        cls, rule: str, message: str, path: Path | None, line: int | None, trust: str
    ) -> Finding:
        """A finding of `rule`, with the rule's severity and heuristic flag."""
        known = RULES[rule]
        return cls(rule, known.severity, message, path, line, trust, known.heuristic)

    def sort_key(self) -> tuple[int, str, int, str, str]:
        return (
            LEVELS.index(self.severity),
            "" if self.path is None else str(self.path),
            self.line or 0,
            self.rule,
            self.message,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "path": None if self.path is None else str(self.path),
            "line": self.line,
            "trust_needed": self.trust_needed,
            "heuristic": self.heuristic,
        }


@model
class Report:
    """Everything one audit found: what was audited (`target`, and its `kind`:
    ``skill``, ``skills``, ``plugin``, ``plugins``, ``workspace`` or ``file``), the
    findings in order (most severe first, then by path and line) and how many load
    errors and warnings there were (`satchel doctor` and `satchel validate` show them).
    A file that does not load is audited as far as its text and tree go; an entry the
    loader refused (a plugin's MCP server that sets ``LD_PRELOAD``, say) never runs,
    and is an `A-LOAD-REFUSED` finding carrying the refusal. `policy` is the
    organisation's policy in force where the audit ran (docs/policy.md)."""

    target: Path
    kind: str
    findings: tuple[Finding, ...]
    diagnostics: int = 0
    policy: Policy = field(default_factory=Policy)

    def counts(self) -> dict[str, int]:
        return {level: sum(f.severity == level for f in self.findings) for level in LEVELS}

    def to_json(self) -> dict[str, Any]:
        return {
            "target": str(self.target),
            "kind": self.kind,
            "counts": self.counts(),
            "findings": [f.to_json() for f in self.findings],
            "diagnostics": self.diagnostics,
            "policy": self.policy.to_json(),
        }


def at_least(severity: Severity, threshold: Severity) -> bool:
    """Whether `severity` is `threshold` or above."""
    return LEVELS.index(severity) <= LEVELS.index(threshold)

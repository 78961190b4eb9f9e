"""The audit of a change: what a new version of a skill or plugin can do that the
installed one could not.

`delta(old, new)` compares two `Report` values finding by finding. A finding is
matched by its rule, its file relative to the tree's root, and its message with the
parts that only move (a column, the root's own name) left out; never by line numbers,
which shift when anything above them changes. Findings are counted, so a second
``U+200B`` in a file that had one is new. Each finding the new tree has beyond the old
is a `NewRisk`, named for what it is (``new hook``, ``new MCP server``, ``new remote
host``, ``new script``, ``new hidden characters``, ...).

Scripts (`satchel.audit._scripts`: files with an exec bit or below ``scripts/``) are
compared by path and bytes: one added is a ``new script``, one whose bytes changed a
``changed script`` (a hook running it reads the same whatever it now does); each is
``low``, and is left out where a finding about that file is new already.

`allowed-tools` and agent tool lists are compared rule by rule
(`satchel.foundations.permissions.covers`): a rule of the new list that no rule of the old one
covers broadens it (``Bash(git:*)`` -> ``Bash(*)``, or a tool added). When a rule
cannot be compared it counts as broader.

`audit_change(old_dir, new_dir)` audits both trees (running nothing) and returns the
`Delta`. A tree that is not there audits as empty, so all of the other is new.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from satchel.audit._grants import Grant, grants_of
from satchel.audit._model import LEVELS, Finding, Report, Severity, at_least
from satchel.audit._scan import audit_path
from satchel.audit._scripts import scripts_of
from satchel.audit._tree import Limits
from satchel.core._model import model
from satchel.core._text import escape
from satchel.foundations.permissions import Rule, covers, parse_rule

__all__ = ["BROADENED", "WHAT", "Delta", "NewRisk", "audit_change", "delta"]

BROADENED = {"skill": "allowed-tools broadened", "agent type": "agent tools broadened"}
WHAT = {
    "A-HOOK-PRESENT": "new hook",
    "A-MCP-SERVER": "new MCP server",
    "A-MCP-REMOTE-URL": "new remote host",
    "A-MCP-UNPINNED-PACKAGE": "new unpinned package",
    "A-MCP-ENV-DANGEROUS": "new loader variable",
    "A-MCP-SHELL-WRAPPER": "new shell wrapper",
    "A-EXEC-SHELL-INTERP": "new shell command",
    "A-EXEC-SCRIPTS": "new script",
    "A-EXEC-OPAQUE-BINARY": "new executable",
    "A-TXT-HIDDEN-UNICODE": "new hidden characters",
    "A-TXT-BIDI": "new bidirectional controls",
    "A-RES-SYMLINK-ESCAPE": "new symlink out of the tree",
    "A-ALLOWED-TOOLS-BROAD": "new broad allowed-tools",
    "A-AGENT-TOOLS-BROAD": "new broad agent tools",
}
_MOVES = (re.compile(r" at column \d+"), re.compile(r", outside [^,]*/\Z"))
_SHELLS = frozenset(("Bash", "PowerShell", "*"))


@model
class NewRisk:
    """One thing the new tree can do that the old could not: `what` it is, its
    severity, an exact message, the file relative to the tree's root (POSIX, None when
    the finding has none) and line in the new tree, and the audit `rule` (None for a
    broadened tool list, which is no single finding)."""

    what: str
    severity: Severity
    message: str
    path: str | None
    line: int | None
    rule: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "what": self.what,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "line": self.line,
        }


@model
class Delta:
    """The new risk of `new` over `old` (most severe first), and how many of the old
    tree's findings the new one no longer has (`gone`)."""

    old: Path
    new: Path
    risks: tuple[NewRisk, ...]
    gone: int = 0

    def at_least(self, threshold: Severity) -> tuple[NewRisk, ...]:
        """The new risks at `threshold` or above."""
        return tuple(r for r in self.risks if at_least(r.severity, threshold))

    def to_json(self) -> dict[str, Any]:
        return {
            "new_risk": [r.to_json() for r in self.risks],
            "counts": {level: sum(r.severity == level for r in self.risks) for level in LEVELS},
            "gone": self.gone,
        }


def audit_change(old_dir: Path, new_dir: Path, *, limits: Limits | None = None) -> Delta:
    """Audit the tree installed at `old_dir` and its new version at `new_dir` (a
    skill or a plugin), and return what is new."""
    return delta(
        _audit(old_dir, limits),
        _audit(new_dir, limits),
        grants=(grants_of(old_dir), grants_of(new_dir)),
        scripts=(scripts_of(old_dir, limits), scripts_of(new_dir, limits)),
    )


def delta(
    old: Report,
    new: Report,
    *,
    grants: tuple[Mapping[str, Grant], Mapping[str, Grant]] | None = None,
    scripts: tuple[Mapping[str, str], Mapping[str, str]] | None = None,
) -> Delta:
    """What `new` holds beyond `old` (see the module); `grants` (`grants_of`) and
    `scripts` (`scripts_of`) of the old and the new tree are compared when given."""
    before = Counter(_key(f, old.target) for f in old.findings)
    left = before.copy()
    risks: list[NewRisk] = []
    for finding in new.findings:
        key = _key(finding, new.target)
        if left[key] > 0:
            left[key] -= 1
            continue
        what = WHAT.get(finding.rule, "new finding")
        path = _relative(finding.path, new.target)
        risks.append(
            NewRisk(what, finding.severity, finding.message, path, finding.line, finding.rule)
        )
    if scripts is not None:
        named = {r.path for r in risks}
        risks += (r for r in _scripts(*scripts) if r.path not in named)
    if grants is not None:
        risks += _broadened(*grants, new.target)
    ordered = sorted(risks, key=lambda r: (LEVELS.index(r.severity), r.path or "", r.what))
    return Delta(old.target, new.target, tuple(ordered), sum(left.values()))


def _audit(root: Path, limits: Limits | None) -> Report:
    if not os.path.isdir(root):
        return Report(Path(os.path.abspath(root)), "missing", ())
    return audit_path(root, limits=limits)


def _key(finding: Finding, root: Path) -> tuple[str, str | None, str]:
    message = finding.message.replace(str(root), "")
    for moving in _MOVES:
        message = moving.sub("", message)
    return finding.rule, _relative(finding.path, root), message


def _relative(path: Path | None, root: Path) -> str | None:
    if path is None:
        return None
    if path == root or path.is_relative_to(root):
        return path.relative_to(root).as_posix() if path != root else "."
    return str(path)


def _scripts(old: Mapping[str, str], new: Mapping[str, str]) -> Iterator[NewRisk]:
    for rel, digest in sorted(new.items()):
        shown = escape(rel, newlines=True)
        if rel not in old:
            yield NewRisk("new script", "low", f"{shown} is a new script", rel, None, None)
        elif old[rel] != digest:
            message = f"{shown} changed since the installed version"
            yield NewRisk("changed script", "low", message, rel, None, None)


def _broadened(old: Mapping[str, Grant], new: Mapping[str, Grant], root: Path) -> Iterator[NewRisk]:
    for owner, grant in sorted(new.items()):
        before = old.get(owner)
        was = () if before is None else before.rules
        if was is None:
            continue  # it had every tool of its session: nothing can be broader
        added = _uncovered(was, grant.rules)
        if not added:
            continue
        shell = grant.rules is None or any(_rule_tool(r) in _SHELLS for r in added)
        message = f"{escape(owner, newlines=True)}: {_listed(was)} -> {_listed(grant.rules)}"
        path = _relative(grant.path, root)
        what = BROADENED[grant.kind]
        yield NewRisk(what, "medium" if shell else "low", message, path, None, None)


def _uncovered(old: Iterable[str], new: tuple[str, ...] | None) -> tuple[str, ...]:
    """The rules of `new` no rule of `old` covers (None, every tool: ``*``)."""
    wide = [r for r in map(_parsed, old) if r is not None]
    if new is None:
        return ("*",) if not any(r.tool == "*" and r.specifier is None for r in wide) else ()
    out = []
    for text in new:
        rule = _parsed(text)
        if rule is None or not any(covers(w, rule) for w in wide):
            out.append(text)
    return tuple(out)


def _parsed(text: str) -> Rule | None:
    try:
        return parse_rule(text)
    except ValueError:
        return None


def _rule_tool(text: str) -> str:
    rule = _parsed(text)
    return text.strip() if rule is None else rule.tool


def _listed(rules: tuple[str, ...] | None) -> str:
    if rules is None:
        return "(every tool)"
    return escape(", ".join(rules), newlines=True) if rules else "(none)"

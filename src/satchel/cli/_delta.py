"""The audit of every change, as `install`, `update` and `diff` show it: a review
that audits the installed tree and its new version (`satchel.audit.audit_change`),
keeps each `Delta`, and refuses when ``--fail-on-new`` says so; and how deltas print."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import click

from satchel.audit import LEVELS
from satchel.audit._delta import Delta, NewRisk, audit_change
from satchel.audit._model import Severity
from satchel.cli import _install as inst
from satchel.cli import _output as out
from satchel.cli._exit import PROBLEMS
from satchel.cli._params import Choice
from satchel.install._errors import InstallError
from satchel.install._review import Reviewed

__all__ = ["NO_DELTA", "Reviewer", "fail_on_new_option", "print_delta", "refused", "risk_line"]

# an unchanged tree's delta, as --json shows it
NO_DELTA: dict[str, Any] = {"new_risk": [], "counts": dict.fromkeys(LEVELS, 0), "gone": 0}


def fail_on_new_option() -> click.Option:
    return click.Option(
        ["--fail-on-new"],
        type=Choice(LEVELS),
        default=None,
        metavar="SEVERITY",
        help=(
            "Exit 1, installing and replacing nothing, when a new version has new risk "
            "at SEVERITY (high, medium, low) or above."
        ),
    )


@dataclass(slots=True)
class Reviewer:
    """A `satchel.install` review: audits each tree and its new version, keeps the
    delta by name, and answers False when a new risk is at `threshold` or above."""

    threshold: str | None = None
    deltas: dict[tuple[str, str], Delta] = field(default_factory=dict)

    def __call__(self, item: Reviewed) -> bool:
        found = audit_change(item.old, item.new)
        self.deltas[item.kind, item.name] = found
        return self.threshold is None or not found.at_least(cast(Severity, self.threshold))

    def get(self, kind: str, name: str) -> Delta | None:
        return self.deltas.get((kind, name))

    def to_json(self, kind: str, name: str) -> dict[str, Any] | None:
        found = self.deltas.get((kind, name))
        return None if found is None else found.to_json()


def print_delta(found: Delta | None, indent: str = "  ") -> None:
    """The new risk of one item, one line each, or that there is none."""
    gone = "" if found is None or not found.gone else f" ({out.count(found.gone, 'finding')} gone)"
    if found is None or not found.risks:
        out.say(f"{indent}no new risk{gone}")
        return
    counts = ", ".join(
        f"{n} {level}" for level in LEVELS if (n := sum(r.severity == level for r in found.risks))
    )
    out.say(f"{indent}{out.count(len(found.risks), 'new risk')} ({counts}){gone}:")
    for risk in found.risks:
        out.say(f"{indent}  {risk_line(risk)}")


def risk_line(risk: NewRisk) -> str:
    """``[high] new hidden characters: <message> (skills/x/SKILL.md:5)``."""
    where = "" if risk.path is None else risk.path + ("" if risk.line is None else f":{risk.line}")
    return f"[{risk.severity}] {risk.what}: {risk.message}" + (f" ({where})" if where else "")


def refused(e: InstallError, reviewer: Reviewer, *, as_json: bool) -> int:
    """Report a refusal; for ``install.review.refused``, with the new risk that made it."""
    if e.diagnostic.code != "install.review.refused":
        return inst.refused(e, as_json=as_json)
    if as_json:
        d = e.diagnostic
        refusal = {"code": d.code, "message": d.message, "suggestions": []}
        rows = [
            {"name": name, "kind": kind, "delta": found.to_json()}
            for (kind, name), found in reviewer.deltas.items()
        ]
        out.print_json({"error": refusal, "deltas": rows, "fail_on_new": reviewer.threshold}, [d])
        return PROBLEMS
    for (_, name), found in reviewer.deltas.items():
        out.say(f"{name}: the new version was not installed")
        print_delta(found)
    return inst.refused(e, as_json=False)

"""The skills each host's listing will shorten, list by name only or leave out, at the
model it runs (its default, or ``--model``), with the budget that listing used.

A host whose profile names a listing style with a budget (`satchel.hosts.Index`:
Claude Code's, Codex's) lists the skills that load as a session starts in its own
way (`host_index`, the one function ``satchel doctor`` builds its index with too);
each skill that listing changes for a bound is one finding
(``hosts.listing.shortened``, ``hosts.listing.name-only``, ``hosts.listing.dropped``)
whose message says what the whole listing weighs against the budget. A host whose
listing has no budget (Gemini CLI) gives none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from satchel.index._render import Index, IndexEntry
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._machine import HostView, Machine

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.hosts import Host
    from satchel.skills._model import Skill

__all__ = ["host_index", "listing_findings"]

CODES = {
    "shortened": "hosts.listing.shortened",
    "name-only": "hosts.listing.name-only",
    "omitted": "hosts.listing.dropped",
}
WHAT = {
    "shortened": "is shortened in",
    "name-only": "is listed by name only in",
    "omitted": "is left out of",
}
COUNTED = {"shortened": "shortened", "name-only": "listed by name only", "omitted": "left out"}


def host_index(env: Environment, skills: Mapping[str, Skill] | None = None) -> Index | None:
    """The host's own listing of `skills` [those listed as a session starts: a
    conditional skill waits for its file] under a profile that has one (Claude Code's,
    Codex's, Gemini CLI's), within the budget that host applies for its model
    (`Options.model`, else its default), else None."""
    host = env.host
    if host is None or host.index.style is None:
        return None
    from satchel.assembly.listings._listing import (  # under a host profile
        host_listing,
        style_budget,
    )
    from satchel.session._conditional import Conditional

    listed = Conditional(env).skills() if skills is None else skills
    return host_listing(
        host,
        listed.values(),
        budget=style_budget(host.index.style, env.index_budget(), env.options.model),
        commands=env.commands.commands.values(),
        overrides=env.skill_overrides,
        known=env.skills,
        model=env.options.model,
        usage=env.listing.usage,
    )


def listing_findings(machine: Machine) -> Iterator[HostFinding]:
    """For each host whose listing has a budget, one finding per skill that listing
    shortens, lists by name only or leaves out for a bound."""
    for view in machine.views:
        if view.host.index.overflow == "none":
            continue
        index = host_index(view.env)
        if index is None:
            continue
        cut = [e for e in index.entries if e.diagnostic() is not None]
        weighed = _weighed(index, view, machine, cut)
        for entry in cut:
            yield _finding(view, entry, weighed)


def _weighed(index: Index, view: HostView, machine: Machine, cut: list[IndexEntry]) -> str:
    """What the listing costs against its budget, at the host's model, and how many
    skills each outcome took: ``the listing would need 48,210 of its 30,000 characters
    at claude-opus-5-5 (27 skills listed by name only)``."""
    model = view.host.model(view.model).model or "its default model"
    counts = [
        f"{n} {'skill' if n == 1 else 'skills'} {COUNTED[state]}"
        for state in COUNTED
        if (n := sum(e.state == state for e in cut))
    ]
    if index.cost is None or index.allowed is None:
        return f"at {model} ({', '.join(counts)})"
    # the cost is the whole listing's, before the host cut it: over the budget, it is
    # what the listing would need, not what it uses
    verb = "would need" if index.cost > index.allowed else "uses"
    return (
        f"the listing {verb} {index.cost:,} of its {index.allowed:,} {index.unit} at {model} "
        f"({', '.join(counts)})"
    )


def _finding(view: HostView, entry: IndexEntry, weighed: str) -> HostFinding:
    name = entry.skill.name
    message = f"skill {name} {WHAT[entry.state]} {view.host.title}'s listing: "
    if entry.state == "shortened":
        why = "the most one keeps" if entry.cap == "description" else "to fit the budget"
        message += f"its description is cut from {entry.was:,} to {entry.now:,} characters, {why}; "
    message += weighed
    return HostFinding.new(
        view.name, CODES[entry.state], message, _fix(view.host, entry), entry.skill.path
    )


def _fix(host: Host, entry: IndexEntry) -> str:
    """What to do: shorten the description to the host's length (or raise the host's
    setting for it); for the budget, shorter descriptions, fewer skills, or the
    host's budget setting."""
    index = host.index
    if entry.cap == "description":
        fix = f"shorten its description to at most {entry.limit:,} characters"
        setting = index.description_setting
    elif entry.state == "omitted":  # the names alone are over the budget
        fix = "disable the skills you do not use, or give them shorter names"
        setting = index.budget_setting
    else:
        fix = "shorten the skills' descriptions or disable the skills you do not use"
        setting = index.budget_setting
    return f"{fix}, or raise {setting}" if setting else fix

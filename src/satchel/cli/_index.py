"""`satchel index`'s work below the verb: the budget the options and the host's style
allow, the listing built within it, the load's problems that concern it, and the JSON
document that reports it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import click

from satchel.assembly._environment import Environment
from satchel.cli._explain import entries_json
from satchel.cli._held import UNTRUSTED
from satchel.core.diagnostics import Diagnostic
from satchel.foundations.tokens import token_bill
from satchel.index._budget import Budget
from satchel.index._render import Index, IndexFormat, build_index
from satchel.skills._model import Skill

__all__ = ["budget", "build", "document", "listing_problems", "say", "shown"]

OPTIONS = {
    "skills": "--max-skills",
    "bytes": "--max-bytes",
    "chars": "--budget-chars",
    "tokens": "--budget-tokens",
}
"""The option that sets each bound of the budget."""
LISTING_FAMILIES = frozenset(
    {"skill", "frontmatter", "encoding", "discovery", "config", "host", "policy", "trust"}
)
"""The families of the load's problems that can change what the index lists: a skill
that did not load, a setting ignored, a host's managed lock, a policy or trust refusal;
with ``plugin`` (a plugin's skills) and, under a listing that places commands (Claude
Code's), ``command``."""


def budget(env: Environment, style: str | None, given: Mapping[str, int | None]) -> Budget:
    """The budget the index is built within: the profile's for the model asked for,
    each bound `given` (by `Budget` field) in its place. Under a host's own listing
    (`style`) only the bounds that host has are taken; another one is a usage error
    naming the option and why, and the budget is the one the host applies."""
    bounds = {k: v for k, v in given.items() if v is not None}
    base = replace(env.index_budget(), **bounds)
    if style is None:
        return base
    from satchel.assembly.listings._listing import style_budget  # only under a host profile

    index = env.host.index if env.host is not None else None
    taken, why = (index.bounds, index.bounds_why) if index is not None else (frozenset(), "")
    for name in bounds:
        if name not in taken:
            raise click.BadParameter(
                f"{why}; it has no such bound. Use --format tool for satchel's own "
                "index, which takes it.",
                param_hint=f"'{OPTIONS[name]}' under --host {env.host.name if env.host else style}",
            )
    return style_budget(style, base, env.options.model)


def build(
    env: Environment,
    skills: Sequence[Skill],
    style: str | None,
    overrides: Mapping[str, object],
    index_format: IndexFormat | None,
    tool_name: str,
    within: Budget,
) -> Index:
    """The index of `skills` within `within`: the host's own listing under a `style`,
    else satchel's in `index_format` (``tool`` by default)."""
    if style is not None and env.host is not None:
        from satchel.assembly.listings._listing import host_listing  # only under a host profile

        found = host_listing(
            env.host,
            skills,
            budget=within,
            commands=env.commands.commands.values(),
            overrides=overrides,
            known=env.skills,
            model=env.options.model,
            shadowed=[s.loser for s in env.shadowed],
            usage=env.listing.usage,
        )
        if found is not None:
            return found
    return build_index(
        skills,
        format=index_format or "tool",
        tool_name=tool_name,
        budget=within,
        overrides=overrides,
        known=env.skills,
    )


def listing_problems(env: Environment, style: str | None) -> tuple[Diagnostic, ...]:
    """The load's problems that can change what the index lists (`LISTING_FAMILIES`,
    plugins', and commands' under a listing that lists commands), in the load's order;
    what an untrusted project holds back is said once, by `held_back`."""
    families = {*LISTING_FAMILIES, "plugin"}
    if style is not None and env.host is not None and env.host.index.lists_commands:
        families |= {"command"}
    return tuple(
        d
        for d in env.diagnostics
        if d.code.split(".", 1)[0] in families and d.code != UNTRUSTED  # said by held_back
    )


def document(
    env: Environment,
    built: Index,
    limits: Budget,
    shape: str,
    ending: str | None,
) -> dict[str, Any]:
    """The JSON document of an index: its project, format and text, size, the model
    whose window sized it (under a host profile), the budget applied, each entry and
    the search line it ends with."""
    text = built.text
    found: dict[str, Any] = {"project": str(env.layout.project), "format": shape, "text": text}
    if env.host is not None:  # the model whose window sized the budget
        resolved = env.host.model(env.options.model)
        found["model"] = {
            "id": resolved.model,
            "window": resolved.window.tokens,
            "chars_per_token": resolved.window.chars_per_token,
            "known": resolved.known,
        }
    found["bytes"] = len(text.encode("utf-8"))
    found["tokens"] = token_bill({"skills": text})["skills"]
    found["budget"] = limits.to_json()
    found["entries"] = entries_json(built)
    found["search_line"] = ending
    return found


def shown(problems: Iterable[Diagnostic], built: Index) -> tuple[Diagnostic, ...]:
    """The problems to report with the index: the load's and the listing's, once each."""
    return tuple(dict.fromkeys((*problems, *built.diagnostics)))


def say(found: Sequence[Diagnostic], built: Index) -> None:
    """Report `found` on stderr, the index's text alone on stdout: in full, the
    listing's own problems (``skill.index.*``, an override), a setting ignored
    (``config.invalid``) and the host's (``host.*``: a managed lock, a model it does
    not know), which size or shape the listing; the skills' other load problems
    counted, with the `satchel doctor` that shows them, as `satchel list` counts them."""
    from satchel.cli import _output as out

    own = set(built.diagnostics)
    full = [d for d in found if d in own or d.code == "config.invalid" or _host(d)]
    rest = [d for d in found if d not in full]
    err = out.console(stderr=True)
    if full:
        err.print(out.diagnostic_grid(full))
    if rest:
        err.print(out.safe(out.see_doctor(rest, "what the index lists")), soft_wrap=True)


def _host(found: Diagnostic) -> bool:
    return found.code.startswith("host.")

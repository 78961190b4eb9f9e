"""The always-on context a host reads before any task, and the index budget of its
profile (`Host.index`).

The index is the host's own listing under a profile that has one (Claude Code's:
`satchel.hosts`), else satchel's own text (`satchel.index._render.render_index`, the
``tool`` format), for the skills the host loads and lists as a session starts (a
conditional skill, ``paths:``, waits for a matching file: `satchel.session`), uncut by
the budget, so its size says whether the host's budget holds it. Instruction files count
when they always apply (a conditional rule is read on demand). Tokens are
`satchel.foundations.tokens`' estimate. A budget given as a share of the context window
(`Index.fraction`: Claude Code 1%, Codex 2%) is taken of the window of the model asked
for (each host's default model when none is), counted as the host counts it
(`satchel.hosts.Host.budget`: Claude Code's ``claude-opus-5-5``, 1,000,000 tokens at 3
characters a token, gives 30,000 characters); the smaller of that and `Index.chars`
applies. The host's listing settings read with the project (Claude Code's
``skillListingBudgetFraction``) count.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.assembly.listings._listing import host_listing
from satchel.compat._model import Tokens
from satchel.foundations.tokens import Counter, approx_tokens
from satchel.hosts import Host
from satchel.index._budget import Budget, percent
from satchel.index._listing import ListingSettings
from satchel.index._render import model_visible, render_index
from satchel.session._conditional import Conditional
from satchel.skills._model import Skill

__all__ = ["CONTEXT_TOKENS", "UNCAPPED", "budget", "tokens"]

CONTEXT_TOKENS = 200_000
UNCAPPED = 1 << 40


def budget(
    host: Host, model: str | None = None, settings: ListingSettings | None = None
) -> tuple[int | None, str]:
    """The index budget in characters (None: none) under `host` for `model` (None:
    the host's default; `satchel.hosts.Host.budget`), and where it comes from."""
    index = host.index
    chars = host.budget(model, settings)[0].chars
    if chars is None:
        return None, "no budget"
    if index.fraction is not None and chars != index.chars:
        found = host.model(model)
        share = (
            index.fraction if settings is None or settings.fraction is None else settings.fraction
        )
        window = found.window
        name = found.model or "an unnamed model"
        return chars, (
            f"{percent(share)} of {name}'s {window.tokens:,}-token context window "
            f"at {window.chars_per_token} characters a token"
        )
    return chars, f"{chars:,} characters"


def _uncut(host: Host, env: Environment, skills: Mapping[str, Skill], model: str | None) -> str:
    """The index of `skills` uncut by the budget: the host's own listing for `model`
    under a profile that has one (each description still cut to the host's length:
    `satchel.assembly.listings._listing.Listing.uncut`), else satchel's."""
    cap = host.budget(model, env.listing)[0].description
    found = host_listing(
        host,
        skills.values(),
        budget=Budget(description=cap),
        commands=env.commands.commands.values(),
        overrides=env.skill_overrides,
        known=env.skills,
        model=model,
        usage=env.listing.usage,
        uncut=True,
    )
    if found is not None:
        return found.text
    return render_index(skills, max_skills=UNCAPPED, max_bytes=UNCAPPED)


SCRATCH = "/tmp/satchel-compat"
"""What a scratch view's folder is measured as: a listing that names its paths
(Codex's roots table) costs the same on every machine."""


def tokens(
    host: Host,
    env: Environment,
    *,
    model: str | None = None,
    counter: Counter = approx_tokens,
    scratch: Path | None = None,
) -> tuple[Tokens, str]:
    """`env`'s always-on cost for `host` and `model`, and the index text it was
    measured on (`scratch`: the folder of the view `env` was loaded in, which the
    text names as `SCRATCH`)."""
    skills = Conditional(env).skills()  # as a session starts: no conditional skill yet
    text = _uncut(host, env, skills, model)
    if scratch is not None:
        text = text.replace(str(scratch), SCRATCH)
    listed = sum(1 for s in skills.values() if model_visible(s))
    chars, rule = budget(host, model, env.listing)
    entries = host.index.entries
    if entries is not None:
        rule = f"{rule}, {entries:,} skills" if chars is not None else f"{entries:,} skills"
    fits = (chars is None or len(text) <= chars) and (entries is None or listed <= entries)
    always = sum(counter(f.text) for f in env.instructions if f.always)
    found = Tokens(
        index=counter(text),
        index_chars=len(text),
        listed=listed,
        instructions=always,
        budget_chars=chars,
        budget_entries=entries,
        overflow=host.index.overflow,
        rule=rule,
        fits=fits,
    )
    return found, text

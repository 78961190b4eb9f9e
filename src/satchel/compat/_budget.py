"""The always-on context a host reads before any task, and the index budget of its
profile (`Host.index`).

The index is satchel's own text (`satchel._render.render_index`, the ``tool`` format)
for the skills the host loads, uncut, so its size says whether the host's budget
holds it; the host's own wording differs a little. Instruction files count when they
always apply (a conditional rule is read on demand). Tokens are `satchel.tokens`'
estimate. A budget given as a share of the context window (`Index.fraction`: Claude
Code 1%, Codex 2%) is taken of a `context` of 200,000 tokens at four characters a
token, which gives Claude Code's documented fallback of 8,000 characters; the
smaller of that and `Index.chars` applies.
"""

from __future__ import annotations

from satchel._environment import Environment
from satchel._render import model_visible, render_index
from satchel.compat._model import Tokens
from satchel.hosts import Host
from satchel.tokens import Counter, approx_tokens

__all__ = ["CONTEXT_TOKENS", "UNCAPPED", "budget", "tokens"]

CONTEXT_TOKENS = 200_000
UNCAPPED = 1 << 40


def budget(host: Host, context: int = CONTEXT_TOKENS) -> tuple[int | None, str]:
    """The index budget in characters (None: none), the profile's own
    (`satchel.hosts.Index.budget`), and where it comes from."""
    index = host.index
    chars = index.budget(context).chars
    if chars is None:
        return None, "no budget"
    if index.fraction is not None and chars != index.chars:
        return chars, f"{index.fraction:.0%} of a {context:,}-token context window"
    return chars, f"{chars:,} characters"


def tokens(
    host: Host, env: Environment, *, context: int = CONTEXT_TOKENS, counter: Counter = approx_tokens
) -> tuple[Tokens, str]:
    """`env`'s always-on cost for `host`, and the index text it was measured on."""
    text = render_index(env.skills, max_skills=UNCAPPED, max_bytes=UNCAPPED)
    listed = sum(1 for s in env.skills.values() if model_visible(s))
    chars, rule = budget(host, context)
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

"""Each host's own skill listing: the text a host sends its model, byte for byte.

A profile whose `Index.style` names a style lists skills as that host does (its
header, order, cut and marker) instead of satchel's own index; a profile without
one keeps satchel's index (`satchel.index._render.build_index`). A style is a pure
renderer: a function from a `Listing` (what loaded, in satchel's order, and the
budget the host's model gives) to a `satchel.index._render.Index`. The styles are looked
up by name in `STYLES` (module path of a ``render`` function), imported only when
used; a style module's ``applied(budget, model) -> Budget`` gives the budget it
applies (`style_budget`), and the host definition's `satchel.hosts.Index.bounds` the
bounds of a `satchel.index._budget.Budget` it takes from its caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field, replace
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, cast

from satchel.core._model import model
from satchel.index._budget import Budget
from satchel.index._render import Index, listing_description, model_visible
from satchel.kinds.commands._model import Command
from satchel.skills._model import Skill

if TYPE_CHECKING:
    from satchel.hosts._model import Host

__all__ = [
    "STYLES",
    "Listing",
    "Renderer",
    "host_listing",
    "renderer",
    "style_budget",
]

_NONE: Mapping[str, object] = MappingProxyType({})
_NONE_USED: Mapping[str, float] = MappingProxyType({})


@model
class Listing:
    """What a host's listing is made of: the model-visible candidates `skills` in
    satchel's precedence order (a conditional skill not yet matched is left out by
    the caller), the `commands` that loaded (a host that lists commands as skills
    places them), the `budget` (`Host.budget`), the listing `overrides` by name, the
    names `known` to have loaded (an override naming none of them is reported), and
    the `model` the budget was taken for. `uncut`: the listing as the host lays it
    out with no cut for the budget (each description still cut to the host's
    length), to measure it against the budget (`satchel compat`)."""

    skills: tuple[Skill, ...]
    budget: Budget
    commands: tuple[Command, ...] = ()
    overrides: Mapping[str, object] = field(default_factory=lambda: _NONE)
    known: frozenset[str] = frozenset()
    model: str | None = None
    shadowed: tuple[Skill, ...] = ()
    usage: Mapping[str, float] = field(default_factory=lambda: _NONE_USED)
    uncut: bool = False


Renderer = Callable[[Listing], Index]

STYLES: Mapping[str, str] = MappingProxyType(
    {
        "claude-code": "satchel.assembly.listings._listing_claude",
        "codex": "satchel.assembly.listings._listing_codex",
        "gemini": "satchel.assembly.listings._listing_gemini",
    }
)
"""Each style's module; the module's ``render(listing) -> Index`` renders it."""


def style_budget(style: str, budget: Budget, model: str | None = None) -> Budget:
    """The budget the listing `style` applies for `model` [the host's default], when
    its caller gives `budget` (`Host.budget`, with the bounds `Index.bounds` lets it set):
    the style module's ``applied(budget, model) -> Budget``."""
    module = STYLES.get(style)
    if module is None:
        raise ValueError(f"unknown listing style {style!r}")
    applied = cast("Callable[[Budget, str | None], Budget]", import_module(module).applied)
    return applied(budget, model)


def renderer(host: Host | str | None) -> Renderer | None:
    """The renderer of `host`'s listing style, or of the style of that name (None:
    satchel's own index)."""
    style = host if isinstance(host, str) or host is None else host.index.style
    if style is None:
        return None
    module = STYLES.get(style)
    if module is None:
        raise ValueError(f"unknown listing style {style!r}")
    return cast("Renderer", import_module(module).render)


def host_listing(
    host: Host | str | None,
    skills: Iterable[Skill],
    *,
    budget: Budget,
    commands: Iterable[Command] = (),
    overrides: Mapping[str, object] | None = None,
    known: Iterable[str] = (),
    model: str | None = None,
    shadowed: Iterable[Skill] = (),
    usage: Mapping[str, float] | None = None,
    uncut: bool = False,
) -> Index | None:
    """`host`'s own listing of `skills` (and `commands`, for a host that lists them),
    or None when its profile has no listing style (`host` a profile, or the name of
    a style); `uncut`: not cut for the budget (`Listing.uncut`)."""
    render = renderer(host)
    if render is None:
        return None
    given = tuple(skills)
    block = _served_block(given, overrides)
    listing = Listing(
        skills=given,
        budget=budget if block is None else budget.without("\n" + block[0]),
        commands=tuple(commands),
        overrides=MappingProxyType(dict(overrides or {})),
        known=frozenset((*known, *(s.name for s in given))),
        model=model,
        shadowed=tuple(shadowed),
        usage=MappingProxyType(dict(usage or {})),
        uncut=uncut,
    )
    index = render(listing)
    if block is None:
        return index
    served = [s for s in block[1] if s not in index.listed and s not in index.omitted]
    if not served:
        return render(replace(listing, budget=budget))
    text = index.text if not index.text or index.text.endswith("\n") else index.text + "\n"
    return replace(index, text=text + _served_text(served), listed=(*index.listed, *served))


_SERVED_HEAD = "Skills served by MCP servers (each is its server's, not a local file):\n"


def _served_block(
    skills: tuple[Skill, ...], overrides: Mapping[str, object] | None
) -> tuple[str, tuple[Skill, ...]] | None:
    """The block that lists the skills served over MCP (scope ``mcp``) the model may
    see, each tagged with its server, and those skills; None when there are none.

    A host's own listing knows nothing of skills a Skills-extension server serves, and
    some hosts' listings leave out every skill without a file (Codex, Gemini CLI): the
    block lists them after the host's listing, so that a served skill is never left
    out of the index silently, nor shown as a local one (the extension's *Security
    Considerations*: origin visible, never indistinguishable from a filesystem
    skill)."""
    off = {str(n) for n, v in (overrides or {}).items() if v == "off"}
    served = tuple(s for s in skills if s.scope == "mcp" and model_visible(s) and s.name not in off)
    if not served:
        return None
    return _served_text(served), served


def _served_text(skills: Iterable[Skill]) -> str:
    lines = (f"- {s.name}: {' '.join(listing_description(s).split())}" for s in skills)
    return _SERVED_HEAD + "".join(f"{line}\n" for line in lines)
